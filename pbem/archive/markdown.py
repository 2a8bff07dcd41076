"""The Markdown page of one finished game, written as a visitor over its replay.

Every move reads as the sentence stored on its row when it was recorded
(``Move.said_author``: what its author read, secrets included, since the game
is over); only a row without one (written by an older pbem) is described from
the replay, by the game's ``describe`` as ``EVERYTHING`` sees it.  The replay
gives the rest through the game protocol: ``view(state, EVERYTHING)`` with
the game's own ``render_text`` and picture for the setup and the state after each
round (:func:`pbem.archive.drawn.draw`, or as an earlier build drew and kept them),
``result`` for the standings.  A game shapes its archive page by what its
view and ``render_text`` show; no code here knows any single game.

Within a round, the consecutive steps of one seat's turn are one list item
with the steps as a sub-list (a Macao round of 60 steps reads as its turns);
every step keeps its own permalink, ``#m<n>``.

Names are escaped for Markdown (:mod:`pbem.archive.text`) wherever they go
into running text; in the plain-text state blocks (indented code blocks)
they stay as they are, since Markdown escapes code for HTML itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pbem.archive import paths
from pbem.archive.collect import GameSummary, LoggedMove
from pbem.archive.drawn import Tables, draw
from pbem.archive.text import (
    block_safe,
    code_block,
    fill,
    md_name,
    md_text,
    number,
    one_line,
    table_row,
    when,
)
from pbem.archive.visit import Visitor
from pbem.gamelog import tell
from pbem.gamelog.records import GameRecord
from pbem.games.protocol import EVERYTHING, Rules, State
from pbem.i18n import DEFAULT
from pbem.models import Move

CHART_TITLE = "Score of each player after each round"


def game_title(summary: GameSummary, title: str) -> str:
    return f"{title} #{summary.id}"


def and_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def player_link(page: str, summary: GameSummary, seat: int) -> str:
    """A seat's name, linked to its player's page when a person holds the seat."""
    info = summary.seats[seat]
    name = md_name(info.name)
    if info.player_id is None:
        return name
    return f"[{name}]({paths.rel(page, paths.html(paths.player_page(info.player_id)))})"


def option_lines(game: Rules | None, options: dict[str, Any]) -> str:
    labels = {o.name: o.label for o in game.options} if game is not None else {}
    if not options:
        return "none"
    return "; ".join(f"{md_text(labels.get(k, k))}: {md_text(_option_value(options[k]))}"
                     for k in sorted(options))


def _option_value(value: Any) -> str:
    """A variant played or not reads "yes"/"no", as the new-game form asked it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def move_line(index: int, sentence: str, kind: str) -> str:
    """One step as a Markdown list item (without its indent), with its permalink."""
    n = index + 1
    note = " *(default move after a timeout)*" if kind == Move.TIMEOUT else ""
    return f"- [{n}](#m{n}){{#m{n}}} {sentence}{note}"


class _Filled(dict[str, str]):
    """Sentences with a page's names filled in (:func:`fill`), each one once: a game's
    steps say the same few things again and again."""

    def __init__(self, md_names: Sequence[str]) -> None:
        super().__init__()
        self.md_names = md_names

    def __missing__(self, template: str) -> str:
        text = self[template] = fill(template, self.md_names, name_escape=str)
        return text


@lru_cache(maxsize=4096)
def _turn_told(seat: int, said: tuple[str, ...]) -> str | None:
    """One seat's steps of a turn in one sentence, without the seat (pure, the same for
    the same steps in any game): worded once for each such turn of a build."""
    return tell.without_subject(seat, tell.one_turn(seat, said, DEFAULT))


@dataclass
class _Turn:
    seat: int
    #: the seat's turn number on the rows; None for steps without stored rows
    turn_seq: int | None
    ended: bool
    #: ``(index, line)`` of each step
    steps: list[tuple[int, str]] = field(default_factory=list)
    #: each step's stored sentence (``{n}`` placeholders), for the turn's one sentence
    said: list[str] = field(default_factory=list)


