"""The canvas every game's picture draws on (``pbem.games.svg.Canvas``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pbem.games.svg import Canvas

SVG = "{http://www.w3.org/2000/svg}"


def test_attributes_come_in_the_order_given_escaped_and_numbers_in_the_canvas_format():
    svg = Canvas()
    svg.text(12.0, 20.5, "Anne & <Bob>", font_size=14, font_weight="700", fill=None,
             text_anchor="middle")
    svg.rect(0, 0, 10, 5, class_="ware", data_ware="Salz\x01")
    assert svg.markup() == (
        '<text x="12" y="20.5" font-size="14" font-weight="700" text-anchor="middle">'
        "Anne &amp; &lt;Bob&gt;</text>"
        '<rect x="0" y="0" width="10" height="5" class="ware" data-ware="Salz"/>')
    kept = Canvas(numbers="str")
    kept.line(1, 2.0, 3, 4.5, stroke="#000")
    assert kept.markup() == '<line x1="1" y1="2.0" x2="3" y2="4.5" stroke="#000"/>'


def test_the_fast_paths_write_what_the_general_ones_would():
    """Whole numbers by ``str`` and untouched text as it is are shortcuts: the markup is
    what ``f"{v:g}"`` and escaping every value would write, at their edges too."""
    from html import escape

    from pbem.games.svg import NOT_XML, xml_text

    for value in (0, -1, 7, 999_999, -999_999, 1_000_000, -1_000_000, 12_345_678, 0.5,
                  -0.0, 1e-7, 2.0, True):
        svg = Canvas()
        svg.rect(0, 0, 1, 1, width_hint=value)
        want = (escape(str(value)) if isinstance(value, bool) else f"{value:g}")
        assert svg.markup().endswith(f'width-hint="{want}"/>'), value
    for text in ("plain", "", "a'b", 'a"b', "a&b", "<", "Salz\x01", "\ufffe", "ü ß ·", 7):
        assert xml_text(text) == escape(NOT_XML.sub("", str(text)), quote=True)


def test_attributes_kept_from_an_earlier_picture_are_what_they_would_be_written_as():
    """The canvas keeps what it wrote by the attributes' items: a value equal to another
    of another kind (``True`` and ``1``, ``-0.0`` and ``0``, ``2.0`` and ``2``) writes
    as itself, whichever came first."""
    values = [1, True, 1.0, 0, False, -0.0, 0.0, 2, 2.0, 2.5, "2", 1_000_000, 1e6]
    for first in values:
        for then in values:
            for value in (first, then):
                svg = Canvas()
                svg.rect(3, 4, 5, 6, data_n=value)
                want = (str(value) if isinstance(value, (bool, str)) else f"{value:g}")
                assert svg.markup() == (f'<rect x="3" y="4" width="5" height="6" '
                                        f'data-n="{want}"/>'), (first, then, value)
    listed = Canvas()
    listed.rect(3, 4, 5, 6, data_n=[1, "a"])
    assert listed.markup().endswith('data-n="[1, &#x27;a&#x27;]"/>')
    kept = Canvas(numbers="str")
    kept.rect(3, 4, 5, 6, data_n=2.0)
    assert kept.markup().endswith('data-n="2.0"/>')


def test_a_region_carries_its_name_link_and_help():
    svg = Canvas()
    with svg.region("play Ritter", href="/m/abc?x=1&y=2", help="Ritter: up to 5 seals"):
        svg.circle(5, 5, 4, fill="#fff")
    with svg.region("Kogge", help="Kogge: 3"):
        svg.path("M0 0 L1 1 Z")
    with svg.group(data_seat=2):
        svg.text(0, 0, "x")
    doc = svg.document(390, 100, "Visby · round 1", role="img")
    root = ET.fromstring(doc)
    assert root.get("viewBox") == "0 0 390 100" and root.find(f"{SVG}title").text.startswith(
        "Visby")
    link, plain, group = list(root)[1:]
    assert link.tag == f"{SVG}a" and link.get("href") == "/m/abc?x=1&y=2"
    assert link.get("data-region") == "play Ritter"
    assert link.find(f"{SVG}title").text == "Ritter: up to 5 seals"
    assert link.find(f"{SVG}circle").get("r") == "4"
    assert plain.tag == f"{SVG}g" and plain.get("href") is None
    assert plain.find(f"{SVG}title").text == "Kogge: 3"
    assert group.get("data-seat") == "2"


def test_raw_markup_is_kept_as_it_is():
    svg = Canvas()
    svg.raw('<path d="M0 0"/>')
    svg.element("title", "a & b")
    assert svg.markup() == '<path d="M0 0"/><title>a &amp; b</title>'


def test_text_width_follows_the_letters_not_their_count():
    from pbem.games.svg import text_width

    # a short name of wide letters runs wider than a count of average ones guessed: the
    # start player's badge in Riga's picture ran into "Cem"
    assert text_width("Cem", 13, bold=True) > 3 * 8.6 + 3
    assert text_width("ill", 10) < text_width("mmm", 10) / 2
    assert text_width("Schatzkammer", 10) == pytest.approx(
        sum(text_width(c, 10) for c in "Schatzkammer"))
    assert text_width("ab", 20) == 2 * text_width("ab", 10)
    assert text_width("Ö", 10) > 0  # a letter without a width of its own: an average one


def _piece(svg: Canvas, n: int, x: float) -> None:
    with svg.region(f"piece {n}", help=f"piece {n}", box=(x, 0, 10, 10)):
        svg.rect(x, 0, 10, 10, fill="#fff")


def _straying_piece(svg: Canvas, n: int) -> None:
    with svg.region(f"other {n}"):
        svg.text(0, 0, "x")


def test_a_kept_drawing_is_what_drawing_it_writes_links_and_all():
    from pbem.games.svg import forget

    forget()
    for links in ({}, {"piece 1": "/m/1"}, {"piece 1": "/m/2"}, {"piece 2": "/m/3"}):
        for _ in range(2):  # drawn, then kept
            direct, kept = Canvas(links=links), Canvas(links=links)
            _piece(direct, 1, 2.5)
            kept.drawn(_piece, 1, 2.5, regions=("piece 1",))
            assert kept.markup() == direct.markup()
            assert kept.linked == direct.linked
    # a number equal to another of another kind is another key (the "str" format
    # writes 2 and 2.0 apart)
    for x in (2, 2.0, 2, 2.0):
        direct, kept = Canvas(numbers="str"), Canvas(numbers="str")
        _piece(direct, 1, x)
        kept.drawn(_piece, 1, x, regions=("piece 1",))
        assert kept.markup() == direct.markup(), x
    for x in (0.0, -0.0, 0.0):  # a float equal to 0 is drawn anew each time
        direct, kept = Canvas(), Canvas()
        _piece(direct, 1, x)
        kept.drawn(_piece, 1, x, regions=("piece 1",))
        assert kept.markup() == direct.markup(), x
    # inside a tuple the kinds are not keyed: a truth value or a float there is drawn anew
    for values in ((1,), (True,), (1.0,), (2,), (2.0,), (("a", 2),), (("a", 2.0),)):
        direct, kept = Canvas(numbers="str"), Canvas(numbers="str")
        _values(direct, values)
        kept.drawn(_values, values)
        assert kept.markup() == direct.markup(), values


def _values(svg: Canvas, values: tuple[object, ...]) -> None:
    svg.rect(0, 0, 1, 1, data_v=str(values[0]))


def _row_of_pieces(svg: Canvas, ns: tuple[int, ...], x: float) -> int:
    svg.text(x, 20, "row")
    for n in ns:
        svg.drawn(_piece, n, x + 12 * n, regions=(f"piece {n}",))
    svg.text(x, 40, "end")
    return len(ns)


def test_a_drawing_kept_whole_holds_its_kept_pieces_once():
    """A board kept whole and piece by piece (``Canvas.drawn`` inside a drawing kept by
    ``Canvas.drawn``) writes what drawing it directly writes, links and all, and counts
    towards what is kept only its own markup, not its pieces' again."""
    from pbem.games import svg as canvas

    canvas.forget()
    links = {"piece 1": "/m/1", "piece 3": "/m/3"}
    regions = tuple(f"piece {n}" for n in (1, 2, 3))
    direct = Canvas(links=links)
    _row_of_pieces(direct, (1, 2, 3), 0.5)
    for _ in range(2):  # drawn, then from what was kept
        kept = Canvas(links=links)
        assert kept.drawn(_row_of_pieces, (1, 2, 3), 0.5, regions=regions) == 3
        assert kept.markup() == direct.markup()
        assert kept.linked == direct.linked == ["piece 1", "piece 3"]
    canvas.forget()
    kept = Canvas()
    kept.drawn(_row_of_pieces, (1, 2, 3), 0.5, regions=regions)
    pieces = sum(len(m) for m, *_ in canvas._KEPT.values() if type(m) is str)
    own = len('<text x="0.5" y="20">row</text><text x="0.5" y="40">end</text>')
    assert canvas._kept_chars == pieces + own


