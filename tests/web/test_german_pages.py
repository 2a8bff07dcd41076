"""Pages in the reader's language: German for a player who chose German, for a visitor
whose browser asks for it; English for everyone else.

Only our own words are translated: the game's words (its table, the sentences of its
moves) stay as the game writes them, and its menu comes in the reader's language from
the game itself.  So the lists of English words below are ours, not the game's.
"""

from __future__ import annotations

import re
from datetime import datetime

from freezegun import freeze_time
from web_helpers import (
    forms_in,
    latest_mail,
    move_paths,
    post_form,
    seat_path,
    table,
)

from pbem.models import Player

ALICE, BOB = "alice@example.org", "bob@example.org"
START = datetime(2026, 3, 2, 12, 0)  # a Monday; the deadline is Thursday

#: our English words that must not be left on a German page (the game's own words,
#: e.g. its view's headings, may be English: they are the game's)
ENGLISH = ("Your move", "Table talk", "Your settings", "All your games", "What happened",
           "Round ", "Please move by", "New game", "slow board games", "Send to the table",
           "Confirm your move", "Confirm:", "The public page", "About the data of",
           "Vacation, quiet hours", "Choose another move", "your seat,", "Played:",
           "stays secret", " left)", "Thu ")


def _german_bob(ctx):
    with freeze_time(START):
        game = table(ctx)
    Player.update(language="de").where(Player.email == BOB).execute()
    return game


def _our_words(html: str) -> str:
    """The page without the game's own part (its view template and picture)."""
    html = re.sub(r"<figure class=\"table-picture\">.*?</figure>", "", html, flags=re.S)
    return re.sub(r"<section class=\"view\b.*?</section>", "", html, flags=re.S)


def _no_english(html: str) -> None:
    ours = _our_words(html)
    left = [w for w in ENGLISH if w in ours]
    assert not left, left


@freeze_time(START)
def test_a_german_players_seat_page_is_german_and_an_english_ones_english(ctx, client):
    _german_bob(ctx)
    bob = client.get(seat_path(latest_mail(BOB)))
    assert bob.status_code == 200
    assert '<html lang="de">' in bob.text
    for words in ("dein Platz, Bob", "Du bist am Zug", "Bitte zieh bis <strong>Do 05.03.2026, "
                  "12:00 (UTC)</strong>", "Tischgespräch", "An den Tisch schicken",
                  "Deine Einstellungen", "Alle deine Spiele", "Über die Daten von Visby",
                  "Die öffentliche Seite dieses Spiels", "pbem · langsame Brettspiele"):
        assert words in bob.text, words
    _no_english(bob.text)
    # the game's menu in German, card names as printed
    assert re.search(r">Ritter ausspielen<", bob.text)

    alice = client.get(seat_path(latest_mail(ALICE)))
    assert '<html lang="en">' in alice.text
    for words in ("Your move", "Please move by <strong>Thu 05 Mar 2026, 12:00 (UTC)</strong>",
                  "Table talk", "Your settings", "All your games"):
        assert words in alice.text, words
    for german in ("Deine", "Tischgespräch", "Bitte", "Platz"):
        assert german not in _our_words(alice.text), german


@freeze_time(START)
def test_a_german_players_confirm_page_and_what_follows_are_german(ctx, client):
    _german_bob(ctx)
    link = move_paths(latest_mail(BOB))[0]
    page = client.get(link)
    assert page.status_code == 200 and '<html lang="de">' in page.text
    assert "Bestätige deinen Zug" in page.text and "Platz von <strong>Bob</strong>" in page.text
    assert "Deine Wahl bleibt geheim, bis alle gewählt haben." in page.text
    [form] = [f for f in forms_in(page.text) if f.button.startswith("Bestätigen: ")]
    _no_english(page.text)
    seat = client.get(post_form(client, form).headers["Location"])
    assert "Gespielt: " in seat.text  # the flash, in German; the sentence is the game's
    # a link already played: the refusal page is German too
    again = client.get(link)
    assert again.status_code in (409, 410) and '<html lang="de">' in again.text
    assert any(t in again.text for t in ("Schon gespielt", "Das Spiel ist weitergegangen",
                                         "Diese Wahl steht nicht mehr offen"))


@freeze_time(START)
def test_a_german_players_turn_mail_is_german(ctx, client):
    _german_bob(ctx)
    with freeze_time(START):
        table(ctx)  # a second game: its mails are written now, after Bob chose German
    mail = latest_mail(BOB)
    text, html = mail.text_body, mail.html_body
    assert "Hallo Bob," in text and "Bitte zieh bis Do 05.03.2026, 12:00 (UTC)." in text
    assert "Deine Züge (jeder Link fragt nach, bevor etwas geschieht):" in text
    assert "Dein Platz, mit dem ganzen Tisch und denselben Zügen:" in text
    assert "Alle deine Spiele:" in text
    assert '<html lang="de">' in html and "<h3>Deine Züge</h3>" in html
    for english in ("Hello", "Your moves", "Please move by", "Your seat", "All your games",
                    "Everyone chooses", "You get this mail", "Open your seat"):
        assert english not in text + html, english
    assert re.search(r"^  \d+\. Ritter ausspielen", text, re.M)


def test_accept_language_gives_a_visitor_german_pages(client):
    home = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert '<html lang="de">' in home.text
    assert "Ein Spiel beginnen" in home.text and "Langsame Brettspiele per Mail" in home.text
    new = client.get("/new/visby", headers={"Accept-Language": "de"})
    assert "Neues Spiel Visby" in new.text and "Dein Name, wie die anderen ihn sehen" in new.text
    _no_english(new.text)
    missing = client.get("/g/9999", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and '<html lang="de">' in missing.text
    assert "Nicht gefunden" in missing.text and "pbem-Startseite" in missing.text
    # no header, or one for a language we do not write: English
    for headers in ({}, {"Accept-Language": "fr-FR,fr;q=0.9"}):
        page = client.get("/", headers=headers)
        assert '<html lang="en">' in page.text and "Start a game" in page.text


@freeze_time(START)
def test_a_players_own_language_beats_their_browsers(ctx, client):
    _german_bob(ctx)
    alice = client.get(seat_path(latest_mail(ALICE)), headers={"Accept-Language": "de"})
    assert '<html lang="en">' in alice.text  # Alice chose English (the default)
    bob = client.get(seat_path(latest_mail(BOB)), headers={"Accept-Language": "en"})
    assert '<html lang="de">' in bob.text
