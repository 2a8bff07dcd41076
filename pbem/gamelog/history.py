"""What happened in a game, read from the move log's rows, grouped by round and turn.

Every move row carries its sentences, written once when the move was recorded
(``sentences``), in every language pbem speaks: English in ``Move.said_author``
and ``Move.said_others``, the others in ``Move.said_in``.  Mails, pages and
refusals read rows here in their reader's language and never replay the log: a
turn mail costs the same at move 5 and at move 500.  A row recorded before
sentences were kept per language reads English.  Notices (timeouts, bots,
vacations, take-backs) stand after the move they followed, in the reader's
language too where they were written so (``notice_columns``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

import peewee as pw

from pbem.gamelog import tell
from pbem.games import UnknownGameError, get_game
from pbem.games.protocol import EVERYTHING, Rules, State
from pbem.i18n import DEFAULT, LANGUAGES, Phrase, say
from pbem.models import Game, Move, Notice, Talk
from pbem.sqlcache import Prepared

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
    #: the rows of the log it tells, oldest first; a seat's history has the seat's move
    #: before them too, and each row knows the move take-back would take
    #: (``takeback_seq``), for its page (``moves.takeback_candidate``)
    log: list[Move] = field(default_factory=list, repr=False, compare=False)
    #: whose history it is, where it is one seat's (``seat_history``)
    seat: int | None = None

    def __bool__(self) -> bool:
        return bool(self.rounds)

    @property
    def lines(self) -> list[str]:
        """Every sentence in order, without the grouping."""
        return [line for r in self.rounds for t in r.turns for line in t.lines]


def sentences(rules: Rules, before: State, seat: int, move: str,
              after: State) -> dict[str, Any]:
    """A move's sentences as ``Move`` stores them: as its author and as everyone else
    reads them, in every language pbem speaks (written once, when it is recorded)."""
    # one question of the game for them all (``describe_all``): it reads the move once
    told = rules.describe_all(before, seat, move, after, tuple(LANGUAGES))
    author, others = told[DEFAULT]
    return {"said_author": author, "said_others": others,
            "said_in": {lang: list(pair) for lang, pair in told.items() if lang != DEFAULT}}


def is_told(row: Move) -> bool:
    """Whether a history tells the move: its game gave it no sentence (menu navigation,
    ``Rules.describe``) when it was recorded.  A row from before sentences were stored
    (no words in any language) is told, from its notation."""
    return told(row.said_author, getattr(row, "said_in", None))


def told(said_author: str | None, said_in: Any) -> bool:
    """``is_told`` of a row's two columns; ``said_in`` as the model reads it (a dict) or
    as the database gives it to a raw query (JSON text)."""
    return bool(said_author) or not said_in or said_in in ("{}", "null")


def said(row: Move, viewer: int | None, lang: str = DEFAULT) -> str:
    """The move's sentence as ``viewer`` may read it, in ``lang`` where the row has it,
    else in English (``{0}`` placeholders kept).  A move not told (``is_told``) reads as
    its notation, for the take-back that names it; histories leave it out."""
    if not is_told(row):  # no history shows it; a take-back still names the step
        return f"{{{row.seat}}}: {row.move}"
    author = viewer == row.seat or viewer == EVERYTHING
    text = ""
    if lang != DEFAULT:
        pair = (getattr(row, "said_in", None) or {}).get(lang)
        if isinstance(pair, list) and len(pair) == 2:
            text = pair[0] if author else pair[1]
    if not text:
        text = row.said_author if author else row.said_others
    if text:
        return text
    # a move recorded before sentences were stored: no secret may leak from the notation
    if author:
        return f"{{{row.seat}}}: {row.move}"
    return f"{{{row.seat}}} moved"


def notice_columns(text: str | Phrase) -> dict[str, Any]:
    """A notice's ``text`` (English) and ``said_in`` (every other language) for ``text``:
    a ``Phrase`` is said in each language now; a plain string is English only."""
    if isinstance(text, str):
        return {"text": text, "said_in": {}}
    return {"text": say(text, DEFAULT),
            "said_in": {lang: say(text, lang) for lang in LANGUAGES if lang != DEFAULT}}


def notice_text(notice: Notice, lang: str = DEFAULT) -> str:
    """A notice as a reader of ``lang`` reads it (English where it was not written in
    ``lang``)."""
    if lang != DEFAULT:
        text = (getattr(notice, "said_in", None) or {}).get(lang)
        if isinstance(text, str) and text:
            return text
    return notice.text


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


def _told_rows(game: Game, *extra: Any) -> pw.ModelSelect:
    """The columns of the move log a history tells (and ``extra`` ones)."""
    return Move.select(Move.seq, Move.seat, Move.move, Move.round, Move.turn_seq,
                       Move.turn_end, Move.said_author, Move.said_others, Move.said_in,
                       *extra).where(Move.game == game)


def history(game: Game, viewer: int | None, since_seq: int = 0,
            limit: int = HISTORY_LIMIT, lang: str = DEFAULT) -> History:
    """The moves after ``since_seq`` (and the notices among them) as ``viewer`` reads
    them, in ``lang`` (English where a row has no words in ``lang``)."""
    query = _told_rows(game).where(Move.seq > since_seq)
    rows = list(query.order_by(Move.seq.desc()).limit(limit))[::-1]
    # counted only when the rows may not be all (a history is mostly shorter)
    earlier = max(0, query.count() - limit) if len(rows) >= limit else 0
    return _told(game, viewer, since_seq, rows, earlier, lang)


def seat_history(game: Game, seat_index: int, in_turn: bool, limit: int = HISTORY_LIMIT,
                 lang: str = DEFAULT) -> History:
    """What the seat missed, as it reads it: ``history`` from ``since_seq_for``, with
    the seat's last turns found in the same statement as the moves after them (every
    page and turn mail of a seat tells this)."""
    # the move that began them comes too (its seat's move: take-back may take it)
    found = _SEAT_ROWS.rows(game.id, seat_index, 0 if in_turn else 1, limit + 1)[::-1]
    rows = [row for row in found if row.seq > row.since_seq]
    if len(rows) >= limit:  # cut: how many came before is asked apart
        told = history(game, seat_index, since_seq_for(game, seat_index, in_turn), limit,
                       lang)
    else:
        # no move at all: the log is empty (a dense log, and ``game`` as read with it),
        # and only notices and talk may follow
        told = _told(game, seat_index, found[0].since_seq if found else game.seq, rows, 0,
                     lang)
        told.log = found
    told.seat = seat_index
    return told


def _seat_rows(game_id: int, seat_index: int, skip: int, limit: int) -> pw.ModelSelect:
    """The moves after the seat's last turn (``skip`` 0) or the one before (1) and the
    move that ended that turn, newest first, each with where they begin (``since_seq``)
    and the seat's move that take-back would take (``takeback_seq``, ``takeback_query``:
    the seat page offers it)."""
    ends = (Move.select(Move.seq)
            .where(Move.game == game_id, Move.seat == seat_index, Move.turn_end)
            .order_by(Move.seq.desc()).limit(1).offset(skip))
    since = pw.fn.COALESCE(ends, 0)
    takeback = takeback_query(game_id, seat_index, Move.seq)
    return (_told_rows(game_id, since.alias("since_seq"), takeback.alias("takeback_seq"))
            .where(Move.seq >= since).order_by(Move.seq.desc()).limit(limit))


def takeback_query(game_id: Any, seat_index: Any, *columns: Any) -> pw.ModelSelect:
    """The seat's last move, if it is not a commit point and none has been passed since
    (``columns`` of it; ``moves.takeback_candidate``)."""
    # the newest commit point is near the end of the log: read it from the end
    newest = (Move.select(Move.seq).where(Move.game == game_id, Move.commit)
              .order_by(Move.seq.desc()).limit(1))
    return (Move.select(*columns).where(Move.game == game_id, Move.seat == seat_index,
                                        Move.seq > pw.fn.COALESCE(newest, 0),
                                        Move.kind == Move.PLAYER)
            .order_by(Move.seq.desc()).limit(1))


#: pages and turn mails tell this on every view: its SQL is built once (``pbem.sqlcache``)
_SEAT_ROWS = Prepared(Move, _seat_rows, 4)
_NOTICES = Prepared(Notice, lambda game_id, from_seq, since_seq: (
    Notice.select(Notice.seq, Notice.text, Notice.said_in)
    .where(Notice.game == game_id, Notice.seq >= from_seq, Notice.seq > since_seq)
    .order_by(Notice.seq, Notice.id)), 3)
_TALK = Prepared(Talk, lambda game_id, since_seq: (
    Talk.select().where(Talk.game == game_id, Talk.after_move_seq >= since_seq)
    .order_by(Talk.after_move_seq, Talk.id)), 2)


def _told(game: Game, viewer: int | None, since_seq: int, rows: list[Move], earlier: int,
          lang: str) -> History:
    """``rows`` of the log after ``since_seq`` with the notices and talk among them."""
    first_seq = rows[0].seq if rows else game.seq + 1
    notices: dict[int, list[str]] = {}
    # nothing was said after ``aside_seq``: a history after it needs to ask for no notice
    # or talk (unknown on a game row read without that column: then ask)
    aside_seq = game.__data__.get("aside_seq") if isinstance(game, Game) else None
    asides = aside_seq is None or aside_seq >= since_seq
    for notice in _NOTICES.rows(game.id, first_seq - 1, since_seq) if asides else ():
        notices.setdefault(notice.seq, []).append(notice_text(notice, lang))
    out = History(earlier=earlier, log=rows)
    current_round = rows[0].round if rows else None

    # table talk stands after the move it followed, like notices (each message a line)
    talked = said_after(game, max(since_seq, first_seq - 1) if rows else since_seq) if (
        asides) else {}

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
        if is_told(row):
            add(row.round, row.seat, (row.seat, row.turn_seq, count),
                said(row, viewer, lang))
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
    rules = _rules_of(game)
    for r in out.rounds:
        r.turns = _in_sentences(r.turns, lang, rules)
    return out


def _rules_of(game: Game) -> Rules | None:
    """The game's rules, for its own words of a turn or of alike moves (optional hooks)."""
    try:
        return get_game(game.game)
    except UnknownGameError:  # a game this pbem no longer has still reads its history
        return None