def test_a_kept_drawing_is_written_with_the_links_of_each_use():
    """The seat page's links are new with every move (they name the turn): a drawing
    kept with links is kept by which of its regions are linked, and each use writes its
    own links in (escaped), byte for byte as drawing it directly with them writes."""
    from pbem.games import svg as canvas

    canvas.forget()
    regions = tuple(f"piece {n}" for n in (1, 2, 3))
    for turn in range(3):
        links = {"piece 1": f"/m/{turn}?a=1&b=2", "piece 3": f'/m/"{turn}"'}
        direct = Canvas(links=links)
        _row_of_pieces(direct, (1, 2, 3), 0.5)
        kept = Canvas(links=links)
        kept.drawn(_row_of_pieces, (1, 2, 3), 0.5, regions=regions)
        assert kept.markup() == direct.markup()
        assert "&amp;b=2" in kept.markup()
        assert kept.linked == ["piece 1", "piece 3"]
    # one drawing kept for all three turns, and one of each piece
    assert len(canvas._KEPT) == 4
    unlinked = Canvas(links={"elsewhere": "/m/9"})
    unlinked.drawn(_row_of_pieces, (1, 2, 3), 0.5, regions=regions)
    direct = Canvas()
    _row_of_pieces(direct, (1, 2, 3), 0.5)
    assert unlinked.markup() == direct.markup() and not unlinked.linked


