"""Riga's moves as choices for people: a label, a group and a line of help each, in
the words of the reader's language (``words``).  Buildings and commodities keep their
printed German names; a long menu is folded into steps by ``rules.legal``.

Each choice names the place of the picture (``picture.draw``) it acts on
(:func:`region_of`), so that the seat page makes that place a link: a building of the
row, the keep offer, a draw or the hand (``row <id>``, ``keep <id>``, ``draw <id>``,
``hand <id>``), a commodity set or one kind of card in it (``set 2``, ``set 2 Tuch``),
a kind of commodity in the hand (``hand Tuch``: pay it, discard it), a building of the
viewer's display by its art (``own Kloster``: use it, charge it, turn it), a seat's name
(``seat 1``: the start player), the viewer's Riga buildings face down (``riga``), the
project (``project``: erect it).  The steps that act on nothing drawn (end the turn,
cancel, keep none, the menu's pages) are the small labelled places the picture draws
for them (``STRIP``), so that every step of a turn can be tapped."""

from __future__ import annotations

from typing import Any

from pbem.games.language import Words
from pbem.games.protocol import Choice, State, entry_of
from pbem.games.riga import data, rules
from pbem.games.riga.moves import (
    Add,
    Back,
    Build,
    Cancel,
    Charge,
    Choose,
    Discard,
    End,
    Finish,
    Get,
    Give,
    Keep,
    Kloster,
    Menu,
    More,
    Move,
    Pay,
    School,
    Start,
    SwapFrom,
    SwapTo,
    Take,
    TakeSet,
    Use,
)
from pbem.games.riga.words import building, building_facts, building_help, ware, words

#: the moves on a building, by kind: their entry in the words' "menu"
_ON_BUILDING = {Keep: "keep", Take: "take", Build: "build", Add: "add"}

#: the places of the picture that stand for a step rather than a card, in the order the
#: picture draws them (a ``menu <group>`` place for each folded group comes first)
STRIP = ("none", "more", "back", "cancel", "end")


def region_of(state: State, seat: int, move: Move) -> str:
    """The place of the picture ``move`` of ``seat`` acts on (see the module's
    docstring); the picture draws the same names from the view alone."""
    if isinstance(move, Start):
        return f"seat {move.seat + 1}"
    if isinstance(move, Keep):
        return f"keep {move.building}"
    if isinstance(move, Take):
        return f"row {move.building}"
    if isinstance(move, TakeSet | SwapFrom | SwapTo):
        return f"set {move.index + 1}"
    if isinstance(move, Give | Get):
        sub = state["sub"] or {}
        index = sub["from"] if isinstance(move, Give) else sub["to"]
        return f"set {index + 1} {move.ware}"
    if isinstance(move, Build | Add):
        return "riga" if move.building in state["riga_left"][seat] else f"hand {move.building}"
    if isinstance(move, Pay):
        return f"hand {move.ware}"
    if isinstance(move, Discard):
        return f"hand {move.card}"
    if isinstance(move, Choose):
        return "none" if move.card is None else f"draw {move.card}"
    if isinstance(move, Use):
        return f"own {move.art}"
    if isinstance(move, Kloster):
        return "own Kloster"
    if isinstance(move, Charge):
        return "own Wechselstube"
    if isinstance(move, School):
        return "own Schule"
    if isinstance(move, Finish):
        return "project"
    if isinstance(move, Menu):
        return f"menu {move.group}"
    if isinstance(move, More):
        return "more"
    if isinstance(move, Back):
        return "back"
    if isinstance(move, Cancel):
        return "cancel"
    assert isinstance(move, End), move
    return "end"


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The moves ``seat`` may choose now (``rules.legal``) as choices in ``lang``."""
    return [choice(state, seat, move, lang) for move in rules.legal(state, seat)]


def choice(state: State, seat: int, move: Move, lang: str = "en") -> Choice:
    """A move as a menu entry in ``lang``: label, group and one line of help."""
    key = _kept_by(state, seat, move, lang)
    if key is None:
        return _choice(state, seat, move, lang)
    # a building's, a draw's, a menu page's entry, a commodity discarded: kept once per
    # data version, where every seat page and every mail lists the row (or, in winter,
    # the hand) again
    return data.SETS.active.kept(key, _choice, state, seat, move, lang)


def _kept_by(state: State, seat: int, move: Move, lang: str) -> tuple[Any, ...] | None:
    """What says ``move``'s entry's words besides the data version, as the key to keep
    the entry by; None where the state says more (a payment's value, a bank's money).
    The move alone and its place say most; a commodity discarded is of the winter or of
    the Wechselstube (its group); a set's entry is said by its cards."""
    kind = type(move)
    if kind is Discard and not data.is_building(move.card):
        return ("menu choice", move, words(lang)["code"], state["phase"] == "winter")
    if kind is Discard or kind in _BY_MOVE:
        return ("menu choice", move, words(lang)["code"], region_of(state, seat, move))
    if kind in _BY_SET:  # a set's entry says its cards (and their value): the same while
        # the set lies there, at every seat page and mail of those moves
        return ("menu set choice", move, words(lang)["code"],
                tuple(state["sets"][move.index]))
    return None


