"""The Riga view template (templates/games/riga/view.html) and the mail text
(pbem/games/riga/text.py): a seat's view, a spectator's and the archive's.

Both show what the view holds and nothing else: the viewer's own hand, its setup
offer and its draw, never another seat's; the archive's view holds every hand and
shows them.  Names are escaped.  The tables keep to narrow stacked columns, so an
HTML mail (no stylesheet) and a page fit a 390-pixel phone without sideways
scrolling, which the browser tests at the end check.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import jinja2
import pytest
from browser_support import inline_app_css, needs_browser
from test_riga_picture import BELOW, NAMES, ROW, SETS, arranged, played_out

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.render import seat_filter
from pbem.games.riga import GAME, data

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"
HOSTILE = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
LONG = "Maximiliane-Wilhelmine von Hohenzollern-Sigmaringen"


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    # as in the web app: strict, autoescaped, trim_blocks and lstrip_blocks
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["seats"] = seat_filter
    return env


def render(env, state, viewer, names=NAMES) -> str:
    view = GAME.view(state, viewer)
    return env.get_template(GAME.template).render(view=view, names=names[:state["players"]])


def plain(html: str) -> str:
    """``html`` without its inline styles, for checks of what it says."""
    return re.sub(r' style="[^"]*"', "", html)


def text(state, viewer, names=NAMES) -> str:
    return GAME.render_text(GAME.view(state, viewer), names[:state["players"]])


def in_setup(phase: str = "keep") -> dict:
    state = GAME.setup(3, {"riga": True}, "face")
    if phase == "keep":
        state = GAME.apply(state, GAME.to_move(state)[0], "start 1")
    assert state["phase"] == phase
    return state


def test_the_template_and_stylesheet_are_the_games():
    assert GAME.template == "games/riga/view.html" and (TEMPLATES / GAME.template).is_file()
    assert GAME.stylesheet == "games/riga/style.css"
    sheet = (TEMPLATES / GAME.stylesheet).read_text(encoding="utf-8")
    html = (TEMPLATES / GAME.template).read_text(encoding="utf-8")
    for cls in ("riga-you", "riga-used", "riga-new", "riga-ware", "riga-separation"):
        assert cls in html and cls in sheet, cls
    shared = ROOT / "pbem" / "web" / "static" / "style.css"
    assert "riga" not in shared.read_text(encoding="utf-8")


@pytest.mark.parametrize("stage", ["choose_start", "keep", "build", "over"])
def test_every_viewer_gets_a_page_at_every_stage(env, stage):
    state = {"choose_start": lambda: in_setup("choose_start"), "keep": in_setup,
             "build": arranged, "over": played_out}[stage]()
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        html = render(env, state, viewer)
        assert '<section class="riga"' in html
        assert "Riga · " in html
        assert GAME.render_text(GAME.view(state, viewer), NAMES[:state["players"]])


# -- what the view says ---------------------------------------------------------------------


def test_the_row_newest_first_with_costs_points_values_and_the_separation_card(env):
    html = plain(render(env, arranged(), 0))
    start = html.index("Buildings in the row")
    table = html[start:html.index("</table>", start)]
    rows = re.findall(r'<th scope="row">(\w+) <span class="riga-city riga-city-(\w+)">'
                      r"\(\w+\)</span>", table)
    assert [f"{art}-{stadt}" for art, stadt in rows] == list(reversed(ROW))
    separation = table.index("Separation card")
    for ident in ROW[:BELOW]:
        assert table.index(f">{ident.split('-')[0]} <") > separation
    for ident in ROW[BELOW:]:
        assert table.index(f">{ident.split('-')[0]} <") < separation
    # the Markthalle of Visby: cost, points, its commodity, and what each pays there
    g = data.gebaeude("Markthalle-Visby")
    cell = table[table.index(">Markthalle <"):]
    cell = cell[:cell.index("</tr>")]
    assert f"<td>{g.kosten}</td>" in cell and f"<td>{g.punkte}</td>" in cell
    assert "shows " in cell and "Tuch" in cell
    assert re.search(r"Tuch –.*Glas 4.*Wein <strong>5</strong>&#8593;.*Korn 2", cell)
    assert data.help_line("Markthalle-Visby").replace("'", "&#39;") in cell


def test_the_sets_and_the_players(env):
    state = arranged()
    html = plain(render(env, state, 0))
    sets = html[html.index('<ol class="riga-sets">'):html.index("</ol>")]
    items = re.findall(r"<li>(.*?)</li>", sets)
    assert len(items) == len(SETS)
    for item, cards in zip(items, SETS, strict=True):
        names = re.findall(r"</span>(\w+)", item)
        assert names == [data.WARE_NAME[w] for w in cards]
        assert f"= <strong>{sum(data.WERT[w] for w in cards)} ducats</strong>" in item
    view = GAME.view(state, 0)
    for entry in view["seats"]:
        assert f"<td>{entry['points']}</td>" in html
        assert (f"knights {entry['ritter']}, merchants {entry['kaufleute']}") in html
    assert "Heike (you)<br><small>start player</small><br><small><strong>to move" in html
    assert "hand limit 8 (Speicher)" in html  # Malte's
    displays = html[html.index('<ul class="riga-displays">'):]
    assert "Kontor <span class=\"riga-city riga-city-Visby\">(Visby)</span> <em>used</em>" \
        in displays
    assert "<em>new, counts from the next turn</em>" in displays  # the Kran of this turn
    assert "Schule: Ritter" in displays and "Wechselstube: 8 ducats" in displays
    assert "Riga buildings face down: Kloster, Speicher" in displays


def test_own_hand_only_for_its_seat_and_every_hand_for_the_archive(env):
    state = arranged()
    mine = render(env, state, 0)
    assert "<h3>Your hand</h3>" in mine
    assert "1 × " in mine and "Buildings in your hand" in mine
    hand = mine[mine.index("<h3>Your hand</h3>"):]
    assert ">Festung <" in hand
    spectator = render(env, state, SPECTATOR)
    assert "Your hand" not in spectator and "Hand:" not in spectator
    # seat 0's hand changes nothing that seat 1, seat 2 or a spectator see
    other = copy.deepcopy(state)
    other["hand"][0] = {"waren": {"Tuch": 0, "Glas": 4, "Wein": 0, "Getreide": 0},
                        "gebaeude": ["Bank-Danzig"]}
    for viewer in (1, 2, SPECTATOR):
        assert render(env, state, viewer) == render(env, other, viewer)
        assert text(state, viewer) == text(other, viewer)
    archive = render(env, state, EVERYTHING)
    assert "Your hand" not in archive
    assert archive.count("<br>Hand: ") == 3
    assert "Hand: 3 Glas, 2 Korn; Kran" in archive  # Malte's, sorted by id


def test_the_setup_offer_is_shown_to_its_seat_alone(env):
    state = in_setup("keep")
    offers = state["keep_offer"]
    html = render(env, state, 1)
    assert "Keep one of these two buildings" in html
    for ident in offers[1]:
        assert f">{ident.split('-')[0]} <" in html
    for viewer in (0, 2, SPECTATOR):
        pages = {render(env, s, viewer) for s in _other_offers(state, seat=1)}
        assert len(pages) == 1, viewer
    assert "Keep one of" not in render(env, state, SPECTATOR)
    # what everyone revealed at the start is public
    for seat in range(3):
        revealed = ", ".join(data.WARE_NAME[w] for w in state["revealed"][seat])
        assert revealed in re.sub(r'<span class="riga-ware[^>]*></span>', "",
                                  render(env, state, SPECTATOR))


def _other_offers(state, seat):
    """The same table with other buildings offered to ``seat`` in secret."""
    yield state
    other = copy.deepcopy(state)
    other["keep_offer"][seat] = ["Bank-Danzig", "Loge-Stockholm"]
    yield other


def test_the_end_shows_the_final_scoring(env):
    state = played_out()
    html = plain(render(env, state, SPECTATOR))
    assert "the game is over after 8 years" in html
    assert "<caption>Final scoring</caption>" in html
    for seat, f in enumerate(state["final"]):
        assert f"<th scope=\"row\">{NAMES[seat]}</th><td><strong>{f['total']}</strong></td>" \
            in html
    assert "to move" not in html


def test_names_are_escaped_everywhere(env):
    names = ["Heike", HOSTILE, "Anne & Bob"]
    state = arranged()
    state["log"] = ["{1} takes set 2", "{2} builds Festung-Visby"]
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        html = render(env, state, viewer, names)
        assert "<script" not in html
        assert ESCAPED in html and "Anne &amp; Bob" in html
        assert f"<li>{ESCAPED} takes set 2</li>" in html
    state = played_out()
    html = render(env, state, SPECTATOR, names)
    assert "<script" not in html and ESCAPED in html


def test_no_fixed_widths_and_tables_with_headers(env):
    for state in (arranged(), played_out(), in_setup()):
        html = render(env, state, 0)
        assert not re.search(r"width:\s*\d+(px|em|rem)", html)
        assert "<thead>" in html and '<th scope="col">' in plain(html)


# -- the mail text --------------------------------------------------------------------------


def flat(out: str) -> str:
    """The text with its line breaks and indents as single spaces: what a check of its
    words needs, wherever a long line was broken."""
    return " ".join(out.split())


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
    assert row.index("Markthalle (Visby): cost 7, 3 points; Tuch –, Glas 4, Wein 5!, "
                     "Korn 2; shows Tuch") < row.index("Bauhof (Stockholm)") \
        < row.index("-- separation card") < row.index("Bank (Tallinn)") \
        < row.index("Loge (Visby)") < row.index("Commodity sets:")
    assert "set 2: Korn, Korn, Wein, Korn = 9 ducats" in words
    assert any(line.startswith("Heike (you) [start player]: ") for line in lines)
    assert "display: Festung (Danzig); Kontor (Visby, used); Kran (Tallinn, new: counts " \
           "from the next turn); Schule (Ritter); Wechselstube (8 ducats)" in words
    assert "Your hand:" in lines and "  commodities: 1 Tuch, 2 Wein, 1 Korn" in lines
    assert "Festung (Visby): cost 9, 5 points; Tuch –, Glas 4, Wein 5!, Korn 2" in words
    for viewer in (1, SPECTATOR):
        other = text(state, viewer)
        assert "Festung (Visby): cost 9" not in flat(other)
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
def test_the_view_fits_390_pixels_in_a_mail_and_on_a_page(env, browser):
    names = [LONG, "Bartholomäus Friedrichsen", HOSTILE]
    css = ((TEMPLATES / GAME.stylesheet).read_text(encoding="utf-8")
           + (ROOT / "pbem" / "web" / "static" / "style.css").read_text(encoding="utf-8"))
    htmls = []
    for state in (arranged(), played_out(), in_setup()):
        for viewer in (0, EVERYTHING):
            view = GAME.view(state, viewer)
            body = env.get_template(GAME.template).render(view=view, names=names)
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
        page = browser.new_page(viewport={"width": width, "height": 900})
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
        page.close()


# -- the real pages, through the service: seat, public page, turn mail, the end ------------


@needs_browser
def test_the_riga_pages_fit_390_and_1280_pixels(ctx, sqlite_database, monkeypatch, browser):
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
            page = browser.new_page(viewport={"width": width, "height": 900})
            try:
                page.set_content(html)
                scroll, inner = page.evaluate(
                    "[document.scrollingElement.scrollWidth, window.innerWidth]")
                assert scroll <= inner, f"{what} at {width}px: {scroll} > {inner}"
                assert page.locator("table.riga-players").count() == 1, what
                assert page.get_by_text(LONG).first.is_visible(), what
                if what != "Riga turn mail":
                    assert page.locator("figure.table-picture svg").count() == 1
                    assert "About the data of Riga" in page.inner_text("main")
            finally:
                page.close()


def test_a_private_draw_is_shown_to_its_drawer_alone(env):
    from test_riga_picture import drawing

    state = drawing("Bauhof")
    cards = state["pending_draw"]["cards"]
    html = render(env, state, 0)
    assert "Your Bauhof draw, choose one:" in html
    words = text(state, 0)
    assert "Your Bauhof draw: keep one of these buildings, or none:" in flat(words)
    for ident in cards:
        art, stadt = ident.split("-")
        assert f"{art} ({stadt})" in html and f" {art} ({stadt}): cost " in flat(words)
    for viewer in (1, SPECTATOR):
        other_html, other_text = render(env, state, viewer), text(state, viewer)
        assert "Heike is drawing with the Bauhof." in other_html
        assert "Heike is drawing with the Bauhof." in other_text
        assert "draw, choose one" not in other_html and "Your Bauhof draw" not in other_text
        # the drawn cards change nothing that others see
        other = copy.deepcopy(state)
        other["pending_draw"]["cards"] = list(reversed(cards))[:3]
        assert render(env, other, viewer) == other_html
        assert text(other, viewer) == other_text


def test_the_project_in_progress_reads_the_same_for_everyone_but_its_builder(env):
    state = arranged()
    state = GAME.apply(state, 0, "build Festung-Visby")
    state = GAME.apply(state, 0, "pay Wein")
    assert "You are building <strong>Festung (Visby)</strong>: cost 9, paid 5 (1 Wein)" \
        in render(env, state, 0)
    assert "You are building Festung (Visby): cost 9, paid 5 (1 Wein)." in text(state, 0)
    for viewer in (1, SPECTATOR):
        assert "Heike is building <strong>Festung (Visby)</strong>: cost 9, paid 5 (1 Wein)" \
            in render(env, state, viewer)
        assert "Heike is building Festung (Visby): cost 9, paid 5 (1 Wein)." \
            in text(state, viewer)


def test_the_kloster_swap_in_progress_is_told_to_everyone(env):
    import xml.etree.ElementTree as ET

    from test_riga_picture import SVG, _started, picture

    state = _started()
    state["display"][0].append({"id": "Kloster", "built_turn": 0, "used": False,
                                "face": None})
    state["riga_left"][0].remove("Kloster")
    state = GAME.apply(state, 0, "kloster")
    state = GAME.apply(state, 0, "from 2")
    for viewer, who in ((0, "You are"), (1, "Heike is"), (SPECTATOR, "Heike is")):
        assert f"{who} using the Kloster: a card of set 2." in text(state, viewer)
        assert f"<strong>{who} using the Kloster: a card of set 2.</strong>" \
            in render(env, state, viewer)
        steps = [t.text for t in ET.fromstring(picture(state, viewer)).iter(f"{SVG}text")
                 if t.get("class") == "step"]
        assert steps == [f"{who} using the Kloster (a card of set 2)"]