def test_regions_named_by_a_function_are_named_only_where_needed():
    """A drawing's regions may be named by a function (a seat's, one a card): called
    where the canvas has links or the drawing is drawn, not for a picture without links
    that finds it kept; what is written is what drawing it directly writes."""
    from pbem.games.svg import forget

    forget()
    calls = []

    def regions() -> tuple[str, ...]:
        calls.append(1)
        return ("piece 1",)

    for links in ({}, {"piece 1": "/m/1"}):
        for _ in range(2):  # drawn, then kept
            direct, kept = Canvas(links=links), Canvas(links=links)
            _piece(direct, 1, 2.5)
            kept.drawn(_piece, 1, 2.5, regions=regions)
            assert kept.markup() == direct.markup()
            assert kept.linked == direct.linked
    # drawn without links (named: checked), kept (not named); with links named each time
    assert len(calls) == 3
    with pytest.raises(ValueError, match="other 2"):
        Canvas().drawn(_straying_piece, 2, regions=lambda: ("piece 1",))


def test_a_kept_drawing_names_every_region_it_draws():
    with pytest.raises(ValueError, match="other 1"):
        Canvas().drawn(_straying_piece, 1, regions=("piece 1",))


def _board_of_kept_pieces(svg: Canvas, ns: tuple[int, ...]) -> None:
    svg.text(0, 20, "board")
    for n in ns:
        svg.drawn(_straying_piece, n, regions=(f"other {n}",))


def test_a_kept_drawing_names_the_regions_of_the_kept_pieces_it_draws():
    """A board drawn from kept pieces names their regions too, found once when each was
    kept (not searched for again in its markup), kept or drawn anew alike."""
    from pbem.games.svg import forget

    forget()
    Canvas().drawn(_straying_piece, 3, regions=("other 3",))  # kept before the board
    for _ in range(2):  # the board drawn, then kept (and the pieces kept by then)
        Canvas().drawn(_board_of_kept_pieces, (3, 4), regions=("other 3", "other 4"))
    for ns in ((3, 4, 5), (4, 5, 6)):
        with pytest.raises(ValueError, match="other 3|other 6"):
            Canvas().drawn(_board_of_kept_pieces, ns, regions=("other 4", "other 5"))


def test_places_are_written_as_the_attributes_would_be():
    """``text``, ``rect``, ``circle``, ``line`` and ``path`` write their places apart from
    their style: byte for byte what ``attributes`` writes for all of them at once, in
    both number formats, for every kind of value (and a place given twice as before)."""
    values = (0, -1, 7, 999_999, 1_000_000, -12_345_678, 0.5, -0.0, 2.0, 1e-7, True, None,
              "3", "a<b")
    for numbers in ("g", "str"):
        for value in values:
            svg, want = Canvas(numbers), Canvas(numbers)
            svg.text(value, 1.5, "t", fill="#000")
            svg.rect(1, value, 2.5, value, rx=2)
            svg.circle(value, 3, value)
            svg.line(value, 1, 2.0, value, stroke="#000")
            svg.path(f"M{value} 0", fill="none")
            write = want.attributes
            assert svg.markup() == (
                f'<text{write({"x": value, "y": 1.5, "fill": "#000"})}>t</text>'
                f'<rect{write({"x": 1, "y": value, "width": 2.5, "height": value, "rx": 2})}/>'
                f'<circle{write({"cx": value, "cy": 3, "r": value})}/>'
                f'<line{write({"x1": value, "y1": 1, "x2": 2.0, "y2": value})}'
                f'{write({"stroke": "#000"})}/>'
                f'<path{write({"d": f"M{value} 0", "fill": "none"})}/>'), (numbers, value)
    twice = Canvas()
    twice.text(1, 2, "t", x=5)
    assert twice.markup() == '<text x="5" y="2">t</text>'
    with pytest.raises(TypeError):
        Canvas().circle(1, 2, 3, r=4)


