"""What one seat of Riga may see.

Public: the row of buildings and the commodity sets, the size of every pile,
every display (Auslage) with its used functions and faces, how many cards each
seat holds (commodities and buildings apart), which Riga buildings each seat
has still to erect, the project in progress (paid cards are laid out), the
setup reveal, and this year's events.  Private to a seat: its hand, its two
setup buildings and the one it keeps, its Bauhof or Schatzkammer draw.  Never
in a view: the seed, the draw counter, the order of any pile, another seat's
hand or draw.  ``EVERYTHING`` (the archive) sees every hand and draw.

The mail text (``text.py``) and the picture (``picture.py``) are drawn from
this view alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pbem.games.protocol import EVERYTHING, View
from pbem.games.riga import data, rules

_T = TypeVar("_T")


def building_view(ident: str) -> dict[str, Any]:
    """A building as every view shows it (the row, a hand, an offer, a project, a draw):
    the entry of the active data version, made once and shared by every view (a view is
    read, never changed: its text and its picture are drawn from it, it is written as
    JSON).  Each view copied it before, and its text and picture then read every copy
    whole (its help in two languages most of it) to find the lines and drawings they
    keep; a shared entry is named by its id there (``building_keys``)."""
    entries = _entries()
    found = entries.get(ident)
    if found is None:
        found = entries[ident] = _building_words(ident)
    return found


_shown = building_view


def _entries() -> dict[str, dict[str, Any]]:
    """The active data version's entries of buildings (``building_view``), by id."""
    return data.SETS.active.kept("building views", dict)


def building_keys(buildings: Any) -> Any:
    """Buildings' views as parts of a key to keep what is drawn or written of them by:
    each by its id where it is the active data version's entry of that building
    (``building_view``: what is drawn or written of it is then the version's and its
    id's, and a key that names the version says all), any other as it is (a view made
    otherwise, e.g. read back from JSON); ``buildings`` itself where it is no list of
    them (a view without that part: ``None``)."""
    if not isinstance(buildings, list | tuple):
        return buildings
    entries = _entries()
    return tuple([ident if type(b) is dict and type(ident := b.get("id")) is str
                  and entries.get(ident) is b else b for b in buildings])


def building_key(b: Any) -> Any:
    """One building's view as ``building_keys`` keys it."""
    return building_keys((b,))[0]


def _building_words(ident: str) -> dict[str, Any]:
    g = data.gebaeude(ident)
    return {
        "id": ident, "art": g.art, "stadt": g.stadt, "name": g.art,
        "cost": g.kosten, "points": g.punkte,
        "values": dict(data.STADTWERT[g.stadt]), "ware": g.ware,
        "ritter": g.ritter, "kaufleute": g.kaufleute,
        "help": data.help_line(ident, "en"), "help_de": data.help_line(ident, "de"),
    }


def display_view(ident: str, used: Any, face: Any, built_turn: Any,
                 active: bool) -> dict[str, Any]:
    """A building of a display as every view shows it (``active``: ``rules.is_active``):
    the entry of the active data version for these values, made once and shared by every
    view that shows it, as ``building_view``'s (a view is read, never changed).  Each view
    made each display's entries anew, some eighteen keys a building, and its picture and
    its text then read every one whole to key what they draw and write of it; they now
    make their pieces of a shared entry once (``is_shared_display``).  Values of kinds a
    state does not hold (``used`` not a truth value, say) make an entry of its own: a key
    cannot tell ``1`` from ``True``, and the entry would show the other."""
    return _display_of(_display_entries(), ident, used, face, built_turn, active)


#: how many display entries (``display_view``) a data version keeps: then they are all
#: forgotten at once (a building's entry is one a turn it was built in, and a server
#: plays on for months; a few hundred serve the tables of a dozen games)
DISPLAYS_MOST = 4096


def _display_of(entries: dict[tuple[Any, ...], dict[str, Any]], ident: str, used: Any,
                face: Any, built_turn: Any, active: bool) -> dict[str, Any]:
    """``display_view`` in ``entries``, the active version's (a view asks for its seats'
    entries once)."""
    if type(used) is not bool or type(built_turn) is not int \
            or not (face is None or type(face) is int or type(face) is str):
        return _display_words(ident, used, face, built_turn, active)
    key = (ident, used, face, built_turn, active)
    found = entries.get(key)
    if found is None:
        if len(entries) >= DISPLAYS_MOST:
            entries.clear()  # the views made with them keep theirs, now read as not shared
        found = entries[key] = _display_words(ident, used, face, built_turn, active)
    return found


def _display_entries() -> dict[tuple[Any, ...], dict[str, Any]]:
    """The active data version's display entries (``display_view``), by their values."""
    return data.SETS.active.kept("display views", dict)


def is_shared_display(d: Any) -> bool:
    """Whether ``d`` is the active data version's shared entry of a display's building
    (``display_view``): what is drawn or written of it may then be made once and kept
    with it (by its identity); any other (a view read back from JSON) is read as it is."""
    if type(d) is not dict:
        return False
    try:
        key = (d["id"], d["used"], d["face"], d["built_turn"], not d["new"])
        return _display_entries().get(key) is d
    except (KeyError, TypeError):  # not a view's entry, or a value that cannot key it
        return False


