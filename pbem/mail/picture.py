"""The table's picture in HTML mails: the game's SVG rendered as a PNG.

Most mail clients show no SVG (Gmail, Outlook strip it), so an HTML mail carries the
picture as a PNG.  The game draws its SVG (``Rules.picture``) when the mail is queued,
and the outbox row keeps that SVG inside ``html_body`` as a ``data:`` URI, so a crash
between queueing and delivery loses nothing.  The PNG is rendered when the mail is
delivered (``split_html``, from ``outbox.build_message``), outside the transaction that
records a move: rendering takes from a tenth of a second to more than one for a tall
table, which the move's write lock should not wait for, and an SVG is a fifth of the
PNG's size in the row.  The SVG is a pure function of the view and the renderer is
deterministic, so a retried delivery sends the same picture.  The image goes out as a
``multipart/related`` part referenced by ``cid:`` (clients block ``data:`` images).

The renderer is ``resvg-py`` (0.5.0, github.com/baseplate-admin/resvg-py): abi3 wheels
for Linux, macOS and Windows with resvg 0.48 (the Rust SVG renderer of the linebender
project) built in, so a plain ``pip install`` works without a system library;
``cairosvg`` (2.9) needs libcairo from the system, which a fresh macOS or a slim
container lacks.  The binding has one maintainer; the call below is its only use, so
swapping renderers touches ``render_png`` alone.  resvg draws text with the system's
fonts (it bundles none): Debian's ``fonts-dejavu-core`` is enough, and ``.ci/run``
installs it where it is missing; resvg reads no fontconfig, so it is told which family
is ``sans-serif``, the generic family the games' pictures end their lists with
(``fonts_usable`` finds the first of ``SANS_SERIF_FAMILIES`` installed).  A picture
that cannot be drawn (no renderer, a bad SVG) is logged and left out: the mail goes
without it, its text table says the same.  Without a font resvg would draw a picture
with no words at all: ``fonts_usable`` finds that out once per process, ``pbem serve``
and ``pbem scheduler`` warn at start-up (``font_warning``), and the mails go without
the picture.

A "your move" mail's table (its picture, its words and the menu it listed) is also kept
in the database (``keep_table``, model ``Drawn``), so that the confirm page of the mail's
link shows it without drawing it again (``kept_table``; it comes with the seats the page
reads anyway) and names the link's move from the menu without asking the game
(``kept_choices``): the page is served by another process than the one that wrote the
mail.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import threading
import xml.parsers.expat as expat
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from html import unescape
from typing import Any

from pbem.games.protocol import Choice
from pbem.models import Drawn
from pbem.sqlcache import Written

log = logging.getLogger(__name__)

#: CSS width of the picture in a mail: readable on a phone, drawn at twice the pixels
CSS_WIDTH = 600
#: pixel widths to try, largest first: a PNG above ``MAX_BYTES`` is drawn smaller
PIXEL_WIDTHS = (2 * CSS_WIDTH, 3 * CSS_WIDTH // 2, CSS_WIDTH)
MAX_BYTES = 150_000
#: a small drawing that is never sent: what it weighs tells what the others would (drawn
#: first only for a picture without a view box, whose shape ``_first_width`` cannot read)
PROBE_WIDTH = CSS_WIDTH // 2
#: a PNG's bytes at each width as a share of its bytes at the largest, least and most,
#: with a margin: resvg's PNGs of the four games' tables came to 0.72-0.74 at 900,
#: 0.46-0.49 at 600 and 0.21-0.23 at 300 pixels (issue 23; 70 tables of every game from
#: start to end), so one drawing tells within a few percent what the others would weigh.
#: A width whose PNG would exceed ``MAX_BYTES`` even at the least share is not drawn (a
#: tall table was drawn at 1200 pixels for every mail, a second of CPU, and not sent).
_SHARES = {PIXEL_WIDTHS[0]: (1.0, 1.0), PIXEL_WIDTHS[1]: (0.70, 0.77),
           PIXEL_WIDTHS[2]: (0.44, 0.52), PROBE_WIDTH: (0.19, 0.25)}
#: the bytes the largest width's PNG came to per unit of the picture's height over its
#: width: Tallinn's sparse tables 76,000, Visby's 87,000-106,000, Riga's and Macao's
#: 111,000-141,000.  Below the second figure a table is drawn at the largest width first
#: (most fit there: one drawing); where even the least, the first, exceeds
#: ``MAX_BYTES`` at every width but the smallest, at the smallest (a Macao table); where
#: even the second, at the middle width's most share, exceeds it (a height above 1.77
#: widths: most Riga tables of three or four players), at the smallest too; any other at
#: the middle width (Visby's tables of four to six, Riga's of two: 900 pixels was the
#: answer of most).  Where the first drawing leaves a larger width open, that is drawn
#: next; where it weighs too much, a smaller one.  Which width is drawn first changes
#: what a mail costs, not its picture (while ``_SHARES`` hold): drawn at ``PROBE_WIDTH``
#: first, as these tables were before (session 25), the probe rarely spared a drawing
#: (its least share leaves much open) and cost a fifth of the largest on top; a Visby
#: table of five came to three drawings (probe, 1200, 900) where one at 900 now does.
_BYTES_PER_ASPECT = (70_000, 110_000)
_VIEW_BOX = re.compile(r'<svg\b[^>]*?\bviewBox="[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)"')

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: a picture inside a stored HTML body (``Picture.src``): the whole ``<img>`` tag, the
#: kind of its data (an SVG to render; a PNG in rows queued by an older pbem) and the data
IMAGE_TAG = re.compile(r'<img src="data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=]+)"([^>]*)>')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_LABEL = re.compile(r'aria-label="([^"]*)"')

#: the folders resvg reads fonts from: ``None`` for the system's (those fontconfig
#: knows), else these alone (``use_font_dirs``; a test points it at an empty folder)
_FONT_DIRS: list[str] | None = None
#: whether words come out of the renderer here: probed once (``fonts_usable``)
_FONTS_USABLE: bool | None = None
#: the family resvg is told its generic ``sans-serif`` is (``fonts_usable`` finds it), or
#: None for resvg's own: resvg asks no fontconfig, and its own is Arial, which no Debian
#: has.  With Debian's DejaVu alone it then wrote no word at all (``fonts_usable`` said
#: no font, and every mail went without its picture, though the README promises DejaVu
#: is enough); with Liberation beside it (chromium brings it) Liberation Sans stood in,
#: and a line with a sign it lacks (Visby's market rate "2:2◇") was set whole in a serif
#: face, not bold.  The games' pictures name ``sans-serif`` last of their families.
_SANS_SERIF: str | None = None
#: the families tried for ``sans-serif``, in order: DejaVu Sans first (fontconfig's own
#: sans-serif on Debian, so a browser there shows the pictures in it too; it has every
#: sign the games draw), then Liberation Sans and Arimo (Arial's metrics), Noto Sans,
#: FreeSans, Arial itself (macOS, Windows), then resvg's default
SANS_SERIF_FAMILIES = ("DejaVu Sans", "Liberation Sans", "Arimo", "Noto Sans", "FreeSans",
                       "Arial", None)
#: a word as the games write theirs (``font-family`` ends in the generic sans-serif), and
#: the same picture without it: with no usable font both render to the same PNG
_PROBE = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="16">{}</svg>')
_WORD = '<text x="1" y="13" font-family="system-ui, sans-serif" font-size="13">Ag</text>'


class NoFonts(RuntimeError):
    """resvg finds no font: a picture would have no words."""


@dataclass(frozen=True)
class Picture:
    """The table for ``<img src=… alt=…>`` in a mail's layout
    (``templates/mail/_layout.html``): the game's SVG, rendered as PNG on delivery."""

    svg: str
    alt: str

    @property
    def src(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(
            self.svg.encode("utf-8")).decode("ascii")

    @cached_property
    def png(self) -> bytes:
        """The PNG that delivery sends (rendered here only when asked for)."""
        return render_png(self.svg)


def use_font_dirs(dirs: list[str] | None) -> None:
    """Read fonts from ``dirs`` alone (``None``: the system's), and probe them anew."""
    global _FONT_DIRS, _FONTS_USABLE, _SANS_SERIF
    _FONT_DIRS, _FONTS_USABLE, _SANS_SERIF = (None if dirs is None else list(dirs)), None, None


def _font_options(sans_serif: str | None = None) -> dict[str, Any]:
    """resvg's options for fonts: where it reads them, and what ``sans-serif`` is
    (``sans_serif``, else the one ``fonts_usable`` found)."""
    options: dict[str, Any] = ({} if _FONT_DIRS is None
                               else {"skip_system_fonts": True, "font_dirs": _FONT_DIRS})
    family = sans_serif or _SANS_SERIF
    if family is not None:
        options["sans_serif_family"] = family
    return options


def fonts_usable() -> bool:
    """Whether the renderer writes words here: a word drawn must change the picture.  The
    first of ``SANS_SERIF_FAMILIES`` that writes it is ``sans-serif`` from then on."""
    global _FONTS_USABLE, _SANS_SERIF
    if _FONTS_USABLE is None:
        try:
            import resvg_py

            blank = bytes(resvg_py.svg_to_bytes(svg_string=_PROBE.format(""),
                                                **_font_options()))
            for family in SANS_SERIF_FAMILIES:
                word = bytes(resvg_py.svg_to_bytes(svg_string=_PROBE.format(_WORD),
                                                   **_font_options(family)))
                if word != blank:
                    _SANS_SERIF, _FONTS_USABLE = family, True
                    break
            else:
                _FONTS_USABLE = False
        except Exception:  # no renderer: render_png says so for each picture
            log.exception("the renderer of the mails' pictures cannot be tried")
            _FONTS_USABLE = True
    return _FONTS_USABLE


def font_warning() -> str | None:
    """What ``pbem serve`` and ``pbem scheduler`` say at start-up when no font is found."""
    if fonts_usable():
        return None
    where = ", ".join(_FONT_DIRS) if _FONT_DIRS is not None else "the system's fonts"
    return ("warning: the mails' table pictures need a font and none was found in "
            f"{where}; mails go without their picture until one is installed (Debian, "
            "Ubuntu: apt install fonts-dejavu-core), then restart")


def render_png(svg: str) -> bytes:
    """``svg`` as PNG bytes: at the largest of ``PIXEL_WIDTHS`` whose PNG is at most
    ``MAX_BYTES``, else at the smallest.

    Each width is drawn only where it may be the answer by what the picture's shape
    (``_first_width``) and the drawings so far weigh (``_SHARES``); resvg draws
    deterministically, so the picture is the one drawing every width in turn gives.

    Raises on a missing renderer, an SVG it cannot read, or no font to write with
    (``NoFonts``: a picture without its words is no picture of the table)."""
    import resvg_py

    if not fonts_usable():
        raise NoFonts("no font to write the picture's words with")
    drawn: dict[int, bytes] = {}
    width = _first_width(svg)
    while width not in drawn:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, **_font_options()))
        if not png.startswith(PNG_SIGNATURE):
            raise ValueError("the renderer returned no PNG")
        drawn[width] = png
        width = _answer({w: len(png) for w, png in drawn.items()})
    return drawn[width]