def test_styled_elements_write_what_the_general_ones_would():
    """``styled_text``, ``styled_rect``, ``styled_line`` and ``placed`` take attributes
    written already: byte for byte what ``text``, ``rect``, ``line`` and ``element``
    write, in both number formats, an empty text too, and a number written again after
    one equal to it of another kind (0 and -0.0, 1 and True, 2 and 2.0)."""
    values = (0, -0.0, 0.0, 1, True, 1.0, 2, 2.0, 0.5, 1_000_000, 1e-7, "a<b", None)
    for numbers in ("g", "str"):
        for value in values:
            svg, want = Canvas(numbers), Canvas(numbers)
            style = svg.attributes({"fill": "#000", "stroke_width": 1.5})
            svg.styled_text(value, 2.5, value, style)
            svg.styled_rect(1, value, value, 3, style)
            svg.styled_line(value, 1, 2.0, value, style)
            svg.placed("circle", ' class="c"', style, cx=value, cy=3, r=value)
            want.text(value, 2.5, value, fill="#000", stroke_width=1.5)
            want.rect(1, value, value, 3, fill="#000", stroke_width=1.5)
            want.line(value, 1, 2.0, value, fill="#000", stroke_width=1.5)
            want.element("circle", class_="c", cx=value, cy=3, r=value, fill="#000",
                         stroke_width=1.5)
            assert svg.markup() == want.markup(), (numbers, value)
    assert '<text x="-0" y="2.5"' in _styled_text(-0.0)
    assert '<text x="True" y="2.5"' in _styled_text(True)


def test_attributes_in_the_str_format_are_kept_apart_by_their_kinds():
    """The ``str`` format writes ``2`` and ``2.0`` (``1`` and ``True``, ``0.0`` and
    ``-0.0``) apart: what it keeps of attributes written is kept by their values' kinds,
    and each is written as it was given, before and after the others."""
    from pbem.games import svg as canvas

    canvas.forget()
    values = (0, 0.0, -0.0, False, 1, 1.0, True, 2, 2.0, 0, -0.0, True, 2.0, 1, "2", None)
    for _ in range(2):  # written, then kept
        for value in values:
            want = (' fill="#000"' if value is None
                    else f' data-v="{value}" fill="#000"')
            assert Canvas("str").attributes({"data_v": value, "fill": "#000"}) == want, value


def _styled_text(x: object) -> str:
    svg = Canvas()
    svg.styled_text(x, 2.5, "t", "")
    return svg.markup()


def test_kept_drawings_are_right_in_threads_that_draw_and_forget_at_once(monkeypatch):
    """A server's threads draw at once: what one keeps (or forgets, the store being full)
    never gives another thread a wrong drawing."""
    import threading

    from pbem.games import svg as canvas

    monkeypatch.setattr(canvas, "_KEPT_MOST", 3_000)  # full, and forgotten, again and again
    canvas.forget()
    pieces = [(n, x) for n in range(8) for x in (1.5, 2.5, 3.5)]
    want = {}
    for n, x in pieces:
        direct = Canvas(links={f"piece {n}": f"/m/{n}"})
        _piece(direct, n, x)
        want[n, x] = direct.markup()
    wrong: list[tuple[int, float]] = []

    def draw(offset: int) -> None:
        for i in range(600):
            n, x = pieces[(i + offset) % len(pieces)]
            kept = Canvas(links={f"piece {n}": f"/m/{n}"})
            kept.drawn(_piece, n, x, regions=(f"piece {n}",))
            if kept.markup() != want[n, x] or kept.linked != [f"piece {n}"]:
                wrong.append((n, x))

    threads = [threading.Thread(target=draw, args=(k * 5,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert canvas._kept_chars <= 3_000


def test_forget_forgets_what_the_pictures_keep_beside_the_canvas():
    """Every game whose picture keeps pieces of its own registers how to forget them
    (``keeps_beside``): the benches' fresh rounds draw them again."""
    from pbem.games import all_games, svg

    for rules in all_games():  # the picture modules imported, their forgetting registered
        rules.picture(rules.view(rules.setup(rules.min_players, {}, "forget"), None),
                      ["A", "B", "C", "D", "E", "F"][:rules.max_players])
    from pbem.games.tallinn import picture as tallinn
    from pbem.games.visby import picture as visby

    assert tallinn.forget in svg._BESIDE
    assert visby._waiting.cache_info().currsize > 0
    svg.forget()
    assert visby._waiting.cache_info().currsize == 0
    assert tallinn._unlinked.cache_info().currsize == 0
    assert svg._title.cache_info().currsize == 0
    assert not svg._KEPT
