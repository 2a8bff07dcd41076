"""Visby in German: its sentences, text view (the table in words, as pages and HTML
mails show it), events and lobby texts (card and track names as printed); English stays
the default, and a language Visby lacks reads English."""

from __future__ import annotations

import random
import re

import pytest
from table_words import table_in_words, words_read

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.visby import GAME
from pbem.games.visby.sentences import event

NAMES = ["Anna", "Bert", "Carl"]
#: English words of Visby's that a German reader must not meet
ENGLISH = re.compile(r"\b(chooses|trades|done trading|seals?|goods?|round|Round|hand|"
                     r"discard|Board|field|rate|reveals|takes|gets|supply|purse|lost above|"
                     r"Someone|game ends|Players|choosing|trading|Your|chosen|secret|left "
                     r"over)\b")


def _games(seeds=range(6), players=3):
    """(before, seat, move, after) of random games to their end."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(players, None, f"seed{seed}")
        while GAME.to_move(state):
            seat = rng.choice(GAME.to_move(state))
            move = GAME.bot_move(state, seat, rng)
            after = GAME.apply(state, seat, move)
            yield state, seat, move, after
            state = after


def test_every_event_line_reads_german():
    seen = set()
    for _before, _seat, _move, after in _games():
        for line in after["events"]:
            german = event(line, "de")
            assert german != line or not ENGLISH.search(line), line
            assert not ENGLISH.search(german), german
            seen.add(line.split(":")[0].split(" ")[0])
    assert {"Truppen", "Ritter", "Schmied", "Zöllner", "Kaufmann", "Bettelmönch"} <= seen
    assert event("{0} reveals Ritter", "en") == "{0} reveals Ritter"
    assert event("something new", "de") == "something new"  # unknown: English


def test_sentences_in_german_keep_the_secret():
    for before, seat, move, after in _games(range(2)):
        author = GAME.describe(before, seat, move, after, seat, "de")
        others = GAME.describe(before, seat, move, after, SPECTATOR, "de")
        assert author == GAME.describe(before, seat, move, after, EVERYTHING, "de")
        assert not ENGLISH.search(author) and not ENGLISH.search(others), (author, others)
        assert GAME.describe(before, seat, move, after, seat, "xx") == \
            GAME.describe(before, seat, move, after, seat)
        if GAME.is_secret(before):
            assert others == f"{{{seat}}} wählt verdeckt eine Karte"
            assert move.split()[1] in author


@pytest.mark.parametrize("viewer", [0, SPECTATOR, EVERYTHING])
def test_the_text_view_and_the_table_in_words_read_german(viewer):
    for _before, _seat, _move, after in _games(range(2)):
        view = GAME.view(after, viewer)
        text = GAME.render_text(view, NAMES, "de")
        assert not ENGLISH.search(text), ENGLISH.search(text)
        assert GAME.render_text(view, NAMES, "xx") == GAME.render_text(view, NAMES)
        # the table in words, as the seat page and the HTML mail show it
        page = words_read(table_in_words(GAME, view, NAMES, "de"))
        assert page == text and "Durchgang" in page
        english = words_read(table_in_words(GAME, view, NAMES, "en"))
        assert english == GAME.render_text(view, NAMES)
        assert "Durchgang" not in english and "Visby, round " in english


def test_the_lobby_reads_german():
    texts = GAME.texts("de")
    assert texts.description.startswith("Kartenspiel für 2-6 Personen")
    assert texts.default_move_note.startswith("Läuft die Zeit ab")
    assert texts.options[0].label == "Siegel, mit denen das Spiel endet"
    assert GAME.texts("en").options == GAME.options
