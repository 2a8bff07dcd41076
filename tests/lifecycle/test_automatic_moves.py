"""What the server does by itself: bots, formalities, the tick's "play on", a take-back's
log. Each test here pins one guard of ``pbem.lifecycle.moves`` that a sampled mutation
run found unguarded (issue 21): the move counter after a take-back, the turn and clock
an automatic move opens, the tick that plays on only where a change stopped, the log
line of a failing bot.
"""

from __future__ import annotations

import logging

import pytest
from freezegun import freeze_time
from games.draw_game import TURN, Ziehen

from pbem.games import registered
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, Outbox, Seat


def _seat(game, index) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def _play(ctx, game, seat, move):
    s = _seat(game, seat)
    return moves.play(ctx, game.id, seat, move, menu_seq=s.menu_seq, turn_seq=s.turn_seq)


def _log(game) -> list[Move]:
    return list(Move.select().where(Move.game == game).order_by(Move.seq))


def _two_humans(ctx, name: str) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, name, alice, ["bob@example.org"], seed="tide")
    create.accept_invite(ctx, game, _seat(game, 1), bob)
    return Game.get_by_id(game.id)


def _against_a_bot(ctx, name: str, level: str | None = None) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    game = create.create_game(ctx, name, alice, [None], seed="tide", bot_levels=[level])
    return Game.get_by_id(game.id)


def test_a_take_back_leaves_the_move_counter_on_the_last_move(ctx, database):
    with registered(Ziehen()):  # a step before the draw can be taken back
        game = _two_humans(ctx, "ziehen")
        _play(ctx, game, 0, "step")
        moves.take_back(ctx, game.id, 0)
        game = Game.get_by_id(game.id)
        assert game.seq == 0 and _log(game) == []
        # the next move takes the number the taken-back one had: the log stays dense
        _play(ctx, game, 0, "step")
        _play(ctx, game, 0, "draw")
        game = Game.get_by_id(game.id)
        assert [m.seq for m in _log(game)] == [1, 2] and game.seq == 2


class ZiehenMitAuftakt(Ziehen):
    """Ziehen whose first step of a turn is a formality: the server plays it, and the
    seat's turn (its clock, its mail) begins with it."""

    name = "ziehen-a"

    def formality(self, state, seat):
        opens = seat in self.to_move(state) and state["step"] == 0
        return "step" if opens else None


def test_a_formality_that_opens_a_turn_belongs_to_that_turn_and_starts_its_clock(
        ctx, database):
    with registered(ZiehenMitAuftakt()), freeze_time("2026-05-04 09:00:00"):
        game = _two_humans(ctx, "ziehen-a")
        for move in TURN[1:]:
            _play(ctx, game, 0, move)
        bob = _seat(game, 1)
        opening = _log(game)[-1]
        assert (opening.seat, opening.move, opening.kind) == (1, "step", Move.FORMALITY)
        # the step the server played for Bob opened his turn: it names that turn, and
        # the link in his mail (made for the same turn) plays the draw after it
        assert bob.in_turn and opening.turn_seq == bob.turn_seq
        assert bob.deadline is not None
        assert Outbox.select().where(Outbox.kind == "turn",
                                     Outbox.to_address == "bob@example.org").count() == 1
        _play(ctx, game, 1, "draw")


def test_a_formality_that_opens_a_turn_starts_its_clock_when_the_change_stops_there(
        ctx, database, monkeypatch):
    with registered(ZiehenMitAuftakt()), freeze_time("2026-05-04 09:00:00"):
        game = _two_humans(ctx, "ziehen-a")
        for move in TURN[1:-1]:
            _play(ctx, game, 0, move)
        # the cap is reached with the formality that opens Bob's turn: Bob's turn has
        # begun and its clock runs from now; nothing automatic is owed after it, so the
        # tick has nothing to play on
        monkeypatch.setattr(moves, "MAX_AUTOMATIC_MOVES", 1)
        _play(ctx, game, 0, "end")
        bob = _seat(game, 1)
        assert not Game.get_by_id(game.id).bots_pending
        assert bob.in_turn and bob.deadline is not None
        assert _log(game)[-1].turn_seq == bob.turn_seq


def test_a_cap_met_with_nothing_automatic_left_owes_the_tick_nothing(
        ctx, database, monkeypatch):
    with registered(Ziehen()):
        game = _against_a_bot(ctx, "ziehen")
        for move in TURN[:-1]:
            _play(ctx, game, 0, move)
        # the bot's whole turn fills the cap to the last move: Alice is to move, no bot
        monkeypatch.setattr(moves, "MAX_AUTOMATIC_MOVES", len(TURN))
        _play(ctx, game, 0, TURN[-1])
        game = Game.get_by_id(game.id)
        assert [m.seat for m in _log(game)][-len(TURN):] == [1] * len(TURN)
        assert not game.bots_pending and _seat(game, 0).in_turn
        # one move fewer allowed: the bot still owes one, the tick plays it
        Game.update(bots_pending=False).where(Game.id == game.id).execute()
        monkeypatch.setattr(moves, "MAX_AUTOMATIC_MOVES", len(TURN) - 1)
        for move in TURN:
            _play(ctx, game, 0, move)
        assert Game.get_by_id(game.id).bots_pending
        assert moves.continue_bots(ctx, game.id) == 1


