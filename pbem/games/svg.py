"""The canvas every game's ``picture.py`` draws on, and its words.

A picture is a pure function of a view (see ``Rules.picture``); the words in it come
from players (names) and from the game.  Both must reach the SVG as character data
XML accepts (escaped, without the control characters XML forbids), and fit the
390-unit width a phone shows: names are shortened with an ellipsis, long lines broken
at spaces.  Nothing here knows a game.

:class:`Canvas` collects the elements of one picture::

    svg = Canvas()
    svg.text(12, 20, "Visby · round 3", font_size=14, font_weight="700")
    with svg.region("play Ritter", href="/m/…", help="Ritter: up to 5 seals"):
        svg.rect(12, 40, 60, 90, fill="#fff", stroke="#000")
    svg.markup()

Attributes are keyword arguments, written in the order given (``font_size`` is
``font-size``, ``class_`` is ``class``; ``None`` leaves one out); every string is
escaped, every number written by the canvas's number format (``"g"``: ``12``, ``3.5``;
``str``: ``12``, ``12.0``, as a picture drawn before the canvas had it).  A **region**
is a drawn element a move or a card acts on: it carries its name (``data-region``), a
link (``href``, making it ``<a>``) and a help text (``<title>``, which browsers show on
hover and screen readers read), so that a picture can be the board people play on.

A canvas made with ``links`` (region name to URL: the seat page's, one per region a
legal move of the viewer acts on) links each region so named by itself; the game names
its regions as its menu names a :class:`~pbem.games.protocol.Choice`'s ``region`` and
draws nothing else for it.  A linked region given its ``box`` is marked as a place to
tap by a dashed frame (a shape, not a colour alone, tells it from the rest) that also
makes the whole box the target of a finger, not only its strokes.

Pictures are drawn often (every reader's seat page and mail, every round of the
archive, the tests' playouts), and most of a board looks as it did in the picture
before.  ``Canvas.drawn`` draws a piece of it (a district, a card, a field) by a
function of its arguments and keeps what it wrote, in this process, for the next
picture that draws that piece with the same arguments and links::

    svg.drawn(_district, data.SETS.active.version, lang, d, x, top, owner,
              regions=(f"district {d}",))

A drawing so kept may draw kept pieces itself (a whole sea, each field in it): a
picture drawn as it was then looks its board up once, and a sea that changed in one
field draws that field only; the pieces' markup is kept once, shared by both.  A piece
is kept by its place too, so a piece inside a whole drawn anew because it moved (a
rose in a panel under one that grew) is mostly not kept either: small pieces that
mostly move with their whole are cheaper drawn in it than kept each.
"""

from __future__ import annotations

import marshal
import re
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from html import escape
from typing import Any, TypeVar

_T = TypeVar("_T")

