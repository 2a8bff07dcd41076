"""Riga told in sentences: a move (``describe``) and the year's lines the rules write
into the state (``event``), one function each for every language, reading ``words``.

The state keeps the year's events and the final scoring in English (``state["log"]``,
``state["final"]``: the state is the same for every reader, and snapshots of running
games hold those lines); :func:`event` reads each line the rules write and tells it
with the reader's words, and a line it does not know stays as written.  Buildings in
sentences are named "Loge in Stockholm", "Kloster (Riga)" in every language; draws and
the setup's keep read as such to others.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pbem.games.language import Retelling, Retold, Words, plural, retell
from pbem.games.protocol import EVERYTHING, State
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
from pbem.games.riga.words import TABLES, words


def sentence_building(ident: str) -> str:
    """A building as sentences name it, in every language: "Loge in Stockholm",
    "Kloster (Riga)"."""
    g = data.gebaeude(ident)
    return f"{g.art} (Riga)" if g.stadt == data.RIGA else f"{g.art} in {g.stadt}"


def _ware(code: str) -> str:
    return data.WARE_NAME[code]


def art_a(art: str, w: Words) -> str:
    """A building's art with its indefinite article: "a Bauhof", "einen Bauhof"."""
    return w["art a"].get(art) or w["art a other"].format(art=art)


def art_the(art: str, w: Words) -> str:
    """A drawing building with its definite article: "the Bauhof", "dem Bauhof"."""
    return w["art the"].get(art) or w["art the other"].format(art=art)


#: the moves told by one entry of the words, with what fills it from the move alone
_PLAIN: dict[type, tuple[str, Any]] = {
    Start: ("said start", lambda m: {"other": f"{{{m.seat}}}"}),
    Take: ("said take", lambda m: {"building": sentence_building(m.building)}),
    Kloster: ("said kloster", lambda m: {}),
    SwapFrom: ("said from", lambda m: {"n": m.index + 1}),
    Give: ("said give", lambda m: {"ware": _ware(m.ware)}),
    SwapTo: ("said to", lambda m: {"n": m.index + 1}),
    Build: ("said build", lambda m: {"building": sentence_building(m.building)}),
    Add: ("said add", lambda m: {"building": sentence_building(m.building)}),
    Pay: ("said pay", lambda m: {"ware": _ware(m.ware)}),
    Cancel: ("said cancel", lambda m: {}),
    School: ("said school", lambda m: {"face": m.face}),
    Charge: ("said charge", lambda m: {}),
    End: ("said end", lambda m: {}),
}


def alike(move: Move) -> bool:
    """Whether ``describe`` tells ``move`` alike to every viewer: all but what only its
    author sees (a building kept, a draw, a card chosen from it, a building discarded),
    the four places that ask ``sees``."""
    if isinstance(move, Keep | Choose):
        return False
    if isinstance(move, Use):
        return move.art not in rules.DRAW_ARTS
    if isinstance(move, Discard):
        return not data.is_building(move.card)
    return True


def describe(before: State, seat: int, move: Move, after: State, viewer: int | None,
             lang: str = "en") -> str:
    """``move`` of ``seat`` as a sentence for ``viewer`` in ``lang``."""
    w = words(lang)
    me = f"{{{seat}}}"
    sees = viewer == seat or viewer == EVERYTHING
    if type(move) in _PLAIN:
        key, fill = _PLAIN[type(move)]
        return w[key].format(me=me, **fill(move))
    if isinstance(move, Keep):
        text = (w["said keep"].format(me=me, building=sentence_building(move.building)) if sees
                else w["said keep secret"].format(me=me))
        return text + (w["said all chose"] if after["phase"] != "keep" else "")
    if isinstance(move, TakeSet):
        cards = ", ".join(_ware(c) for c in before["sets"][move.index])
        return w["said take set"].format(me=me, n=move.index + 1, cards=cards)
    if isinstance(move, Get):
        sub = before["sub"] or {}
        give = data.WARE_NAME.get(sub.get("give", ""), w["a card"])
        return w["said get"].format(me=me, give=give, i=int(sub.get("from", 0)) + 1,
                                    ware=_ware(move.ware), j=int(sub.get("to", 0)) + 1)
    if isinstance(move, Use):
        return _use(move, after, me, sees, w)
    if isinstance(move, Choose):
        return _choose(before, move, me, sees, w)
    if isinstance(move, Finish):
        project = before["project"]
        return w["said finish"].format(
            me=me, buildings=w["and"].join(map(sentence_building, project["buildings"])),
            cost=rules.project_cost(before, project),
            paid=rules.project_paid(before, seat, project))
    if isinstance(move, Discard):
        return _discard(before, move, after, me, sees, w)
    if isinstance(move, Back) and (before["sub"] or {}).get("kind") == "kloster":
        return w["said no kloster"].format(me=me)
    if isinstance(move, Menu | More | Back):  # navigation: never told (Rules.describe)
        return ""
    return w["said menu"].format(me=me)


def _use(move: Use, after: State, me: str, sees: bool, w: Words) -> str:
    if move.art not in rules.DRAW_ARTS:
        return w["said use"].format(me=me, art=art_a(move.art, w))
    cards = after["pending_draw"]["cards"] if after["pending_draw"] else []
    if sees:
        drawn = ", ".join(data.WARE_NAME.get(c, c) for c in cards) or w["nothing"]
    else:
        drawn = plural(w, "cards", len(cards))
    return w["said draw"].format(me=me, art=art_a(move.art, w), cards=drawn)


def _choose(before: State, move: Choose, me: str, sees: bool, w: Words) -> str:
    if move.card is None:
        return w["said choose none"].format(me=me)
    kind = before["pending_draw"]["kind"]
    if not sees:
        card = w["one card"]
    elif kind == "Bauhof":
        card = sentence_building(move.card)
    else:
        card = _ware(move.card)
    return w["said choose"].format(me=me, card=card, source=art_the(kind, w))


