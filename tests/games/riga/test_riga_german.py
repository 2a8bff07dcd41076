"""Riga in German: the mail text, the sentences of every kind of move, the table in
words of pages and HTML mails and the lobby's words, for a reader whose language is "de".

Buildings, cities and commodities keep their printed names ("Korn", "Loge in
Stockholm", "Kloster (Riga)"); everything else reads German.  German says no more
than English to the same viewer: a private draw or a secret choice reads as such to
the others, and a sentence names the same cards and numbers in both languages.
English stays the default, and any other language reads English.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from riga_helpers import NAMES, give_display, play, random_steps, set_sets, started
from table_words import table_in_words, words_read
from test_riga_picture import arranged, drawing, played_out

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.riga import GAME, data, words
from pbem.games.riga import sentences as riga_sentences

#: English words none of the German texts may hold (whole words, case as written)
ENGLISH = ("takes", "take", "builds", "erects", "keeps", "keep", "uses", "draws", "pays",
           "ends", "the", "turn", "set", "sets", "round", "year", "cards", "names", "starts",
           "discards", "cancels", "swaps", "offers", "picks", "and", "with", "from", "of",
           "looks", "nothing", "adds", "begins", "your", "Your", "You", "you", "hand",
           "points", "point", "commodities", "commodity", "buildings", "building", "knights",
           "merchants", "display", "ducats", "cost", "paid", "using", "is", "are", "This",
           "Final", "scoring", "player", "Players", "none", "used", "new", "spring",
           "summer", "autumn", "shows", "discard", "Piles", "separation", "chosen", "secret",
           "money", "seals", "lowest", "Everyone", "lie", "left", "game", "over")
_ENGLISH = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b")

#: what a sentence names: every building art, city and commodity name
NAMED = sorted({g.art for g in data.GEBAEUDE.values()} | set(data.RIGA_ARTEN)
               | set(data.STAEDTE) | set(data.WARE_NAME.values()), key=len, reverse=True)


def english_in(text: str) -> list[str]:
    return _ENGLISH.findall(text)


#: each name's pattern, compiled once (not looked up per name and sentence)
_NAMED = [(name, re.compile(rf"\b{re.escape(name)}\b")) for name in NAMED]


def named(text: str) -> Counter:
    """The card names, city names and numbers a sentence holds, counted."""
    found: Counter = Counter()
    for name, pattern in _NAMED:
        if name in text:  # a pattern can only match where its name is
            text, count = pattern.subn(" ", text)
            found[name] += count
    found.update(f"#{n}" for n in re.findall(r"\d+", text))
    return +found


def page(state, viewer, lang="en") -> str:
    """What ``viewer`` reads in the table in words of a page or HTML mail in ``lang``,
    its line breaks as single spaces."""
    view = GAME.view(state, viewer)
    return flat(words_read(table_in_words(GAME, view, NAMES[:state["players"]], lang)))


def text(state, viewer, lang="de") -> str:
    return GAME.render_text(GAME.view(state, viewer), NAMES[:state["players"]], lang)


def flat(s: str) -> str:
    return re.sub(r"\s+", " ", s)


# -- the mail text ---------------------------------------------------------------------------


def test_the_german_table_says_everything_the_english_one_says():
    # German leaves out only what reads the same ("Kran in Visby"); the retellings of the
    # events are German alone, since the rules write the events in English
    same = {"building in"}
    retold = {key for key in words.DE if key.startswith("event ")}
    assert set(words.EN) - same == set(words.DE) - retold
    for key, value in words.EN.items():
        if isinstance(value, dict) and key in words.DE and key not in ("art a", "art the",
                                                                       "art the accusative"):
            assert set(value) == set(words.DE[key]), key


def test_the_mail_text_of_a_game_in_progress_reads_german():
    state = arranged()
    german = text(state, 0)
    assert english_in(german) == [], english_in(german)
    for words_ in ("Riga, Jahr 1 von 9, Sommer. Mit den Riga-Gebäuden.",
                   "Am Zug: Du – Gebäude bauen (oder den Zug beenden).",
                   "Startspieler: Malte.", "Gebäude in der Auslage, neueste zuerst:",
                   "-- Trenn-Karte:", "Warenreihen:", "Reihe 2: Korn, Korn, Wein, Korn = ",
                   "Malte (Du) [Startspieler]:", "Deine Hand:", "Waren: 1 Tuch, 2 Wein, 1 Korn",
                   "Loge (Visby): kostet", "Kontor (Visby, genutzt)", "Wechselstube (8 Dukaten)",
                   "Kran (Tallinn, neu: zählt ab dem nächsten Zug)", "Ritter", "Kaufleute",
                   "Dieses Jahr:", "Riga-Gebäude verdeckt: Kloster, Speicher"):
        assert words_ in flat(german), words_
    # a building's help line in German, as the view carries it
    assert data.help_line("Festung-Visby", "de") in flat(german)
    # the same table in English, unchanged by the language parameter's default
    english = text(state, 0, "en")
    assert english == GAME.render_text(GAME.view(state, 0), NAMES[:3])
    assert english.startswith("Riga, year 1 of 9, summer.") and "Your hand:" in english
    assert text(state, 0, "fr") == english
    # a regional code reads its language's table (pbem.games.language.table_for), as the
    # picture always did
    assert text(state, 0, "de-x") == german


def test_the_mail_text_at_every_stage_and_for_every_viewer_reads_german():
    states = [GAME.setup(3, {"riga": True}, "face")]
    states.append(GAME.apply(states[0], GAME.to_move(states[0])[0], "start 1"))
    states += [arranged(), drawing("Bauhof"), drawing("Schatzkammer"), played_out()]
    for state in states:
        for viewer in (0, 1, SPECTATOR, EVERYTHING):
            german = text(state, viewer)
            assert english_in(german) == [], (state["phase"], viewer, english_in(german))


def test_the_final_scoring_reads_german():
    state = played_out()
    german = flat(text(state, EVERYTHING))
    assert german.startswith("Riga, nach 8 Jahren: das Spiel ist zu Ende.")
    assert "Schlusswertung:" in german and "Das Spiel ist zu Ende: Schlusswertung" in german
    assert re.search(r"Malte: -?\d+ Siegpunkte? \(Gebäude -?\d+", german)
    assert "bei Gleichstand" in german


def test_every_event_of_random_games_has_its_german_sentence():
    seen = set()
    for players, riga in ((2, True), (3, False), (4, True)):
        for state, _, _ in random_steps(players, players, riga):
            seen.update(state["log"])
    assert len(seen) > 100
    for event in seen:
        german = riga_sentences.event(event, "de")
        assert german != event and english_in(german) == [], (event, german)
        assert riga_sentences.event(event) == event and riga_sentences.event(event, "fr") == event


# -- the sentences --------------------------------------------------------------------------------


def kind(before, move) -> str:
    w = move.split()
    if w[0] in ("take", "discard", "choose"):
        return f"{w[0]} " + ("set" if w[1] == "set" else "none" if w[1] == "none"
                             else "building" if data.is_building(w[1]) else "ware")
    if w[0] in ("use", "menu"):
        return f"{w[0]} {w[1]}"
    if w[0] == "back":
        return f"back {(before['sub'] or {}).get('kind')}"
    return w[0]


def check_sentences(state, seat, move, after, check_other_languages=False) -> None:
    players = state["players"]
    for viewer in (seat, (seat + 1) % players, SPECTATOR, EVERYTHING):
        german = GAME.describe(state, seat, move, after, viewer, "de")
        english = GAME.describe(state, seat, move, after, viewer)
        assert german.startswith(f"{{{seat}}} ") and german != english
        assert english_in(german) == [], (move, german)
        # the same cards, cities and numbers: German tells no more than English
        assert named(german) == named(english), (move, german, english)
        assert GAME.describe(state, seat, move, after, viewer, "en") == english
        if check_other_languages:
            assert GAME.describe(state, seat, move, after, viewer, "fr") == english


def kloster_swap():
    """``(state, seat, move)`` of a Kloster swap, one left half way, then one made."""
    state = started(2, riga=True)
    give_display(state, 0, ["Kloster"])
    set_sets(state, [["Tuch", "Tuch"], ["Getreide"] * 5, ["Wein"] * 3, ["Glas"] * 3])
    for move in ("kloster", "from 1", "back", "kloster", "from 1", "give Tuch", "to 2",
                 "get Getreide", "take set 2"):
        yield state, 0, move
        state = GAME.apply(state, 0, move)


def test_every_kind_of_move_reads_german_and_names_what_english_names():
    kinds = set()
    games = [random_steps(players, seed, riga)
             for players, riga, seed in ((2, True, 1), (3, True, 2), (4, False, 3), (3, True, 4))]
    for steps in games + [kloster_swap()]:
        for n, (state, seat, move) in enumerate(steps):
            after = GAME.apply(state, seat, move)
            kinds.add(kind(state, move))
            check_sentences(state, seat, move, after, n % 7 == 0)
    expected = {"start", "keep", "take set", "take building", "build", "add", "pay", "finish",
                "end", "cancel", "use Kontor", "use Bauhof", "use Schatzkammer",
                "choose building", "choose ware", "choose none", "school", "discard ware",
                "kloster", "from", "give", "to", "get", "back kloster", "charge"}
    assert expected <= kinds, expected - kinds


def test_the_kloster_swap_in_progress_reads_german():
    steps = list(kloster_swap())
    state = GAME.apply(*steps[5])  # "from 1", "give Tuch" made
    assert "Du nutzt das Kloster: eine Karte aus Reihe 1 (Tuch)." in flat(text(state, 0))
    assert "Malte nutzt das Kloster: eine Karte aus Reihe 1 (Tuch)." in flat(text(state, 1))
    assert "Malte nutzt das Kloster: eine Karte aus Reihe 1 (Tuch)." in page(state, 1, "de")
    state = GAME.apply(*steps[7])
    assert ("Malte hat mit dem Kloster zwei Karten getauscht und nimmt Reihe 1 oder Reihe 2."
            in page(state, 1, "de"))
    assert "Du hast mit dem Kloster zwei Karten getauscht und nimmst Reihe 1 oder Reihe 2." in (
        flat(text(state, 0)))


def test_sentences_for_the_rarer_moves():
    state = started(3)
    give_display(state, 0, ["Kran-Visby", "Bank-Visby", "Wirtshaus-Visby"])
    for art in ("Kran", "Bank", "Wirtshaus"):
        sentence = GAME.describe(state, 0, f"use {art}", state, 1, "de")
        assert sentence.startswith("{0} nutzt ein") and sentence.endswith(art)
    # menu navigation is never told (an empty sentence: no history line)
    assert GAME.describe(state, 0, "more", state, 1, "de") == ""
    assert GAME.describe(state, 0, "add Loge-Stockholm", state, 1, "de") == (
        "{0} nimmt Loge in Stockholm zum Bauvorhaben dazu")
    assert GAME.describe(state, 0, "build Kloster", state, 1, "de") == (
        "{0} beginnt, Kloster (Riga) zu bauen")


@pytest.mark.parametrize("art", ["Bauhof", "Schatzkammer"])
def test_a_private_draw_reads_as_such_to_the_others_in_german(art):
    state = started(3)
    give_display(state, 0, [f"{art}-Visby"])
    after = play(state, 0, f"use {art}")
    cards = after["pending_draw"]["cards"]
    named_cards = [data.WARE_NAME.get(c, c) for c in cards]
    own = GAME.describe(state, 0, f"use {art}", after, 0, "de")
    assert own.startswith(f"{{0}} nutzt ein{'en' if art == 'Bauhof' else 'e'} {art} und zieht ")
    assert all(name in own for name in named_cards)
    assert GAME.describe(state, 0, f"use {art}", after, EVERYTHING, "de") == own
    for viewer in (1, 2, SPECTATOR):
        sentence = GAME.describe(state, 0, f"use {art}", after, viewer, "de")
        assert sentence == f"{{0}} nutzt {words.DE['art a'][art]} und zieht {len(cards)} Karten"
        german = text(after, viewer)
        assert f"Malte zieht mit {words.DE['art the'][art]}." in german
        assert "gezogen" not in german
        assert f"Malte zieht mit {words.DE['art the'][art]}." in page(after, viewer, "de")
    assert f"Mit {words.DE['art the'][art]} gezogen" in page(after, 0, "de")
    pick = f"choose {cards[-1]}"
    done = play(after, 0, pick)
    kept = (riga_sentences.sentence_building(cards[-1]) if art == "Bauhof"
            else data.WARE_NAME[cards[-1]])
    source = words.DE['art the'][art]
    assert GAME.describe(after, 0, pick, done, 0, "de") == f"{{0}} behält {kept} aus {source}"
    others = {GAME.describe(after, 0, f"choose {c}", play(after, 0, f"choose {c}"), viewer,
                            "de")
              for c in set(cards) for viewer in (1, 2, SPECTATOR)}
    assert others == {f"{{0}} behält eine Karte aus {source}"}


def test_the_setup_keep_and_a_winter_building_stay_secret_in_german():
    state = GAME.setup(3, {"riga": False}, "face")
    state = GAME.apply(state, GAME.to_move(state)[0], "start 1")
    offer = state["keep_offer"][1]
    sentences = {GAME.describe(state, 1, f"keep {b}", GAME.apply(state, 1, f"keep {b}"), v,
                               "de")
                 for b in offer for v in (0, 2, SPECTATOR)}
    assert sentences == {"{1} behält eines von zwei Gebäuden"}
    own = GAME.describe(state, 1, f"keep {offer[0]}", GAME.apply(state, 1, f"keep {offer[0]}"),
                        1, "de")
    assert own == f"{{1}} behält {riga_sentences.sentence_building(offer[0])}"
    # a building discarded in winter: the author reads which, the others that it was one
    before = dict(state, phase="winter")
    assert GAME.describe(before, 1, "discard Loge-Visby", before, 0, "de") == (
        "{1} wirft ein Gebäude ab")
    assert GAME.describe(before, 1, "discard Loge-Visby", before, 1, "de") == (
        "{1} wirft Loge in Visby ab")


# -- the table in words, as pages and HTML mails show it --------------------------------------


def test_the_table_in_words_reads_german_where_lang_is_de():
    state = arranged()
    german = page(state, 0, "de")
    assert german == flat(text(state, 0))
    assert english_in(german) == [], english_in(german)
    for words_ in ("Riga, Jahr 1 von 9, Sommer.", "Mit den Riga-Gebäuden.",
                   "Am Zug: Du – Gebäude bauen", "Startspieler: Malte.",
                   "Waren und ihr Grundwert:", "Gebäude in der Auslage, neueste zuerst",
                   "Trenn-Karte:", "Warenreihen", "Dukaten", "Deine Hand:", "Dieses Jahr:",
                   "Ritter 3, Kaufleute 1", "noch keine Gebäude", "genutzt",
                   "neu: zählt ab dem nächsten Zug"):
        assert words_ in german, words_
    assert "(cloth)" not in german and data.help_line("Festung-Visby", "de") in german
    # English where lang is "en" or anything else
    english = page(state, 0)
    assert english.startswith("Riga, year 1 of 9, summer.") and "Your hand:" in english
    assert page(state, 0, "fr") == english


def test_the_table_in_words_reads_german_at_every_stage_and_for_every_viewer():
    setup = GAME.setup(3, {"riga": True}, "face")
    states = [setup, GAME.apply(setup, GAME.to_move(setup)[0], "start 1"), arranged(),
              drawing("Bauhof"), played_out()]
    rng = random.Random(5)
    steps = list(random_steps(3, 5, True))
    states += [s for s, _, _ in rng.sample(steps, 12)]
    for state in states:
        for viewer in (0, 1, SPECTATOR, EVERYTHING):
            german = page(state, viewer, "de")
            assert english_in(german) == [], (state["phase"], viewer, english_in(german))
    end = page(played_out(), SPECTATOR, "de")
    assert end.startswith("Riga, nach 8 Jahren: das Spiel ist zu Ende.")
    assert "Schlusswertung:" in end and "bei Gleichstand" in end


def test_names_stay_escaped_in_the_german_table_in_words():
    state = arranged()
    view = GAME.view(state, 1)
    hostile = ["<script>alert('x')</script>", "Heike", "Jule"]
    html = table_in_words(GAME, view, hostile, "de")
    assert "<script>" not in html and "&lt;script&gt;alert(&#39;x&#39;)" in html


# -- the lobby's words ----------------------------------------------------------------------------


def test_the_lobby_reads_german():
    german, english = GAME.texts("de"), GAME.texts("en")
    assert german.description.startswith("Kartenspiel für 2-4 Spieler über 8 Jahre")
    assert german.default_move_note.startswith("Läuft die Zeit ab")
    # the lobby's description says what the game is; the timeout rule is on the new-game form
    assert german.default_move_note not in german.description
    assert [o.label for o in german.options] == [
        "Riga-Gebäude", "Kran rundet ab (Variante der Lesart)",
        "Bauhof zieht nur vom Stapel (Variante der Lesart)"]
    assert "nicht gebaute kostet 2" in german.options[0].help
    assert english.description == GAME.description
    assert english.options == GAME.options and GAME.texts("fr") == english