#: characters XML 1.0 does not allow in a document, even escaped
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: what ``xml_text`` changes: without any of these a text goes as it is (most do, and a
#: picture writes tens of thousands of them: the search is a third of the escaping)
_TOUCHED = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_text(value: Any) -> str:
    """``value`` as SVG character data or attribute value: escaped (quotes too), without
    the characters XML forbids."""
    text = value if type(value) is str else str(value)
    if _TOUCHED.search(text) is None:
        return text
    return escape(NOT_XML.sub("", text), quote=True)


class _AttributeNames(dict[str, str]):
    """``font_size`` as ``font-size``, ``class_`` as ``class`` (the keywords' spelling),
    each name spelled once: a picture looks up tens of thousands."""

    def __missing__(self, name: str) -> str:
        spelled = self[name] = name.rstrip("_").replace("_", "-")
        return spelled


_ATTRIBUTE_NAMES = _AttributeNames()
_touched = _TOUCHED.search


@lru_cache(maxsize=4096)
def _title(help: str) -> str:
    """A region's help as its ``<title>`` (``Canvas.region``), escaped once: a picture
    names the same helps move after move, and escaping a long one with an apostrophe (a
    reconstructed mark's line) took as long as drawing a half of Tallinn's display."""
    return f"<title>{xml_text(help)}</title>"


def shorten(text: str, limit: int) -> str:
    """``text`` on one line (white space folded), cut to ``limit`` characters with "…"."""
    text = " ".join(NOT_XML.sub("", str(text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_name(names: Sequence[str], seat: int, limit: int, missing: str = "seat {n}") -> str:
    """The name of ``seat`` shortened to ``limit``; ``missing`` (with ``{n}``, the seat
    from 1) for a seat ``names`` lacks or whose name is empty."""
    name = names[seat] if 0 <= seat < len(names) else ""
    return shorten(name, limit) or missing.format(n=seat + 1)


#: advance widths of DejaVu Sans (the widest font a picture names, and the one mails are
#: rendered with) in thousandths of an em, by character; the rest at ``_WIDTH_OTHER``
_WIDTHS: dict[str, int] = {
    **dict.fromkeys("ijl", 278), **dict.fromkeys("ft", 352), "r": 411, " ": 318,
    **dict.fromkeys(".,:;'|!", 318), **dict.fromkeys("()[]-", 390), "s": 521, "z": 525,
    "c": 550, **dict.fromkeys("kvxy", 592), **dict.fromkeys("ae", 614),
    **dict.fromkeys("bdghnopqu", 634), "w": 818, "m": 974,
    **dict.fromkeys("IJ", 295), "L": 557, "F": 575, **dict.fromkeys("TY", 611),
    "E": 632, "P": 603, **dict.fromkeys("SZ", 635), **dict.fromkeys("ABKVXR", 684),
    "C": 698, **dict.fromkeys("HNU", 740), **dict.fromkeys("DGOQ", 780), "M": 863,
    "W": 989, **dict.fromkeys("0123456789", 636),
}
_WIDTH_OTHER = 640
#: how much wider the bold face runs
_BOLD = 1.09


# the same names and labels are measured in picture after picture
@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide ``text`` runs at font size ``size`` in DejaVu Sans (an upper bound
    for the narrower sans-serif fonts a browser may pick): for placing what follows a
    name on its line, so that a short name of wide letters ("Cem") does not run into it."""
    ems = sum(_WIDTHS.get(c, _WIDTH_OTHER) for c in text) / 1000
    return ems * size * (_BOLD if bold else 1.0)


def wrap(line: str, limit: int) -> list[str]:
    """``line`` in pieces of at most ``limit`` characters, broken at spaces (a longer
    word stands alone on its line)."""
    lines: list[str] = []
    for word in line.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _g(value: float) -> str:
    # a whole number of up to six digits reads the same by ``str``, which is faster
    if type(value) is int and -1_000_000 < value < 1_000_000:
        return str(value)
    return f"{value:g}"


#: places written in the ``"g"`` format, by their numbers: formatting a number costs
#: several times a look-up, and a picture writes thousands of places, most of them again
#: (an int and a float equal to it write the same; zero, equal to ``-0.0``, which writes
#: ``-0``, is never kept); forgotten all at once at ``_NUMBERS_MOST`` of them
_NUMBERS: dict[float, str] = {}
_NUMBERS_MOST = 20_000


def _g_kept(value: float) -> str:
    """``value`` (an int or a float) as the ``"g"`` format writes it, kept."""
    written = f"{value:g}"
    if value:
        if len(_NUMBERS) >= _NUMBERS_MOST:
            _NUMBERS.clear()
        _NUMBERS[value] = written
    return written


#: how a canvas writes numbers: ``"g"`` (shortest: 12, 3.5) or ``str`` (12, 12.0)
NUMBER_FORMATS: dict[str, Callable[[float], str]] = {"g": _g, "str": str}

#: the frame around a region one may tap: dashed, drawn over the region, transparent
#: inside (a finger may land anywhere in it), never filled in a colour
TARGET_MARK = {"fill": "#ffffff", "fill_opacity": 0, "stroke": "#0b57d0",
               "stroke_width": 2.5, "stroke_dasharray": "6 3", "class_": "target-mark"}


#: what ``Canvas.attributes`` wrote in the ``"g"`` format, by the attributes' items;
#: forgotten all at once at ``_WRITTEN_MOST`` of them (about 600 bytes each: some 18 MB
#: a process at most), when the pictures drawn have moved on
_WRITTEN: dict[tuple[tuple[str, Any], ...], str] = {}
_WRITTEN_MOST = 30_000


#: what ``Canvas.attributes`` wrote in the ``str`` format, by the attributes' items and
#: their values' kinds; forgotten as ``_WRITTEN`` is
_WRITTEN_STR: dict[tuple[tuple[tuple[str, Any], ...], tuple[type, ...]], str] = {}


def _keepable_str(attrs: dict[str, Any]) -> bool:
    """Whether ``attrs`` may be kept in the ``str`` format, by their items and their
    values' kinds: not with a float equal to 0 (``-0.0`` writes otherwise than ``0.0``)."""
    return 0 not in attrs.values() or not any(
        type(v) is float and v == 0 for v in attrs.values())


def _keepable(attrs: dict[str, Any]) -> bool:
    """Whether ``attrs`` may be kept by their items: an equal key always writes the
    same.  Texts, whole numbers and floats only, and no number equal to 0 or 1: those
    equal ``False``, ``True`` and ``-0.0``, which write otherwise (a float and a whole
    number equal to it write the same in the ``"g"`` format)."""
    for value in attrs.values():
        kind = type(value)
        if kind is str or value is None:
            continue
        if (kind is not int and kind is not float) or value == 0 or value == 1:
            return False
    return True


#: what ``Canvas.drawn`` drew, by its key: the markup, the regions linked in it, what
#: the drawing returned and the names of the regions in it (escaped); past
#: ``_KEPT_MOST`` characters (some 8 MB a process), those kept first are forgotten
#: (``_forget_oldest``).  The markup of a drawing that drew kept pieces in it is a tuple:
#: its own runs of markup and those pieces' markup, the same strings (a board kept whole
#: and field by field holds each field once; only its own runs count towards the most)
_KEPT: dict[tuple[Any, ...],
            tuple[str | tuple[str, ...] | _Linked, tuple[str, ...], Any, frozenset[str]]] = {}
_KEPT_MOST = 4_000_000
_kept_chars = 0
#: the characters of each kept drawing's own, in the order they were kept
_KEPT_CHARS: dict[tuple[Any, ...], int] = {}
#: the threads of a server draw at once: one stores (or forgets) at a time; reading a
#: dict is safe without it, and what it reads is never changed, only replaced
_KEPT_LOCK = threading.Lock()
#: the names of the regions in a drawing, escaped as written
_REGION_NAMES = re.compile('data-region="([^"]*)"')


def _keep(key: tuple[Any, ...], kept: Any, own: int) -> None:
    """Keeps a drawing (``_KEPT``) with ``own`` characters of its own."""
    global _kept_chars
    with _KEPT_LOCK:
        if _kept_chars + own > _KEPT_MOST:
            _forget_oldest(own)
        _KEPT[key] = kept
        _kept_chars += own - _KEPT_CHARS.get(key, 0)
        _KEPT_CHARS[key] = own


def _forget_oldest(own: int) -> None:
    """Forgets the drawings kept first, till ``own`` more characters fill at most three
    quarters of ``_KEPT_MOST``; not all at once: a board's pieces that did not change were
    mostly kept for the pictures just before, and the next pictures need not draw them
    all anew."""
    global _kept_chars
    most = _KEPT_MOST - _KEPT_MOST // 4 - own
    for key in list(_KEPT_CHARS):
        if _kept_chars <= most:
            break
        _kept_chars -= _KEPT_CHARS.pop(key)
        del _KEPT[key]


def _key_of(args: tuple[Any, ...]) -> bytes | None:
    """``args`` as a key to keep a drawing by: equal keys are the same arguments, of the
    same kinds inside tuples too (``1`` and ``True``, ``2`` and ``2.0``, ``0.0`` and
    ``-0.0`` are other keys); ``None`` for arguments that cannot key it (an object of a
    class of its own, a subclass of a text or a number among them).  Written by
    ``marshal`` (version 2, which writes a value by its value alone, without references
    to objects met before): one call in C, where looking into a board's tuples of tuples
    in Python was a tenth of a picture."""
    try:
        return _dumps(args, 2)
    except ValueError:
        return None


_dumps = marshal.dumps


class Canvas:
    """The elements of one SVG picture, in drawing order (see the module's docstring)."""

    def __init__(self, numbers: str = "g", links: Mapping[str, str] | None = None) -> None:
        self.parts: list[str] = []
        self._format = numbers
        self._number = NUMBER_FORMATS[numbers]
        #: the number format is ``"g"``: ``attributes`` writes numbers as ``_g`` does
        self._shortest = numbers == "g"
        self.links = dict(links or {})
        #: the regions drawn as links, in drawing order (a name twice if drawn twice)
        self.linked: list[str] = []
        #: where ``parts`` holds kept drawings' markup: (first, end) indexes, in order
        self._kept_spans: list[tuple[int, int]] = []
        #: the names of the regions in the kept drawings drawn here (``_region_names``)
        self._kept_names: list[frozenset[str]] = []

    @property
    def numbers(self) -> str:
        """The canvas's number format (``NUMBER_FORMATS``): a piece drawn apart to be
        written in here is drawn in it."""
        return self._format

    def attributes(self, attrs: dict[str, Any]) -> str:
        """``attrs`` as SVG attributes, each with a space before it."""
        # a picture writes the same attributes many times (a cube, a district, a
        # player's disc), and the seat page, the mails and the archive draw the same
        # places again and again: what is written is kept by the attributes themselves
        # (``"g"`` format), or by them and their values' kinds (``str`` format, which
        # writes ``2`` and ``2.0`` apart, and ``True`` and ``1``: Tallinn, Visby)
        if self._shortest:
            store, key = _WRITTEN, tuple(attrs.items())
        else:
            store, key = _WRITTEN_STR, (tuple(attrs.items()), tuple(map(type, attrs.values())))
        try:
            written = store.get(key)
        except TypeError:  # a value that cannot be a key (a list): written as it is
            return self._written(attrs)
        if written is None:
            written = self._written(attrs)
            if _keepable(attrs) if self._shortest else _keepable_str(attrs):
                if len(store) >= _WRITTEN_MOST:
                    store.clear()
                store[key] = written
        return written

    def _written(self, attrs: dict[str, Any]) -> str:
        # the hottest loop of every picture: the usual kinds (a text, a whole number, a
        # float) are written here without a call; the rest as ``xml_text`` and the
        # canvas's number format write them
        out = ""
        names, shortest = _ATTRIBUTE_NAMES, self._shortest
        for name, value in attrs.items():
            kind = type(value)
            if kind is str:
                text = (value if _touched(value) is None
                        else escape(NOT_XML.sub("", value), quote=True))
            elif kind is int:
                text = (str(value) if not shortest or -1_000_000 < value < 1_000_000
                        else f"{value:g}")
            elif kind is float:
                text = f"{value:g}" if shortest else str(value)
            elif value is None:
                continue
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                # ``bool`` is no number here (a subclass of int)
                text = self._number(value)
            else:
                text = xml_text(value)
            out += f' {names[name]}="{text}"'
        return out

    def element(self, tag: str, content: Any = None, /, **attrs: Any) -> None:
        """``<tag …/>``, or ``<tag …>content</tag>`` with ``content`` escaped."""
        if content is None:
            self.parts.append(f"<{tag}{self.attributes(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{self.attributes(attrs)}>{xml_text(content)}</{tag}>")

    def raw(self, markup: str) -> None:
        """Markup made elsewhere (a drawing kept from an earlier picture): not escaped."""
        self.parts.append(markup)

    # ``text`` and ``rect`` are most of a picture's elements: each writes itself, as
    # ``element`` would, without the call

    # their places (``x``, ``y``…) are written apart from their style: a style recurs
    # and is kept by ``attributes``, the places vary from element to element

    def _at(self, name: str, value: Any) -> str:
        """`` name="value"``, a place as ``attributes`` writes it."""
        kind = type(value)
        if kind is float or kind is int:
            if not self._shortest:
                return f' {name}="{value}"'
            return f' {name}="{_NUMBERS.get(value) or _g_kept(value)}"'
        if kind is str:
            return f' {name}="{xml_text(value)}"'
        return self.attributes({name: value})

    def _places(self, x: Any, y: Any) -> str:
        """`` x="…" y="…"``: two places as ``_at`` writes them, a pair of numbers (most
        are) without its calls (``"g"`` writes a whole number as ``str`` does, too)."""
        kx, ky = type(x), type(y)
        if (kx is int or kx is float) and (ky is int or ky is float):
            if not self._shortest:
                return f' x="{x}" y="{y}"'
            numbers = _NUMBERS.get
            return f' x="{numbers(x) or _g_kept(x)}" y="{numbers(y) or _g_kept(y)}"'
        return f"{self._at('x', x)}{self._at('y', y)}"

    def _style(self, attrs: dict[str, Any]) -> str:
        return self.attributes(attrs) if attrs else ""

    def text(self, x: float, y: float, content: Any, /, **attrs: Any) -> None:
        if content is None:
            self.element("text", content, x=x, y=y, **attrs)
            return
        if "x" in attrs or "y" in attrs:  # given twice: as the dict merges them
            self.parts.append(f"<text{self.attributes({'x': x, 'y': y, **attrs})}>"
                              f"{xml_text(content)}</text>")
            return
        self.styled_text(x, y, content, self.attributes(attrs) if attrs else "")

    def styled_text(self, x: float, y: float, content: Any, style: str) -> None:
        """``text(x, y, content, **attrs)`` with its ``attrs`` written already (``style``,
        as ``attributes`` writes them): a game's labels are of a few styles, each
        written once."""
        if type(content) is not str or _touched(content) is not None:
            if content is None:  # an empty element, as ``text`` writes it
                self.parts.append(f"<text{self._places(x, y)}{style}/>")
                return
            content = xml_text(content)
        kx, ky = type(x), type(y)
        if (kx is int or kx is float) and (ky is int or ky is float):
            # ``_places`` without its call: most of a picture's elements are texts
            if not self._shortest:
                self.parts.append(f'<text x="{x}" y="{y}"{style}>{content}</text>')
                return
            numbers = _NUMBERS.get
            self.parts.append(f'<text x="{numbers(x) or _g_kept(x)}" '
                              f'y="{numbers(y) or _g_kept(y)}"{style}>{content}</text>')
        else:
            self.parts.append(f"<text{self._places(x, y)}{style}>{content}</text>")

    def rect(self, x: float, y: float, width: float, height: float, /, **attrs: Any) -> None:
        if "x" in attrs or "y" in attrs or "width" in attrs or "height" in attrs:
            written = self.attributes({"x": x, "y": y, "width": width, "height": height,
                                       **attrs})
            self.parts.append(f"<rect{written}/>")
            return
        self.styled_rect(x, y, width, height, self.attributes(attrs) if attrs else "")

    def styled_rect(self, x: float, y: float, width: float, height: float,
                    style: str) -> None:
        """``rect(x, y, width, height, **attrs)`` with its ``attrs`` written already."""
        kx, ky, kw, kh = type(x), type(y), type(width), type(height)
        if ((kx is int or kx is float) and (ky is int or ky is float)
                and (kw is int or kw is float) and (kh is int or kh is float)):
            # ``_places`` and ``_at`` without their calls, as ``styled_text``
            if not self._shortest:
                self.parts.append(f'<rect x="{x}" y="{y}" width="{width}" '
                                  f'height="{height}"{style}/>')
                return
            n = _NUMBERS.get
            self.parts.append(
                f'<rect x="{n(x) or _g_kept(x)}" y="{n(y) or _g_kept(y)}" '
                f'width="{n(width) or _g_kept(width)}" height="{n(height) or _g_kept(height)}"'
                f"{style}/>")
            return
        size = f"{self._at('width', width)}{self._at('height', height)}"
        self.parts.append(f"<rect{self._places(x, y)}{size}{style}/>")

    def placed(self, tag: str, before: str, after: str, /, **places: Any) -> None:
        """``<tag …/>`` with its attributes but its places written already: ``before`` and
        ``after`` them, as ``attributes`` writes them (a game's shape of a few kinds,
        drawn in many places)."""
        at = self._at
        written = "".join([at(_ATTRIBUTE_NAMES[name], value) for name, value in places.items()])
        self.parts.append(f"<{tag}{before}{written}{after}/>")

    def circle(self, cx: float, cy: float, r: float, /, **attrs: Any) -> None:
        if "cx" in attrs or "cy" in attrs or "r" in attrs:
            self.element("circle", cx=cx, cy=cy, r=r, **attrs)  # raises, as it did
            return
        self.parts.append(f"<circle{self._at('cx', cx)}{self._at('cy', cy)}"
                          f"{self._at('r', r)}{self._style(attrs)}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, /, **attrs: Any) -> None:
        if "x1" in attrs or "y1" in attrs or "x2" in attrs or "y2" in attrs:
            self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)  # raises, as it did
            return
        self.styled_line(x1, y1, x2, y2, self.attributes(attrs) if attrs else "")

    def styled_line(self, x1: float, y1: float, x2: float, y2: float, style: str) -> None:
        """``line(x1, y1, x2, y2, **attrs)`` with its ``attrs`` written already."""
        self.parts.append(f"<line{self._at('x1', x1)}{self._at('y1', y1)}"
                          f"{self._at('x2', x2)}{self._at('y2', y2)}{style}/>")

    def path(self, d: str, /, **attrs: Any) -> None:
        if type(d) is not str or "d" in attrs:
            self.element("path", d=d, **attrs)
            return
        self.parts.append(f'<path d="{xml_text(d)}"{self._style(attrs)}/>')

    def group(self, **attrs: Any) -> _Region:
        """``<g …>``: what is drawn inside the block, as one group (closed as a region
        without a link is: not a generator, which costs several calls more)."""
        self.parts.append(f"<g{self.attributes(attrs)}>")
        return _Region(self, "g", None)

    def region(self, name: str, href: str | None = None, help: str | None = None,
               box: tuple[float, float, float, float] | None = None,
               **attrs: Any) -> _Region:
        """What is drawn inside the ``with`` block is the region ``name`` (the move or the
        card it stands for): a link to ``href``, or to the canvas's link for ``name``,
        with ``help`` as its title.  ``box`` (x, y, width, height) is where it lies: a
        linked region is framed there as a place to tap (``TARGET_MARK``)."""
        href = href or self.links.get(name)
        tag = "a" if href else "g"
        if href:
            self.linked.append(name)
            attrs["class_"] = " ".join(filter(None, (attrs.get("class_"), "target")))
        if type(name) is str and (href is None or type(href) is str):
            # what ``attributes`` writes for these two, without the key it keeps them by:
            # a picture names hundreds of regions, most of them once
            opening = f'<{tag} data-region="{xml_text(name)}"'
            if href is not None:  # an empty link too, as ``attributes`` writes it
                opening += f' href="{xml_text(href)}"'
        else:
            opening = f"<{tag}{self.attributes({'data_region': name, 'href': href})}"
        self.parts.append(f"{opening}{self.attributes(attrs)}>" if attrs
                          else f"{opening}>")
        if help:
            self.parts.append(_title(help) if type(help) is str
                              else f"<title>{xml_text(help)}</title>")
        return _Region(self, tag, box if href else None)

    def drawn(self, draw: Callable[..., _T], *args: Any,
              regions: Sequence[str] | Callable[[], Sequence[str]] = ()) -> _T:
        """What ``draw(canvas, *args)`` draws, drawn here: kept by its arguments, and the
        links of ``regions``, and written again as it was; returns what ``draw`` returned
        (kept with it: a number or a tuple, which no one changes).

        A piece of the board (a district, a card on offer, a sea field) looks the same in
        many pictures: of one table for every reader, and of the next moves.  ``draw``
        is a module's function that draws from its arguments alone (the data version
        among them where what it draws reads the game's data, the language where it
        writes words); ``regions`` names every region it draws (a region it does not
        name raises).  It draws on a new canvas of this one's class, number format and
        the links of ``regions``; it is kept by which of them have a link, and each use
        writes its own links in (the seat page's are new with every move).  ``regions``
        may be a function that names them, called only where they are needed (a canvas
        with links, a drawing not kept): a seat's regions, one a card, need not be named
        for a picture without links that finds it kept.  Arguments
        that cannot key it (``_key_of``: an object of a class of its own) draw it anew
        each time."""
        links = self.links
        if links and callable(regions):
            regions = regions()
        hrefs = tuple(map(links.get, regions)) if links and regions else None
        if hrefs is not None and hrefs.count(None) == len(hrefs):
            hrefs = None  # none linked (another seat's places): as on a canvas without links
        linked: tuple[Any, ...] | None = None
        if hrefs is not None:
            linked = _which_linked(hrefs)
            if linked is not None and True not in linked:
                hrefs = linked = None  # drawn as on a canvas without links
        written = _key_of(args)
        key: tuple[Any, ...] | None = None if written is None else (
            draw, self._format, written,
            None if hrefs is None else ("linked", linked) if linked else ("links", hrefs))
        try:
            kept = _KEPT.get(key) if key is not None else None
        except TypeError:  # a link that cannot be a key (a list): drawn anew
            kept, key = None, None
        if kept is None:
            if callable(regions):
                regions = regions()
            kept = self._draw_kept(key, draw, args, regions, hrefs if linked else None)
        parts, markup = self.parts, kept[0]
        first = len(parts)
        if type(markup) is str:
            parts.append(markup)
        elif type(markup) is tuple:
            parts.extend(markup)
        else:  # its links written in: this canvas's own markup, not the kept strings
            # (its pieces as they are: the picture joins its parts once, at its end)
            markup.fill(parts, hrefs)
            first = len(parts)
        self._kept_spans.append((first, len(parts)))
        self._kept_names.append(kept[3])
        if kept[1]:
            self.linked.extend(kept[1])
        return kept[2]

    def _draw_kept(self, key: tuple[Any, ...] | None, draw: Callable[..., Any],
                   args: tuple[Any, ...], regions: Sequence[str],
                   hrefs: tuple[str | None, ...] | None = None
                   ) -> tuple[str | tuple[str, ...] | _Linked, tuple[str, ...], Any]:
        if hrefs is None:
            links = {r: self.links[r] for r in regions if r in self.links}
        else:  # drawn with a slot for each link, its links written in at each use
            links = {r: _slot(i) for i, (r, h) in enumerate(zip(regions, hrefs, strict=True)) if h}
        apart = type(self)(self._format, links)
        result = draw(apart, *args)
        markup = apart.markup()
        names = _region_names(apart, markup)
        unnamed = names - {xml_text(r) for r in regions}
        if unnamed:
            raise ValueError(f"{draw.__qualname__} draws regions it does not name: "
                             f"{sorted(unnamed)}")
        kept_markup: str | tuple[str, ...] | _Linked
        if hrefs is None:
            kept_markup, own = _runs(apart.parts, apart._kept_spans, markup)
        else:
            kept_markup, own = _Linked.of(markup), len(markup)
            if key is None:  # not kept: only this canvas's links to write in
                kept_markup = kept_markup.filled(hrefs)
        kept = (kept_markup, tuple(apart.linked), result, names)
        if key is not None:
            _keep(key, kept, own)
        return kept

    def markup(self) -> str:
        """What was drawn, as SVG markup (without the ``<svg>`` element around it)."""
        return "".join(self.parts)

    def enclosed(self, head: str) -> str:
        """What was drawn, after ``head`` (the ``<svg …>`` start tag and what comes before
        the drawing) and closed by ``</svg>``: joined once, where ``head + markup() +
        "</svg>"`` copied the picture (tens of thousands of characters) three times."""
        return "".join([head, *self.parts, "</svg>"])

    def document(self, width: float, height: float, title: str, /, **attrs: Any) -> str:
        """The drawing as an SVG document of ``width`` by ``height`` units, titled.

        A picture with links is no longer one image (``role="img"`` would hide its
        links from screen readers): it keeps the SVG's own role, a document of graphics
        named by its title, whose links are read with their titles."""
        if self.linked and attrs.get("role") == "img":
            del attrs["role"]
        size = self.attributes({"viewBox": f"0 0 {self._number(width)} "
                                           f"{self._number(height)}",
                                "width": width, "height": height})
        return self.enclosed(f'<svg xmlns="http://www.w3.org/2000/svg"{size}'
                             f'{self.attributes(attrs)}><title>{xml_text(title)}</title>')


#: where a drawing kept with its links written in at each use has a link: ``href="``
#: a slot ``"``, a slot an unguessable text of this process and the link's number
_SLOTS = secrets.token_hex(8)
_SLOT = re.compile(f'href="{_SLOTS}-([0-9]+)"')


def _slot(i: int) -> str:
    return f"{_SLOTS}-{i}"


def _which_linked(hrefs: tuple[Any, ...]) -> tuple[bool, ...] | None:
    """Which of a drawing's regions have a link, or ``None`` where a link is no text or
    empty (written as it is: an empty link makes no ``<a>`` but is written)."""
    for h in hrefs:
        if h is not None and (type(h) is not str or not h):
            return None
    return tuple(h is not None for h in hrefs)


class _Linked:
    """A kept drawing whose links are written in at each use: the seat page's links name
    the move and its turn, new with every move, while the places they link stay."""

    __slots__ = ("texts", "slots")

    def __init__(self, texts: tuple[str, ...], slots: tuple[int, ...]) -> None:
        self.texts, self.slots = texts, slots

    @classmethod
    def of(cls, markup: str) -> _Linked:
        pieces = _SLOT.split(markup)
        return cls(tuple(pieces[0::2]), tuple(int(i) for i in pieces[1::2]))

    def filled(self, hrefs: tuple[str | None, ...]) -> str:
        """The markup with the links ``hrefs`` (by their regions' order) written in, as
        ``Canvas.region`` writes them."""
        out: list[str] = []
        self.fill(out, hrefs)
        return "".join(out)

    def fill(self, out: list[str], hrefs: tuple[str | None, ...]) -> None:
        """``filled``'s pieces, appended to ``out``."""
        texts = self.texts
        out.append(texts[0])
        for slot, text in zip(self.slots, texts[1:], strict=True):
            out.append(f'href="{xml_text(hrefs[slot])}"')
            out.append(text)


def _region_names(canvas: Canvas, markup: str) -> frozenset[str]:
    """The names of the regions in ``markup``, what ``canvas`` drew, escaped as written:
    searched for in what it wrote itself, and those of the kept drawings it drew as they
    were found when they were kept (a board kept whole and field by field is not searched
    again through every field it holds, where the search was half of what keeping a
    board took beyond drawing it)."""
    spans = canvas._kept_spans
    if not spans:
        return frozenset(_REGION_NAMES.findall(markup))
    parts, find = canvas.parts, _REGION_NAMES.findall
    names: set[str] = set()
    done = 0
    for first, end in spans:
        if first > done:  # a piece is whole elements: no name runs into one
            names.update(find("".join(parts[done:first])))
        done = end
    if done < len(parts):
        names.update(find("".join(parts[done:])))
    for kept in canvas._kept_names:
        names |= kept
    return frozenset(names)


def _runs(parts: list[str], spans: list[tuple[int, int]],
          markup: str) -> tuple[str | tuple[str, ...], int]:
    """A drawing's markup to keep (``markup``, or, where it drew kept pieces at
    ``spans`` of its ``parts``, its own runs joined and the pieces' strings as they are),
    and how many characters of it are its own."""
    if not spans:
        return markup, len(markup)
    runs: list[str] = []
    own = done = 0
    for first, end in spans:
        if first > done:
            runs.append("".join(parts[done:first]))
            own += len(runs[-1])
        runs.extend(parts[first:end])
        done = end
    if done < len(parts):
        runs.append("".join(parts[done:]))
        own += len(runs[-1])
    return tuple(runs), own


class _Region:
    """The end of a region (see ``Canvas.region``): its frame as a place to tap, and
    its closing tag.  A class, not a generator: a picture opens hundreds of regions,
    and a generator's context manager costs several calls more each."""

    __slots__ = ("canvas", "tag", "box")

    def __init__(self, canvas: Canvas, tag: str, box: tuple[float, ...] | None) -> None:
        self.canvas, self.tag, self.box = canvas, tag, box

    def __enter__(self) -> Canvas:
        return self.canvas

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:  # a drawing that failed is not closed (it is not used)
            return
        if self.box:
            x, y, width, height = self.box
            self.canvas.rect(x - 2, y - 2, width + 4, height + 4, rx=4, **TARGET_MARK)
        self.canvas.parts.append(f"</{self.tag}>")


#: what picture modules keep beside the canvas, each forgotten by its function
#: (``keeps_beside``) when ``forget`` forgets the canvas's
_BESIDE: list[Callable[[], None]] = []


def keeps_beside(forget_it: Callable[[], _T]) -> Callable[[], _T]:
    """Register how a picture module forgets what it keeps beside ``Canvas.drawn`` (a
    look-up of its own pieces): ``forget`` calls it too.  Returns it (a decorator)."""
    _BESIDE.append(forget_it)
    return forget_it


def forget() -> None:
    """Forget what every canvas kept (attributes written, drawings) and what the picture
    modules keep beside it (``keeps_beside``): a bench that draws the same pictures
    again starts each round as a fresh process would."""
    global _kept_chars
    with _KEPT_LOCK:
        _KEPT.clear()
        _KEPT_CHARS.clear()
        _kept_chars = 0
    _WRITTEN.clear()
    _WRITTEN_STR.clear()
    _NUMBERS.clear()
    _title.cache_clear()
    for forget_it in _BESIDE:
        forget_it()
