"""Macao in German: the mail text, the sentences of every kind of move, the table in
words of pages and HTML mails and the lobby's words, for a reader whose language is "de".

Cards, harbours and goods keep their printed names ("Reislager", "Lisboa", "Reis");
everything else reads German.  Everything in Macao lies open on the table (the
cards revealed, the dice rolled), so a sentence reads the same to every viewer,
and German names the same cards as English.  English stays the default, and any
other language reads English.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from table_words import table_in_words, words_read

from pbem.games.macao import GAME, data
from pbem.games.macao.words import colour
from pbem.games.protocol import EVERYTHING, SPECTATOR

NAMES = ["Heike", "<script>alert('x')</script>", "Malte", "Jule"]

#: English words none of the German texts may hold (whole words, case as written)
ENGLISH = ("round", "rounds", "phase", "Wall", "wall", "order", "Tribute", "gold", "offer",
           "Dice", "dice", "To", "to", "move", "penalty", "markers", "field", "largest",
           "area", "wind", "rose", "arrow", "action", "supply", "tableau", "activated",
           "ship", "at", "cargo", "jokers", "joker", "City", "city", "owned", "districts",
           "District", "Districts", "district", "Harbours", "spaces", "highest", "first",
           "free", "Final", "final", "scoring", "end", "cards", "card", "Take", "take",
           "Discard", "Activate", "activate", "Use", "use", "cube", "cubes", "Pay", "Give",
           "End", "turn", "Deliver", "goods", "Buy", "prestige", "Done", "Back", "row", "Sail",
           "Show", "begins", "the", "and", "of", "for", "you", "Players", "Player", "Cards",
           "deck", "No", "is", "yet", "red", "blue", "green", "black", "grey", "violet",
           "mixed", "tribute", "ship", "idler", "fortress", "rice", "tower")
_ENGLISH = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b")
CARD_NAMES = sorted({c.name for c in data.CARDS.values()}, key=len, reverse=True)


def english_in(text: str) -> list[str]:
    return _ENGLISH.findall(text)


#: each card name's pattern, compiled once (not looked up per name and sentence)
_CARD_PATTERNS = [(name, re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])"))
                  for name in CARD_NAMES]


def cards_named(text: str) -> Counter:
    found: Counter = Counter()
    for name, pattern in _CARD_PATTERNS:
        if name in text:  # a pattern can only match where its name is
            text, count = pattern.subn(" ", text)
            found[name] += count
    return +found


def playout(players: int, seed: int):
    """``(state, seat, move, after)`` for every move of a game of bots and random moves."""
    rng = random.Random(seed)
    state = GAME.setup(players, None, f"de{seed}")
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        move = GAME.bot_move(state, seat, rng) if rng.random() < 0.5 else rng.choice(moves)
        after = GAME.apply(state, seat, move)
        yield state, seat, move, after
        state = after


def page(state, viewer, lang="en") -> str:
    """The table in words of a page or an HTML mail in ``lang`` (HTML)."""
    return table_in_words(GAME, GAME.view(state, viewer), NAMES[:state["players"]], lang)


def text(state, viewer, lang="de") -> str:
    return GAME.render_text(GAME.view(state, viewer), NAMES[:state["players"]], lang)


def states_along(players: int, seed: int, every: int = 37) -> list[dict]:
    """Some states of a game: every ``every``-th, each phase's first, and the end."""
    steps = list(playout(players, seed))
    firsts = {}
    for state, _, _, _ in steps:
        firsts.setdefault(state["phase"], state)
    return ([s for n, (s, _, _, _) in enumerate(steps) if n % every == 0]
            + list(firsts.values()) + [steps[-1][3]])


def test_the_mail_text_reads_german_in_every_phase_for_every_viewer():
    phases = set()
    for state in states_along(3, 1):
        phases.add(state["phase"])
        for viewer in (0, 1, SPECTATOR, EVERYTHING):
            german = text(state, viewer)
            assert english_in(german) == [], (state["phase"], english_in(german))
            english = text(state, viewer, "en")
            assert english == GAME.render_text(GAME.view(state, viewer), NAMES[:3])
            assert text(state, viewer, "fr") == english
    assert {"cards", "dice", "actions", "over"} <= phases


def test_the_mail_text_of_a_round_in_progress_says_it_in_german():
    steps = list(playout(2, 2))
    state = next(s for s, _, _, _ in steps if s["phase"] == "actions" and s["round"] == 5)
    german = text(state, 0)
    assert german.startswith("Macao, Runde 5 von 12, Phase Aktionen")
    for words in ("Mauerreihenfolge: ", "Tribut: ", " GM für ", "Am Zug: ", "Würfel: ",
                  " PP, ", " Strafmarker, Mauerfeld ", "größtes Gebiet", "Windrose (0 = Pfeil",
                  "Schiff auf ", "Ladung: ", "Joker: ", "Stadt, Stadtteile in Besitz",
                  "Häfen (Ablagefelder, höchstes zuerst):", "Lisboa – Reis: 4 "):
        assert words in german, words
    end = text(steps[-1][3], SPECTATOR)
    assert end.startswith("Macao, Spielende") and "Endstand: " in end


