"""The index pages: all games, per game name, per player, per month.

Every index is made from the game summaries alone (no replay), as Markdown;
that is cheap, and the build converts to HTML and writes only the pages
whose Markdown changed.  A long list of games is split into fixed blocks of
:data:`BLOCK` games in the order they ended, each block a page of its own,
and a front page shows the newest :data:`FRONT` and links to the blocks: a
new game then changes the front page and the last block, not every page.

Each page belongs to a **group**: the pages of one list (:func:`groups_of`
names the lists a game is in: all games, its game, its month, each of its
players), or one of the three tables of lists, which are made every time.
An incremental build makes only the lists of the games that are new,
changed or gone, and of those only the front page and the blocks from the
earliest game that changed on (:class:`Lists`); the blocks before it, and
every other list, stay as the last build made them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from pbem.archive import paths
from pbem.archive.about import page as about_page
from pbem.archive.collect import GameSummary, RatingNow, Ratings
from pbem.archive.markdown import and_list
from pbem.archive.pages import game_display_title, game_or_none
from pbem.archive.text import block_safe, day, md_name, md_text, table_row

BLOCK = 100
FRONT = 50
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


#: the group of the statistics pages (``pbem.archive.statistics``), made every build
STATISTICS = "tables/statistics"
#: the groups of the tables of lists and of the statistics (every index page not in a
#: list)
TABLES = ("tables/by-game", "tables/players", "tables/months", STATISTICS)


@dataclass(frozen=True)
class IndexPage:
    path: str
    title: str
    markdown: str
    #: the list the page belongs to (see :func:`groups_of`), or one of :data:`TABLES`
    group: str = ""
    #: files of the page besides its Markdown and HTML (its charts): (path, text)
    extra: tuple[tuple[str, str], ...] = ()


#: where a game stands in a list: :attr:`GameSummary.sort_key`
SortKey = tuple[datetime, int]


@dataclass
class Lists:
    """Which lists :func:`all_indexes` makes, and which of their pages it may keep.

    ``wanted`` maps each list to make (see :func:`groups_of`) to the earliest
    place (:data:`SortKey`) at which a game came, changed or went; ``None``
    makes every list in full.  A block of a list that ends before that place
    is the same as the last build made it, and is not made again if
    ``reuse(path)`` says the last build has it: its path goes to ``kept``.
    """

    wanted: Mapping[str, SortKey] | None = None
    reuse: Callable[[str], bool] = lambda path: False
    kept: list[str] = field(default_factory=list)

    def make(self, group: str) -> bool:
        return self.wanted is None or group in self.wanted

    def first_block(self, group: str, games: Sequence[GameSummary]) -> int:
        """The index of the first block of ``group`` (``games``) to make again."""
        if self.wanted is None:
            return 0
        changed = bisect_left([s.sort_key for s in games], self.wanted[group])
        # the block before the change may be the last one before: its "newer" link
        # comes or goes with the number of blocks
        return max(0, changed - 1) // BLOCK


def groups_of(s: GameSummary) -> set[str]:
    """The lists that show ``s``: all games, its game, its month, each of its players."""
    groups = {"all", f"game/{s.game}", f"month/{s.month}"}
    groups.update(f"player/{seat.player_id}" for seat in s.seats if seat.player_id is not None)
    return groups


def month_name(month: str) -> str:
    year, number = month.split("-")
    return f"{MONTHS[int(number) - 1]} {year}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# -- rows ---------------------------------------------------------------------


class Rows:
    """The cells of each game's row, made once per build however many lists show it."""

    def __init__(self) -> None:
        self._cells: dict[int, tuple[str, str, str, str, str]] = {}

    def cells(self, s: GameSummary) -> tuple[str, str, str, str, str]:
        """Finished, game title, players and scores, winners, moves (Markdown)."""
        cells = self._cells.get(s.id)
        if cells is None:
            scores = s.scores()
            players = ", ".join(
                f"{md_name(seat.name)} {'' if scores[i] is None else scores[i]}".rstrip()
                for i, seat in enumerate(s.seats))
            winners = and_list([md_name(s.seats[w].name) for w in s.winners()]) or "none"
            title = f"{md_text(game_display_title(s.game))} #{s.id}"
            cells = (day(s.finished_at), title, players, winners, str(s.seq))
            self._cells[s.id] = cells
        return cells


#: (header, alignment, cell): a cell is made from the link prefix back to the
#: site's top, the game's common cells and the game
Column = tuple[str, str, Callable[[str, tuple[str, ...], GameSummary], str]]

