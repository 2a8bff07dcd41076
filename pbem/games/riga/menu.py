"""Riga's moves as choices for people: a label, a group and a line of help each, in
the words of the reader's language (``words``).  Buildings and commodities keep their
printed German names; a long menu is folded into steps by ``rules.legal``."""

from __future__ import annotations

from typing import Any

from pbem.games.language import Words
from pbem.games.protocol import Choice, State
from pbem.games.riga import data, rules
from pbem.games.riga.moves import (
    Add,
    Build,
    Cancel,
    Choose,
    Discard,
    Get,
    Give,
    Keep,
    Menu,
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


def menu(state: State, seat: int, lang: str = "en") -> list[Choice]:
    """The moves ``seat`` may choose now (``rules.legal``) as choices in ``lang``."""
    return [choice(state, seat, move, lang) for move in rules.legal(state, seat)]


def choice(state: State, seat: int, move: Move, lang: str = "en") -> Choice:
    """A move as a menu entry in ``lang``: label, group and one line of help."""
    w = words(lang)
    if isinstance(move, Use):
        label, help_line = w["use"][move.art]
        r, k = rules.persons(state, seat)
        amount = {"Bank": 2 * k, "Wirtshaus": 2 * r}.get(move.art, 0)
        return Choice(move.notation(), label.format(money=amount), w["group"]["use"], help_line)
    key, group, fields, building_id = _entry(state, seat, move, w, lang)
    label, help_line = w["menu"][key]
    if help_line is None:
        help_line = building_help(building_id, lang)
    return Choice(move.notation(), label.format(**fields), group, help_line)


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