class TurnList:
    """The steps of a stretch of the log, grouped into turns.

    A step joins the item before it when the same seat played it in the same
    turn (``Move.turn_seq``) and the step before did not end that turn.  A
    turn of one step is one line, as every step was before; a longer one is
    an item that names the seat and the moves and tells the turn in one sentence
    (as pages and mails do, :func:`pbem.gamelog.tell.one_turn`), with its steps as a
    sub-list, each with its permalink.
    """

    def __init__(self, md_names: Sequence[str], filled: _Filled | None = None):
        self.md_names = list(md_names)
        self._turns: list[_Turn] = []
        self._filled = filled if filled is not None else _Filled(self.md_names)

    def add(self, index: int, seat: int, turn_seq: int | None, turn_end: bool,
            line: str, said: str = "") -> None:
        last = self._turns[-1] if self._turns else None
        if (last is None or last.ended or last.seat != seat or last.turn_seq != turn_seq):
            last = _Turn(seat, turn_seq, turn_end)
            self._turns.append(last)
        last.steps.append((index, line))
        last.said.append(said)
        last.ended = turn_end

    def add_line(self, line: str) -> None:
        """A line of its own between the turns (table talk)."""
        self._turns.append(_Turn(-1, None, True, [(-1, line)]))

    def _told(self, turn: _Turn) -> str:
        """The turn in one sentence, without its seat (the item names it), or nothing
        where a step has no stored sentence."""
        if not all(turn.said):
            return ""
        told = _turn_told(turn.seat, tuple(turn.said))
        return f" {self._filled[told]}" if told else ""

    def lines(self) -> list[str]:
        out = []
        for turn in self._turns:
            if len(turn.steps) == 1:
                out.append(turn.steps[0][1])
                continue
            name = (self.md_names[turn.seat] if 0 <= turn.seat < len(self.md_names)
                    else str(turn.seat + 1))
            first, last = turn.steps[0][0] + 1, turn.steps[-1][0] + 1
            # "Turn of" first: a name never starts the line, where "1. X" would be a list
            out.append(f"- Turn of {name}, moves {first}–{last}:{self._told(turn)}")
            out += [f"    {line}" for _index, line in turn.steps]
        return out


