"""Turns and commit points on the server, with the suite's own game Ziehen.

A Ziehen turn is ``step -> draw -> step -> end``; the draw is private and final
(a commit point) but ends no turn.  So: the draw makes the step before it
final, the deadline stays, and no second "your move" goes out; the turn ends
with "end", which hands the next seat its turn, its clock and its mail.
"""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from games.draw_game import CARDS, TURN, Ziehen

from pbem.games import registered
from pbem.games.protocol import new_seed
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, Outbox, Seat
from pbem.time import scheduler

GAME = Ziehen()


@pytest.fixture
def ziehen():
    with registered(GAME):
        yield GAME


def _seat(game, index) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def _turn_mails(address: str):
    return Outbox.select().where(Outbox.kind == "turn", Outbox.to_address == address)


def _two_humans(ctx, seed="tide", clock=None) -> Game:
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen", alice, ["bob@example.org"], seed=seed,
                              clock_policy=clock)
    create.accept_invite(ctx, game, _seat(game, 1), bob)
    return Game.get_by_id(game.id)


def _play(ctx, game, seat, move):
    s = _seat(game, seat)
    return moves.play(ctx, game.id, seat, move, menu_seq=s.menu_seq, turn_seq=s.turn_seq)


def test_a_private_draw_is_final_but_ends_no_turn(ctx, database, ziehen):
    with freeze_time("2026-05-04 09:00:00") as frozen:
        game = _two_humans(ctx)
        assert _turn_mails("alice@example.org").count() == 1
        assert _turn_mails("bob@example.org").count() == 0
        alice = _seat(game, 0)
        deadline, turn = alice.deadline, alice.turn_seq
        assert deadline is not None and alice.in_turn

        frozen.tick(3600)
        _play(ctx, game, 0, "step")
        assert moves.takeback_candidate(game, 0) is not None  # a step can be taken back
        _play(ctx, game, 0, "draw")
        # the draw revealed a card to Alice: the step before it is final now
        assert moves.takeback_candidate(game, 0) is None
        with pytest.raises(moves.PlayError) as final:
            moves.take_back(ctx, game.id, 0)
        assert final.value.reason == "final"
        alice = _seat(game, 0)
        assert (alice.deadline, alice.turn_seq, alice.in_turn) == (deadline, turn, True)
        assert _turn_mails("alice@example.org").count() == 1  # no second mail
        assert _turn_mails("bob@example.org").count() == 0

        _play(ctx, game, 0, "step")
        _play(ctx, game, 0, "end")
        alice, bob = _seat(game, 0), _seat(game, 1)
        assert not alice.in_turn and alice.deadline is None
        assert bob.in_turn and bob.deadline is not None
        assert _turn_mails("alice@example.org").count() == 1
        assert _turn_mails("bob@example.org").count() == 1
        rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
        assert [(r.move, r.commit, r.turn_end) for r in rows] == [
            ("step", False, False), ("draw", True, False), ("step", False, False),
            ("end", True, True)]


def test_what_a_draw_says_is_written_once_and_kept_from_the_others(ctx, database, ziehen):
    game = _two_humans(ctx)
    for move in TURN:
        _play(ctx, game, 0, move)
    card = Game.get_by_id(game.id).state["hand"][0][0]
    draw = Move.get(Move.game == game, Move.move == "draw")
    assert card in draw.said_author
    assert card not in draw.said_others and "{0}" in draw.said_others
    # Bob's turn mail tells him Alice drew, never what
    bob_mail = _turn_mails("bob@example.org").get()
    assert "Alice" in bob_mail.text_body
    for name in CARDS:
        assert name not in bob_mail.text_body and name not in bob_mail.html_body


def test_a_time_bank_gets_its_bonus_once_a_turn_not_once_a_step(ctx, database, ziehen):
    bank = {"kind": "bank", "initial_days": 2, "bonus_days": 1}
    with freeze_time("2026-05-04 09:00:00") as frozen:
        game = _two_humans(ctx, clock=bank)
        first_deadline = _seat(game, 0).deadline
        for move in TURN[:-1]:
            frozen.tick(600)
            _play(ctx, game, 0, move)
            assert _seat(game, 0).deadline == first_deadline
        frozen.tick(600)
        _play(ctx, game, 0, "end")
        # one turn, 40 minutes spent: the bank lost 40 minutes, no more, no less
        assert _seat(game, 0).bank_seconds == 2 * 86_400 - 40 * 60


class ZiehenMitFormalitaet(Ziehen):
    """Ziehen whose "end" is a formality: the server plays it by itself."""

    name = "ziehen-f"

    def formality(self, state, seat):
        moves_ = self.legal_moves(state, seat)
        return "end" if moves_ == ["end"] else None


def test_a_formality_plays_itself(ctx, database):
    with registered(ZiehenMitFormalitaet()):
        alice = create.get_or_create_player("alice@example.org", "Alice")
        bob = create.get_or_create_player("bob@example.org", "Bob")
        game = create.create_game(ctx, "ziehen-f", alice, ["bob@example.org"], seed=3)
        create.accept_invite(ctx, game, _seat(game, 1), bob)
        for move in ("step", "draw", "step"):
            _play(ctx, game, 0, move)
        last = Move.select().where(Move.game == game).order_by(Move.seq.desc()).first()
        assert (last.move, last.kind, last.seat) == ("end", Move.FORMALITY, 0)
        assert _seat(game, 1).in_turn  # Bob was asked at once, no click on "end" needed
        assert _turn_mails("bob@example.org").count() == 1


class ZiehenMitLangsamemBot(Ziehen):
    """Ziehen whose bot first fails, then plays on (the server must cope)."""

    name = "ziehen-b"
    calls = 0

    def bot_move(self, state, seat, rng):
        ZiehenMitLangsamemBot.calls += 1
        if ZiehenMitLangsamemBot.calls == 1:
            raise RuntimeError("a bug in the bot")
        return super().bot_move(state, seat, rng)


def test_a_bot_over_the_cap_never_undoes_the_human_move_and_the_tick_plays_on(
        ctx, database, monkeypatch):
    monkeypatch.setattr(moves, "MAX_AUTOMATIC_MOVES", 3)
    with registered(ZiehenMitLangsamemBot()):
        alice = create.get_or_create_player("alice@example.org", "Alice")
        game = create.create_game(ctx, "ziehen-b", alice, [None], seed=new_seed())
        for move in TURN:
            _play(ctx, game, 0, move)
        game = Game.get_by_id(game.id)
        # Alice's turn is in the log; the bot made 3 of its 4 moves and stopped
        assert [m.move for m in game.moves.order_by(Move.seq)][:4] == list(TURN)
        assert game.bots_pending and game.seq == 7
        assert _turn_mails("alice@example.org").count() == 1
        # (the first bot move raised: the server played the default instead)
        report = scheduler.tick(ctx)
        assert report["bots"] == 1
        game = Game.get_by_id(game.id)
        assert not game.bots_pending and game.seq == 8
        assert _seat(game, 0).in_turn
        assert _turn_mails("alice@example.org").count() == 2