# The games' own words of a turn and of alike lines, kept by what they are told: a
# history tells the same turns again at every page and mail of the game (the confirm
# page, the seat page after it, the turn mail), and each engine call costs the more for
# being made among the server's other work (issue 23).  Keyed by the game's bound
# method (equal only for the same rules object and function, which the key keeps
# alive) and the strings it reads; the answers are strings or None.
@functools.lru_cache(maxsize=4096)
def _turn_told(tell_turn: tell.Summary, seat: int, said: tuple[str, ...],
               lang: str) -> str | None:
    return tell_turn(seat, list(said), lang)


@functools.lru_cache(maxsize=1024)
def _plural_told(together: tell.Plural, sentence: str, lang: str) -> str | None:
    return together(sentence, lang)


def _told_by(rules: Rules) -> tuple[tell.Summary, tell.Plural]:
    """``rules.tell_turn`` and ``rules.together``, their answers kept (``_turn_told``)."""
    tell_turn = rules.tell_turn

    def summary(seat: int, said: list[str], lang: str) -> str | None:
        return _turn_told(tell_turn, seat, tuple(said), lang)

    return summary, functools.partial(_plural_told, rules.together)


def _in_sentences(turns: list[Turn], lang: str, rules: Rules | None) -> list[Turn]:
    """Each seat's turn as one line, and alike lines of several seats as one
    (:mod:`pbem.gamelog.tell`)."""
    out: list[Turn] = []
    run: list[Turn] = []  # consecutive turns of seats, between notices and talk
    summary, plural = _told_by(rules) if rules is not None else (None, None)

    def flush() -> None:
        joined = tell.together([(t.seat, t.lines[0]) for t in run], lang, plural)
        position = 0
        for seats, line in joined:
            first = run[position]
            mine = any(t.mine for t in run[position:position + len(seats)])
            out.append(Turn(first.seat, [line], mine=mine, key=first.key))
            position += len(seats)
        run.clear()

    for turn in turns:
        if turn.seat is None or turn.talk:
            flush()
            out.append(turn)
            continue
        run.append(Turn(turn.seat, [tell.one_turn(turn.seat, turn.lines, lang, summary)],
                        mine=turn.mine, key=turn.key))
    flush()
    return out


# -- table talk in histories ------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{(\d+)\}")


@dataclass(frozen=True)
class Said:
    """One message as a history line: ``{n}: text`` (placeholders in the text disarmed)."""

    seat: int
    after_move_seq: int
    line: str


def line_of(row: Talk) -> str:
    """The message as a history line; a ``{0}`` the writer typed stays text, not a name."""
    return f"{{{row.seat}}}: " + _PLACEHOLDER.sub("{\u2060\\1}", row.text)


def said_after(game: Game, since_seq: int) -> dict[int, list[Said]]:
    """The messages written after move ``since_seq``, by the move they followed."""
    out: dict[int, list[Said]] = {}
    game_id = game.id if isinstance(game, Game) else game
    for row in _TALK.rows(game_id, since_seq):
        out.setdefault(row.after_move_seq, []).append(
            Said(row.seat, row.after_move_seq, line_of(row)))
    return out