def _first_width(svg: str) -> int:
    """The width to draw first, by the picture's shape (its view box)."""
    found = _VIEW_BOX.search(svg)
    if not found or not float(found.group(1)):
        return PROBE_WIDTH
    aspect = float(found.group(2)) / float(found.group(1))
    least, likely = (bytes_per_aspect * aspect for bytes_per_aspect in _BYTES_PER_ASPECT)
    if likely <= MAX_BYTES:
        return PIXEL_WIDTHS[0]
    if all(least * _SHARES[w][0] > MAX_BYTES for w in PIXEL_WIDTHS[:-1]):
        return PIXEL_WIDTHS[-1]
    if likely * _SHARES[PIXEL_WIDTHS[1]][1] > MAX_BYTES:
        return PIXEL_WIDTHS[-1]
    return PIXEL_WIDTHS[1]


def _answer(sizes: dict[int, int]) -> int:
    """The largest width whose PNG may be at most ``MAX_BYTES`` by those drawn
    (``sizes``: bytes by width, the probe's too), else the smallest: the answer where it
    is drawn, else the width to draw next."""
    for width in PIXEL_WIDTHS[:-1]:
        if width in sizes:
            if sizes[width] <= MAX_BYTES:
                return width
        elif max(size * _SHARES[width][0] / _SHARES[known][1]
                 for known, size in sizes.items()) <= MAX_BYTES:
            return width
    return PIXEL_WIDTHS[-1]