#: the moves whose entry the move alone says, with its place (``_kept_by``)
_BY_MOVE = frozenset({Keep, Take, Build, Add, Choose, School, Menu})
#: the moves whose entry the move and the cards of its set say (``_set_entry``; the
#: place is the set's)
_BY_SET = frozenset({TakeSet, SwapFrom, SwapTo})


def _choice(state: State, seat: int, move: Move, lang: str = "en") -> Choice:
    """``choice`` made anew."""
    w = words(lang)
    if isinstance(move, Use):
        label, help_line = w["use"][move.art]
        r, k = rules.persons(state, seat)
        amount = {"Bank": 2 * k, "Wirtshaus": 2 * r}.get(move.art, 0)
        return Choice(move.notation(), label.format(money=amount), w["group"]["use"], help_line,
                      region=region_of(state, seat, move))
    key, group, fields, building_id = _entry(state, seat, move, w, lang)
    label, help_line = w["menu"][key]
    if help_line is None:
        help_line = building_help(building_id, lang)
    return Choice(move.notation(), label.format(**fields), group, help_line,
                  region=region_of(state, seat, move))


def _entry(state: State, seat: int, move: Move, w: Words,
           lang: str) -> tuple[str, str, dict[str, Any], str]:
    """The words' entry for ``move``, its group, what fills the entry, and the
    building whose help it shows (where the entry has none of its own)."""
    if isinstance(move, Start):
        return "start", w["group"]["start"], {"seat": f"{{{move.seat}}}"}, ""
    if isinstance(move, Keep | Take | Build | Add):
        b = move.building
        group = {Keep: w["group"]["keep"], Take: w["groups"]["row"], Build: rules.stadt_of(b),
                 Add: w["groups"]["add"]}[type(move)]
        return _ON_BUILDING[type(move)], group, _named(b, lang), b
    if isinstance(move, Choose):
        if move.card is None:
            return "choose none", "Bauhof", {}, ""
        if data.is_building(move.card):
            return "choose building", "Bauhof", _named(move.card, lang), move.card
        return "choose ware", "Schatzkammer", {"ware": ware(move.card, lang)}, ""
    if isinstance(move, TakeSet | SwapFrom | SwapTo):
        return _set_entry(state, move, w)
    if isinstance(move, Give | Get):
        key = "give" if isinstance(move, Give) else "get"
        return key, "Kloster", {"ware": ware(move.ware, lang)}, ""
    if isinstance(move, Pay):
        project = state["project"]
        value = rules.ware_value(state, seat, move.ware, project["stadt"]) if project else None
        return "pay", w["group"]["pay"], {"ware": ware(move.ware, lang), "value": value}, ""
    if isinstance(move, Discard):
        if data.is_building(move.card):
            return "discard building", "Winter", {"name": building(move.card, lang)}, ""
        group = "Winter" if state["phase"] == "winter" else "Wechselstube"
        return "discard ware", group, {"ware": ware(move.card, lang),
                                       "value": data.WERT[move.card]}, ""
    if isinstance(move, School):
        return "school", "Schule", {"face": move.face}, ""
    if isinstance(move, Menu):
        return "menu", w["group"]["menu"], {"name": _group_name(move.group, w)}, ""
    return _bare_entry(state, move, w)


def _named(ident: str, lang: str) -> dict[str, Any]:
    return {"name": building(ident, lang), "facts": building_facts(ident, lang)}


def _set_entry(state: State, move: TakeSet | SwapFrom | SwapTo,
               w: Words) -> tuple[str, str, dict[str, Any], str]:
    cards = state["sets"][move.index]
    fields = {"n": move.index + 1, "cards": ", ".join(data.WARE_NAME[c] for c in cards)}
    if isinstance(move, TakeSet):
        return "take set", w["group"]["take set"], dict(fields, value=rules.set_value(cards)), ""
    return ("from" if isinstance(move, SwapFrom) else "to"), "Kloster", fields, ""


def _group_name(group: str, w: Words) -> str:
    if group in data.STAEDTE or group == data.RIGA:
        return w["build in"].format(stadt=group)
    return w["groups"].get(group, group)


def _bare_entry(state: State, move: Move, w: Words) -> tuple[str, str, dict[str, Any], str]:
    """The moves without an argument: Kloster, finish, cancel, charge, end, more, back."""
    key = move.notation()
    if isinstance(move, Cancel) and (state["sub"] or {}).get("kind") == "charge":
        return "cancel charge", "Wechselstube", {}, ""
    group = {"kloster": "Kloster", "finish": w["group"]["pay"], "cancel": w["group"]["pay"],
             "charge": "Wechselstube", "end": w["group"]["end"]}.get(key, w["group"]["menu"])
    help_of = {"kloster": "Kloster", "charge": "Wechselstube"}.get(key, "")
    return key, group, {}, help_of


def entry(state: State, seat: int, notation: str, lang: str = "en") -> Choice | None:
    """The entry of ``menu`` for the move written ``notation``, labelled alone; None
    where the menu does not offer it."""
    return entry_of(rules.legal(state, seat), notation,
                    lambda move: choice(state, seat, move, lang))
