"""The table's picture in HTML mails (issue 14): the mails that show the table (the turn
mail and the result mail; the others show none) carry it as an inline PNG in a
``multipart/related`` part, referenced by ``cid:`` from the HTML, as a real SMTP server
receives them; the text part keeps the text table and no image; a picture that cannot
be drawn never costs the mail."""

from __future__ import annotations

import logging
import random
import re
import struct
import zlib
from email.message import EmailMessage

import pytest
from owed_bots import owed_bots_played

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.mail import flowed, picture
from pbem.mail.outbox import build_message, deliver_due, transport_from_config
from pbem.models import Game, Outbox, Seat, utcnow


def _alice(language: str = "en"):
    return create.get_or_create_player("alice@example.org", "Alice", quiet_start="00:00",
                                       quiet_end="00:00", confirmed_at=utcnow(),
                                       language=language)


def _game_against_bots(ctx, name: str, language: str = "en") -> Game:
    options = {"legat": True} if name == "tallinn" else None
    game = create.create_game(ctx, name, _alice(language), [None, None], options=options,
                              seed=4)
    # on a busy machine the bots stop at their cap and leave their moves (and so Alice's
    # turn, and its mail) to the tick: played here as the tick plays them
    return owed_bots_played(ctx, game)


def _finish(ctx, game: Game) -> Game:
    rng, rules = random.Random(2), get_game(game.game)
    game = owed_bots_played(ctx, game)
    while game.status == Game.ACTIVE:
        seat = rng.choice(rules.to_move(game.state))
        menu = Seat.get(Seat.game == game, Seat.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rng.choice(rules.legal_moves(game.state, seat)),
                   menu_seq=menu)
        game = owed_bots_played(ctx, game)
    return game


def _deliver(ctx) -> None:
    while deliver_due(ctx.config, transport_from_config(ctx.config))["sent"]:
        pass


def _kind(msg: EmailMessage) -> str:
    return Outbox.get(Outbox.message_id == msg["Message-ID"]).kind


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR, after checking its signature and the chunk's CRC."""
    assert png[:8] == picture.PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", png[8:16])
    assert kind == b"IHDR" and length == 13
    data = png[16:29]
    assert struct.unpack(">I", png[29:33])[0] == zlib.crc32(b"IHDR" + data)
    assert png.endswith(b"IEND\xaeB`\x82")
    return struct.unpack(">II", data[:8])


def _picture_of(msg: EmailMessage) -> tuple[bytes, str]:
    """The PNG part of ``msg`` and its alt text, checked to be the one the HTML refers to."""
    html = msg.get_body(preferencelist=("html",))
    related = [p for p in msg.walk() if p.get_content_type() == "multipart/related"]
    assert len(related) == 1
    [image] = [p for p in msg.walk() if p.get_content_maintype() == "image"]
    assert image.get_content_type() == "image/png"
    cid = image["Content-ID"].strip("<>")
    [(src, alt)] = re.findall(r'<img src="([^"]*)" alt="([^"]*)"', html.get_content())
    assert src == f"cid:{cid}"
    assert "data:" not in html.get_content()  # the stored data: URI does not leave
    return image.get_content(), alt


def _text_has_no_image(msg: EmailMessage) -> str:
    text = flowed.text_of(msg.get_body(preferencelist=("plain",)))
    assert "<img" not in text and "cid:" not in text and "data:image" not in text
    return text


@pytest.mark.parametrize("name", ["visby", "tallinn"])
def test_turn_and_result_mails_carry_the_table_as_an_inline_png(
        smtp_ctx, smtp_server, database, name, pictures_drawn_afresh):
    game = _game_against_bots(smtp_ctx, name)
    _deliver(smtp_ctx)
    [turn] = [m for m in smtp_server.to("alice@example.org") if _kind(m) == "turn"][:1]
    png, alt = _picture_of(turn)
    width, height = _png_size(png)
    assert width in picture.PIXEL_WIDTHS and height > 100
    assert len(png) <= picture.MAX_BYTES or width == picture.CSS_WIDTH
    assert alt.startswith(name.capitalize())  # the picture's own title, e.g. "Visby · round 1"
    _text_has_no_image(turn)

    # the row keeps the picture itself (the SVG; the PNG is rendered on delivery): a
    # crash before delivery loses nothing, and a retried delivery sends the same picture
    row = Outbox.select().where(Outbox.kind == "turn").order_by(Outbox.id).first()
    assert "data:image/svg+xml;base64," in row.html_body
    assert _picture_of(build_message(row, smtp_ctx.config))[0] == png

    _finish(smtp_ctx, game)
    _deliver(smtp_ctx)
    [result] = [m for m in smtp_server.to("alice@example.org") if _kind(m) == "result"]
    final, _ = _picture_of(result)
    assert _png_size(final)[0] in picture.PIXEL_WIDTHS and final != png
    assert _text_has_no_image(result)  # the text table stays