def alt_text(svg: str, fallback: str) -> str:
    """What the picture shows in words: its own ``<title>`` (or ``aria-label``), which the
    game writes in the reader's language, e.g. "Visby · round 1 · to 30 seals"."""
    found = _TITLE.search(svg) or _LABEL.search(svg)
    text = unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""
    return " ".join(text.split()) or fallback


#: pictures drawn lately in this process, by ``picture_key``, and whether each was
#: read as XML yet: a page and a mail of the same table for the same reader (the turn
#: mail, then the confirm page of its link; the seat page after a move that began the
#: reader's turn again) draw it once, and a mail reads it once
_DRAWN: OrderedDict[tuple[Any, ...], tuple[str, bool]] = OrderedDict()
_DRAWN_MAX = 128
_DRAWN_LOCK = threading.Lock()


def picture_key(game: Any, seats: list[Any], viewer: int | None, names: list[str],
                lang: str) -> tuple[Any, ...]:
    """What names one table as one reader sees it: the game (its random thread key, never
    reused, unlike a row id), its move number and the sum of its seats' menu versions
    (every change of the state raises one, a take-back too, so a move number reached
    again after a take-back is another key), the viewer, the names and the language."""
    return (game.thread_key, game.seq, sum(s.menu_seq for s in seats), viewer,
            tuple(names), lang)


