"""``pbem verify`` tells rows that differ from the replay only in order from real
differences, and ``pbem verify --repair`` mends the first kind only, saying what
(issue 28: games played while Riga paid in the key order of a dict)."""

from __future__ import annotations

import json

import pytest
from games.draw_game import GAME as ZIEHEN
from lifecycle.server_support import server_games

from pbem.cli.server import VERIFY_OK, VERIFY_ORDER, VERIFY_REAL
from pbem.gamelog.history import sentences
from pbem.gamelog.records import replay_steps
from pbem.games import get_game, registered
from pbem.lifecycle import moves, verify
from pbem.lifecycle.records import game_record
from pbem.models import Game, Move, Seat


def _reversed_words(text: str) -> str:
    """The same words in another order: "{0} discards Glas" -> "Glas discards {0}"."""
    return " ".join(reversed(text.split(" ")))


def _disorder(game: Game) -> Move:
    """Make ``game``'s stored rows differ from its replay in order only, as the bug left
    them: the discard pile in another order, and the last move's sentence (in every
    language) telling the same words in another order; the move changed."""
    state = game.state
    pile = state["waren_discard"]
    assert len(set(pile)) > 1, "the test needs a pile whose order shows"
    state["waren_discard"] = pile[::-1]
    Game.update(state=state).where(Game.id == game.id).execute()
    row = Move.select().where(Move.game == game).order_by(Move.seq.desc()).first()
    Move.update(said_author=_reversed_words(row.said_author),
                said_others=_reversed_words(row.said_others),
                said_in={lang: [_reversed_words(t) for t in pair]
                         for lang, pair in row.said_in.items()}).where(Move.id == row.id).execute()
    return row


def _views(game: Game) -> list:
    rules = get_game(game.game)
    state = Game.get_by_id(game.id).state
    return [rules.view(state, seat) for seat in range(state["players"])]


def test_order_only_is_told_apart_from_a_real_difference():
    assert verify.only_order_apart("{0} builds Bauhof paying 1 Korn, 1 Tuch (7)",
                                   "{0} builds Bauhof paying 1 Tuch, 1 Korn (7)")
    assert verify.only_order_apart({"pile": ["Tuch", "Glas", "Tuch"]},
                                   {"pile": ["Glas", "Tuch", "Tuch"]})
    assert not verify.only_order_apart(["Tuch", "Glas"], ["Tuch", "Tuch"])
    assert not verify.only_order_apart("paying 1 Korn, 1 Tuch", "paying 2 Korn, 1 Tuch")
    assert not verify.only_order_apart({"seals": [3, 4]}, {"seals": [3, 5]})
    assert not verify.only_order_apart(["a b"], ["a", "b"])  # a text is no list of words


