"""The statistics' totals: games added and taken away in any order come to what adding up
the games that remain gives, as JSON too (what the manifest keeps)."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta

from pbem.archive.collect import GameSummary, SeatInfo
from pbem.archive.tally import Totals, gather

CARDS = ["Mönch", "Abt (C79)", "Kran", "Hafen"]
VERBS = ["take", "play", "build"]


def _game(game_id: int, rng: random.Random) -> tuple[GameSummary, dict | None]:
    count = rng.randint(2, 4)
    ranks = [rng.randint(1, count) if rng.random() > 0.1 else None for _ in range(count)]
    scores = [rng.randint(-3, 60) for _ in range(count)]
    seats = tuple(SeatInfo(i, f"P{i}", i, f"P{i}", False, False) for i in range(count))
    summary = GameSummary(
        id=game_id, game=rng.choice(["riga", "visby"]), options={}, seed="", rules_version="1",
        data_version="1", seq=10, result={"ranks": ranks, "scores": scores, "winners": [0]},
        created_at=None, started_at=None,
        finished_at=datetime(2024, 1, 1) + timedelta(hours=game_id), seats=seats)
    if rng.random() < 0.1:
        return summary, None  # a log its game could not read
    uses = sorted({(rng.randrange(count + 1), rng.choice(VERBS), rng.choice(CARDS))
                   for _ in range(rng.randint(0, 6))})
    return summary, {"start": rng.choice([0, 1, None, 7]),
                     "uses": [[seat, verb, name, rng.randint(1, 3)] for seat, verb, name in uses]}


def _json(totals: Totals) -> str:
    return json.dumps(totals.to_json(), sort_keys=True)


def test_taking_games_away_leaves_the_totals_of_those_that_remain():
    rng = random.Random(5)
    games = [_game(i, rng) for i in range(60)]
    totals = Totals()
    for summary, kept in games:
        totals.add(summary, kept)
    gone = rng.sample(range(60), 25)
    for i in gone:
        totals.add(*games[i], sign=-1)
    rest = [g for i, g in enumerate(games) if i not in gone]
    expected = gather([s for s, _ in rest], {s.id: kept for s, kept in rest})
    assert _json(totals) == _json(expected)
    # and through the manifest's JSON, taking the rest away leaves nothing
    again = Totals.from_json(json.loads(_json(totals)))
    for summary, kept in reversed(rest):
        again.add(summary, kept, -1)
    assert again.to_json() == {} and again.exact


def test_a_number_that_is_not_an_integer_makes_the_totals_inexact():
    summary, kept = _game(1, random.Random(1))
    odd = GameSummary(**{**summary.__dict__, "result": {"ranks": [1, 2], "scores": [1.5, 2]}})
    totals = Totals()
    totals.add(summary, kept)
    assert totals.exact
    totals.add(odd, kept)
    assert not totals.exact
