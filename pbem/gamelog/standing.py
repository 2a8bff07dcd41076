"""A finished game's result as people read it: places in order, a headline, the
tie-breakers that decided something.

Built from a game's :class:`~pbem.games.protocol.Result` (or the JSON of one, as
``Game.result`` keeps it) and the seats' names; the result mail and the game's
pages show it.  Nothing here knows a game: the numbers are the game's final
values (``Result.scores``, after every conversion the rules make), the lines that
explain them are the game's ``details`` (with ``{0}``-style seat placeholders),
and the tie-breakers are named by the game (``tiebreak_names``), both in the reader's
language where the game gives it (``details_in``, ``tiebreak_names_in``), else English.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.games.protocol import Result, result_words
from pbem.i18n import phrase, say


@dataclass(frozen=True)
class Place:
    """One seat's line in the standing."""

    seat: int
    name: str
    rank: int
    score: int
    winner: bool
    #: (tie-breaker's name, this seat's value), only for the tie-breakers that decided
    #: a place this seat was tied for on its score
    tiebreaks: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Standing:
    places: list[Place]
    winner_names: list[str]
    top_score: int | None
    #: the game's lines on how the final values came about (seat placeholders)
    details: list[str]
    #: names of the tie-breakers that decided a place, in the rulebook's order
    decided_by: list[str]

    @property
    def shared(self) -> bool:
        return len(self.winner_names) > 1


def _decisive(scores: list[int], tiebreaks: list[list[int]]) -> tuple[set[int], set[int]]:
    """(indices of tie-breakers that separated seats tied before them, seats concerned)."""
    used: set[int] = set()
    concerned: set[int] = set()
    groups: dict[int, list[int]] = {}
    for seat, score in enumerate(scores):
        groups.setdefault(score, []).append(seat)
    pending = [g for g in groups.values() if len(g) > 1]
    for group in pending:
        concerned.update(group)
    depth = max((len(t) for t in tiebreaks), default=0)
    for k in range(depth):
        next_pending = []
        for group in pending:
            by_value: dict[int | None, list[int]] = {}
            for seat in group:
                row = tiebreaks[seat] if seat < len(tiebreaks) else []
                by_value.setdefault(row[k] if k < len(row) else None, []).append(seat)
            if len(by_value) > 1:
                used.add(k)
            next_pending += [g for g in by_value.values() if len(g) > 1]
        pending = next_pending
    return used, concerned


def standing(result: Result | dict[str, Any], names: list[str],
             lang: str | None = None) -> Standing:
    """The standing of ``result`` with the seats' ``names``, best place first (seat order
    within a shared place); its words (details, tie-breakers) for a reader of ``lang``
    (English where the game has none in ``lang``, and for a result stored without)."""
    data = result.to_json() if isinstance(result, Result) else result
    scores, ranks, winners = data["scores"], data["ranks"], data["winners"]
    tiebreaks = data.get("tiebreaks") or []
    tb_names = result_words(data, "tiebreak_names", lang)
    used, concerned = _decisive(scores, tiebreaks)
    shown = [k for k in sorted(used) if k < len(tb_names)]
    places = []
    for seat in sorted(range(len(scores)), key=lambda s: (ranks[s], s)):
        row = tiebreaks[seat] if seat < len(tiebreaks) else []
        places.append(Place(
            seat=seat, name=names[seat], rank=ranks[seat], score=scores[seat],
            winner=seat in winners,
            tiebreaks=[(tb_names[k], row[k]) for k in shown if k < len(row)]
            if seat in concerned else []))
    return Standing(
        places=places,
        winner_names=[names[w] for w in winners],
        top_score=scores[winners[0]] if winners else None,
        details=result_words(data, "details", lang),
        decided_by=[tb_names[k] for k in shown])


def and_list(items: list[str], lang: str) -> str:
    """'Alex', 'Alex and Bob', 'Alex, Bob and Carla' (in ``lang``)."""
    if len(items) <= 1:
        return "".join(items)
    and_ = say(phrase("and"), lang)
    return f"{', '.join(items[:-1])} {and_} {items[-1]}"


def headline(st: Standing, lang: str) -> str:
    """'Alex wins with 39', 'Alex and Bob share the win with 36' (in ``lang``)."""
    if not st.winner_names:
        return say(phrase("The game is over"), lang)
    who = and_list(st.winner_names, lang)
    if st.shared:
        return say(phrase("{names} share the win with {score}", names=who,
                          score=st.top_score), lang)
    return say(phrase("{name} wins with {score}", name=who, score=st.top_score), lang)