def _discard(before: State, move: Discard, after: State, me: str, sees: bool,
             w: Words) -> str:
    if data.is_building(move.card):
        card = sentence_building(move.card) if sees else w["a building"]
        return w["said discard"].format(me=me, card=card)
    if before["phase"] != "winter" and (after["sub"] or {}).get("kind") != "charge":
        return w["said charged"].format(me=me, ware=_ware(move.card))
    return w["said discard"].format(me=me, card=_ware(move.card))


def result_lines(state: State, scores: list[int], money: list[int], lang: str) -> list[str]:
    """How each seat's final points came about, in ``lang``: a line per seat."""
    w = words(lang)
    return [w["result line"].format(seat=f"{{{s}}}", score=scores[s], money=money[s],
                                    **rules.score_parts(state, s))
            for s in range(state["players"])]


# -- the lines the rules write ---------------------------------------------------------

_SEAT = r"(?P<seat>\{\d+\})"


def _ids(text: str) -> str:
    """``Archiv-Visby, Kran-Danzig`` (the events' building ids) as "Archiv in Visby, …"."""
    return ", ".join(sentence_building(i) if data.is_building(i) else i
                     for i in text.split(", "))


def _groups(m: re.Match[str], w: Words, lang: str) -> dict[str, Any]:
    return m.groupdict()


def _line(pattern: str, key: str, fill: Any = _groups) -> tuple[re.Pattern[str], str, Any]:
    return re.compile(pattern), key, fill


#: each line the rules write in ``state["log"]`` (and a seat's final lines): its
#: pattern, its key in the words ("event <key>") and the words that fill it
_EVENTS: list[Retelling] = [
    _line(_SEAT + r" is the preliminary start player", "prelim"),
    _line(_SEAT + r" reveals (?P<cards>.*) \(value (?P<value>\d+)\)", "reveals"),
    _line(_SEAT + r" has the lowest total and names the start player", "lowest"),
    _line(_SEAT + r" names (?P<other>\{\d+\}) start player", "names"),
    _line(r"Everyone keeps one of their two buildings and discards the other", "all keep"),
    _line(r"Year (?P<year>\d+): spring", "spring"),
    _line(r"(?P<sets>\d+) sets and (?P<buildings>\d+) buildings lie out; (?P<left>\d+) cards "
          r"left on the separated pile", "lie out"),
    _line(r"Winter: hand limit", "winter"),
    _line(_SEAT + r" is the new start player", "new start"),
    _line(r"The game is over: final scoring", "over"),
    _line(_SEAT + r": buildings (?P<seals>-?\d+), Archiv (?P<archiv>-?\d+), Logen "
          r"(?P<loge>-?\d+), hand (?P<hand>-?\d+), Riga (?P<riga>-?\d+): (?P<total>-?\d+) "
          r"points \(money (?P<money>-?\d+)\)", "final"),
    _line(_SEAT + r" takes set (?P<n>\d+): (?P<cards>.*)", "take set"),
    _line(_SEAT + r" takes (?P<buildings>\S+)", "take",
          lambda m, w, lang: dict(m.groupdict(), buildings=_ids(m["buildings"]))),
    _line(_SEAT + r" uses the Kloster: (?P<give>\w+) of set (?P<i>\d+) for (?P<get>\w+) of "
          r"set (?P<j>\d+)", "kloster"),
    _line(_SEAT + r" uses the (?P<art>\w+) and draws (?P<n>\d+) cards", "draw",
          lambda m, w, lang: dict(m.groupdict(),
                                  art=w["art the accusative"].get(m["art"], m["art"]))),
    _line(_SEAT + r" keeps none of the drawn buildings", "keeps none"),
    _line(_SEAT + r" keeps one of the drawn buildings", "keeps building"),
    _line(_SEAT + r" keeps one of the drawn commodities", "keeps ware"),
    _line(_SEAT + r" builds (?P<buildings>.*) \(cost (?P<cost>\d+)\) paying (?P<paid>.*) "
          r"\((?P<value>\d+)\)", "builds",
          lambda m, w, lang: dict(m.groupdict(), buildings=_ids(m["buildings"]),
                                  paid=w["nothing"] if m["paid"] == "nothing" else m["paid"])),
    _line(_SEAT + r" turns the Schule to 1 (?P<face>\w+)", "school"),
    _line(_SEAT + r" discards a building", "discards building"),
    _line(_SEAT + r" discards (?P<cards>.*) and turns the Wechselstube to 8", "charged"),
    _line(_SEAT + r" discards (?P<cards>.*)", "discards"),
    _line(_SEAT + r" ends the turn", "ends"),
]


def event(line: str, lang: str = "en") -> str:
    """One of the year's events (``view["events"]``) in ``lang``; a line this table
    does not know stays as written."""
    # a view lists the year's events again at every move and for every reader, and
    # telling one tries up to twenty patterns: each line is told once per data version
    # (whose buildings it names), line and language (``Retold``, as Tallinn and Visby)
    return _RETOLD(data.SETS.active.version, line, lang)


def event_lines(lines: Sequence[str], lang: str, names: Sequence[str]) -> tuple[str, ...]:
    """The year's ``lines`` as the text lists them, told and named (``Retold.named``)."""
    return _RETOLD.named(data.SETS.active.version, tuple(lines), lang, tuple(names))


def full_event(line: str, lang: str = "en") -> str:
    """``event`` told from the patterns and the words."""
    return retell(line, _EVENTS, words(lang), "event", lang)


_RETOLD = Retold(full_event, TABLES)
