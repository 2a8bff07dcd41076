"""A game's stored rows checked against the replay of its log, and repaired where they
differ only in order (``pbem verify``, ``pbem verify --repair``).

The move log is the truth: the snapshot (``Game.state``), the stored result and each
move's sentences and columns are what replaying the log with today's engine gives.
A difference is one of two kinds:

* **order only**: the same values in another order: a list (a discard pile) holding
  the same elements, a text (a sentence, a line of a game's own log) made of the same
  words and numbers.  A game played while a rule followed the key order of a dict
  (issue 28: Riga paid for a building in the order of its payment's keys, which
  differs for a state read back from the database) has such differences.  They are
  repairable: the replay is written over the stored rows.
* **real**: anything else (a log that does not replay, another score, another card
  in a hand, a status or result that differs): verify reports it and nothing here
  touches the game.

Sentences are written once, when a move is recorded, and pages, mails and the
archive read them.  A stored sentence that differs from the replay's beyond order is
no error of the game: the words of a game may have changed since (a note, not a
finding).  Rows recorded before sentences were stored (``said_author`` empty) are
not compared.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pbem.gamelog.history import sentences
from pbem.gamelog.records import RecordError, replay, replay_steps
from pbem.games import UnknownGameError, get_game
from pbem.games.protocol import RESULT_LANGUAGE_KEYS, Result, Rules, State, facts_of
from pbem.lifecycle.records import game_record
from pbem.models import Game, Move, lock_row, write_transaction

#: the columns of a move that the replay writes, besides its sentences
_MOVE_FACTS = ("round", "commit", "turn_end")
_WORD = re.compile(r"\w+|[^\w\s]")


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces: two values equal as data read the same."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def order_free(value: Any) -> Any:
    """``value`` with order taken out: every list sorted, every text as its sorted words
    (so "paying 1 Korn, 1 Tuch" and "paying 1 Tuch, 1 Korn" are one)."""
    if isinstance(value, dict):
        return {key: order_free(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return sorted((order_free(inner) for inner in value), key=canonical)
    if isinstance(value, str):
        return "words:" + " ".join(sorted(_WORD.findall(value)))
    return value


def only_order_apart(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` differ (as data) in nothing but order."""
    return canonical(order_free(a)) == canonical(order_free(b))


@dataclass
class Finding:
    """One difference between the stored rows and the replay."""

    text: str
    order_only: bool


@dataclass
class Check:
    """What ``check`` found for one game, and what a repair would write."""

    game_id: int
    name: str
    seq: int
    findings: list[Finding] = field(default_factory=list)
    #: sentences worded otherwise than today's engine words them (no error)
    notes: list[str] = field(default_factory=list)
    #: what a repair writes: the game's columns and, by move id, its sentence columns
    game_columns: dict[str, Any] = field(default_factory=dict)
    move_columns: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def repairable(self) -> bool:
        """Differences in order only (the log replays: else a finding is real)."""
        return bool(self.findings) and all(f.order_only for f in self.findings)

    def add(self, text: str, order_only: bool = False) -> None:
        self.findings.append(Finding(text, order_only))


def replayed_result(result: Result, stored: Any) -> dict[str, Any]:
    """The replayed result's JSON as it compares with ``stored``: a result stored by an
    older pbem has no words in other languages (``RESULT_LANGUAGE_KEYS``), which is no
    difference in the result."""
    replayed: dict[str, Any] = result.to_json()
    if isinstance(stored, dict):
        for key in RESULT_LANGUAGE_KEYS:
            if key not in stored:
                replayed.pop(key, None)
    return replayed


def check(game: Game) -> Check:
    """Replay ``game``'s log and compare it with the stored snapshot, status, result and
    every move's sentences and columns (read only)."""
    rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
    found = Check(game.id, game.game, game.seq)
    if len(rows) != game.seq:
        found.add(f"{len(rows)} moves in the log but the snapshot is after {game.seq}")
    try:
        rules = get_game(game.game)
        record = game_record(game)
        steps = list(replay_steps(record))
        state = steps[-1][4] if steps else replay(record)
    except (RecordError, UnknownGameError, KeyError) as exc:
        found.add(f"the log does not replay: {exc}")
        return found
    _compare_snapshot(found, state, game.state)
    _compare_end(found, rules, game, state)
    for row, (_index, seat, move, before, after) in zip(rows, steps, strict=False):
        _compare_move(found, rules, row, seat, move, before, after)
    _summarize_sentences(found)
    return found


