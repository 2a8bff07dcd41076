"""What happened in a game, read from the move log's rows, grouped by round and turn.

Every move row carries its sentences, written once when the move was recorded
(``Move.said_author`` and ``Move.said_others``), so mails, pages and refusals
read rows here and never replay the log: a turn mail costs the same at move 5
and at move 500.  Notices (timeouts, bots, vacations, take-backs) stand after
the move they followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import peewee as pw

from pbem.games.protocol import EVERYTHING
from pbem.lifecycle import talk
from pbem.models import Game, Move, Notice

#: the most moves one history shows; older ones are counted, not listed
HISTORY_LIMIT = 300


@dataclass
class Turn:
    """Consecutive steps of one seat's turn (``seat`` None: notices of the game)."""

    seat: int | None
    lines: list[str] = field(default_factory=list)
    #: the reader's own turn, which pages mark
    mine: bool = False
    #: what makes steps one turn: (seat, its turn number), or the notices' move
    key: object = field(default=None, repr=False, compare=False)
    #: a message of table talk (``seat`` wrote it), not a step of the game
    talk: bool = False


@dataclass
class Round:
    number: int
    turns: list[Turn] = field(default_factory=list)


@dataclass
class History:
    rounds: list[Round] = field(default_factory=list)
    #: moves before the first one shown, left out for length
    earlier: int = 0

    def __bool__(self) -> bool:
        return bool(self.rounds)

    @property
    def lines(self) -> list[str]:
        """Every sentence in order, without the grouping."""
        return [line for r in self.rounds for t in r.turns for line in t.lines]


def said(row: Move, viewer: int | None) -> str:
    """The move's sentence as ``viewer`` may read it (``{0}`` placeholders kept)."""
    if viewer == row.seat or viewer == EVERYTHING:
        text = row.said_author
    else:
        text = row.said_others
    if text:
        return text
    # a move recorded before sentences were stored: no secret may leak from the notation
    if viewer == row.seat or viewer == EVERYTHING:
        return f"{{{row.seat}}}: {row.move}"
    return f"{{{row.seat}}} moved"


def since_seq_for(game: Game, seat_index: int, in_turn: bool) -> int:
    """Where a seat's history starts: after its last turn, so it reads what it missed.

    While the seat is in a turn, that is the end of its previous turn (the steps of
    the current one follow); while it waits, the end of the turn before its last,
    so that its own last turn stays in view.
    """
    ends = (Move.select(Move.seq)
            .where(Move.game == game, Move.seat == seat_index, Move.turn_end)
            .order_by(Move.seq.desc()).limit(1 if in_turn else 2))
    seqs = [row.seq for row in ends]
    if in_turn:
        return seqs[0] if seqs else 0
    return seqs[1] if len(seqs) == 2 else 0


def since_round(game: Game, first_round: int) -> int:
    """The seq after which the moves of ``first_round`` and later begin."""
    first = (Move.select(pw.fn.MIN(Move.seq))
             .where(Move.game == game, Move.round >= first_round).scalar())
    return (first - 1) if first else game.seq


def history(game: Game, viewer: int | None, since_seq: int = 0,
            limit: int = HISTORY_LIMIT) -> History:
    """The moves after ``since_seq`` (and the notices among them) as ``viewer`` reads them."""
    query = Move.select(Move.seq, Move.seat, Move.move, Move.round, Move.turn_seq,
                        Move.turn_end, Move.said_author, Move.said_others).where(
        Move.game == game, Move.seq > since_seq)
    total = query.count()
    earlier = max(0, total - limit)
    rows = list(query.order_by(Move.seq.desc()).limit(limit))[::-1]
    first_seq = rows[0].seq if rows else game.seq + 1
    notices: dict[int, list[str]] = {}
    for notice in (Notice.select(Notice.seq, Notice.text)
                   .where(Notice.game == game, Notice.seq >= first_seq - 1,
                          Notice.seq > since_seq)
                   .order_by(Notice.seq, Notice.id)):
        notices.setdefault(notice.seq, []).append(notice.text)
    out = History(earlier=earlier)
    current_round = rows[0].round if rows else None

    # table talk stands after the move it followed, like notices (each message a line)
    talked = talk.said_after(game, max(since_seq, first_seq - 1) if rows else since_seq)

    def add(round_number: int | None, seat: int | None, key: object, line: str,
            is_talk: bool = False) -> None:
        number = round_number if round_number is not None else (
            out.rounds[-1].number if out.rounds else 0)
        if not out.rounds or out.rounds[-1].number != number:
            out.rounds.append(Round(number))
        turns = out.rounds[-1].turns
        if is_talk or not turns or turns[-1].key != key:
            turns.append(Turn(seat, mine=seat is not None and seat == viewer, key=key,
                              talk=is_talk))
        turns[-1].lines.append(line)

    def add_talk(round_number: int | None, seq: int) -> None:
        for message in talked.pop(seq, []):
            add(round_number, message.seat, ("talk", seq), message.line, is_talk=True)

    add_talk(current_round, since_seq if not rows else first_seq - 1)
    for text in notices.pop(first_seq - 1, []):
        add(current_round, None, "notice", text)
    turn_of: dict[int, int] = {}  # seat -> how many of its turns ended so far
    for row in rows:
        count = turn_of.get(row.seat, 0)
        add(row.round, row.seat, (row.seat, row.turn_seq, count), said(row, viewer))
        if row.turn_end:  # the next step of this seat is another turn, whatever its number
            turn_of[row.seat] = count + 1
        for text in notices.pop(row.seq, []):
            add(None, None, ("notice", row.seq), text)
        add_talk(None, row.seq)
    for seq in sorted(notices):
        for text in notices[seq]:
            add(None, None, ("notice", seq), text)
    for seq in sorted(talked):
        add_talk(None, seq)
    return out