def test_mails_without_a_table_carry_no_picture(smtp_ctx, smtp_server, database):
    """The started mail says who plays; no table, so no picture."""
    _game_against_bots(smtp_ctx, "visby")
    _deliver(smtp_ctx)
    started = Outbox.get(Outbox.kind == "notice")
    msg = build_message(started, smtp_ctx.config)
    assert not [p for p in msg.walk() if p.get_content_maintype() == "image"]


def test_a_german_reader_gets_the_german_picture(smtp_ctx, smtp_server, database):
    _game_against_bots(smtp_ctx, "visby", language="de")
    _deliver(smtp_ctx)
    row = Outbox.get(Outbox.kind == "turn")
    svg = get_game("visby").picture(get_game("visby").view(Game.get().state, 0),
                                    ["Alice", "Bot 2", "Bot 3"], "de")
    _, alt = _picture_of(build_message(row, smtp_ctx.config))
    assert alt == picture.alt_text(svg, "") == "Visby · Durchgang 1 · bis 30 Siegel"


def test_a_picture_that_cannot_be_drawn_never_costs_the_mail(
        smtp_ctx, smtp_server, database, monkeypatch, caplog):
    import resvg_py

    def broken(**_):
        raise ValueError("SVG data parsing failed")

    monkeypatch.setattr(resvg_py, "svg_to_bytes", broken)
    with caplog.at_level(logging.ERROR, logger="pbem.mail.picture"):
        _game_against_bots(smtp_ctx, "visby")
        _deliver(smtp_ctx)
    [turn] = [m for m in smtp_server.to("alice@example.org") if _kind(m) == "turn"]
    _text_has_no_image(turn)
    assert not [p for p in turn.walk() if p.get_content_maintype() == "image"]
    assert "<img" not in turn.get_body(preferencelist=("html",)).get_content()
    assert "could not be rendered" in caplog.text


def test_a_bad_svg_or_no_svg_gives_no_picture():
    class Rules:
        name = "odd"

        def __init__(self, svg):
            self.svg = svg

        def picture(self, view, names, lang):
            return self.svg

    assert picture.table_picture(Rules("<svg"), None, [], "en", "x") is None
    assert picture.table_picture(Rules(None), None, [], "en", "x") is None
    drawn = picture.table_picture(
        Rules('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5">'
              '<title>A &amp; B</title><rect width="10" height="5"/></svg>'),
        None, [], "en", "x")
    assert drawn is not None and drawn.alt == "A & B"
    assert _png_size(drawn.png) == (1200, 600)


def test_the_picture_has_its_text():
    """resvg bundles no fonts: drawn with the system's (Debian's fonts-dejavu-core, which
    ``.ci/run`` installs), the picture differs from one drawn with no fonts at all."""
    import resvg_py

    rules = get_game("visby")
    svg = rules.picture(rules.view(rules.setup(3, None, 1), 0), ["A", "B", "C"], "en")
    blank = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=1200, skip_system_fonts=True))
    assert picture.render_png(svg) != blank


def test_the_dev_mail_page_shows_the_picture(ctx, sqlite_database):
    """``/dev/mail`` shows a mail's HTML alone, where ``cid:`` means nothing: the picture
    is put back as a ``data:`` URI there."""
    from pbem.web import create_app

    _game_against_bots(ctx, "visby")
    _deliver(ctx)  # the embedded default: .eml files in instance/mail
    client = create_app(ctx).test_client()
    names = re.findall(r'href="/dev/mail/([^"/]+)"', client.get("/dev/mail").text)
    shown = [client.get(f"/dev/mail/{name}/html").text for name in names]
    [turn] = [html for html in shown if "<img" in html]
    assert 'src="data:image/png;base64,' in turn and "cid:" not in turn


def test_a_turn_mail_held_for_the_digest_stores_no_picture(ctx, sqlite_database):
    """The digest shows one line for it, never the mail itself."""
    from pbem.models import Player

    alice = _alice()
    Player.update(digest=True).where(Player.id == alice.id).execute()
    _game_against_bots(ctx, "visby")
    [turn] = Outbox.select().where(Outbox.kind == "turn")
    assert turn.digest and "<img" not in turn.html_body


def test_a_move_renders_no_png_its_delivery_does(ctx, sqlite_database, monkeypatch):
    """Rendering a tall table takes up to a second: not inside the transaction that
    records a move (and holds the write lock), but when the mail is delivered."""
    rendered: list[str] = []
    real = picture.render_png
    monkeypatch.setattr(picture, "render_png", lambda svg: rendered.append(svg) or real(svg))
    game = _game_against_bots(ctx, "riga")
    assert Outbox.select().where(Outbox.kind == "turn").count() >= 1
    assert rendered == []  # queued: the SVG is in the row, nothing rendered
    row = Outbox.get(Outbox.kind == "turn")
    png, _ = _picture_of(build_message(row, ctx.config))
    assert len(rendered) == 1 and _png_size(png)[0] in picture.PIXEL_WIDTHS
    assert game.game == "riga"


