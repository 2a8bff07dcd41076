"""Histories in sentences, on real games' logs (issue 22 item 4): menu navigation is
never told, simultaneous secret choices are one line, one seat's steps in one turn
are one sentence, in English and German."""

from __future__ import annotations

import random
import re

import pytest

from pbem.gamelog import history, tell
from pbem.gamelog.selfplay import play_random_game
from pbem.games import get_game
from pbem.games.render import seat_text
from pbem.lifecycle.records import import_record
from pbem.models import Game, Move


def _imported(ctx, name: str, players: int, seed: int, bots=()) -> Game:
    record, _state = play_random_game(name, players, seed, bots=bots)
    return Game.get_by_id(import_record(ctx, record).id)


def _played_from_menus(ctx, name: str, players: int, seed: int, moves: int) -> Game:
    """``moves`` moves, each a random entry of the seat's menu as a person sees it (menu
    navigation included, which random legal moves never play)."""
    rules, rng = get_game(name), random.Random(seed)
    record, _state = play_random_game(name, players, seed)
    record.moves.clear()
    state = rules.setup(players, record.options, seed)
    while len(record.moves) < moves and not rules.is_over(state):
        seat = rng.choice(rules.to_move(state))
        move = rng.choice(rules.menu(state, seat)).move
        state = rules.apply(state, seat, move)
        record.moves.append((seat, move))
    return Game.get_by_id(import_record(ctx, record).id)


def _lines(game: Game, viewer: int | None, lang: str) -> list[str]:
    names = [f"Bot {i + 1}" for i in range(len(list(game.seats)))]
    return [seat_text(line, names) for line in history.history(game, viewer, lang=lang).lines]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_riga_menu_navigation_is_never_told(ctx, sqlite_database, lang):
    game = _played_from_menus(ctx, "riga", 4, 4, 600)
    rows = list(Move.select().where(Move.game == game))
    navigation = [row for row in rows if re.match(r"^(menu .*|more|back)$", row.move)]
    assert navigation  # the log has navigation, and its rows have no words
    assert not any(history.is_told(row) for row in navigation)
    lines = " ".join(_lines(game, None, lang))
    assert "looks through the menu" not in lines and "blättert im Menü" not in lines
    assert lines  # the rest is told


def test_a_row_from_before_sentences_is_still_told():
    row = Move(seat=1, move="take 2", said_author="", said_others="", said_in={})
    assert history.is_told(row) and history.said(row, None) == "{1} moved"
    untold = Move(seat=1, move="more", said_author="", said_others="",
                  said_in={"de": ["", ""]})
    assert not history.is_told(untold)
    assert history.said(untold, 1, "de") == "{1}: more"  # a take-back names it so


def _rounds(game: Game, viewer: int | None, lang: str) -> list[list[history.Turn]]:
    return [r.turns for r in history.history(game, viewer, lang=lang).rounds]


@pytest.mark.parametrize("lang, choose", [("en", "choose a card in secret"),
                                          ("de", "wählen verdeckt eine Karte")])
@pytest.mark.parametrize("name", ["visby", "tallinn"])
def test_simultaneous_secret_choices_are_one_line(ctx, sqlite_database, name, lang, choose):
    game = _imported(ctx, name, 4, 3, bots=range(4))
    for turns in _rounds(game, None, lang):
        for one, two in zip(turns, turns[1:], strict=False):
            if one.seat is None or two.seat is None or one.seat == two.seat:
                continue
            # two seats' lines that say the same of each never stand apart
            assert tell.alike(one.seat, one.lines[0]) != tell.alike(two.seat, two.lines[0])
    names = [f"Bot {i + 1}" for i in range(4)]
    lines = [seat_text(line, names) for line in history.history(game, None, lang=lang).lines]
    # "Bot 2 and Bot 3 choose a card in secret", in the game's words for several seats
    together = [line for line in lines
                if re.fullmatch(rf"Bot \d(, Bot \d)* (and|und) Bot \d {choose}", line)]
    assert together, lines[:6]
    assert not any(re.search(r"(chooses|wählt) .*(and so|ebenso)", line) for line in lines)


