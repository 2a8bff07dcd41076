"""No font, no picture: where resvg finds no font it would draw the table without a
word; start-up says so and the mails go without the picture (issue 22)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.server import warn_if_no_fonts
from pbem.games import get_game
from pbem.lifecycle import create
from pbem.mail import picture
from pbem.mail.outbox import deliver_due, transport_from_config
from pbem.models import Outbox, utcnow


@pytest.fixture
def no_fonts(tmp_path) -> Iterator[None]:
    """The renderer looks for fonts in an empty folder alone."""
    empty = tmp_path / "fonts"
    empty.mkdir()
    picture.use_font_dirs([str(empty)])
    yield
    picture.use_font_dirs(None)


def test_the_system_fonts_write_words_and_an_empty_folder_does_not(no_fonts):
    assert not picture.fonts_usable()
    with pytest.raises(picture.NoFonts):
        picture.render_png('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')
    picture.use_font_dirs(None)  # this machine has DejaVu (fonts-dejavu-core)
    assert picture.fonts_usable() and picture.font_warning() is None


def test_start_up_warns_with_a_printed_line_and_the_log(no_fonts, caplog):
    import click

    @click.command()
    def start() -> None:
        warn_if_no_fonts()

    with caplog.at_level(logging.WARNING):
        result = CliRunner().invoke(start)
    assert "need a font" in result.output and "fonts-dejavu-core" in result.output
    assert any("need a font" in r.getMessage() for r in caplog.records)


def test_without_a_font_the_turn_mail_goes_without_its_picture(no_fonts, smtp_ctx,
                                                               smtp_server, database):
    alice = create.get_or_create_player("alice@example.org", "Alice", quiet_start="00:00",
                                        quiet_end="00:00", confirmed_at=utcnow())
    create.create_game(smtp_ctx, "visby", alice, [None, None], seed=4)
    while deliver_due(smtp_ctx.config, transport_from_config(smtp_ctx.config))["sent"]:
        pass
    [turn] = [m for m in smtp_server.to("alice@example.org")
              if Outbox.get(Outbox.message_id == m["Message-ID"]).kind == "turn"]
    assert not [p for p in turn.walk() if p.get_content_maintype() == "image"]
    html = turn.get_body(preferencelist=("html",)).get_content()
    assert "<img" not in html and "data:" not in html
    assert "Your move" in html or "your move" in html


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
needs_dejavu = pytest.mark.skipif(
    not (DEJAVU / "DejaVuSans.ttf").is_file(),
    reason="Debian's fonts-dejavu-core is not installed here (.ci/run installs it)")


@pytest.fixture
def fonts_again() -> Iterator[None]:
    """The fonts are probed anew before the test and after it."""
    picture.use_font_dirs(None)
    yield
    picture.use_font_dirs(None)


def _png(svg_text: str, family: str) -> bytes:
    return picture.render_png(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 40" width="300" '
        f'height="40"><text x="4" y="26" font-family="{family}" font-size="16" '
        f'font-weight="bold">{svg_text}</text></svg>')


@needs_dejavu
def test_debians_dejavu_alone_writes_the_pictures_words(fonts_again):
    """The README's promise: with fonts-dejavu-core and no other font, the mails' pictures
    have their words (resvg's own ``sans-serif``, Arial, is on no Debian: it wrote none)."""
    import resvg_py

    picture.use_font_dirs([str(DEJAVU)])
    assert picture.fonts_usable()
    rules = get_game("visby")
    svg = rules.picture(rules.view(rules.setup(3, None, 1), 0), ["A", "B", "C"], "en")
    blank = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=1200, skip_system_fonts=True))
    assert picture.render_png(svg) != blank


@needs_dejavu
def test_sans_serif_is_dejavu_sans_where_it_is_installed(fonts_again):
    """A picture's generic family is set in DejaVu Sans, signs included: Visby's market
    rate ("2:2◇") was set whole in a serif face where Liberation Sans stood in for it."""
    words = "Markt: rate 2:2◇ goods:seals"
    generic = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
    assert _png(words, generic) == _png(words, "DejaVu Sans")
    assert _png(words, generic) != _png(words, "DejaVu Serif")