def test_every_kind_of_move_reads_german_the_same_to_every_viewer():
    kinds = set()
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        for n, (state, seat, move, after) in enumerate(playout(players, seed)):
            w = move.split()
            kinds.add(f"{w[0]} {w[1]}" if w[0] in ("joker", "show") else w[0])
            english = GAME.describe(state, seat, move, after, seat)
            german = GAME.describe(state, seat, move, after, seat, "de")
            if w[0] in NAVIGATION:  # a page, a row of the city, back: never told
                assert german == english == "", (move, german, english)
                continue
            # a sentence begins with its seat ("{0}: Mauer…", "{0} rückt…")
            assert german.startswith(f"{{{seat}}}") and english_in(german) == [], (move,
                                                                                   german)
            assert cards_named(german) == cards_named(english), (german, english)
            if w[0] != "show":  # "show activate 0" reads "(Seite 1)"
                assert sorted(re.findall(r"\d+", german)) == sorted(
                    re.findall(r"\d+", english)), (german, english)
            # nothing in Macao is secret: every viewer reads the same, in both languages
            assert not GAME.is_secret(state)
            for viewer in (SPECTATOR, EVERYTHING, (seat + 1) % players):
                assert GAME.describe(state, seat, move, after, viewer, "de") == german
                assert GAME.describe(state, seat, move, after, viewer) == english
            assert GAME.describe(state, seat, move, after, seat, "en") == english
            if n % 11 == 0:
                assert GAME.describe(state, seat, move, after, seat, "fr") == english
    # jokers (and the cubes a joker gains) are rare: test_the_rarer_labels_read_german
    # (paying is part of the action's move where it has one sensible way: "wall 2 pay r:3")
    expected = {"take", "one", "two", "die", "activate", "use", "district", "wall",
                "sail", "deliver", "tribute", "end", "finish"}
    assert expected <= kinds, expected - kinds


def test_the_sentences_that_start_a_round_and_roll_the_dice():
    for state, seat, move, after in playout(2, 6):
        german = GAME.describe(state, seat, move, after, None, "de")
        if after["round"] != state["round"] and after["phase"] == "cards":
            assert f"; Runde {after['round']} beginnt" in german
        if after["dice"] != state["dice"] and after["phase"] == "dice":
            rolled = ", ".join(f"{colour(c, 'de')} {v}" for c, v in after["dice"])
            assert german.endswith(f"; Würfel: {rolled}")


#: the moves that only move about the menu (DESIGN: "menu navigation is never told")
NAVIGATION = ("show", "row", "back")


def test_menu_navigation_is_never_told_in_any_language():
    state = GAME.setup(2, None, "x")
    for move in ("show activate 0", "show city 1", "row 2", "back"):
        for lang in ("en", "de"):
            assert GAME.describe(state, 0, move, state, None, lang) == "", (move, lang)


def test_the_rarer_labels_read_german():
    state = GAME.setup(2, None, "x")
    said = {move: GAME.describe(state, 0, move, state, None, "de")
            for move in ("joker gold", "joker cube", "joker mixed", "skip", "done", "gain b",
                         "give r", "discard " + data.card_ids()[0])}
    assert said["joker gold"] == "{0}: Joker nutzen: GM"
    assert said["joker mixed"] == "{0}: Joker nutzen: GM und Stein"
    assert said["skip"] == "{0}: Keine Karte (Müßiggänger)"
    assert said["gain b"] == "{0} nimmt 1 blau" and said["give r"] == "{0}: Abgeben: rot"
    for sentence in said.values():
        assert english_in(sentence) == [], sentence
    assert GAME.describe(state, 0, "joker gold", state, None) == "{0}: Use joker: gold"


def test_the_table_in_words_reads_german_in_every_phase_for_every_viewer():
    for state in states_along(3, 7, every=53):
        for viewer in (0, SPECTATOR, EVERYTHING):
            german = words_read(page(state, viewer, "de"))
            assert german == text(state, viewer)
            assert english_in(german) == [], (state["phase"], english_in(german))
            english = page(state, viewer)
            assert page(state, viewer, "en") == english == page(state, viewer, "fr")
            assert words_read(english) == text(state, viewer, "en") != german
    end = page(state, SPECTATOR, "de")
    assert words_read(end).startswith("Macao, Spielende\n")
    assert end.count("  Endstand: ") == 3 and "Spielende-Karten" in end
    assert "&lt;script&gt;" in end and "<script>" not in end


def test_the_lobby_reads_german():
    german, english = GAME.texts("de"), GAME.texts("en")
    assert german.description.startswith("Strategiespiel für 2-4 Spieler über 12 Runden")
    assert german.default_move_note.startswith("Läuft die Zeit ab")
    # the lobby's description says what the game is; the timeout rule is on the new-game form
    assert german.default_move_note not in german.description
    assert english.description == GAME.description and GAME.texts("fr") == english