def test_a_row_queued_with_a_png_by_an_older_pbem_still_sends_it(ctx, sqlite_database):
    _game_against_bots(ctx, "visby")
    row = Outbox.get(Outbox.kind == "turn")
    png = picture.render_png(get_game("visby").picture(
        get_game("visby").view(Game.get().state, 0), ["Alice", "Bot 2", "Bot 3"], "en"))
    import base64
    row.html_body = re.sub(r'data:image/svg\+xml;base64,[A-Za-z0-9+/=]+',
                           "data:image/png;base64," + base64.b64encode(png).decode(), row.html_body)
    assert _picture_of(build_message(row, ctx.config))[0] == png


def _drawn_widths(svg: str, monkeypatch) -> tuple[bytes, list[int]]:
    """``render_png(svg)`` and the widths resvg drew for it, in order."""
    import resvg_py

    drawn: list[int] = []
    render = resvg_py.svg_to_bytes

    def counted(**options):
        drawn.append(options["width"])
        return render(**options)

    monkeypatch.setattr(resvg_py, "svg_to_bytes", counted)
    try:
        return picture.render_png(svg), drawn
    finally:
        monkeypatch.setattr(resvg_py, "svg_to_bytes", render)


def _first_that_fits(svg: str, widths: list[int]) -> bytes:
    """The PNG of the first of ``widths`` at most ``MAX_BYTES``, else of the last: what
    ``render_png`` gives, drawn at every width in turn (with its fonts)."""
    import resvg_py

    assert picture.fonts_usable()
    png = b""
    for width in widths:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width,
                                          **picture._font_options()))
        if len(png) <= picture.MAX_BYTES:
            break
    return png


@pytest.mark.parametrize("height, first", [(200, 600), (150, 900)])
def test_a_sparse_picture_drawn_smaller_first_still_goes_out_large(height, first,
                                                                    monkeypatch):
    """Drawn at a smaller width first by its shape (a Riga or a Visby table's), a
    picture whose PNG there leaves room is drawn at the largest next, and goes out as
    drawing every width in turn gives it: the first guess costs drawings, never the
    picture."""
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 {height}" '
           f'width="100" height="{height}"><rect x="10" y="10" width="80" height="100" '
           'fill="#c33"/></svg>')
    assert picture._first_width(svg) == first
    png, drawn = _drawn_widths(svg, monkeypatch)
    assert drawn == [first, picture.PIXEL_WIDTHS[0]]
    assert png == _first_that_fits(svg, list(picture.PIXEL_WIDTHS))
    assert _png_size(png) == (1200, 12 * height)


@pytest.mark.parametrize("name, players, expected_widths", [
    ("macao", 4, [600]),         # so tall that no larger width can fit: drawn once
    ("riga", 4, [600]),          # likely too dense for 900 by its shape: the smallest
                                 # first, whose PNG weighs too much for 1200 and 900
    ("riga", 2, [900]),          # neither flat nor tall: the middle width first, which
                                 # fits and weighs too much for 1200 to
    ("visby", 2, [1200]),        # so flat that it likely fits at 1200: drawn there first
])
def test_a_width_surely_too_large_is_not_drawn(name, players, expected_widths, monkeypatch):
    """``render_png`` draws no width whose PNG would exceed ``MAX_BYTES`` even at the
    least share of the bytes of a width drawn, or by the picture's shape, and gives the
    picture it gave when it drew every width in turn (resvg draws deterministically)."""
    import resvg_py

    rules = get_game(name)
    names = ["Alice", "Bob", "Carol", "Dora"][:players]
    state = rules.setup(players, None, "skip-a-width")
    rng = random.Random(3)
    for _ in range(60):  # a table well into the game: Macao's grows as it goes
        if rules.is_over(state):
            break
        seat = rules.to_move(state)[0]
        state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
    svg = rules.picture(rules.view(state, 0), names, "en")
    render = resvg_py.svg_to_bytes
    png, drawn = _drawn_widths(svg, monkeypatch)
    assert drawn == expected_widths
    assert png == _first_that_fits(svg, list(picture.PIXEL_WIDTHS))
    # what the widths skipped rest on: each drawing weighs its share of the largest
    weighs = {w: len(render(svg_string=svg, width=w, **picture._font_options()))
              for w in picture._SHARES}
    for width, (least, most) in picture._SHARES.items():
        share = weighs[width] / weighs[picture.PIXEL_WIDTHS[0]]
        assert least <= share <= most, f"{width} pixels: {share:.3f} of the largest"