def test_the_author_of_a_secret_choice_reads_their_own_apart(ctx, sqlite_database):
    game = _imported(ctx, "tallinn", 3, 3, bots=range(3))
    mine = [t.lines[0] for turns in _rounds(game, 0, "en") for t in turns if t.mine]
    # their card, which the others' "in secret" never joins
    assert any(line.startswith("{0} chooses ") for line in mine)
    assert not any("{0} chooses a card in secret" in line for line in mine)


@pytest.mark.parametrize("lang, last", [("en", " and ends the turn"),
                                        ("de", " und beendet den Zug")])
def test_one_seats_steps_in_one_turn_are_one_sentence(ctx, sqlite_database, lang, last):
    game = _imported(ctx, "riga", 3, 5, bots=range(3))
    rows = list(Move.select().where(Move.game == game).order_by(Move.seq))
    names = [f"Bot {i + 1}" for i in range(3)]
    turns = [t for r in _rounds(game, None, lang) for t in r if t.seat is not None]
    assert all(len(t.lines) == 1 for t in turns)  # never "step; step; step"
    long = [seat_text(t.lines[0], names) for t in turns
            if t.lines[0].startswith(f"{{{t.seat}}}: ")]
    # "Bot 3: takes set 3 (…), starts building …, pays 1 Tuch and ends the turn"
    assert any(re.fullmatch(rf"Bot \d: [^;]+, [^;]+{last}", line) for line in long), long[:3]
    assert any("×2" in line for line in long)  # a repeated step is counted
    assert len(turns) < len(rows) * 2 // 3  # far fewer lines than steps


def test_steps_join_with_their_seat_once_and_repeats_counted():
    steps = ["{2} moves 3 fields", "{2} pays violet", "{2} pays red", "{2} pays violet"]
    assert tell.one_turn(2, steps, "en") == "{2}: moves 3 fields, pays violet ×2 and pays red"
    assert tell.one_turn(2, steps[:1], "de") == "{2} moves 3 fields"
    assert tell.one_turn(1, ["{1}: Abgeben: rot"] * 3, "de") == "{1}: Abgeben: rot ×3"
    assert tell.together([(1, "{1} wählt"), (2, "{2} wählt"), (3, "{3} wählt")], "de") == [
        ([1, 2, 3], "{1} wählt, ebenso {2} und {3}")]
    # another seat named, or the same seat again: no join
    assert len(tell.together([(1, "{1} gives {2}"), (2, "{2} gives {1}")], "en")) == 2
    assert len(tell.together([(1, "{1} waits"), (1, "{1} waits")], "en")) == 2
    # a game's own words for several seats (``Rules.together``)
    plural = get_game("visby").together
    assert tell.together([(2, "{2} chooses a card in secret"), (0, "{0} chooses a card in secret")],
                         "en", plural) == [([2, 0], "{2} and {0} choose a card in secret")]


@pytest.mark.parametrize("lang, several", [("en", "choose 2 cards each in secret"),
                                           ("de", "wählen verdeckt je 2 Karten")])
def test_a_turns_secret_cards_are_counted_in_the_games_words(ctx, sqlite_database, lang,
                                                             several):
    game = _imported(ctx, "visby", 3, 5, bots=range(3))
    names = [f"Bot {i + 1}" for i in range(3)]
    lines = [seat_text(line, names) for line in history.history(game, None, lang=lang).lines]
    # Visby's three players choose two cards each: "Bot 3, Bot 1 and Bot 2 choose 2 cards…"
    assert any(re.fullmatch(rf"Bot \d(, Bot \d)* (and|und) Bot \d {several}", line)
               for line in lines), lines[:4]
    assert not any(re.search(r"(in secret|eine Karte) ×", line) for line in lines)