def test_every_bot_turn_is_a_turn_of_its_own(ctx, database):
    with registered(Ziehen()):
        game = _against_a_bot(ctx, "ziehen")
        for _ in range(2):
            for move in TURN:
                _play(ctx, game, 0, move)
        bot_turns = [m.turn_seq for m in _log(game) if m.seat == 1]
        assert bot_turns == [1] * len(TURN) + [2] * len(TURN)
        assert not _seat(game, 1).in_turn and _seat(game, 1).deadline is None


def test_the_tick_plays_on_only_where_a_change_stopped(ctx, database):
    with registered(Ziehen()):
        game = _against_a_bot(ctx, "ziehen")
        # a seat that became a bot outside a move (by hand, here): no change stopped at
        # the cap, so there is nothing for the tick to continue; its turn waits for the
        # next change of the game
        Seat.update(bot=True).where(Seat.game == game, Seat.index == 0).execute()
        assert not Game.get_by_id(game.id).bots_pending
        assert moves.continue_bots(ctx, game.id) == 0
        assert _log(game) == []
        # a finished game owes nothing either
        Game.update(status=Game.FINISHED, bots_pending=True).where(Game.id == game.id).execute()
        assert moves.continue_bots(ctx, game.id) == 0
        assert _log(game) == []


class ZiehenMitKaputtemBot(Ziehen):
    """Ziehen whose bot always fails: the server plays the default move instead."""

    name = "ziehen-k"

    def bot_move(self, state, seat, rng):
        raise RuntimeError("a bug in the bot")


def test_a_failing_bot_is_logged_and_the_default_move_played(ctx, database, caplog):
    with registered(ZiehenMitKaputtemBot()), caplog.at_level(logging.ERROR, "pbem.moves"):
        # the game's own bot (a search plays a seat's only move without asking it)
        game = _against_a_bot(ctx, "ziehen-k", "easy")
        for move in TURN:
            _play(ctx, game, 0, move)
    assert [m.move for m in _log(game) if m.seat == 1] == list(TURN)
    failures = [r for r in caplog.records if "bot_move of ziehen-k failed" in r.getMessage()]
    assert len(failures) == len(TURN)
    assert all(r.exc_info and "a bug in the bot" in str(r.exc_info[1]) for r in failures)


class ZiehenOhneSchluss(Ziehen):
    """Ziehen whose "end" can be taken back: only the draw is final."""

    name = "ziehen-e"

    def is_commit_point(self, before, seat, move, after):
        return move == "draw"


def test_a_turn_taken_back_is_the_same_turn_its_links_and_its_mail(ctx, database):
    with registered(ZiehenOhneSchluss()):
        game = _two_humans(ctx, "ziehen-e")
        for move in TURN:
            _play(ctx, game, 0, move)
        moves.take_back(ctx, game.id, 0)
        alice = _seat(game, 0)
        # the turn "end" closed is open again: not a new one (the links of Alice's turn
        # mail still name it), and no second "your move" mail
        assert alice.in_turn and alice.turn_seq == 1
        assert Outbox.select().where(Outbox.kind == "turn",
                                     Outbox.to_address == "alice@example.org").count() == 1
        _play(ctx, game, 0, "end")


def test_a_move_ends_the_failures_a_tick_counted_against_the_game(ctx, database):
    with registered(Ziehen()):
        game = _two_humans(ctx, "ziehen")
        Game.update(failures=2).where(Game.id == game.id).execute()
        _play(ctx, game, 0, "step")
        assert Game.get_by_id(game.id).failures == 0


def test_a_finished_game_says_it_has_ended(ctx, database):
    with registered(Ziehen()):
        game = _against_a_bot(ctx, "ziehen")
        Game.update(status=Game.FINISHED).where(Game.id == game.id).execute()
        with pytest.raises(moves.PlayError) as refused:
            moves.play(ctx, game.id, 0, "step")
        assert refused.value.reason == "not-active" and "ended" in str(refused.value)


class ZiehenOhneAusweg(Ziehen):
    """Ziehen whose bot and default move both fail: the server plays any legal move."""

    name = "ziehen-o"

    def bot_move(self, state, seat, rng):
        raise RuntimeError("a bug in the bot")

    def default_move(self, state, seat):
        raise RuntimeError("a bug in the default")


def test_a_bot_whose_game_offers_no_move_of_its_own_plays_a_legal_one(ctx, database):
    with registered(ZiehenOhneAusweg()), freeze_time("2026-05-04 09:00:00"):
        game = _against_a_bot(ctx, "ziehen-o")
        for move in TURN:
            _play(ctx, game, 0, move)
        assert [m.move for m in _log(game) if m.seat == 1] == list(TURN)
        assert _seat(game, 0).in_turn
