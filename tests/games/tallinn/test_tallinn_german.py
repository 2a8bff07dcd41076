"""Tallinn in German: its sentences, text view (the table in words, as pages and HTML
mails show it), events and lobby texts (estate names as printed); English stays the
default, and a language Tallinn lacks reads English."""

from __future__ import annotations

import random
import re

import pytest
from table_words import table_in_words, words_read

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.tallinn import GAME
from pbem.games.tallinn.sentences import event

NAMES = ["Anna", "Bert", "Carl"]
#: English words of Tallinn's that a German reader must not meet
ENGLISH = re.compile(r"\b(chooses|plays|holds|builds|tower|towers|decides|round|Round|hand|"
                     r"pile|display|points|persons|card|coin|Contest|contest|scores|draws?|"
                     r"Nobody|final scoring|Players|choosing|waiting|deciding|Your|chosen|"
                     r"secret|revealed|face down|imperial|legate|start)\b")
OPTIONS = [{"legat": False, "tower_order": False}, {"legat": True, "tower_order": False},
           {"legat": True, "tower_order": True}]


def _games(seeds=range(4), players=3):
    """(before, seat, move, after) of random games to their end, with every option."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(players, OPTIONS[seed % len(OPTIONS)], f"seed{seed}")
        while GAME.to_move(state):
            seat = rng.choice(GAME.to_move(state))
            move = GAME.bot_move(state, seat, rng)
            after = GAME.apply(state, seat, move)
            yield state, seat, move, after
            state = after


def test_every_event_line_reads_german():
    kinds = set()
    for _before, _seat, _move, after in _games():
        for line in after["events"]:
            german = event(line, "de")
            assert not ENGLISH.search(german), (line, german)
            kinds.add(german.split(" ")[1] if german.startswith("{") else german.split(" ")[0])
    assert {"spielt", "Wettstreit", "baut", "Niemand"} <= kinds
    assert event("{0} builds no tower", "en") == "{0} builds no tower"
    assert event("something new", "de") == "something new"  # unknown: English


def test_sentences_in_german_keep_the_secret():
    for before, seat, move, after in _games(range(3)):
        author = GAME.describe(before, seat, move, after, seat, "de")
        others = GAME.describe(before, seat, move, after, SPECTATOR, "de")
        assert author == GAME.describe(before, seat, move, after, EVERYTHING, "de")
        assert not ENGLISH.search(author) and not ENGLISH.search(others), (author, others)
        english = GAME.describe(before, seat, move, after, SPECTATOR)
        assert GAME.describe(before, seat, move, after, SPECTATOR, "xx") == english
        if "in secret" in english:
            assert "verdeckt" in others and not re.search(r"Karte \d|Hand|Auslage", others)
            assert "Legat" not in others and "Münze" not in others


@pytest.mark.parametrize("viewer", [0, SPECTATOR, EVERYTHING])
def test_the_text_view_and_the_table_in_words_read_german(viewer):
    for _before, _seat, _move, after in _games(range(3)):
        view = GAME.view(after, viewer)
        text = GAME.render_text(view, NAMES, "de")
        assert not ENGLISH.search(text), ENGLISH.search(text)
        assert GAME.render_text(view, NAMES, "xx") == GAME.render_text(view, NAMES)
        # the table in words, as the seat page and the HTML mail show it
        page = words_read(table_in_words(GAME, view, NAMES, "de"))
        assert page == text and page.startswith("Tallinn, Durchgang ")
        english = words_read(table_in_words(GAME, view, NAMES, "en"))
        assert english == GAME.render_text(view, NAMES)
        assert english.startswith("Tallinn, round ")


def test_the_lobby_reads_german():
    texts = GAME.texts("de")
    assert texts.description.startswith("Kartenspiel für 2-4 Personen")
    assert texts.default_move_note.startswith("Läuft die Zeit ab")
    assert [o.label for o in texts.options] == ["Der Legat des Kaisers (Erweiterung)",
                                                "Variante Turmreihenfolge"]
    assert GAME.texts("en").options == GAME.options
