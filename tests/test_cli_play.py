"""``pbem selfplay`` and ``pbem replay``, run through click's test runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.gamelog.records import GameRecord
from pbem.gamelog.selfplay import play_random_game
from pbem.games import get_game


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(main, list(args), catch_exceptions=False)


def test_selfplay_prints_each_game_and_moves_per_second(runner):
    result = run(runner, "selfplay", "visby", "--players", "3", "--games", "2", "--seed", "5")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("seed 5: ") and lines[1].startswith("seed 6: ")
    for seed, line in zip((5, 6), lines, strict=False):
        record, state = play_random_game("visby", 3, seed)
        scores = get_game("visby").result(state).scores
        assert f"{len(record.moves)} moves" in line
        for seat, score in enumerate(scores):
            assert f"Bot {seat + 1} {score} (#" in line
    match = re.fullmatch(r"2 games, (\d+) moves in [\d.]+ s: ([\d,]+) moves per second", lines[-1])
    assert match, lines[-1]
    assert int(match.group(2).replace(",", "")) > 0


def test_selfplay_with_moves_prints_them_in_words(runner):
    result = run(runner, "selfplay", "visby", "-n", "2", "--moves")
    assert result.exit_code == 0
    assert "   1. Bot " in result.stdout and " chooses " in result.stdout


def test_selfplay_option_target_45(runner, tmp_path):
    result = run(runner, "selfplay", "visby", "-n", "2", "-o", "target=45", "--record",
                 str(tmp_path))
    assert result.exit_code == 0
    record = json.loads((tmp_path / "visby-2p-seed1.json").read_text(encoding="utf-8"))
    assert record["options"] == {"target": 45}


def test_selfplay_refuses_a_bad_option(runner):
    result = runner.invoke(main, ["selfplay", "visby", "-o", "target"])
    assert result.exit_code != 0
    assert "NAME=VALUE" in result.output


def test_recorded_games_replay_to_the_same_scores(runner, tmp_path):
    result = run(runner, "selfplay", "visby", "-n", "4", "-k", "3", "-s", "11",
                 "--record", str(tmp_path))
    assert result.exit_code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"visby-4p-seed{s}.json" for s in (11, 12, 13)]
    game = get_game("visby")
    for seed, path in zip((11, 12, 13), files, strict=True):
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        _, state = play_random_game("visby", 4, seed)
        replayed = run(runner, "replay", str(path))
        assert replayed.exit_code == 0, replayed.output
        out = json.loads(replayed.stdout)
        assert out["over"] is True
        assert out["moves"] == len(record.moves)
        assert out["scores"] == game.scores(state)
        assert out["result"] == game.result(state).to_json()
        assert out["rules_version"] == game.rules_version


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def good_record() -> dict:
    record, _ = play_random_game("visby", 2, 3)
    return record.to_json()


def refused(runner, path: str, *words: str) -> str:
    result = runner.invoke(main, ["replay", path])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed with {result.exception!r} instead of a message")
    message = result.stderr
    assert message.startswith("error: "), message
    for word in words:
        assert word in message, (word, message)
    assert result.stdout == ""
    return message


def test_replay_of_text_that_is_not_json(runner, tmp_path):
    refused(runner, write(tmp_path, "{not json"), "not JSON")


def test_replay_of_json_that_is_not_a_record(runner, tmp_path):
    refused(runner, write(tmp_path, "[1, 2, 3]"), "a game record is a JSON object")
    refused(runner, write(tmp_path, json.dumps({"game": "visby"})), "not a game record")
    data = good_record()
    data["moves"] = [{"seat": "north", "move": "play Ritter"}]
    refused(runner, write(tmp_path, json.dumps(data)), "not a game record")


def test_replay_of_a_truncated_file(runner, tmp_path):
    text = json.dumps(good_record())
    refused(runner, write(tmp_path, text[: len(text) // 2]), "not JSON")


def test_replay_of_an_unknown_game(runner, tmp_path):
    data = good_record()
    data["game"] = "chess"
    refused(runner, write(tmp_path, json.dumps(data)), "chess")


def test_replay_of_a_record_with_an_illegal_move(runner, tmp_path):
    data = good_record()
    data["moves"][0]["move"] = "play Dragon"
    message = refused(runner, write(tmp_path, json.dumps(data)), "move 1", "Dragon")
    assert "refused" in message
    data = good_record()
    # seat 0 plays the same card twice in its first round
    data["moves"] = [{"seat": 0, "move": "play Ritter"}, {"seat": 0, "move": "play Ritter"}]
    refused(runner, write(tmp_path, json.dumps(data)), "move 2", "already chosen")


def test_replay_of_a_record_with_moves_after_the_end(runner, tmp_path):
    data = good_record()
    data["moves"].append({"seat": 0, "move": "done"})
    refused(runner, write(tmp_path, json.dumps(data)), f"move {len(data['moves'])}", "over")


def test_replay_of_a_record_from_another_rules_version(runner, tmp_path):
    data = good_record()
    data["rules_version"] = "0-old"
    refused(runner, write(tmp_path, json.dumps(data)), "rules version 0-old")


@pytest.mark.parametrize("change, words", [
    ({"players": ["Solo"]}, ["2 to 6 players", "not 1"]),
    ({"options": {"target": 31}}, ["target", "31"]),
])
def test_replay_of_a_record_with_a_bad_setup(runner, tmp_path, change, words):
    data = good_record()
    data.update(change)
    refused(runner, write(tmp_path, json.dumps(data)), *words)


def test_replay_of_a_missing_file(runner, tmp_path):
    result = runner.invoke(main, ["replay", str(tmp_path / "nowhere.json")])
    assert result.exit_code != 0
    assert "nowhere.json" in result.output