COLUMNS: list[Column] = [
    ("Finished", "---", lambda up, c, s: c[0]),
    ("Game", "---", lambda up, c, s: f"[{c[1]}]({up}{paths.html(paths.game_page(s.id))})"),
    ("Players and scores", "---", lambda up, c, s: c[2]),
    ("Winner", "---", lambda up, c, s: c[3]),
    ("Moves", "---:", lambda up, c, s: c[4]),
]


#: what a rating change's mark says (``RatingChange.marked``)
MARKS = {"timeouts": "decided partly by timeouts", "dropped": "a player dropped out"}


def signed(change: float) -> str:
    change = round(change, 1)
    return "±0.0" if change == 0 else f"{change:+.1f}"


def _player_columns(player_id: int, ratings: Ratings | None = None) -> list[Column]:
    def seat_of(s: GameSummary) -> int:
        return next(i for i, seat in enumerate(s.seats) if seat.player_id == player_id)

    def place(up: str, c: tuple[str, ...], s: GameSummary) -> str:
        rank = s.ranks()[seat_of(s)]
        return "" if rank is None else str(rank)

    def score(up: str, c: tuple[str, ...], s: GameSummary) -> str:
        value = s.scores()[seat_of(s)]
        return "" if value is None else str(value)

    def rating(up: str, c: tuple[str, ...], s: GameSummary) -> str:
        change = ratings.changes.get((s.id, player_id)) if ratings is not None else None
        if change is None:
            return ""
        mark = f" ({MARKS[change.marked]})" if change.marked in MARKS else ""
        return f"{change.after:.1f} ({signed(change.after - change.before)}){mark}"

    columns = COLUMNS[:2] + [("Place", "---:", place), ("Score", "---:", score)]
    if ratings is not None:
        columns.append(("Rating after", "---", rating))
    return columns + COLUMNS[2:]


def rating_lines(current: Sequence[RatingNow]) -> str:
    """A player's (or the bots') ratings, one line per game."""
    return "\n".join(f"- Rating at {md_text(game_display_title(r.kind))}: {r.shown:.1f} after "
                     f"{_plural(r.games, 'rated game')}" for r in current)


def ratings_tables(ratings: Ratings, names: Mapping[int, str]) -> str:
    """The players' page's tables of ratings, one per game, best first; the bots apart."""
    if not ratings.current:
        return ""
    out = ["## Ratings", "",
           "A multiplayer rating per game (openskill's Weng-Lin model): it moves with the "
           "places of every finished game, from 0 for a newcomer up as the games make it "
           "surer. Bots are rated apart, as one player per game; a game decided partly by "
           "timeouts or by a player who dropped out is rated but marked on the players' "
           "pages."]
    kinds = sorted({r.kind for r in ratings.current})
    for kind in kinds:
        people = sorted((r for r in ratings.current
                         if r.kind == kind and r.player_id in names),
                        key=lambda r: (-r.shown, names[r.player_id].casefold(), r.player_id))
        bots = [r for r in ratings.current if r.kind == kind and r.player_id is None]
        out += ["", f"### {md_text(game_display_title(kind))}", ""]
        if people:
            out += [table_row(["Player", "Rating", "Rated games"]), "|---|---:|---:|"]
            for r in people:
                page = paths.rel(paths.PLAYERS_INDEX, paths.html(paths.player_page(r.player_id)))
                out.append(table_row([f"[{md_name(names.get(r.player_id, '?'))}]({page})",
                                      f"{r.shown:.1f}", str(r.games)]))
        for bot in bots:
            out += ["", f"The bots: {bot.shown:.1f} after {_plural(bot.games, 'rated game')}."]
    return "\n".join(out)


def games_table(rows: Rows, page: str, games: Sequence[GameSummary],
                columns: Sequence[Column]) -> str:
    """A table of ``games``, newest first, on ``page``."""
    up = paths.root(page)
    lines = [table_row([c[0] for c in columns]), "|" + "|".join(c[1] for c in columns) + "|"]
    for s in reversed(games):
        cells = rows.cells(s)
        lines.append(table_row([c[2](up, cells, s) for c in columns]))
    return "\n".join(lines)


