"""Random legal games of Macao: they end after 12 rounds, every card, tile and marker
is accounted for, final scores equal a recount, replay gives the same state, and no
view shows the deck's order."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.macao import GAME, data, rules
from pbem.games.protocol import EVERYTHING, SPECTATOR


def _playout(players: int, seed: int) -> tuple[dict, list[tuple[int, str]]]:
    r = random.Random(seed)
    s = GAME.setup(players, None, f"p{seed}")
    log: list[tuple[int, str]] = []
    while not GAME.is_over(s):
        seat = GAME.to_move(s)[0]
        moves = GAME.legal_moves(s, seat)
        assert 1 <= len(moves) <= 12
        move = GAME.bot_move(s, seat, r) if r.random() < 0.5 else r.choice(moves)
        _check(s)
        s = GAME.apply(s, seat, move)
        log.append((seat, move))
    _check(s)
    return s, log


def _check(s: dict) -> None:
    """Conservation: 120 cards, 24 goods + 6 jokers, the wall's discs."""
    cards = s["deck"] + s["discard"] + s["display"]
    cards += [c for pair in s["offices"][s["round"]:] for c in pair]
    if s["phase"] in ("draft",) or s["round"] == 0:
        cards = s["deck"] + s["discard"] + s["display"] + [c for p in s["offices"] for c in p]
    for me in s["seats"]:
        cards += me["tableau"] + me["active"]
    every = data.card_ids(s["data_version"])   # the game's own data version's 120 cards
    if s["round"] == 0:
        assert sorted(cards) == sorted(every)
    else:
        assert len(cards) == len(set(cards)) <= len(every)
        taken_offices = [c for p in s["offices"][:s["round"]] for c in p]
        assert set(every) == set(cards) | set(taken_offices)
    delivered = sum(1 for spaces in s["harbours"].values() for x in spaces if x is not None)
    aboard = sum(len(me["goods"]) for me in s["seats"])
    goods_in_city = sum(1 for t in s["tiles"].values() if t != "Joker")
    assert delivered + aboard + goods_in_city == 24
    assert len(s["city"]) + len(s["tiles"]) == 30
    assert sorted(x for stack in s["wall"] for x in stack) == list(range(s["players"]))


@settings(max_examples=2, deadline=None)
@given(st.integers(0, 10_000))
def test_games_of_2_3_4_players_end_after_12_rounds_and_recount(seed):
    for players in (2, 3, 4):
        s, log = _playout(players, seed)
        assert s["round"] == 12 and GAME.is_over(s)
        result = GAME.result(s)
        for seat in range(players):
            me = s["seats"][seat]
            f = s["final"][seat]
            recount = (f["before"] - 3 * f["penalties"] + f["end_cards"]
                       + 2 * rules.largest_area(s["city"], seat))
            assert result.scores[seat] == recount == me["pp"]
        replay = GAME.setup(players, None, f"p{seed}")
        for seat, move in log:
            replay = GAME.apply(replay, seat, move)
        assert replay == s
        for viewer in [*range(players), SPECTATOR, EVERYTHING]:
            text = json.dumps(GAME.view(s, viewer))
            assert "deck\"" not in text and "seed" not in text


def test_views_never_show_the_deck_order():
    s = GAME.setup(3, None, "5f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f")
    for viewer in (0, 1, 2, SPECTATOR, EVERYTHING):
        view = GAME.view(s, viewer)
        shown = json.dumps(view)
        assert view["deck_count"] == len(s["deck"])
        assert not any(f'"{c}"' in shown for c in s["deck"])
        assert s["seed"] not in shown and "draws" not in view


def test_a_game_of_data_version_1_replays_as_before_the_bump():
    """A game begun with data version 1 keeps it: its setup and its whole move log
    (recorded before version 2 existed) give the same final state as then."""
    import hashlib
    from pathlib import Path

    s = GAME.setup_version(3, None, "fp-game", "1-reconstructed", "1")  # rules version 1
    assert s["data_version"] == "1-reconstructed" and all(c[0] == "K" for c in s["deck"])
    log = (Path(__file__).parent / "v1_game.log").read_text(encoding="utf-8").splitlines()
    for line in log:
        seat, move = line.split(" ", 1)
        s = GAME.apply(s, int(seat), move)
    assert GAME.is_over(s) and len(log) == 480
    digest = hashlib.sha256(json.dumps(s, sort_keys=True).encode()).hexdigest()
    assert digest == "5da4407b0c0ff663e4be6aeafd39c7e1540415815bf650ea282522eb983e37d5"


def test_new_games_start_with_the_current_data_version():
    s = GAME.setup(2, None, "new")
    assert s["data_version"] == data.DATA_VERSION == GAME.data_version
    assert all(c[0] == "C" for c in s["deck"] + s["display"])


def test_a_record_of_rules_version_1_replays_with_its_reading():
    """A record keeps the rules version it was played under: the v1 log replays through
    the records' replay (as import, verify and the archive do) with the Graf as a cost
    reducer, to the state that engine reached; the current version's setup differs."""
    from pathlib import Path

    from pbem.gamelog.records import GameRecord, RecordError, replay

    log = (Path(__file__).parent / "v1_game.log").read_text(encoding="utf-8").splitlines()
    moves = [(int(line.split(" ", 1)[0]), line.split(" ", 1)[1]) for line in log]
    record = GameRecord(game="macao", players=["a", "b", "c"], seed="fp-game",
                        rules_version="1", moves=moves, data_version="1-reconstructed")
    s = replay(record)
    assert s["rules_version"] == "1" and "options" not in s and GAME.is_over(s)
    record.rules_version = "0-never"
    with pytest.raises(RecordError, match="rules version 0-never"):
        replay(record)
