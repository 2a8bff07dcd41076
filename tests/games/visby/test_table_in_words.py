"""Visby's table in words (``templates/games/_text.html`` around ``GAME.render_text``, as
the seat page and the HTML mails show it): what each viewer reads, and nothing more."""

from __future__ import annotations

import re

from table_words import table_in_words, words_read

from pbem.games.datafile import note_lines
from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.visby import GAME
from pbem.games.visby.data import KARTEN

HOSTILE = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
NAMES = ["Heike", HOSTILE, "Anne & Bob", "Malte"]


def render(state, seat, names=NAMES, lang="en") -> str:
    return table_in_words(GAME, GAME.view(state, seat), names[:state["players"]], lang)


def mid_game(secret: str = "Zöllner"):
    """Round 2 of four players: seats 0 and 1 have chosen, seats 2 and 3 not yet."""
    state = GAME.setup(4, None, 1)
    for seat, card in enumerate(["Ritter", "Truppen", "Schmied", "Flotte"]):
        state = GAME.apply(state, seat, f"play {card}")
    assert state["round"] == 2
    state = GAME.apply(state, 0, "play Kaufmann")
    state = GAME.apply(state, 1, f"play {secret}")
    return state


def test_own_hand_and_own_choice_are_shown():
    words = words_read(render(mid_game(), 0))
    hand = ", ".join(k for k in KARTEN if k != "Ritter")
    assert f"Your hand: {hand}\n" in words
    assert "You have chosen: Kaufmann (secret until all have chosen)" in words


def test_another_seats_choice_is_not_shown():
    # seat 1's secret choice changes nothing in what seat 0, seat 2 or a spectator read
    for viewer in (0, 2, SPECTATOR):
        pages = {render(mid_game(secret), viewer) for secret in ("Zöllner", "Schiff",
                                                                 "Bettelmönch")}
        assert len(pages) == 1, viewer
    # a spectator's page names no card that seat 1 holds but has not played
    spectator = words_read(render(mid_game("Zöllner"), SPECTATOR))
    assert "Zöllner" not in spectator
    assert "Your hand" not in spectator and "You have chosen" not in spectator
    assert "hand:" not in spectator and "chosen:" not in spectator
    # while seat 1 reads its own choice, and the archive reads everything
    assert "You have chosen: Zöllner" in words_read(render(mid_game(), 1))
    archive = words_read(render(mid_game(), EVERYTHING))
    assert "chosen: Zöllner" in archive and "chosen: Kaufmann" in archive


def test_who_is_still_choosing():
    words = words_read(render(mid_game(), 0))
    choosing = [line for line in words.splitlines() if "choosing" in line]
    assert len(choosing) == 2
    assert choosing[0].startswith("Anne & Bob ") and choosing[1].startswith("Malte ")
    assert all(line.endswith("  - choosing (0/1 chosen)") for line in choosing)


def test_names_are_escaped_everywhere():
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        html = render(mid_game(), viewer)
        assert HOSTILE not in html
        assert "<script" not in html
        assert "Anne &amp; Bob" in html
        # in the players' lines and in the events of the last round
        assert re.search(rf"^{re.escape(ESCAPED)} +2 seals", html, re.M)
        assert f"  {ESCAPED} reveals Truppen\n" in html
        assert f"  Truppen: {ESCAPED} takes 2 seals from Feldzug" in html


def test_trading_shows_rates_and_the_merchants():
    state = GAME.setup(2, None, 1)
    state["tracks"]["Markt"] = 9
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Kaufmann")
        state = GAME.apply(state, seat, "play Schmied")
    words = words_read(render(state, 1))
    trading = [line for line in words.splitlines() if line.endswith("  - trading")]
    assert len(trading) == 2
    assert "Markt field 7 (rate 3:2)" in words
    assert "Rates at or below the purse: 3:2, 2:1◇, 3:1◇, 4:1◇" in words
    # the sign's note once, at the end
    note = "\n".join(note_lines("en"))
    assert words.count(note) == 1 and words.endswith(note)


def test_the_end_shows_final_seals():
    state = GAME.setup(2, None, 1)
    state["seals"] = [30, 20]
    state["goods"] = [5, 7]
    for seat in (0, 1):
        state = GAME.apply(state, seat, "play Schmied")
        state = GAME.apply(state, seat, "play Zöllner")
    assert GAME.is_over(state)
    for viewer in (0, SPECTATOR, EVERYTHING):
        words = words_read(render(state, viewer))
        final = words[words.index("Final seals (goods converted 3:1):"):].splitlines()
        assert final[1:] == ["  Heike: 31 (2 goods left over)",
                             f"  {HOSTILE}: 22 (1 good left over)", "", *note_lines("en")]
        assert "choosing" not in words


def test_plain_text_shows_every_hand_only_to_the_all_seeing_view():
    state = GAME.apply(GAME.setup(3, {}, seed=5), 0, "play Ritter")
    names = ["Heike", "Malte", "Jule"]
    archive = GAME.render_text(GAME.view(state, EVERYTHING), names)
    assert archive.count("hand: ") == 3 and "chosen: Ritter" in archive
    for viewer in (SPECTATOR, 1):
        text = GAME.render_text(GAME.view(state, viewer), names)
        assert "chosen: Ritter" not in text and "You have chosen" not in text
    assert "You have chosen: Ritter" in GAME.render_text(GAME.view(state, 0), names)


def test_one_seal_and_one_good_read_in_the_singular():
    state = GAME.setup(4, None, 1)
    state["tracks"].update(Feldzug=1, Handelsfahrt=1)
    assert "Feldzug 1 seal, Handelsfahrt 1 good," in words_read(render(state, 0))
    state["tracks"].update(Feldzug=2, Handelsfahrt=0)
    assert "Feldzug 2 seals, Handelsfahrt 0 goods," in words_read(render(state, 0))