def game_list(rows: Rows, lists: Lists, group: str, front: str, title: str, intro: str,
              games: Sequence[GameSummary], columns: Sequence[Column] = COLUMNS,
              title_md: str = "") -> list[IndexPage]:
    """The pages of the list ``group`` that show ``games`` (oldest first in, newest first out).

    ``title_md`` is the title already escaped for Markdown, when it is a name.
    The blocks ``lists`` keeps are not made (their paths go to ``lists.kept``).
    """
    title_md = title_md or md_text(title)
    head = f"# {title_md}\n\n{intro}\n\n" if intro else f"# {title_md}\n\n"
    if len(games) <= BLOCK:
        body = games_table(rows, front, games, columns) if games else "No finished games yet."
        return [IndexPage(front, title, head + body + "\n", group)]
    blocks = [games[i:i + BLOCK] for i in range(0, len(games), BLOCK)]
    first = lists.first_block(group, games)
    pages = []
    links = []
    for number, block in enumerate(blocks, start=1):
        path = paths.block_page(front, number)
        span = f"games {(number - 1) * BLOCK + 1}–{(number - 1) * BLOCK + len(block)}"
        dates = f"{day(block[0].finished_at)} to {day(block[-1].finished_at)}"
        links.append(f"- [{span.capitalize()}]({paths.rel(front, paths.html(path))}), "
                     f"{dates}")
        if number <= first and lists.reuse(path):
            lists.kept.append(path)
            continue
        nav = [f"[Newest games]({paths.rel(path, paths.html(front))})"]
        if number > 1:
            older = paths.html(paths.block_page(front, number - 1))
            nav.append(f"[older]({paths.rel(path, older)})")
        if number < len(blocks):
            newer = paths.html(paths.block_page(front, number + 1))
            nav.append(f"[newer]({paths.rel(path, newer)})")
        block_title = f"{title}: {span}"
        pages.append(IndexPage(
            path, block_title,
            f"# {title_md}: {span}\n\n{dates}, newest first. " + " · ".join(nav)
            + "\n\n" + games_table(rows, path, block, columns) + "\n", group))
    newest = games[-FRONT:]
    text = (head + f"The newest {len(newest)} of {len(games)} games:\n\n"
            + games_table(rows, front, newest, columns)
            + f"\n\n## All games, {BLOCK} to a page\n\n" + "\n".join(reversed(links)) + "\n")
    pages.append(IndexPage(front, title, text, group))
    return pages


# -- the indexes ------------------------------------------------------------------


@dataclass
class PlayerStats:
    player_id: int
    name: str
    games: list[GameSummary]
    wins: int = 0
    placings: int = 0
    placed: int = 0

    @property
    def average_placing(self) -> str:
        return f"{self.placings / self.placed:.2f}" if self.placed else "–"


def player_stats(summaries: Sequence[GameSummary]) -> list[PlayerStats]:
    """Every player who held a seat, sorted by name, with games, wins and placings."""
    stats: dict[int, PlayerStats] = {}
    for s in summaries:
        ranks = (s.result or {}).get("ranks") or ()
        for i, seat in enumerate(s.seats):
            if seat.player_id is None:
                continue
            entry = stats.get(seat.player_id)
            if entry is None:
                entry = stats[seat.player_id] = PlayerStats(
                    seat.player_id, seat.player_name or seat.name, [])
            if not entry.games or entry.games[-1] is not s:
                entry.games.append(s)
            rank = ranks[i] if i < len(ranks) else None
            if rank is not None:
                entry.placed += 1
                entry.placings += rank
                entry.wins += rank == 1
    return sorted(stats.values(), key=lambda p: (p.name.casefold(), p.name, p.player_id))


def all_games(rows: Rows, lists: Lists, summaries: Sequence[GameSummary]) -> list[IndexPage]:
    if not lists.make("all"):
        return []
    nav = (f"{_plural(len(summaries), 'finished game')}, newest first. Also "
           "[by game](by-game/index.html), [by player](players/index.html), "
           "[by month](months/index.html), as [statistics](statistics/index.html) "
           "and as a [feed](feed.xml).")
    return game_list(rows, lists, "all", paths.INDEX, "Finished games", nav, summaries)