class GamePage(Visitor):
    """Collects the sections of a game page while the replay runs."""

    def __init__(self, summary: GameSummary, title: str, moves: Sequence[LoggedMove] = (),
                 talk: Sequence[tuple[int, int, str]] = (), kept: Tables | None = None):
        self.summary = summary
        #: the tables an earlier build drew of this game (:mod:`pbem.archive.drawn`)
        self.kept = kept or {}
        #: every table the page shows, by its moment ("setup", "r1", …), and whether
        #: the page drew one of them itself (then they are kept anew)
        self.tables: Tables = {}
        self.drew = False
        #: table talk not yet written, as (the move it followed, seat, text)
        self._talk = list(talk)
        self.title = title
        self.page = paths.game_page(summary.id)
        self.names = summary.names
        self.md_names = [md_name(n) for n in self.names]
        self._filled = _Filled(self.md_names)
        self.moves = list(moves)
        self.game: Rules | None = None
        self.setup = ""
        self.rounds: list[str] = []
        self.round_numbers: list[int] = []
        self._lines: list[str] = []
        self._turns = TurnList(self.md_names, self._filled)
        self.final: State | None = None
        #: the table's pictures (SVG), by file name beside the page: the setup's and
        #: each round's end, for games that draw one
        self.pictures: dict[str, str] = {}

    # -- the replay ---------------------------------------------------------

    def _state_block(self, state: State | None, when: str, alt: str) -> str:
        """The table as its picture (when the game draws one) and as text (``state``
        None: kept, not replayed)."""
        assert self.game is not None
        table = self.kept.get(when)
        if table is None:
            assert state is not None
            table = draw(self.game, state, self.names)
            self.drew = True
        self.tables[when] = table
        svg, text = table[0], code_block(table[1])
        if not svg:
            return text
        name = f"{self.summary.id}-{when}.svg"
        self.pictures[name] = svg
        return f"![{alt}]({name})\n\n{text}"

    def begin(self, game: Rules, record: GameRecord, setup: State) -> None:
        self._begin(game, setup)

    def _begin(self, game: Rules, setup: State | None) -> None:
        self.game = game
        self.setup = self._state_block(setup, "setup", "The table at the start")

    def begin_round(self, number: int, state: State | None) -> None:
        self._lines = [f"## Round {number} {{#round-{number}}}", ""]
        self._turns = TurnList(self.md_names, self._filled)

    def move(self, index: int, seat: int, move: str, before: State, after: State) -> None:
        assert self.game is not None
        row = self.moves[index] if index < len(self.moves) else None
        if row is not None and (row.said or row.untold):
            said, turn_seq, turn_end = row.said, row.turn_seq, row.turn_end
        else:  # no sentence stored: an older pbem's row, or a record without rows
            said = self.game.describe(before, seat, move, after, EVERYTHING)
            turn_seq, turn_end = None, self.game.turn_over(before, seat, move, after)
        self._step(index, seat, said, turn_seq, turn_end,
                   row.kind if row is not None else Move.PLAYER)

    def _step(self, index: int, seat: int, said: str, turn_seq: int | None, turn_end: bool,
              kind: str) -> None:
        self._add_talk(index)  # said before the first move
        if said:  # an empty sentence: the game does not tell the move (menu navigation)
            sentence = self._filled[said]
            self._turns.add(index, seat, turn_seq, turn_end,
                            move_line(index, sentence, kind), said)
        self._add_talk(index + 1)

    def _add_talk(self, upto_seq: int) -> None:
        """Table talk that followed move ``upto_seq`` (or an earlier one), as plain text:
        the writer's words can make no Markdown or HTML (``md_text``)."""
        while self._talk and self._talk[0][0] <= upto_seq:
            _after, seat, text = self._talk.pop(0)
            name = self.md_names[seat] if 0 <= seat < len(self.md_names) else str(seat + 1)
            self._turns.add_line(f"- Table talk, {name}: “{md_text(one_line(text))}”")

    def end_round(self, number: int, state: State | None) -> None:
        self._lines += self._turns.lines()
        self._lines += ["", f"State after the last move of round {number}:", "",
                        self._state_block(state, f"r{number}",
                                          f"The table after round {number}")]
        self.rounds.append("\n".join(self._lines))
        self.round_numbers.append(number)
        self._lines = []
        self._turns = TurnList(self.md_names, self._filled)

    def end(self, state: State | None) -> None:
        self._add_talk(len(self.moves) + 1)
        self._lines += self._turns.lines()
        if self._lines:  # moves after the last round's end (a game that stopped mid-round)
            self.rounds.append("\n".join(self._lines))
        self.final = state

    # -- or without it --------------------------------------------------------

    def retell(self, game: Rules, rounds: Sequence[tuple[int, int, bool]]) -> bool:
        """The page as the replay tells it, told from a replay kept (its rounds, as
        :attr:`pbem.archive.drawn.Course.rounds`) without replaying: every hook the walk
        calls, in its order, without the states, which only a table not kept or a move
        without its stored sentence would need.  False (nothing told) for such a page,
        or rounds that are not this log's: the replay tells it."""
        tables = ["setup"] + [f"r{n}" for n, _moves, ended in rounds if ended]
        if (sum(moves for _number, moves, _ended in rounds) != len(self.moves)
                or not all(when in self.kept for when in tables)
                or not all(row.said or row.untold for row in self.moves)):
            return False
        self._begin(game, None)
        at = 0
        for round_number, moves, ended in rounds:
            self.begin_round(round_number, None)
            for index in range(at, at + moves):
                row = self.moves[index]
                self._step(index, row.seat, row.said, row.turn_seq, row.turn_end, row.kind)
            at += moves
            if ended:
                self.end_round(round_number, None)
        self.end(None)
        return True

    # -- the page -----------------------------------------------------------

    def document(self, result: dict[str, Any], points: Sequence[tuple[str, Sequence[int]]],
                 chart_file: str, notes: Sequence[str] = ()) -> str:
        parts = [self.head(result, rounds=len(self.round_numbers))]
        parts += [f"> {md_text(note)}" for note in notes]
        parts.append(self.players())
        parts.append(self.result(result))
        parts.append(self.chart(points, chart_file))
        parts.append("## Setup {#setup}\n\n" + self.setup)
        parts += self.rounds
        return "\n\n".join(parts) + "\n"

    def head(self, result: dict[str, Any] | None, rounds: int | None) -> str:
        s = self.summary
        game = self.game
        lines = [f"# {md_text(game_title(s, self.title))}: "
                 f"{and_list([md_name(n) for n in self.names])}", ""]
        lines.append(block_safe(self.summary_sentence(result)))
        lines.append("")
        moves = f"{s.seq}" + (f" in {rounds} rounds" if rounds else "")
        month_link = paths.rel(self.page, paths.html(paths.month_page(s.month)))
        game_link = paths.rel(self.page, paths.html(paths.by_game(s.game)))
        record = f"{s.id}.json"
        lines += [
            f"- Game: [{md_text(self.title)}]({game_link})",
            f"- Rules version: {md_text(s.rules_version)}; data version: "
            f"{md_text(s.data_version)}",
            f"- Options: {option_lines(game, s.options)}",
            f"- Seed: {s.seed}",
            f"- Started: {when(s.started_at)}",
            f"- Finished: [{when(s.finished_at)}]({month_link})",
            f"- Moves: {moves}",
            f"- Game record: [{record}]({record}) (JSON; `pbem replay {record}` plays it again)",
        ]
        return "\n".join(lines)

    def summary_sentence(self, result: dict[str, Any] | None) -> str:
        winners = (result or {}).get("winners") or []
        scores = (result or {}).get("scores") or []
        if not winners:
            return "The game ended without a winner."
        names = and_list([md_name(self.names[w]) for w in winners if w < len(self.names)])
        best = scores[winners[0]] if winners[0] < len(scores) else "?"
        verb = "won" if len(winners) == 1 else "shared the win"
        return f"{names} {verb} with a score of {best}."

    def players(self) -> str:
        lines = ["## Players {#players}", "",
                 table_row(["Seat", "Player", "Seat held by"]), "|---:|---|---|"]
        for info in self.summary.seats:
            lines.append(table_row([str(info.index + 1),
                                    player_link(self.page, self.summary, info.index),
                                    info.kind]))
        return "\n".join(lines)

    def result(self, result: dict[str, Any]) -> str:
        scores = result.get("scores") or []
        ranks = result.get("ranks") or []
        tiebreaks = result.get("tiebreaks") or []
        tie_names = result.get("tiebreak_names") or []
        header = ["Place", "Player", "Score"] + [md_text(n) for n in tie_names]
        lines = ["## Result {#result}", "", table_row(header),
                 "|" + "|".join(["---:", "---", "---:"] + ["---:"] * len(tie_names)) + "|"]
        order = sorted(range(len(self.names)),
                       key=lambda s: (ranks[s] if s < len(ranks) else 1_000_000, s))
        for seat in order:
            row = [str(ranks[seat]) if seat < len(ranks) else "",
                   player_link(self.page, self.summary, seat),
                   str(scores[seat]) if seat < len(scores) else ""]
            values = tiebreaks[seat] if seat < len(tiebreaks) else []
            row += [number(v) if isinstance(v, int | float) else md_text(str(v))
                    for v in values[:len(tie_names)]]
            row += [""] * (len(header) - len(row))
            lines.append(table_row(row))
        if tie_names:
            lines += ["", "Ties on the score are broken by "
                      + ", then by ".join(md_text(n) for n in tie_names) + "."]
        details = result.get("details") or []
        if details:
            lines.append("")
            lines += [f"- {block_safe(fill(d, self.md_names, name_escape=str))}" for d in details]
        return "\n".join(lines)

    def chart(self, points: Sequence[tuple[str, Sequence[int]]], chart_file: str) -> str:
        lines = ["## Score chart {#chart}", "", f"![{CHART_TITLE}]({chart_file})", ""]
        lines.append(table_row(["Round"] + [md_name(n) for n in self.names]))
        lines.append("|---|" + "---:|" * len(self.names))
        for label, scores in points:
            link = f"[{label}](#round-{label})" if label.isdigit() else md_text(label)
            lines.append(table_row([link] + [str(v) for v in scores]))
        return "\n".join(lines)