def _digest(key: tuple[Any, ...]) -> str:
    """A ``picture_key`` as a fixed-length text: the same in every process (its parts
    are texts, numbers and ``None``, whose ``repr`` does not vary)."""
    return hashlib.sha256(repr(key).encode("utf-8")).hexdigest()


def keep_table(game: Any, viewer: int, key: tuple[Any, ...], svg: str, text: str,
               choices: list[Choice]) -> None:
    """Keep the table ``key`` names (``picture_key``) as drawn for ``viewer``: its SVG,
    its words and the menu the mail listed (``choices``, names filled in), in place of
    the one kept for that reader before (a table of the past is never shown again: its
    key holds a move number gone by)."""
    digest = _digest(key)
    listed = json.dumps([[c.move, c.label, c.group, c.help, c.region] for c in choices],
                        ensure_ascii=False, separators=(",", ":"))
    # the reader's row of the table before, in one statement: a game keeps one per reader
    # (this is its only writer), and its SQL is written once, where building a delete and
    # an insert cost more than the database's answer to both
    cursor = _KEPT.run([digest, svg, text, listed, game.id, viewer])
    if cursor.rowcount < 1:  # the reader's first table in this game
        Drawn.insert(game=game.id, viewer=viewer, key=digest, svg=svg, text=text,
                     choices=listed).on_conflict_ignore().execute()


#: ``keep_table``'s statement: the reader's kept table replaced
_KEPT = Written(Drawn, lambda database: (
    f'UPDATE "{Drawn._meta.table_name}" SET "{Drawn.key.column_name}" = {database.param}, '
    f'"{Drawn.svg.column_name}" = {database.param}, '
    f'"{Drawn.text.column_name}" = {database.param}, '
    f'"{Drawn.choices.column_name}" = {database.param} '
    f'WHERE "{Drawn.game.column_name}" = {database.param} '
    f'AND "{Drawn.viewer.column_name}" = {database.param}'))


def forget_tables(game: Any) -> None:
    """The game is over: no confirm page shows its tables again."""
    Drawn.delete().where(Drawn.game == game.id).execute()


def kept_table(seat: Any, key: tuple[Any, ...]) -> tuple[str, str] | None:
    """The SVG and the words of the table ``key`` names, if the seat's turn mail kept
    them (``keep_table``) and they came with the seat's row (``models.table_of``'s
    ``drawn_of``); ``None`` where none did (the state moved on since, the mail was held
    for a digest, or none was written)."""
    if getattr(seat, "drawn_key", None) != _digest(key):
        return None
    return seat.drawn_svg, seat.drawn_text


def kept_choices(seat: Any, key: tuple[Any, ...]) -> list[Choice] | None:
    """The menu the seat's turn mail listed (names filled in), if it kept the table
    ``key`` names as ``kept_table`` finds it; ``None`` where it did not (or an older
    pbem kept the table without its menu).  The key names the move number and the
    seats' menu versions, so a menu kept under it is the seat's menu now: a move it
    lists is legal, and its entry is the one the game would give again."""
    listed = getattr(seat, "drawn_choices", None)
    if not listed or getattr(seat, "drawn_key", None) != _digest(key):
        return None
    return [Choice(*entry) for entry in json.loads(listed)]


