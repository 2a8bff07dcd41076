"""The archive's statistics: per game, how often each card, building or office was
taken, played or built and where those who did finished; how each seat and the start
player fared, by number of players.  Pages with a small table and a chart each.

What a seat took, played or built comes from each game's move log, read by the game's
own pure function of the notation (``Rules.uses``, ``Rules.start_seat``), never by a
replay.  :func:`of_game` reads it when the game's page is rendered, and the build keeps
it in the manifest beside that page: an incremental build reads no older game's moves.
:func:`pages` then makes the statistics from what the manifest keeps and the game
summaries, every build (cheap, like the tables of lists); only the pages whose Markdown
changed are converted and written.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.archive import chart, paths
from pbem.archive.collect import FinishedGame, GameSummary
from pbem.archive.indexes import STATISTICS, IndexPage
from pbem.archive.pages import game_display_title, game_or_none
from pbem.archive.text import md_text, number, table_row
from pbem.games.protocol import BUILD, PLAY, TAKE, MoveError

INDEX = "statistics/index"
VERBS = (TAKE, PLAY, BUILD)
VERB_WORDS = {TAKE: "Taken", PLAY: "Played", BUILD: "Built"}


def of_game(finished: FinishedGame) -> dict[str, Any] | None:
    """What the manifest keeps of a game for the statistics: its start seat and, per
    seat, verb and name, how often (``None``: no such game is registered)."""
    game = game_or_none(finished.summary.game)
    if game is None:
        return None
    log = [(move.seat, move.move) for move in finished.moves]
    try:
        counts = Counter((use.seat, use.verb, use.name) for use in game.uses(log))
        start = game.start_seat(log)
    except MoveError:  # a log its game cannot read (its page says so): not counted
        return None
    return {"start": start,
            "uses": [[seat, verb, name, n] for (seat, verb, name), n in sorted(counts.items())]}


def _alt(text: str) -> str:
    """A chart's title as its image's alternative text, without brackets (Macao's
    ``Abt (C79)``): the archive's fast Markdown path declines an alt text with them."""
    return md_text(text.replace("(", "").replace(")", ""))


def game_page(game: str) -> str:
    return f"statistics/{game}"


def slug(name: str) -> str:
    """A file name for a card: ASCII letters, digits and dashes (``Mönch`` → ``monch``)."""
    flat = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    out = "".join(c if c.isalnum() else "-" for c in flat)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-") or "card"


# -- gathering ------------------------------------------------------------------------


@dataclass
class Seats:
    """Final places and scores of a set of seats, as the tables show them."""

    places: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    def add(self, place: int | None, score: int | None) -> None:
        if place is not None:
            self.places.append(place)
        if score is not None:
            self.scores.append(score)

    def cells(self) -> list[str]:
        """Seats, average score, average place, won."""
        return [str(len(self.places)), _mean(self.scores), _mean(self.places), self.won()]

    def won(self) -> str:
        if not self.places:
            return "–"
        return f"{round(100 * sum(p == 1 for p in self.places) / len(self.places))}%"


def _mean(values: Sequence[int]) -> str:
    return number(round(sum(values) / len(values), 2)) if values else "–"


@dataclass
class Card:
    name: str
    times: Counter[str] = field(default_factory=Counter)
    #: per verb, the seats that did it (each game's seat once)
    by_verb: dict[str, Seats] = field(default_factory=lambda: defaultdict(Seats))
    #: every seat that did anything with it, once
    anyhow: Seats = field(default_factory=Seats)


@dataclass
class GameStats:
    name: str
    games: int = 0
    #: player count → seat → its results; the start player's under -1
    seats: dict[int, dict[int, Seats]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(Seats)))
    starts: int = 0
    cards: dict[str, Card] = field(default_factory=dict)


START = -1


def gather(summaries: Sequence[GameSummary],
           kept: Mapping[int, dict[str, Any] | None]) -> dict[str, GameStats]:
    """Every game's statistics from the summaries and what :func:`of_game` kept.

    Every build makes them from every game (a few dozen entries each), so the loop
    over the entries does no more than it must: a card is made once, not for
    each entry, and a seat's verbs are looked up in sets.
    """
    out: dict[str, GameStats] = {}
    for s in summaries:
        stats = out.get(s.game)
        if stats is None:
            stats = out[s.game] = GameStats(s.game)
        stats.games += 1
        places, scores = s.ranks(), s.scores()
        count = len(s.seats)
        by_seat = stats.seats[count]
        for seat in range(count):
            by_seat[seat].add(places[seat], scores[seat])
        game = kept.get(s.id) or {}
        start = game.get("start")
        if isinstance(start, int) and 0 <= start < count:
            stats.starts += 1
            by_seat[START].add(places[start], scores[start])
        _gather_uses(stats.cards, game.get("uses") or [], count, places, scores)
    return out


def _gather_uses(cards: dict[str, Card], uses: Sequence[Sequence[Any]], count: int,
                 places: list[int | None], scores: list[int | None]) -> None:
    """One game's uses into ``cards``: each seat once per verb, and once for any verb."""
    seen: set[tuple[str, str, int]] = set()
    anyhow: set[tuple[str, int]] = set()
    for seat, verb, name, times in uses:
        if not 0 <= seat < count:
            continue
        card = cards.get(name)
        if card is None:
            card = cards[name] = Card(name)
        card.times[verb] += times
        if (name, verb, seat) not in seen:
            seen.add((name, verb, seat))
            card.by_verb[verb].add(places[seat], scores[seat])
        if (name, seat) not in anyhow:
            anyhow.add((name, seat))
            card.anyhow.add(places[seat], scores[seat])