def test_verify_and_repair_mend_order_and_leave_real_differences(ctx, cli):
    riga = server_games.play_through_server(ctx, "riga", 2, {"riga": False}, "order-apart",
                                            stop_after=80)
    assert riga.status == Game.ACTIVE
    with registered(ZIEHEN):
        real = server_games.play_through_server(ctx, "ziehen", 2, {}, "real-1")
        broken = server_games.play_through_server(ctx, "ziehen", 2, {}, "real-2")
        fine = server_games.play_through_server(ctx, "ziehen", 2, {}, "fine")
        assert cli("verify").exit_code == VERIFY_OK

        views = _views(riga)
        told = _disorder(riga)
        # a card that no replay gives: a real difference
        state = real.state
        state["hand"][0][0] = "Joker"
        Game.update(state=state).where(Game.id == real.id).execute()
        # a snapshot apart only in order, but a log that no longer replays
        state = broken.state
        state["hand"][1].reverse()
        Game.update(state=state).where(Game.id == broken.id).execute()
        Move.update(move="end").where(Move.game == broken, Move.seq == 1).execute()
        kept = {g.id: json.dumps(Game.get_by_id(g.id).state, sort_keys=True)
                for g in (real, broken)}

        order = cli("verify", "--game", str(riga.id))
        assert order.exit_code == VERIFY_ORDER, order.output
        assert (f"game {riga.id} (riga): replay differs from the snapshot only in order in "
                "waren_discard") in order.output
        assert f"the sentences of moves {told.seq} differ from the replay's only in order" \
            in order.output
        assert "1 only in order: `pbem verify --repair` mends them" in order.output
        assert Game.get_by_id(riga.id).state["waren_discard"] != \
            list(replay_steps(_record(riga)))[-1][4]["waren_discard"]  # verify wrote nothing

        everything = cli("verify")
        assert everything.exit_code == VERIFY_REAL, everything.output
        assert f"game {real.id}: replay differs from the snapshot in hand" in everything.output
        assert f"game {broken.id}: the log does not replay: move 1" in everything.output
        assert f"game {fine.id}: ok" in everything.output

        repaired = cli("verify", "--repair")
        assert repaired.exit_code == VERIFY_REAL, repaired.output  # the real ones stay
        assert (f"game {riga.id} (riga): repaired: replay differs from the snapshot only in "
                f"order in waren_discard; the sentences of moves {told.seq} differ from the "
                f"replay's only in order; wrote the replayed snapshot, the replay's sentences "
                f"of moves {told.seq}") in repaired.output
        assert "4 games checked, 2 with problems, 1 repaired" in repaired.output
        for game in (real, broken):
            assert json.dumps(Game.get_by_id(game.id).state, sort_keys=True) == kept[game.id]

        again = cli("verify", "--game", str(riga.id), "--game", str(fine.id))
        assert again.exit_code == VERIFY_OK, again.output
    _is_its_replay(riga)
    # nobody's information changed: every seat sees what it saw, but for order
    assert all(verify.only_order_apart(a, b) for a, b in zip(views, _views(riga), strict=True))
    # and the game plays on
    game = Game.get_by_id(riga.id)
    index = get_game("riga").to_move(game.state)[0]
    seat = Seat.get(Seat.game == game, Seat.index == index)
    moves.play(ctx, game.id, index, get_game("riga").legal_moves(game.state, index)[0],
               menu_seq=seat.menu_seq, turn_seq=seat.turn_seq)
    assert verify.check(Game.get_by_id(riga.id)).ok


def _record(game: Game):
    return game_record(Game.get_by_id(game.id))


def _is_its_replay(game: Game) -> None:
    game = Game.get_by_id(game.id)
    rules = get_game(game.game)
    steps = list(replay_steps(_record(game)))
    assert verify.canonical(steps[-1][4]) == verify.canonical(game.state)
    rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
    for (_i, seat, move, before, after), row in zip(steps, rows, strict=True):
        said = sentences(rules, before, seat, move, after)
        assert [row.said_author, row.said_others, row.said_in] == \
            [said["said_author"], said["said_others"], said["said_in"]]


def test_repair_writes_nothing_where_a_move_came_in_since_the_check(ctx, sqlite_database):
    """The repair checks again under the game's lock: what it writes is the replay of the
    log as it is then, never a check made before a move came in."""
    game = server_games.play_through_server(ctx, "riga", 2, {"riga": False}, "order-apart",
                                            stop_after=80)
    _disorder(game)
    assert verify.check(Game.get_by_id(game.id)).repairable
    state = Game.get_by_id(game.id).state
    state["waren_pile"] = state["waren_pile"][1:]  # meanwhile, something real
    Game.update(state=state).where(Game.id == game.id).execute()
    found = verify.repair(game.id)
    assert found is not None and not found.repairable
    assert Game.get_by_id(game.id).state == state


@pytest.mark.parametrize("status", [VERIFY_OK, VERIFY_REAL, VERIFY_ORDER])
def test_the_exit_statuses_are_told_in_the_help(status, cli):
    assert f"{status} " in cli("verify", "--help").output
