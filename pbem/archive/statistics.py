"""The archive's statistics: per game, how often each card, building or office was
taken, played or built and where those who did finished; how each seat and the start
player fared, by number of players.  Pages with a small table and a chart each.

What a seat took, played or built comes from each game's move log, read by the game's
own pure function of the notation (``Rules.uses``, ``Rules.start_seat``), never by a
replay.  :func:`of_game` reads it when the game's page is rendered, and the build keeps
it in the manifest beside that page: an incremental build reads no older game's moves.
:func:`pages` then makes the statistics from what the manifest keeps and the game
summaries (:mod:`pbem.archive.tally`, whose totals the manifest keeps); an incremental
build makes the pages of just the game names whose games came, changed or went, and
the index; only the pages whose Markdown changed are converted and written.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

from pbem.archive import chart, paths
from pbem.archive.collect import FinishedGame
from pbem.archive.indexes import STATISTICS, IndexPage
from pbem.archive.pages import game_display_title, game_or_none
from pbem.archive.tally import START, Card, GameStats, Seats, Totals
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


# -- the cells of a set of seats -----------------------------------------------------


def _cells(seats: Seats) -> list[str]:
    """Seats, average score, average place, won."""
    return [str(seats.placed), _mean(seats.score_sum, seats.scored),
            _mean(seats.place_sum, seats.placed), _won(seats)]


def _won(seats: Seats) -> str:
    if not seats.placed:
        return "–"
    return f"{round(100 * seats.wins / seats.placed)}%"


def _mean(total: int, n: int) -> str:
    return number(round(total / n, 2)) if n else "–"


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
            lines.append(table_row([str(count), f"seat {seat + 1}", *_cells(seats[seat])]))
            if seats[seat].scored:
                bars.append((f"{count} players, seat {seat + 1}",
                             round(seats[seat].score_sum / seats[seat].scored, 2)))
        if START in seats:
            lines.append(table_row([str(count), "start player", *_cells(seats[START])]))
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
                                _mean(card.anyhow.place_sum, card.anyhow.placed),
                                _won(card.anyhow)]))
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
    pages = [IndexPage(page, f"Statistics of {title}", text, group(stats.name),
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
            lines.append(table_row([VERB_WORDS[verb], str(card.times[verb]), *_cells(seats)]))
    places = card.anyhow.places
    most = max(places) if places else 0
    bars = [(f"{_ordinal(place)} place", float(places[place])) for place in range(1, most + 1)]
    svg = page + ".svg"
    chart_title = f"Final places of the seats that had {card.name}"
    back = paths.rel(page, paths.html(game_page(stats.name)))
    text = (f"# {md_text(card.name)} ({md_text(title)})\n\n"
            f"[Statistics of {md_text(title)}]({back})"
            f" · {stats.games} finished games\n\n" + "\n".join(lines)
            + f"\n\n![{_alt(chart_title)}]({paths.rel(page, svg)})\n")
    return IndexPage(page, f"{card.name} ({title})", text, group(stats.name),
                     ((svg, chart.bars(bars, chart_title, "")),))


def group(game: str) -> str:
    """The group of a game's statistics pages (:attr:`IndexPage.group`): they change
    together, when a game of its name comes, changes or goes."""
    return f"statistics/{game}"


def is_group(group: Any, groups: Collection[str] | None) -> bool:
    """Whether ``group`` is that of a game's statistics pages, of one of ``groups`` (any:
    None)."""
    if groups is None:
        return isinstance(group, str) and group.startswith("statistics/")
    return group in groups


def pages(totals: Totals, games: Collection[str] | None = None) -> list[IndexPage]:
    """The statistics pages: the index, and of each game name in ``games`` (all: None)
    its page and one per card."""
    everything = totals.stats
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
        if games is None or name in games:
            out += _game_pages(stats)
    if not everything:
        lines.append("No finished games yet.")
    out.append(IndexPage(INDEX, "Statistics", "\n".join(lines) + "\n", STATISTICS))
    return out
