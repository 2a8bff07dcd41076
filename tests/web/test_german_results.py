"""A finished game's result in the reader's language: a German player's result mail and
finished-game page give the game's details (how the final values came about) and the
names of the tie-breakers in German, an English player's in English; a result stored
by an older pbem (without the words in other languages) still shows, in English."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

import pytest
from freezegun import freeze_time
from web_helpers import finish, latest_mail, player, seat_path

from pbem.gamelog.standing import standing
from pbem.games import get_game
from pbem.games.protocol import RESULT_LANGUAGE_KEYS, Result, rank_by
from pbem.lifecycle import create
from pbem.models import Game, Player, Seat

ALICE, BOB = "alice@example.org", "bob@example.org"
NOON = datetime(2026, 3, 2, 12, 0, 0)
GERMAN_HEADING = "So kamen die Endwerte zustande:"

#: per game: words of its German details and tie-breakers, and the English of both that
#: must not reach a German reader
WORDS = {
    "visby": {
        "details": (" Siegel + ", " zu 3:1 = "),
        "tiebreaks": ("Restwaren nach dem Umtausch 3:1", "verbliebene Handkarten"),
        "english": ("seals", " goods", " at 3:1", "left over", "cards in hand"),
        "english_details": (" seals + ", " at 3:1 = "),
        "english_tiebreak": "goods left over after the 3:1 conversion",
    },
    "tallinn": {
        "details": (" Punkte vor der Schlusswertung ", " gegen ", "Türme: "),
        "tiebreaks": ("Personen auf Turmkarten",),
        "english": ("points before", "final scoring", " against ", "Towers:", "merchants",
                    "knights", "monks", "persons on tower cards"),
        "english_details": (" points before the final scoring ", " against "),
        "english_tiebreak": "persons on tower cards",
    },
}


def _tied(result: Result) -> Result:
    """``result`` with seats 0 and 1 level on the score, so that the first tie-breaker
    decides between them (seat 0 ahead on it)."""
    top = max(result.scores)
    tiebreaks = [list(row) for row in result.tiebreaks]
    tiebreaks[0][0], tiebreaks[1][0] = 7, 3
    scores = [top, top, *result.scores[2:]]
    ranks = rank_by([(score, *row) for score, row in zip(scores, tiebreaks, strict=True)])
    return replace(result, scores=scores, ranks=ranks,
                   winners=[s for s, r in enumerate(ranks) if r == 1], tiebreaks=tiebreaks)


def _finished(ctx, monkeypatch, name: str) -> Game:
    """A game of ``name`` between Alice (English) and Bob (German) played to its end, its
    result made a tie that the first tie-breaker decides."""
    rules = get_game(name)
    real = rules.result
    monkeypatch.setattr(rules, "result", lambda state: _tied(real(state)))
    with freeze_time(NOON):
        alice, bob = player(ALICE, "Alice"), player(BOB, "Bob")
        Player.update(language="de").where(Player.id == bob.id).execute()
        game = create.create_game(ctx, name, alice, [BOB], seed=7)
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                             Player.get_by_id(bob.id))
        game = finish(ctx, Game.get_by_id(game.id))
    assert game.status == Game.FINISHED
    return game


def _result_section(page: str) -> str:
    section = page.split('id="result-h"', 1)[1].split("</section>", 1)[0]
    return re.sub(r"<[^>]*>", " ", section)


@pytest.mark.parametrize("name", sorted(WORDS))
def test_a_german_players_result_reads_german_and_an_english_players_english(
        ctx, client, monkeypatch, name):
    words = WORDS[name]
    game = _finished(ctx, monkeypatch, name)
    bob, alice = latest_mail(BOB, "result"), latest_mail(ALICE, "result")

    # Bob's mail: the details and the tie-breaker that decided, in German
    for body in (bob.text_body, re.sub(r"<[^>]*>", " ", bob.html_body)):
        assert GERMAN_HEADING in body
        for word in words["details"]:
            assert word in body, word
        assert words["tiebreaks"][0] in body
        left = [w for w in words["english"] if w in body]
        assert not left, left

    # Bob's seat page and the public page asked for in German
    for page in (client.get(seat_path(bob)).text,
                 client.get(f"/g/{game.id}", headers={"Accept-Language": "de"}).text):
        assert '<html lang="de">' in page
        section = _result_section(page)
        for word in words["details"]:
            assert word in section, word
        assert words["tiebreaks"][0] in section
        left = [w for w in words["english"] if w in section]
        assert not left, left

    # Alice reads the same result in English
    for body in (alice.text_body, _result_section(client.get(seat_path(alice)).text)):
        for word in words["english_details"]:
            assert word in body, word
        assert words["english_tiebreak"] in body
        assert not any(w in body for w in words["tiebreaks"] + words["details"]), body


def test_a_result_stored_without_other_languages_still_shows_in_english(ctx, client,
                                                                         monkeypatch):
    game = _finished(ctx, monkeypatch, "visby")
    old = {k: v for k, v in game.result.items() if k not in RESULT_LANGUAGE_KEYS}
    Game.update(result=old).where(Game.id == game.id).execute()

    st = standing(old, ["Alice", "Bob"], "de")
    assert st.details == old["details"] and st.decided_by == [old["tiebreak_names"][0]]

    page = client.get(f"/g/{game.id}", headers={"Accept-Language": "de"})
    assert page.status_code == 200
    section = _result_section(page.text)
    assert " at 3:1 = " in section and old["tiebreak_names"][0] in section
    assert "Siegel + " not in section
    # the headline and our own words are German all the same
    assert "gewinnt mit" in section


def test_the_standing_reads_the_words_of_the_readers_language():
    result = Result(scores=[5, 5], ranks=[1, 2], winners=[0], tiebreaks=[[2], [1]],
                    tiebreak_names=["money"], details=["{0}: 5", "{1}: 5"],
                    tiebreak_names_in={"de": ["Geldwert"]},
                    details_in={"de": ["{0}: fünf", "{1}: fünf"]})
    names = ["Alex", "Bob"]
    for data in (result, result.to_json()):
        assert standing(data, names, "de").details == ["{0}: fünf", "{1}: fünf"]
        assert standing(data, names, "de").decided_by == ["Geldwert"]
        assert standing(data, names, "de-AT").decided_by == ["Geldwert"]
        assert standing(data, names, "en").details == ["{0}: 5", "{1}: 5"]
        assert standing(data, names, "fr").decided_by == ["money"]
        assert standing(data, names).places[0].tiebreaks == [("money", 2)]
    assert result.details_for("de") == ["{0}: fünf", "{1}: fünf"]
    assert result.tiebreak_names_for(None) == ["money"]