def degraded_document(summary: GameSummary, title: str, game: Rules | None,
                      moves: Sequence[LoggedMove], reason: str) -> str:
    """A page for a game whose record no longer replays: the moves' stored sentences (in
    notation where a row has none), grouped by turn, and the stored result."""
    page = GamePage(summary, title, moves)
    page.game = game
    parts = [page.head(summary.result, rounds=None),
             f"> This game does not replay with this version of pbem ({md_text(reason)}); "
             "its moves are shown as they were recorded and its result as stored when "
             "it ended.",
             page.players()]
    if summary.result:
        parts.append(page.result(summary.result))
    turns = TurnList(page.md_names)
    for index, row in enumerate(moves):
        if row.said:
            sentence, turn_seq = fill(row.said, page.md_names, name_escape=str), row.turn_seq
        else:  # nothing stored and no replay: the notation, and each step on its own
            name = (page.md_names[row.seat] if 0 <= row.seat < len(page.md_names)
                    else str(row.seat))
            sentence, turn_seq = f"{name}: {md_text(row.move)}", None
        turns.add(index, row.seat, turn_seq, row.turn_end or not row.said,
                  move_line(index, sentence, row.kind), row.said)
    parts.append("\n".join(["## Moves {#moves}", ""] + turns.lines()))
    return "\n\n".join(parts) + "\n"
