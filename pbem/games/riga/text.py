"""Riga's view as plain text, for mails: reads without markup, lines mostly within 72
columns, in the reader's language (one renderer reading ``words``).

Everything here comes from the view (``GAME.view(state, seat)``), so a mail shows
no more than that seat may see: the viewer's own hand and private draw, every
seat's display and counts, never another seat's hand (only the all-seeing view
of the archive holds every hand, and then it is shown).  Building names are
German as printed (Festung, Kontor, ...), and so are the commodities (Tuch, Glas,
Wein, Korn), as the menus and the events name them; in English the key line gives
each its English gloss.
"""

from __future__ import annotations

import marshal
import textwrap
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pbem.games.datafile import marked, with_note
from pbem.games.language import Words, plural
from pbem.games.render import seat_text
from pbem.games.riga import data
from pbem.games.riga.sentences import art_the, event, event_lines
from pbem.games.riga.view import building_keys, building_view, display_pieces
from pbem.games.riga.words import building_name, words
from pbem.games.svg import keeps_beside


def ware_name(code: str) -> str:
    """``Korn`` for ``Getreide``: a commodity by its printed name, as menus and events
    name it (the key line gives the English gloss)."""
    return data.WARE_NAME.get(code, code)


def _name(names: list[str], seat: int, w: Words) -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return w["seat"].format(n=seat + 1)


def _points(n: Any, w: Words) -> str:
    return plural(w, "points", n) if isinstance(n, int) else str(n)


def values_text(values: dict[str, int | None], stadt: str | None = None) -> str:
    """``Tuch –, Glas 4◇, Wein 5!, Korn 2``: ``!`` marks a value above the regular, the
    sign a value of ``stadt`` that no source prints."""
    shown = tuple(values.get(code) for code in data.WAREN)
    if any(v is not None and type(v) is not int for v in shown):
        return _values_text(shown, stadt)  # not a view's values: as they are, not kept
    # a line for every building in every mail: once per data version and city's values
    return data.SETS.active.kept(("values_text", stadt, shown), _values_text, shown, stadt)


def _values_text(shown: tuple[Any, ...], stadt: str | None) -> str:
    parts = []
    for code, value in zip(data.WAREN, shown, strict=True):
        ours = stadt is not None and data.city_value_reconstructed(stadt, code)
        if value is None:
            parts.append(marked(f"{ware_name(code)} –", ours))
        else:
            mark = "!" if value > data.WERT[code] else ""
            parts.append(marked(f"{ware_name(code)} {value}{mark}", ours))
    return ", ".join(parts)


def building_line(b: dict[str, Any], w: Words) -> str:
    """A building as one line: name and city, cost, points, what each commodity pays; a
    value no source prints carries the sign (the text's last line says what it means)."""
    # the row's, the hands' and the draws' buildings in every mail and seat page: once
    # per data version, language and what the line reads of the building's view, keyed
    # by that as ``marshal`` writes it (its values' kinds too: ``True`` and ``1`` write
    # apart), not by the whole view (its help in two languages was most of the cost)
    try:
        key = ("building_line", w["code"], _dumps({k: b[k] for k in _LINE_KEYS if k in b}, 2))
    except ValueError:  # a value marshal cannot write: not kept
        return _building_line(b, w)
    return data.SETS.active.kept(key, _building_line, b, w)


_dumps = marshal.dumps
#: what ``_building_line`` reads of a building's view
_LINE_KEYS = ("id", "name", "art", "stadt", "cost", "points", "values", "ware")


def _building_line(b: dict[str, Any], w: Words) -> str:
    ident = b.get("id")
    kosten, punkte = (data.cost_points_reconstructed(ident)
                      if isinstance(ident, str) and data.is_building(ident) else (False, False))
    line = w["building line"].format(name=building_name(b),
                                     cost=marked(str(b.get("cost", "?")), kosten),
                                     points=marked(_points(b.get("points", 0), w), punkte),
                                     values=values_text(b.get("values") or {}, b.get("stadt")))
    if b.get("ware"):
        line += w["shows"].format(ware=ware_name(b["ware"]))
    return line


