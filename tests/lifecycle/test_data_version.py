"""A running game keeps the card data version it started with.

When an operator corrects a value in a game's data file, the package gets a new data
version; games that began before keep theirs: starting, taking back, exporting and
replaying all set the game up through ``Rules.setup_version`` with the game's own
version, never the server's newest.
"""

from __future__ import annotations

from typing import Any

import pytest
from freezegun import freeze_time
from games.draw_game import CARDS, Ziehen

from pbem.gamelog.records import GameRecord, replay
from pbem.games import registered
from pbem.games.protocol import OptionError, State
from pbem.lifecycle import create, moves, records
from pbem.models import Game, Seat

#: version 1 of the deck had one card less (say an operator added the Truhe since)
OLD_CARDS = sorted(set(CARDS) - {"Truhe"})


class ZiehenZweiteDaten(Ziehen):
    """Ziehen whose data went from version 1 to 2, keeping 1 for older games."""

    name = "ziehen-daten"
    data_version = "2"

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        state = super().setup(players, options, seed)
        state["data_version"] = self.data_version
        return state

    def setup_version(self, players, options, seed, data_version, rules_version=None) -> State:
        if data_version != "1":
            return super().setup_version(players, options, seed, data_version, rules_version)
        self.check_rules_version(rules_version)
        state = super().setup(players, options, seed)
        state.update(data_version="1", draws=0)
        from pbem.games import rng
        state["deck"] = rng.shuffled(state, OLD_CARDS)
        return state


@pytest.fixture
def game_rules():
    rules = ZiehenZweiteDaten()
    with registered(rules):
        yield rules


def _seat(game, index) -> Seat:
    return Seat.get(Seat.game == game, Seat.index == index)


def _play(ctx, game, seat, move):
    s = _seat(game, seat)
    return moves.play(ctx, game.id, seat, move, menu_seq=s.menu_seq, turn_seq=s.turn_seq)


def _game_made_under_version_1(ctx) -> Game:
    """A game created while the server had data version 1, started after the bump."""
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "Bob")
    game = create.create_game(ctx, "ziehen-daten", alice, ["bob@example.org"], seed="tide")
    Game.update(data_version="1").where(Game.id == game.id).execute()
    create.accept_invite(ctx, game, _seat(game, 1), bob)
    return Game.get_by_id(game.id)


def test_a_game_starts_take_back_and_replays_on_its_own_data_version(ctx, database,
                                                                      game_rules):
    with freeze_time("2026-05-04 09:00:00"):
        game = _game_made_under_version_1(ctx)
        assert game.state["data_version"] == "1" and "Truhe" not in game.state["deck"]
        _play(ctx, game, 0, "step")
        _play(ctx, game, 0, "draw")
        _play(ctx, game, 0, "step")
        before = Game.get_by_id(game.id).state
        moves.take_back(ctx, game.id, 0)  # rebuilds from the seed: on version 1
        after = Game.get_by_id(game.id).state
        assert after["data_version"] == "1" and after["hand"] == before["hand"]
        assert after["step"] == before["step"] - 1

        record = records.game_record(Game.get_by_id(game.id))
        assert record.data_version == "1"
        again = GameRecord.loads(record.dumps())
        assert again.data_version == "1"
        assert replay(again) == Game.get_by_id(game.id).state


def test_a_record_without_a_data_version_replays_on_the_current_one(game_rules):
    record = GameRecord(game="ziehen-daten", players=["A", "B"], seed="tide",
                        moves=[(0, "step"), (0, "draw")])
    assert replay(record)["data_version"] == "2"


def test_a_data_version_the_server_no_longer_has_is_refused_in_words(game_rules):
    with pytest.raises(OptionError, match="data version 2, not 0"):
        game_rules.setup_version(2, None, "tide", "0")


def test_a_data_version_gone_from_the_server(ctx, database, game_rules):
    """An operator dropped an old data version: a game created on it but not started
    starts on today's data (nothing was played); a running one cannot take back (its
    cards cannot be dealt again), and says so instead of failing."""
    with freeze_time("2026-05-04 09:00:00"):
        alice = create.get_or_create_player("alice@example.org", "Alice")
        bob = create.get_or_create_player("bob@example.org", "Bob")
        game = create.create_game(ctx, "ziehen-daten", alice, ["bob@example.org"],
                                  seed="tide")
        Game.update(data_version="0").where(Game.id == game.id).execute()
        create.accept_invite(ctx, game, _seat(game, 1), bob)
        game = Game.get_by_id(game.id)
        assert game.status == Game.ACTIVE and game.data_version == "2"
        assert game.state["data_version"] == "2"

        _play(ctx, game, 0, "step")
        Game.update(data_version="0").where(Game.id == game.id).execute()
        with pytest.raises(moves.PlayError, match="card data \\(version 0\\)"):
            moves.take_back(ctx, game.id, 0)
        assert Game.get_by_id(game.id).seq == 1  # nothing taken back
