"""Riga's table in words (``templates/games/_text.html`` around
``pbem/games/riga/text.py``, as the seat page and the HTML mails show it; the same words
as the plain-text mail): a seat's view, a spectator's and the archive's.

It shows what the view holds and nothing else: the viewer's own hand, its setup offer
and its draw, never another seat's; the archive's view holds every hand and shows them.
Names are escaped.  On a 390-pixel phone it neither scrolls sideways nor breaks a word,
in a mail (no stylesheet) and on a page, which the browser tests at the end check.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from browser_support import inline_app_css, needs_browser, show, table_in_words_unbroken
from table_words import table_in_words, words_read
from test_riga_picture import NAMES, SETS, arranged, played_out

from pbem.games.datafile import note_lines
from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.riga import GAME, data

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"
HOSTILE = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
LONG = "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen"


def render(state, viewer, names=NAMES, lang="en") -> str:
    """The table in words of ``viewer`` as a page shows it (HTML)."""
    return table_in_words(GAME, GAME.view(state, viewer), names[:state["players"]], lang)


def read(state, viewer, names=NAMES) -> str:
    """What ``viewer`` reads in the table in words on a page."""
    return words_read(render(state, viewer, names))


def text(state, viewer, names=NAMES) -> str:
    return GAME.render_text(GAME.view(state, viewer), names[:state["players"]])


def flat(out: str) -> str:
    """The text with its line breaks and indents as single spaces: what a check of its
    words needs, wherever a long line was broken."""
    return " ".join(out.split())


def in_setup(phase: str = "keep") -> dict:
    state = GAME.setup(3, {"riga": True}, "face")
    if phase == "keep":
        state = GAME.apply(state, GAME.to_move(state)[0], "start 1")
    assert state["phase"] == phase
    return state


@pytest.mark.parametrize("stage", ["choose_start", "keep", "build", "over"])
def test_every_viewer_reads_the_table_at_every_stage(stage):
    state = {"choose_start": lambda: in_setup("choose_start"), "keep": in_setup,
             "build": arranged, "over": played_out}[stage]()
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        words = read(state, viewer)
        assert words.startswith("Riga, ")
        assert words == text(state, viewer)


# -- what the table in words says -------------------------------------------------------


def test_the_sets_and_the_players():
    state = arranged()
    words = flat(read(state, 0))
    for number, cards in enumerate(SETS, start=1):
        names = ", ".join(data.WARE_NAME[w] for w in cards)
        assert f"set {number}: {names} = {sum(data.WERT[w] for w in cards)} ducats" in words
    view = GAME.view(state, 0)
    for entry in view["seats"]:
        name = NAMES[entry["seat"]]
        assert re.search(rf"{name}( \(you\))?( \[start player\])?: {entry['points']} "
                         rf"points; ", words), name
        assert f"knights {entry['ritter']}, merchants {entry['kaufleute']}" in words
    assert "Heike (you) [start player]: " in words
    assert read(state, 0).splitlines()[1] == "You are to erect buildings (or end the turn)."
    assert "hand limit 8 (Speicher)" in words  # Malte's
    assert "display: Festung (Danzig); Kontor (Visby, used); Kran (Tallinn, new: counts " \
           "from the next turn); Schule (Ritter); Wechselstube (8 ducats)" in words
    assert "Riga buildings face down: Kloster, Speicher" in words


def test_own_hand_only_for_its_seat_and_every_hand_for_the_archive():
    state = arranged()
    mine = read(state, 0)
    hand = mine[mine.index("\nYour hand:\n"):]
    assert "  commodities: 1 Tuch, 2 Wein, 1 Korn" in hand
    assert "Festung (Visby): cost 9" in hand
    for viewer in (1, 2, SPECTATOR):
        other = read(state, viewer)
        assert ("Your hand" in other) == (viewer != SPECTATOR)
        assert "hand commodities" not in other and "Festung (Visby): cost 9" not in other
    # seat 0's hand changes nothing that seat 1, seat 2 or a spectator see
    other = copy.deepcopy(state)
    other["hand"][0] = {"waren": {"Tuch": 0, "Glas": 4, "Wein": 0, "Getreide": 0},
                        "gebaeude": ["Bank-Danzig"]}
    for viewer in (1, 2, SPECTATOR):
        assert render(state, viewer) == render(other, viewer)
        assert text(state, viewer) == text(other, viewer)
    archive = read(state, EVERYTHING)
    assert "Your hand" not in archive
    assert archive.count("  hand commodities: ") == 3
    assert "  hand commodities: 3 Glas, 2 Korn\n" in archive  # Malte's
    assert "hand   Kran (Stockholm): cost 6" in archive  # Malte's, sorted by id


def test_the_setup_offer_is_shown_to_its_seat_alone():
    state = in_setup("keep")
    offers = state["keep_offer"]
    words = read(state, 1)
    offer = words[words.index("Keep one of these two buildings"):]
    for ident in offers[1]:
        art, stadt = ident.split("-")
        assert f"  {art} ({stadt}): cost " in offer
    for viewer in (0, 2, SPECTATOR):
        pages = {render(s, viewer) for s in _other_offers(state, seat=1)}
        assert len(pages) == 1, viewer
    spectator = read(state, SPECTATOR)
    assert "Keep one of" not in spectator
    for ident in offers[1]:
        assert ident.split("-")[0] not in spectator
    # what everyone revealed at the start is public
    for seat in range(3):
        revealed = ", ".join(data.WARE_NAME[w] for w in state["revealed"][seat])
        assert f"revealed at the start: {revealed} = " in spectator


def _other_offers(state, seat):
    """The same table with other buildings offered to ``seat`` in secret."""
    yield state
    other = copy.deepcopy(state)
    other["keep_offer"][seat] = ["Bank-Danzig", "Loge-Stockholm"]
    yield other


def test_the_end_shows_the_final_scoring():
    state = played_out()
    words = read(state, SPECTATOR)
    assert words.startswith(f"Riga, after {state['year']} years: the game is over.")
    final = flat(words[words.index("\nFinal scoring:\n"):])
    for seat, f in enumerate(state["final"]):
        assert f"{NAMES[seat]}: {f['total']} points (buildings {f['seals']}" in final
    assert " is to " not in words and " are to " not in words


def test_names_are_escaped_everywhere():
    names = ["Heike", HOSTILE, "Anne & Bob"]
    state = arranged()
    state["log"] = ["{1} takes set 2", "{2} builds Festung-Visby"]
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        html = render(state, viewer, names)
        assert "<script" not in html
        assert ESCAPED in html and "Anne &amp; Bob" in html
        assert f"  {ESCAPED} takes set 2\n" in html
    state = played_out()
    html = render(state, SPECTATOR, names)
    assert "<script" not in html and ESCAPED in html


# -- the text view, as the plain-text mail says it -----------------------------------------


def test_the_text_says_year_turn_row_sets_seats_and_own_hand():
    state = arranged()
    out = text(state, 0)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 76
    assert lines[0] == f"Riga, year {state['year']} of 9, {state['season']}. " \
                       "With the Riga buildings."
    assert lines[1] == "You are to erect buildings (or end the turn)."
    assert "Start player: Heike." in lines
    words = flat(out)
    assert "Tuch (cloth) 5, Glas (glass) 4, Wein (wine) 3, Korn (grain) 2" in words
    row = words[words.index("Buildings in the row, newest first:"):]
    # cost and points no source prints carry the sign (Visby's city values are printed)
    assert row.index("Markthalle (Visby): cost 7◇, 3 points◇; Tuch –, Glas 4, Wein 5!, "
                     "Korn 2; shows Tuch") < row.index("Bauhof (Stockholm)") \
        < row.index("-- separation card") < row.index("Bank (Tallinn)") \
        < row.index("Loge (Visby)") < row.index("Commodity sets:")
    assert "set 2: Korn, Korn, Wein, Korn = 9 ducats" in words
    assert any(line.startswith("Heike (you) [start player]: ") for line in lines)
    assert "display: Festung (Danzig); Kontor (Visby, used); Kran (Tallinn, new: counts " \
           "from the next turn); Schule (Ritter); Wechselstube (8 ducats)" in words
    assert "Your hand:" in lines and "  commodities: 1 Tuch, 2 Wein, 1 Korn" in lines
    assert "Festung (Visby): cost 9◇, 5 points◇; Tuch –, Glas 4, Wein 5!, Korn 2" in words
    # a city value that is pbem's reading is marked too, and the sign's note ends the text
    assert "Stockholm): cost" in words and "Tuch 7!◇, Glas 4◇, Wein –◇, Korn 2◇" in words
    assert out.endswith("\n".join(note_lines("en", 76)))
    for viewer in (1, SPECTATOR):
        other = text(state, viewer)
        assert "Festung (Visby): cost 9◇" not in flat(other)
        assert ("Your hand:" in other) == (viewer == 1)
    assert text(state, 1).splitlines()[1] == "Heike is to erect buildings (or end the turn)."


def test_the_archive_text_shows_every_hand_and_the_final_scoring():
    state = arranged()
    archive = text(state, EVERYTHING)
    assert archive.count("  hand commodities: ") == 3 and "Your hand" not in archive
    ended = played_out()
    over = flat(text(ended, EVERYTHING))
    assert over.startswith("Riga, after 8 years: the game is over.")
    assert "Final scoring:" in over
    for seat, f in enumerate(ended["final"]):
        assert f"{NAMES[seat]}: {f['total']} points (buildings {f['seals']}" in over


# -- in a browser: a phone's width, with and without the stylesheets -----------------------


@needs_browser
def test_the_table_in_words_fits_390_pixels_in_a_mail_and_on_a_page(tab):
    names = [LONG, "Bartholomäus Friedrichsen", HOSTILE]
    css = ((TEMPLATES / GAME.stylesheet).read_text(encoding="utf-8")
           + (ROOT / "pbem" / "web" / "static" / "style.css").read_text(encoding="utf-8"))
    htmls = []
    for state in (arranged(), played_out(), in_setup()):
        for viewer in (0, EVERYTHING):
            view = GAME.view(state, viewer)
            body = table_in_words(GAME, view, names)
            # an HTML mail: no stylesheet, the mail layout's own inline body style
            htmls.append(("mail", '<!doctype html><html><head><meta name="viewport" '
                          'content="width=device-width, initial-scale=1"></head><body '
                          'style="font-family: system-ui, sans-serif; max-width: 40em; '
                          f'margin: 0 auto; padding: 0.5em;">{body}</body></html>'))
            picture = GAME.picture(view, names)
            htmls.append(("page", '<!doctype html><html><head><meta name="viewport" '
                          'content="width=device-width, initial-scale=1">'
                          f'<style>{css}</style></head><body><main><figure '
                          f'class="table-picture">{picture}</figure>{body}</main></body>'
                          "</html>"))
    for width in (390, 1280):
        page = show(tab, "", width)  # a new document at each width
        for kind, html in htmls:
            page.set_content(html)
            scroll, inner = page.evaluate(
                "[document.scrollingElement.scrollWidth, window.innerWidth]")
            assert scroll <= inner, f"{kind} at {width}px: {scroll} > {inner}"
            hidden = page.evaluate("""[...document.querySelectorAll('body *')]
                .filter(e => e.scrollWidth > e.clientWidth + 1 &&
                    ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX))
                .map(e => e.tagName + '.' + e.className)""")
            assert not hidden, f"{kind} at {width}px: {hidden}"
            assert page.get_by_text(LONG).first.is_visible()
            table_in_words_unbroken(page, f"{kind} at {width}px")


# -- the real pages, through the service: seat, public page, turn mail, the end ------------


@needs_browser
def test_the_riga_pages_fit_390_and_1280_pixels(ctx, sqlite_database, monkeypatch, tab):
    """As the web tests do for Visby and Tallinn: a Riga game of two people and a bot,
    with the Riga buildings, its pages at a phone's width and a desktop's.

    The mails go without their PNG picture here (drawing one takes a second on a busy
    machine, and the game mails dozens); the pages show the SVG itself."""
    import random

    from pbem.mail import compose

    monkeypatch.setattr(compose, "table_picture", lambda *args, **kwargs: None)

    from pbem.games import get_game
    from pbem.lifecycle import create, moves
    from pbem.models import Game, Outbox, Seat
    from pbem.web import create_app

    client = create_app(ctx).test_client()
    people = [create.get_or_create_player(e, n, quiet_start="00:00", quiet_end="00:00")
              for e, n in (("alice@example.org", "Alice"), ("bob@example.org", LONG))]
    game = create.create_game(ctx, "riga", people[0], [people[1].email, None],
                              options={"riga": True}, seed=3)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), people[1])
    rules, rng = get_game("riga"), random.Random(2)

    def play_until(stop, quick: bool = False) -> Game:
        """Bot moves until ``stop``; quick: the default moves (a turn is two of them)."""
        current = Game.get_by_id(game.id)
        while current.status == Game.ACTIVE and not stop(current):
            seat = rng.choice(rules.to_move(current.state))
            menu = Seat.get(Seat.game == current, Seat.index == seat).menu_seq
            move = (rules.default_move(current.state, seat) if quick
                    else rules.bot_move(current.state, seat, rng))
            moves.play(ctx, current.id, seat, move, menu_seq=menu)
            current = Game.get_by_id(game.id)
        return current

    def mail_to(address: str) -> Outbox:
        return (Outbox.select().where(Outbox.to_address == address, Outbox.kind == "turn")
                .order_by(Outbox.id.desc()).first())

    def seat_page(mail: Outbox) -> str:
        path = next(p for p in re.findall(r"https?://[^/\s]+(/s/[^\s\"<>]+)", mail.text_body))
        return inline_app_css(client.get(path).text)

    pages = {}
    # a building phase some turns in, so displays and the row have something to show
    current = play_until(lambda g: g.state["year"] >= 2 and g.state["phase"] == "build"
                         and g.state["current"] in (0, 1))
    mover = ("alice@example.org", "bob@example.org")[current.state["current"]]
    pages["Riga seat page"] = seat_page(mail_to(mover))
    pages["Riga turn mail"] = mail_to(mover).html_body
    pages["Riga public page"] = inline_app_css(client.get(f"/g/{game.id}").text)
    play_until(lambda g: False, quick=True)
    pages["Riga's end"] = inline_app_css(client.get(f"/g/{game.id}").text)
    assert "Final scoring" in pages["Riga's end"]
    for width in (390, 1280):
        for what, html in pages.items():
            page = show(tab, html, width)
            scroll, inner = page.evaluate(
                "[document.scrollingElement.scrollWidth, window.innerWidth]")
            assert scroll <= inner, f"{what} at {width}px: {scroll} > {inner}"
            assert page.locator("pre.view-text").count() == 1, what
            table_in_words_unbroken(page, f"{what} at {width}px")
            assert page.get_by_text(LONG).first.is_visible(), what
            if what != "Riga turn mail":
                assert page.locator("figure.table-picture svg").count() == 1
                assert "About the data of Riga" in page.inner_text("main")


def test_a_private_draw_is_shown_to_its_drawer_alone():
    from test_riga_picture import drawing

    state = drawing("Bauhof")
    cards = state["pending_draw"]["cards"]
    words = flat(read(state, 0))
    assert "Your Bauhof draw: keep one of these buildings, or none:" in words
    for ident in cards:
        art, stadt = ident.split("-")
        assert f" {art} ({stadt}): cost " in words
    for viewer in (1, SPECTATOR):
        other_html, other_words = render(state, viewer), read(state, viewer)
        assert "Heike is drawing with the Bauhof." in other_words
        assert "Your Bauhof draw" not in other_words
        # the drawn cards change nothing that others see
        other = copy.deepcopy(state)
        other["pending_draw"]["cards"] = list(reversed(cards))[:3]
        assert render(other, viewer) == other_html
        assert text(other, viewer) == text(state, viewer)


def test_the_project_in_progress_reads_the_same_for_everyone_but_its_builder():
    state = arranged()
    state = GAME.apply(state, 0, "build Festung-Visby")
    state = GAME.apply(state, 0, "pay Wein")
    assert "You are building Festung (Visby): cost 9, paid 5 (1 Wein)." in flat(read(state, 0))
    for viewer in (1, SPECTATOR):
        assert "Heike is building Festung (Visby): cost 9, paid 5 (1 Wein)." \
            in flat(read(state, viewer))


def test_the_kloster_swap_in_progress_is_told_to_everyone():
    import xml.etree.ElementTree as ET

    from test_riga_picture import SVG, _started, picture

    state = _started()
    state["display"][0].append({"id": "Kloster", "built_turn": 0, "used": False,
                                "face": None})
    state["riga_left"][0].remove("Kloster")
    state = GAME.apply(state, 0, "kloster")
    state = GAME.apply(state, 0, "from 2")
    for viewer, who in ((0, "You are"), (1, "Heike is"), (SPECTATOR, "Heike is")):
        assert f"{who} using the Kloster: a card of set 2." in flat(read(state, viewer))
        steps = [t.text for t in ET.fromstring(picture(state, viewer)).iter(f"{SVG}text")
                 if t.get("class") == "step"]
        assert steps == [f"{who} using the Kloster (a card of set 2)"]
