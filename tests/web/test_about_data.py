"""Each game's "about this game's data" page, and the note nowhere else in a player's way.

Runs over every registered game, so a new game's note is checked as it lands.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from web_helpers import hrefs, latest_mail, paths_in, player

from pbem.archive import about as archive_about
from pbem.archive import build
from pbem.games import all_games, get_game
from pbem.lifecycle import create
from pbem.web.about import paragraphs

GAMES = [rules.name for rules in all_games()]


@pytest.mark.parametrize("name", GAMES)
def test_the_data_page_says_the_note_paragraph_by_paragraph(sqlite_client, name):
    rules = get_game(name)
    page = sqlite_client.get(f"/games/{name}/data")
    assert page.status_code == 200
    assert f"About the data of {rules.title}" in page.text
    assert f"data version {rules.data_version}" in page.text
    for paragraph in paragraphs(rules.about_data):
        assert f"<p>{paragraph}</p>" in page.text.replace("&#39;", "'")
    # the link to start a game of it is there
    assert f"/new/{name}" in hrefs(page.text)


def test_visby_and_tallinn_say_what_is_printed_and_what_reconstructed():
    for name in ("visby", "tallinn"):
        rules = get_game(name)
        for word in ("Printed", "Reconstructed by pbem", rules.data_version):
            assert word in rules.about_data, (name, word)
        assert "reconstructed" not in rules.description.lower()
        assert "data version" not in rules.description.lower()
    # Visby names the Markt fields it fills in, from its data file
    from pbem.games.visby import data

    assert ", ".join(str(i) for i in data.reconstructed_fields()) in \
        get_game("visby").about_data


def test_an_unknown_game_has_no_data_page(sqlite_client):
    assert sqlite_client.get("/games/chess/data").status_code == 404


@pytest.mark.parametrize("name", GAMES)
def test_the_data_page_reads_in_german(sqlite_client, name):
    rules = get_game(name)
    page = sqlite_client.get(f"/games/{name}/data", headers={"Accept-Language": "de"}).text
    german = rules.texts("de").about_data
    assert german != rules.about_data and "In der Spielregel" in german
    for paragraph in paragraphs(german):
        assert f"<p>{paragraph}</p>" in page.replace("&#39;", "'")


def test_the_lobby_says_in_one_sentence_how_much_is_reconstructed(sqlite_client):
    home = sqlite_client.get("/").text.replace("&#39;", "'")
    german = sqlite_client.get("/", headers={"Accept-Language": "de"}).text.replace("&#39;",
                                                                                     "'")
    for name in GAMES:
        rules = get_game(name)
        assert rules.data_note.count(". ") == 0 and rules.data_note in home
        assert rules.texts("de").data_note in german
        # the paragraphs of the note stay on the data page
        assert paragraphs(rules.about_data)[-1] not in home
    assert "of the 96 building and person cards, 20 are printed" in get_game("macao").data_note


def test_the_note_stands_on_no_page_or_mail_in_a_players_way(ctx, sqlite_client):
    client = sqlite_client
    for name in GAMES:
        form = client.get(f"/new/{name}").text.replace("&#39;", "'")
        # one sentence beside the description, the paragraphs on the data page
        assert get_game(name).data_note in form
        assert paragraphs(get_game(name).about_data)[0] not in form
        assert f"/games/{name}/data" in hrefs(form)  # next to the game, a link
    alice = player("alice@example.org", "Alice")
    for name in GAMES:
        rules = get_game(name)
        address = f"invited-{name}@example.org"
        create.create_game(ctx, name, alice, [address] * (rules.min_players - 1))
        invite = latest_mail(address, "invite")
        assert "reconstructed" not in invite.text_body
        assert "reconstructed" not in (invite.html_body or "")
        [path] = [p for p in paths_in(invite.text_body) if p.startswith("/i/")]
        page = client.get(path).text
        assert "reconstructed" not in page and f"/games/{name}/data" in hrefs(page)


def test_the_archive_has_a_data_page_per_game(ctx, sqlite_database):
    site = Path(ctx.config.get("archive", "site_dir"))
    build(site)
    for rules in all_games():
        page = archive_about.page(rules.name)
        html = (site / f"{page}.html").read_text()
        assert f"About the data of {rules.title}" in html
        assert f"data version {rules.data_version}" in html
        assert (site / f"{page}.md").read_text() == archive_about.markdown(rules)
        # and in German, as the server's page reads to a German reader; each links the other
        german = archive_about.page(rules.name, "de")
        assert german == f"{page}-de"
        html_de = (site / f"{german}.html").read_text().replace("&#39;", "'")
        assert html_de.startswith('<!doctype html>\n<html lang="de">')
        assert f"Über die Daten von {rules.title}" in html_de
        assert f"Datenversion {rules.data_version}" in html_de
        for paragraph in paragraphs(rules.texts("de").about_data):
            assert f"<p>{paragraph}</p>" in html_de.replace("&quot;", '"')
        assert f'href="{rules.name}-data.html">English</a>' in html_de
        assert f'href="{rules.name}-data-de.html">Deutsch</a>' in html
        assert (site / f"{german}.md").read_text() == archive_about.markdown(rules, "de")
    # a second build writes nothing new
    assert build(site).written == []