def by_game(rows: Rows, lists: Lists, summaries: Sequence[GameSummary]) -> list[IndexPage]:
    groups: dict[str, list[GameSummary]] = defaultdict(list)
    for s in summaries:
        groups[s.game].append(s)
    pages = []
    table = [table_row(["Game", "Finished games", "Last finished"]), "|---|---:|---|"]
    for name in sorted(groups):
        games = groups[name]
        title = game_display_title(name)
        front = paths.by_game(name)
        table.append(table_row([
            f"[{md_text(title)}]({paths.rel(paths.BY_GAME_INDEX, paths.html(front))})",
            str(len(games)), day(games[-1].finished_at)]))
        if not lists.make(f"game/{name}"):
            continue
        game = game_or_none(name)
        about = []
        if game is not None:
            about.append(block_safe(md_text(game.description)) if game.description else "")
            data_page = paths.rel(front, paths.html(about_page(name)))
            about.append(f"{game.min_players} to {game.max_players} players; rules version "
                         f"{md_text(game.rules_version)}, data version "
                         f"{md_text(game.data_version)} ([about the data]({data_page})).")
        about.append(f"{_plural(len(games), 'finished game')}, newest first.")
        pages += game_list(rows, lists, f"game/{name}", front, title,
                           "\n\n".join(a for a in about if a), games)
    pages.append(IndexPage(paths.BY_GAME_INDEX, "Games",
                           "# Games\n\n" + "\n".join(table) + "\n", TABLES[0]))
    return pages


def players(rows: Rows, lists: Lists, summaries: Sequence[GameSummary],
            ratings: Ratings | None = None) -> list[IndexPage]:
    stats = player_stats(summaries)
    table = [table_row(["Player", "Games", "Wins", "Average placing"]), "|---|---:|---:|---:|"]
    pages = []
    for p in stats:
        front = paths.player_page(p.player_id)
        table.append(table_row([
            f"[{md_name(p.name)}]({paths.rel(paths.PLAYERS_INDEX, paths.html(front))})",
            str(len(p.games)), str(p.wins), p.average_placing]))
        if not lists.make(f"player/{p.player_id}"):
            continue
        intro = (f"- Games: {len(p.games)}\n- Wins: {p.wins}\n"
                 f"- Average placing: {p.average_placing} (1 is first)")
        if ratings is not None and ratings.of(p.player_id):
            intro += "\n" + rating_lines(ratings.of(p.player_id))
        pages += game_list(rows, lists, f"player/{p.player_id}", front, p.name, intro, p.games,
                           _player_columns(p.player_id, ratings), title_md=md_name(p.name))
    text = ("# Players\n\nEveryone who held a seat in a finished game; bots that played "
            "a seat of their own are not listed. A shared place counts for each.\n\n"
            + ("\n".join(table) if stats else "No players yet.") + "\n")
    if ratings is not None and ratings.current and stats:
        text += "\n" + ratings_tables(ratings, {p.player_id: p.name for p in stats}) + "\n"
    pages.append(IndexPage(paths.PLAYERS_INDEX, "Players", text, TABLES[1]))
    return pages


def months(rows: Rows, lists: Lists, summaries: Sequence[GameSummary]) -> list[IndexPage]:
    groups: dict[str, list[GameSummary]] = defaultdict(list)
    for s in summaries:
        groups[s.month].append(s)
    table = [table_row(["Month", "Finished games"]), "|---|---:|"]
    pages = []
    for month in sorted(groups, reverse=True):
        front = paths.month_page(month)
        table.append(table_row([
            f"[{month_name(month)}]({paths.rel(paths.MONTHS_INDEX, paths.html(front))})",
            str(len(groups[month]))]))
        if not lists.make(f"month/{month}"):
            continue
        pages += game_list(rows, lists, f"month/{month}", front,
                           f"Games finished in {month_name(month)}",
                           f"{_plural(len(groups[month]), 'game')}, newest first.",
                           groups[month])
    text = "# By month\n\n" + ("\n".join(table) if groups else "No finished games yet.") + "\n"
    pages.append(IndexPage(paths.MONTHS_INDEX, "By month", text, TABLES[2]))
    return pages


def all_indexes(summaries: Sequence[GameSummary], lists: Lists | None = None,
                ratings: Ratings | None = None) -> list[IndexPage]:
    """Every index page, sorted by path (``summaries`` oldest first).

    With ``lists``, only the pages it wants (and the tables of lists, which are
    made from every game); the paths of the pages it keeps go to ``lists.kept``.
    ``ratings`` (``collect.ratings``) puts the players' ratings on their pages.
    """
    rows = Rows()
    lists = lists or Lists()
    pages = (all_games(rows, lists, summaries) + by_game(rows, lists, summaries)
             + players(rows, lists, summaries, ratings) + months(rows, lists, summaries))
    return sorted(pages, key=lambda p: p.path)