def _display_item(d: dict[str, Any], w: Words) -> str:
    notes = []
    face = d.get("face")
    if face is not None and face != "":
        notes.append(w["ducats"].format(n=face) if isinstance(face, int) else str(face))
    if d.get("ware"):
        notes.append(ware_name(d["ware"]))
    if d.get("used"):
        notes.append(w["used"])
    if d.get("new"):
        notes.append(w["new"])
    name = building_name(d)
    if not notes:
        return name
    if name.endswith(")"):
        return f"{name[:-1]}, {', '.join(notes)})"
    return f"{name} ({', '.join(notes)})"


def _display_items(display: Any, w: Words) -> tuple[str, ...]:
    """A display's buildings (``display``, not empty) as its seat's line names them
    (``_display_item``, ``view.display_pieces``)."""
    return display_pieces(display, data.SETS.active.kept(("text display items", w["code"]),
                                                         dict),
                          lambda d: _display_item(d, w))


def waren_text(waren: dict[str, int], w: Words) -> str:
    """``2 Wein, 1 Korn`` (most valuable first), or ``no commodities``."""
    parts = [f"{waren[c]} {ware_name(c)}" for c in data.WAREN if waren.get(c)]
    return ", ".join(parts) if parts else w["no wares"]


def _hand_lines(hand: dict[str, Any], indent: str, w: Words) -> list[str]:
    lines = [f"{indent}{w['commodities']}: {waren_text(hand.get('waren') or {}, w)}"]
    buildings = hand.get("gebaeude") or []
    if not buildings:
        return lines + [f"{indent}{w['no buildings']}"]
    lines.append(f"{indent}{w['buildings']}:")
    for b in buildings:
        lines.append(f"{indent}  {building_line(b, w)}")
        help_line = b.get(w["view help"])
        if help_line:
            lines.append(f"{indent}    {help_line}")
    return lines


def _final_lines(final: Any, names: list[str], w: Words, lang: str) -> list[str]:
    """The final scoring: a list per seat (or a dict with it under "seats")."""
    rows = final.get("seats") if isinstance(final, dict) else final
    if not isinstance(rows, list):
        return []
    lines = []
    for i, f in enumerate(rows):
        if not isinstance(f, dict):
            continue
        total = f.get("total", f.get("points", "?"))
        parts = [label.format(n=f[key]) for key, label in w["final parts"]
                 if isinstance(f.get(key), int) and (f[key] or key == "seals")]
        line = f"  {_name(names, f.get('seat', i), w)}: {_points(total, w)}"
        if parts:
            line += f" ({', '.join(parts)})"
        if isinstance(f.get("money"), int):
            line += w["tie money"].format(money=f["money"])
        lines.append(line)
        lines.extend(f"    {seat_text(event(str(x), lang), names)}" for x in f.get("lines", []))
    return lines


def sub_sentence(view: dict[str, Any], names: list[str], w: Words) -> str | None:
    """A public step in progress (the Kloster's swap, the Schule's side) as a sentence."""
    sub = view.get("sub")
    owner = view.get("current")
    if not isinstance(sub, dict) or owner is None:
        return None
    mine = owner == view.get("you")
    who = w["you"] if mine else _name(names, owner, w)
    kind = sub.get("kind")
    if kind == "kloster":
        line = w["sub kloster"][mine].format(who=who)
        if sub.get("from") is not None:
            line += w["sub from"].format(n=sub["from"] + 1)
            if sub.get("give"):
                line += f" ({ware_name(sub['give'])})"
            if sub.get("to") is not None:
                line += w["sub to"].format(n=sub["to"] + 1)
        return line + "."
    if kind == "kloster_take":
        i, j = (k + 1 for k in sub.get("sets", [0, 0])[:2])
        return w["sub kloster take"][mine].format(who=who, i=i, j=j)
    if kind == "school":
        return w["sub school"][mine].format(who=who)
    return None