def display_pieces(display: Any, kept: dict[int, tuple[Any, _T]],
                   make: Callable[[dict[str, Any]], _T]) -> tuple[_T, ...]:
    """``make(d)`` for each building ``d`` of ``display`` (a seat's, not empty): what the
    picture or the text reads of it, made once with an entry the view shares
    (``display_view``) and kept in ``kept`` (the version's, at most ``DISPLAYS_MOST``) by
    its identity; of any other entry (a view read back from JSON) made each time.  A
    seat's key had been every entry whole, some eighteen keys and its help in two
    languages, at every picture and text."""
    made = []
    for d in display:  # a loop, not a generator: every building of every display
        found = kept.get(id(d))
        if found is not None and found[0] is d:
            made.append(found[1])
            continue
        piece = make(d)
        if is_shared_display(d):  # kept with it: its id is its own while it is kept
            if len(kept) >= DISPLAYS_MOST:  # as many as the view keeps entries
                kept.clear()
            kept[id(d)] = (d, piece)
        made.append(piece)
    return tuple(made)


def _display_words(ident: str, used: Any, face: Any, built_turn: Any,
                   active: bool) -> dict[str, Any]:
    shown = _shown(ident)
    art = shown["art"]
    usable = active and (
        (art == "Wechselstube" and face == data.WECHSELSTUBE_DUKATEN)
        or (art in data.EINMALIG and not used))
    return {**shown, "used": used, "usable": bool(usable), "face": face,
            "built_turn": built_turn, "new": not active}


def build_view(state: dict[str, Any], seat: int | None) -> View:
    n = state["players"]
    sees_all = seat == EVERYTHING
    you = seat if seat is not None and seat >= 0 else None
    seats = []
    turn, always = state["turn"], state["phase"] in ("over", "winter")
    shared = _display_entries()
    for s in range(n):
        r, k = rules.persons(state, s, active_only=False)
        hand = state["hand"][s]
        # ``rules.hand_count`` of its two parts
        waren, gebaeude = sum(hand["waren"].values()), len(hand["gebaeude"])
        entry: dict[str, Any] = {
            "seat": s,
            "points": rules.score(state, s),
            "hand_count": waren + gebaeude,
            "waren_count": waren,
            "gebaeude_count": gebaeude,
            "display": [_display_of(shared, e["id"], e["used"], e["face"], e["built_turn"],
                                    e["built_turn"] < turn or always)
                        for e in state["display"][s]],
            "riga_left": list(state["riga_left"][s]),
            "ritter": r, "kaufleute": k,
            "speicher": any(e["id"] == "Speicher" for e in state["display"][s]),
            "hand_limit": rules.hand_limit(state, s),
            "revealed": list(state["revealed"][s]),
            "kept": state["phase"] != "keep" or state["kept"][s] is not None,
        }
        if sees_all:
            entry["hand"] = _hand_view(state, s)
        seats.append(entry)
    pview = _project_view(state)
    draw = state["pending_draw"]
    own_draw = None
    if draw is not None and (sees_all or you == state["current"]):
        own_draw = {"kind": draw["kind"], "cards": list(draw["cards"])}
    sub = state["sub"]
    view: View = {
        "game": "riga",
        "year": state["year"], "years": state["years"],
        "season": state["season"], "phase": state["phase"],
        "players": n, "options": dict(state["options"]),
        "you": you, "start": state["start"], "prelim": state["prelim"],
        "current": state["current"], "to_move": rules.to_move(state),
        "secret": rules.is_secret(state),
        "row": [building_view(b) for b in state["row"]], "below": state["below"],
        "sets": [{"index": i + 1, "waren": list(c), "value": rules.set_value(c)}
                 for i, c in enumerate(state["sets"])],
        "piles": {"waren": len(state["waren_pile"]),
                  "waren_discard": len(state["waren_discard"]),
                  "bau": len(state["bau_pile"]), "bau_discard": len(state["bau_discard"]),
                  "separated": len(state["separated"])},
        "seats": seats,
        "hand": _hand_view(state, you) if you is not None else None,
        "keep_offer": None, "kept": None,
        "project": pview,
        "pending_draw": own_draw,
        "drawing": draw["kind"] if draw is not None else None,
        "built_this_turn": state["built_this_turn"],
        "sub": dict(sub) if sub and sub.get("kind") in ("kloster", "kloster_take", "school")
        else None,
        "events": list(state["log"]),
        "final": [dict(f) for f in state["final"]] if state["final"] else None,
        "data_version": state.get("data_version", data.DATA_VERSION),
    }
    if you is not None and state["phase"] in ("choose_start", "keep"):
        view["keep_offer"] = [building_view(b) for b in state["keep_offer"][you]]
        view["kept"] = state["kept"][you]
    if sees_all:
        view["keep_offers"] = [list(o) for o in state["keep_offer"]] \
            if state["phase"] in ("choose_start", "keep") else None
        view["kept_all"] = list(state["kept"]) if state["phase"] == "keep" else None
    return view


def _project_view(state: dict[str, Any]) -> dict[str, Any] | None:
    """The project in progress as every view shows it (its paid cards are laid out), or
    None."""
    project = state["project"]
    if project is None:
        return None
    return dict(project, buildings=list(project["buildings"]),
                paid=dict(project["paid"]), functions=list(project["functions"]),
                cost=rules.project_cost(state, project),
                paid_value=rules.project_paid(state, state["current"], project),
                building_views=[building_view(b) for b in project["buildings"]])


def _hand_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    hand = state["hand"][seat]
    return {"waren": dict(hand["waren"]),
            "gebaeude": [building_view(b) for b in sorted(hand["gebaeude"])]}