def _drawn(rules: Any, view: Any, names: list[str], lang: str,
           key: tuple[Any, ...] | None, checked: bool,
           links: dict[str, str] | None = None) -> str:
    """The SVG, from the cache where ``key`` has it; ``checked``: it must be XML (raises
    if not, and is then not kept); ``links``: the places to tap (the seat page's)."""
    if key is not None and links:
        key = (*key, tuple(sorted(links.items())))
    if key is not None:
        with _DRAWN_LOCK:
            svg, was_checked = _DRAWN.get(key, ("", False))
            if svg:
                _DRAWN.move_to_end(key)
    else:
        svg, was_checked = "", False
    if not svg:
        svg = rules.picture(view, names, lang, links) if links else rules.picture(
            view, names, lang)
    if checked and svg and not was_checked:
        _well_formed(svg)  # an SVG that is not even XML is refused now, not at delivery
    if svg and key is not None:
        with _DRAWN_LOCK:
            _DRAWN[key] = (svg, checked or was_checked)
            while len(_DRAWN) > _DRAWN_MAX:
                _DRAWN.popitem(last=False)
    return svg


def _well_formed(svg: str) -> None:
    """Raise ``ExpatError`` unless ``svg`` is well-formed XML: expat alone, no tree
    built (ElementTree's took 2.4 times as long for a Riga table, in every turn mail)."""
    expat.ParserCreate().Parse(svg, True)


def draw(rules: Any, view: Any, names: list[str], lang: str,
         key: tuple[Any, ...] | None = None, links: dict[str, str] | None = None) -> str:
    """``rules.picture(view, names, lang, links)``, drawn once per ``key``
    (``picture_key``) and ``links`` in this process."""
    return _drawn(rules, view, names, lang, key, checked=False, links=links)


def table_picture(rules: Any, view: Any, names: list[str], lang: str,
                  fallback: str, key: tuple[Any, ...] | None = None) -> Picture | None:
    """The table of ``view`` as a ``Picture``; ``None`` (logged) when it cannot be drawn.

    ``fallback`` is the alt text for an SVG that has no title; ``key``
    (``picture_key``) lets a page and a mail draw the picture once."""
    try:
        svg = _drawn(rules, view, names, lang, key, checked=True)
        if not svg:
            return None
        return Picture(svg, alt_text(svg, fallback))
    except Exception:  # a mail without its picture still goes: never lose the mail
        log.exception("the table's picture for %s could not be rendered; mail goes without it",
                      getattr(rules, "name", rules))
        return None


def split_html(html: str, cid_of: Any) -> tuple[str, list[tuple[str, bytes]]]:
    """``html`` with each stored picture rendered and referenced by ``cid:`` (``cid_of(n)``
    names the n-th, without angle brackets), and the pictures as (cid, PNG bytes).

    A picture that cannot be rendered is logged and its ``<img>`` left out: the mail goes
    without it (its text part says the same)."""
    found: list[tuple[str, bytes]] = []

    def swap(match: re.Match[str]) -> str:
        kind, data, rest = match.groups()
        try:
            raw = base64.b64decode(data)
            png = raw if kind == "png" else render_png(raw.decode("utf-8"))
        except NoFonts:  # said at start-up (``font_warning``): once is enough
            log.info("no font: the table's picture is left out of the mail")
            return ""
        except Exception:
            log.exception("the table's picture could not be rendered; mail goes without it")
            return ""
        cid = cid_of(len(found))
        found.append((cid, png))
        return f'<img src="cid:{cid}"{rest}>'

    return IMAGE_TAG.sub(swap, html), found


def inline_cids(msg: Any, html: str) -> str:
    """``html`` of ``msg`` with each ``cid:`` image as a ``data:`` URI again, for a page
    that shows a mail by itself (``/dev/mail``), where ``cid:`` means nothing."""
    for part in msg.walk():
        cid = (part["Content-ID"] or "").strip("<>")
        if cid and part.get_content_type() == "image/png":
            data = base64.b64encode(part.get_content()).decode("ascii")
            html = html.replace(f'src="cid:{cid}"', f'src="data:image/png;base64,{data}"')
    return html