def _head(view: dict[str, Any], w: Words) -> str:
    years = view.get("years", "?")
    if view.get("phase", "") == "over":
        head = w["head over"].format(years=years)
    elif (view.get("season") or "setup") == "setup":
        head = w["head setup"].format(years=years)
    else:
        season = w["season"].get(view.get("season"), view.get("season"))
        head = w["head"].format(year=view.get("year", "?"), years=years, season=season)
    if (view.get("options") or {}).get("riga"):
        head += w["with riga"]
    return head


def _moving_line(view: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """Who is to move, and to do what."""
    phase = view.get("phase", "")
    you = view.get("you")
    moving = list(view.get("to_move") or [])
    if phase == "over" or not moving or phase not in w["doing"]:
        return []
    you_word = w["you in list"]
    who = ", ".join((you_word if s == you else _name(names, s, w)) for s in moving)
    if who.startswith(you_word):
        who = who[0].upper() + who[1:]
    many = len(moving) > 1 or moving == [you]
    return [w["to move"][many].format(who=who, doing=w["doing"][phase])]


def _table_lines(view: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """Who is to move, the start player (the rest of the table: ``_board_lines``)."""
    lines = _moving_line(view, names, w)
    if view.get("start") is not None and view.get("phase", "") != "over":
        lines.append(w["start player"].format(name=_name(names, view["start"], w)))
    return lines


def _board_lines(view: dict[str, Any], w: Words) -> list[str]:
    """The key, the row, the sets and the piles."""
    lines = [key_line(w)]
    row = view.get("row") or []
    if row:
        lines += ["", w["row"]]
        below = int(view.get("below") or 0)
        for i, b in enumerate(reversed(row)):
            if below and i == len(row) - below:
                lines.append(w["separation"])
            lines.append(f"  {building_line(b, w)}")
    sets = view.get("sets") or []
    if sets:
        lines += ["", w["sets"]]
        for i, s in enumerate(sets):
            cards = ", ".join(ware_name(c) for c in s.get("waren", [])) or w["empty"]
            lines.append(w["set line"].format(n=i + 1, cards=cards, value=s.get("value", "?")))
    piles = view.get("piles")
    if piles:
        lines.append(w["piles"].format(**{key: piles.get(key, 0) for key in (
            "waren", "waren_discard", "bau", "bau_discard", "separated")}))
    return lines


def key_line(w: Words) -> str:
    """The commodities' names, English glosses and values: the same in every text of a
    data version and language, made once."""
    return data.SETS.active.kept(("text key", w["code"]), _key_line, w)


def _key_line(w: Words) -> str:
    return w["key"].format(wares=", ".join(
        w["key ware"].format(name=ware_name(c), english=data.WARE_ENGLISH[c],
                             value=data.WERT[c]) for c in data.WAREN))


def _seat_lines(view: dict[str, Any], entry: dict[str, Any], names: list[str],
                w: Words) -> list[str]:
    phase = view.get("phase", "")
    you = view.get("you")
    s = entry["seat"]
    title = _name(names, s, w) + (w["you mark"] if s == you else "")
    if s == view.get("start") and phase != "over":
        title += w["start mark"]
    limit = entry.get("hand_limit", 8 if entry.get("speicher") else 6)
    lines = ["", w["seat line"].format(
        title=title, points=_points(entry.get("points", 0), w), hand=entry.get("hand_count", 0),
        wares=plural(w, "wares", entry.get("waren_count", 0)),
        buildings=plural(w, "building count", entry.get("gebaeude_count", 0)),
        ritter=entry.get("ritter", 0), kaufleute=entry.get("kaufleute", 0),
        limit=w["limit"].format(n=entry.get("hand_limit", 8)) if limit > 6 else "")]
    if entry.get("revealed") and phase in ("reveal", "choose_start", "keep"):
        cards = entry["revealed"]
        lines.append(w["revealed"].format(cards=", ".join(ware_name(c) for c in cards),
                                          value=sum(data.WERT.get(c, 0) for c in cards)))
    # its buildings named (``render``: ``_display_items``), or an empty display as it is
    display = entry.get("display")
    lines.append(w["display"] + ("; ".join(display) if display else w["no display"]))
    if entry.get("riga_left"):
        lines.append(w["riga left"] + ", ".join(entry["riga_left"]))
    if s != you and entry.get("hand"):  # only the archive's view holds other hands
        lines.extend(_hand_lines(entry["hand"], w["other hand"], w))
    return lines


def _own_lines(view: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """A step in progress, the viewer's setup offer, the project, a draw (the viewer's
    hand before them: ``_hand_part``)."""
    you = view.get("you")
    lines: list[str] = []
    step = sub_sentence(view, names, w)
    if step:
        lines += ["", step]
    offer = view.get("keep_offer")
    if you is not None and offer:
        lines += ["", w["keep offer"]]
        lines.extend(f"  {building_line(b, w)}" for b in offer)
        if view.get("kept"):
            lines.append(w["you keep"].format(kept=building_name(view["kept"])))
    project = view.get("project")
    if project:
        lines += [""] + _project_lines(view, project, names, w)
    return lines + _draw_lines(view, names, w)


def _hand_part(hand: dict[str, Any], w: Words) -> list[str]:
    """The viewer's hand, under its heading."""
    return ["", w["your hand"], *_hand_lines(hand, "  ", w)]


def _project_lines(view: dict[str, Any], project: dict[str, Any], names: list[str],
                   w: Words) -> list[str]:
    owner = view.get("current")
    if owner == view.get("you") and owner is not None:
        who = w["you build"]
    else:
        who = w["builds"].format(name=_name(names, owner, w)) if owner is not None \
            else w["building"]
    lines = [w["project"].format(
        who=who, buildings=" + ".join(building_name(b) for b in project.get("buildings", [])),
        cost=project.get("cost", "?"), value=project.get("paid_value", 0),
        paid=waren_text(project.get("paid") or {}, w))]
    if project.get("functions"):
        lines.append(w["using"] + ", ".join(building_name(f) for f in project["functions"]))
    return lines


def _draw_lines(view: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """A Bauhof or Schatzkammer draw: the viewer's own cards, or who is drawing."""
    pending = view.get("pending_draw")
    if pending:
        cards = pending.get("cards", [])
        buildings = any(isinstance(c, dict) or data.is_building(str(c)) for c in cards)
        kind = pending.get("kind", "Bauhof" if buildings else w["draw kind"])
        source = art_the(kind, w)
        if not buildings:
            listed = ", ".join(ware_name(c) for c in cards) or w["nothing left"]
            return ["", w["draw wares"].format(kind=kind, source=source, cards=listed)]
        return ["", w["draw buildings"].format(kind=kind, source=source)] + [
            f"  {building_line(c if isinstance(c, dict) else building_view(c), w)}"
            for c in cards]
    if view.get("drawing") and view.get("current") is not None:
        return ["", w["drawing"].format(name=_name(names, view["current"], w),
                                        source=art_the(view["drawing"], w))]
    return []


def render(view: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """``view`` as plain text for a mail; ``names`` are the players' names by seat."""
    w = words(lang)
    # the board's part, each seat's and the viewer's hand, kept by what each reads of the
    # view (``_kept_lines``): most stay from one move to the next and are the same in
    # every reader's text of a table; who is to move and what changes with the turn not
    # (a building that is the data version's entry by its id: ``building_keys``)
    code, version = w["code"], data.SETS.active.version
    phase, you, start = view.get("phase", ""), view.get("you"), view.get("start")
    lines = _wrapped([_head(view, w), *_table_lines(view, names, w)])
    lines.extend(_kept_lines(
        ("board", code, version, building_keys(view.get("row")), view.get("below"),
         view.get("sets"), view.get("piles")),
        _board_lines, view, w))
    for entry in view.get("seats") or []:
        # a seat's lines read of the table's view whether the seat is the viewer's and the
        # start player's, and the phase: the same in every other reader's text
        # (its display as those lines name it: ``_display_items``, not the view's entries)
        s = entry["seat"]
        mine, starts = s == you, s == start
        display = entry.get("display")
        written = dict(entry, display=_display_items(display, w)) if display else entry
        lines.extend(_kept_lines(("seat", code, version, phase, mine, starts, written, names),
                                 _seat_lines, {"phase": phase, "you": s if mine else None,
                                               "start": s if starts else None},
                                 written, names, w))
    # the viewer's own: its hand kept, what changes with the turn (``_own_lines``) not
    hand = view.get("hand")
    if you is not None and hand is not None:
        # what ``_hand_part`` reads of it
        reads = (hand.get("waren"), building_keys(hand.get("gebaeude"))) \
            if type(hand) is dict else hand
        lines.extend(_kept_lines(("hand", code, version, reads), _hand_part, hand, w))
    lines.extend(_wrapped(_own_lines(view, names, w)))
    tail = []
    events = view.get("events") or []
    if events:
        tail += ["", w["this year"]]
        tail.extend(event_lines(tuple(map(str, events)), lang, names))
    final = view.get("final")
    rows = _final_lines(final, names, w, lang) if final else []
    if rows:
        tail += ["", w["final"]]
        tail.extend(rows)
    lines.extend(_wrapped(tail))
    return with_note("\n".join(lines), lang, 76)


#: parts of texts (``_kept_lines``), their lines broken and joined, by what they read as
#: ``marshal`` writes it; forgotten all at once at ``_LINES_MOST`` of them
_LINES: dict[bytes, tuple[str, ...]] = {}
_LINES_MOST = 2048
# a bench's fresh round forgets them with the pictures' pieces
keeps_beside(_LINES.clear)


def _kept_lines(reads: tuple[Any, ...], make: Callable[..., list[str]],
                *args: Any) -> tuple[str, ...] | list[str]:
    """``make(*args)``'s lines broken (``_wrapped``), kept by ``reads``: everything they
    read of the view, the names, the language and the data version, written by
    ``marshal`` (equal bytes are equal values of the same kinds: ``True`` and ``1``
    write apart); made anew where ``reads`` holds a value marshal cannot write.

    Kept joined by line breaks, as one text (none where there are no lines): the text's
    lines are joined at its end, and a few kept texts are read there faster than the
    many lines they hold, each a string of its own (that join was a third of a text's
    time at the seat page, where the lines are found out of the processor's caches)."""
    try:
        key = _dumps(reads, 2)
    except ValueError:
        return _wrapped(make(*args))
    found = _LINES.get(key)
    if found is None:
        lines = _wrapped(make(*args))
        found = ("\n".join(lines),) if lines else ()
        if len(_LINES) >= _LINES_MOST:
            _LINES.clear()
        _LINES[key] = found
    return found


def _wrapped(lines: list[str], width: int = 76) -> list[str]:
    """Long lines broken at spaces, each continuation indented two more than its line."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        out.extend(_broken(line, width))
    return out


@lru_cache(maxsize=4096)
def _broken(line: str, width: int) -> tuple[str, ...]:
    """One long line broken (``_wrapped``).  Kept: the same lines (a card's help, a
    seat's display) come back in every view and mail of a game, and textwrap was a
    quarter of drawing a view as text."""
    indent = " " * (len(line) - len(line.lstrip(" ")))
    return tuple(textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                               break_long_words=False, break_on_hyphens=False))