# -- pages ----------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _card_slugs(cards: Mapping[str, Card]) -> dict[str, str]:
    """A file name per card, unique within its game (in name order: deterministic)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(cards):
        base = slug(name)
        candidate, n = base, 1
        while candidate in used:
            n += 1
            candidate = f"{base}-{n}"
        used.add(candidate)
        out[name] = candidate
    return out


def _results(stats: GameStats, title: str) -> tuple[str, list[tuple[str, float]]]:
    lines = ["## Results by number of players", "",
             "Each seat's final score and place (1 is first; a shared place counts for each"
             "), by the number of players, and the start player's.", "",
             table_row(["Players", "Seat", "Games", "Average score", "Average place", "Won"]),
             "|---:|---|---:|---:|---:|---:|"]
    bars: list[tuple[str, float]] = []
    for count in sorted(stats.seats):
        seats = stats.seats[count]
        for seat in sorted(k for k in seats if k != START):
            lines.append(table_row([str(count), f"seat {seat + 1}", *seats[seat].cells()]))
            if seats[seat].scores:
                bars.append((f"{count} players, seat {seat + 1}",
                             round(sum(seats[seat].scores) / len(seats[seat].scores), 2)))
        if START in seats:
            lines.append(table_row([str(count), "start player", *seats[START].cells()]))
    if not stats.starts:
        lines += ["", f"{md_text(title)} has no start player in its log: every seat "
                  "begins at once."]
    return "\n".join(lines), bars


def _cards_table(stats: GameStats, slugs: Mapping[str, str], page: str) -> str:
    if not stats.cards:
        return "No card, building or office is named in this game's moves."
    verbs = [v for v in VERBS if any(c.times[v] for c in stats.cards.values())]
    lines = [table_row(["Card, building or office", *(VERB_WORDS[v] for v in verbs),
                        "Average place of those who did", "Won"]),
             "|---|" + "---:|" * (len(verbs) + 2)]
    for name in sorted(stats.cards):
        card = stats.cards[name]
        link = paths.rel(page, paths.html(f"{page}/{slugs[name]}"))
        lines.append(table_row([f"[{md_text(name)}]({link})",
                                *(str(card.times[v]) for v in verbs),
                                _mean(card.anyhow.places), card.anyhow.won()]))
    return "\n".join(lines)


def _game_pages(stats: GameStats) -> list[IndexPage]:
    title = game_display_title(stats.name)
    page = game_page(stats.name)
    slugs = _card_slugs(stats.cards)
    results, bars = _results(stats, title)
    svg = f"{page}-results.svg"
    chart_title = f"Average final score of each seat, {title}"
    text = (f"# Statistics of {md_text(title)}\n\n"
            f"{stats.games} finished games. [All statistics]({paths.rel(page, paths.html(INDEX))})"
            f" · [the games]({paths.rel(page, paths.html(paths.by_game(stats.name)))})\n\n"
            f"{results}\n\n![{_alt(chart_title)}]({paths.rel(page, svg)})\n\n"
            "## Cards, buildings and offices\n\n"
            "How often each was taken, played or built, read from the games' moves, and "
            "where the seats that did finished (each seat of a game counted once).\n\n"
            f"{_cards_table(stats, slugs, page)}\n")
    pages = [IndexPage(page, f"Statistics of {title}", text, STATISTICS,
                       ((svg, chart.bars(bars, chart_title)),))]
    for name, card in sorted(stats.cards.items()):
        pages.append(_card_page(stats, title, f"{page}/{slugs[name]}", card))
    return pages


def _card_page(stats: GameStats, title: str, page: str, card: Card) -> IndexPage:
    lines = [table_row(["What", "Times", "Seats that did", "Average score",
                        "Average final place", "Won"]), "|---|---:|---:|---:|---:|---:|"]
    for verb in VERBS:
        if card.times[verb]:
            seats = card.by_verb[verb]
            lines.append(table_row([VERB_WORDS[verb], str(card.times[verb]), *seats.cells()]))
    places = Counter(card.anyhow.places)
    most = max(places) if places else 0
    bars = [(f"{_ordinal(place)} place", float(places[place])) for place in range(1, most + 1)]
    svg = page + ".svg"
    chart_title = f"Final places of the seats that had {card.name}"
    back = paths.rel(page, paths.html(game_page(stats.name)))
    text = (f"# {md_text(card.name)} ({md_text(title)})\n\n"
            f"[Statistics of {md_text(title)}]({back})"
            f" · {stats.games} finished games\n\n" + "\n".join(lines)
            + f"\n\n![{_alt(chart_title)}]({paths.rel(page, svg)})\n")
    return IndexPage(page, f"{card.name} ({title})", text, STATISTICS,
                     ((svg, chart.bars(bars, chart_title, "")),))


def pages(summaries: Sequence[GameSummary],
          kept: Mapping[int, dict[str, Any] | None]) -> list[IndexPage]:
    """Every statistics page: the index, one per game, one per card of each game."""
    everything = gather(summaries, kept)
    lines = ["# Statistics", "",
             "Per game: each seat's and the start player's results by the number of "
             "players, and each card, building or office: how often it was taken, played "
             "or built, and where those who did finished.", ""]
    out: list[IndexPage] = []
    if everything:
        lines += [table_row(["Game", "Finished games", "Cards, buildings and offices"]),
                  "|---|---:|---:|"]
    for name in sorted(everything):
        stats = everything[name]
        link = paths.rel(INDEX, paths.html(game_page(name)))
        lines.append(table_row([f"[{md_text(game_display_title(name))}]({link})",
                                str(stats.games), str(len(stats.cards))]))
        out += _game_pages(stats)
    if not everything:
        lines.append("No finished games yet.")
    out.append(IndexPage(INDEX, "Statistics", "\n".join(lines) + "\n", STATISTICS))
    return out