def _compare_snapshot(found: Check, replayed: State, stored: Any) -> None:
    if canonical(replayed) == canonical(stored):
        return
    found.game_columns["state"] = replayed
    stored = stored if isinstance(stored, dict) else {}
    keys = sorted(k for k in set(replayed) | set(stored)
                  if canonical(replayed.get(k)) != canonical(stored.get(k)))
    real = [k for k in keys if not only_order_apart(replayed.get(k), stored.get(k))]
    ordered = [k for k in keys if k not in real]
    if real:
        found.add(f"replay differs from the snapshot in {', '.join(real)}")
    if ordered:
        found.add(f"replay differs from the snapshot only in order in {', '.join(ordered)}",
                  order_only=True)


def _compare_end(found: Check, rules: Rules, game: Game, state: State) -> None:
    over = rules.is_over(state)
    if over != (game.status == Game.FINISHED):
        found.add(f"status {game.status} but the replayed game "
                  f"{'is' if over else 'is not'} over")
        return
    if not over:
        return
    result = replayed_result(rules.result(state), game.result)
    if canonical(result) == canonical(game.result):
        return
    found.game_columns["result"] = rules.result(state).to_json()
    if only_order_apart(result, game.result):
        found.add("the stored result differs from the replayed one only in order",
                  order_only=True)
    else:
        found.add("the stored result differs from the replayed one")


def _compare_move(found: Check, rules: Rules, row: Move, seat: int, move: str,
                  before: State, after: State) -> None:
    replayed = facts_of(rules, before, seat, move, after)
    facts = {"round": replayed.round, "commit": replayed.commit,
             "turn_end": replayed.turn_over}
    for name in _MOVE_FACTS:
        if getattr(row, name) != facts[name]:
            found.add(f"move {row.seq} ({seat}: {move}): the stored {name} "
                      f"{getattr(row, name)!r} differs from the replay's {facts[name]!r}")
    if not row.said_author:  # recorded before sentences were stored: pages replay it
        return
    said = sentences(rules, before, seat, move, after)
    stored = {"said_author": row.said_author, "said_others": row.said_others,
              "said_in": {lang: pair for lang, pair in (row.said_in or {}).items()
                          if lang in said["said_in"]}}
    replayed = {**said, "said_in": {lang: said["said_in"][lang] for lang in stored["said_in"]}}
    if canonical(stored) == canonical(replayed):
        return
    if only_order_apart(stored, replayed):
        found.move_columns[row.id] = {"seq": row.seq, **said}
    else:
        found.notes.append(f"move {row.seq} ({seat}: {move}) was told "
                           f"{row.said_author!r}, today's engine tells "
                           f"{said['said_author']!r}")


def _summarize_sentences(found: Check) -> None:
    if found.move_columns:
        seqs = ", ".join(str(c["seq"]) for c in found.move_columns.values())
        found.add(f"the sentences of moves {seqs} differ from the replay's only in order",
                  order_only=True)


def repair(game_id: int) -> Check | None:
    """Write the replay over a game's stored rows that differ from it only in order: the
    snapshot, the result and the sentences of the moves concerned, in one transaction
    that holds the game against moves meanwhile.  The check made under that lock, or
    ``None`` if there is no such game; nothing is written unless it is ``repairable``."""
    with write_transaction():
        game = lock_row(Game, game_id)
        if game is None or game.state is None:
            return None
        found = check(game)
        if not found.repairable:
            return found
        for column, value in found.game_columns.items():
            setattr(game, column, value)
        if found.game_columns:
            game.save(only=[getattr(Game, c) for c in found.game_columns])
        for move_id, columns in found.move_columns.items():
            values = {k: v for k, v in columns.items() if k != "seq"}
            Move.update(**values).where(Move.id == move_id).execute()
        return found
