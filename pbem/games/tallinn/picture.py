"""Tallinn's table as a picture: a pure function from a view to an SVG document.

No I/O, no script.  The drawing is 390 units wide (a phone's width) and
scales with ``width="100%"``.  Each estate has a colour *and* a shape and a
letter, so the picture reads without colour: Kaufleute a yellow circle "K",
Ritter a red square "R", Mönche a blue triangle "M".  A coin is a ring
around the person it stands on; the Legat's Wappen a shield "W".  Names are
escaped here.

The picture is the board one plays on (``links``): the places the viewer's moves act on
are regions named as the menu names them (``menu.region_of``), drawn from the view
alone: each half of a hand card (play it with that half active), a hand card or a
display card (a tower from it), the estates of the Legat's row while the viewer's Wappen
waits for its estate, and a place "Build no tower" while the viewer decides about a
tower.  The viewer's hand is drawn for the viewer only (the view holds no other hand);
every card or half the viewer sees carries its help as a title.  Another seat's places
are named with its seat (``seat 2 display 7``), so that they never take the viewer's
links.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pbem.games.svg import Canvas, keeps_beside, xml_text
from pbem.games.tallinn import data
from pbem.games.tallinn.menu import (
    NO_TOWER_REGION,
    display_region,
    hand_region,
    legat_region,
)
from pbem.games.tallinn.view import half_view
from pbem.games.tallinn.words import (
    TABLES,
    card_text,
    half_help,
    half_text,
    marked_name,
    with_mark,
)
from pbem.games.tallinn.words import words as words_for

_T = TypeVar("_T")

WIDTH = 390
ROW = 22  # one line of symbols
SYMBOL = 16
TAP = 24  # the least height of a place to tap
CARD_W = 3 * (SYMBOL + 2) + 8  # a hand card: its halves one above the other
HALF_H = TAP + 4
LABEL_H = 14  # the card's number above its halves
CARD_H = LABEL_H + 2 * HALF_H + 2


def _symbol(svg: Canvas, code: str, x: float, y: float, coin: bool = False) -> None:
    """One person: shape, colour and letter; ``(x, y)`` is the top left corner."""
    svg.raw(_person(code, x, y, coin))


# Kept by its place: a half or a card drawn anew (a new half in a display, a reader's own
# prefix, a line moved down, another table) puts its persons where persons stood before,
# on the grid of symbols, and each took three elements written; a look-up here, not
# ``Canvas.drawn``, whose key and bookkeeping cost as much as writing them (``typed``: a
# place 6 and a place 6.0 are written apart)
@functools.lru_cache(maxsize=4096, typed=True)
def _person(code: str, x: float, y: float, coin: bool) -> str:
    """``_symbol``'s markup."""
    drawn = Canvas(numbers="str")
    draw_symbol(drawn, code, x, y, coin)
    return drawn.markup()


#: the attributes of a picture's elements but their places, written once as the
#: picture's canvas writes them (its numbers by ``str``): a picture drawn anew draws some
#: seventy persons and thirty halves, and writing each one's attributes again was a
#: fifth of drawing it
_style = Canvas(numbers="str").attributes
#: a person's shape, by its estate
_PERSON = {code: _style({"fill": colour}) for code, colour in data.STAND_FARBE.items()}
#: a person's letter, by its estate (black on the yellow circle; the triangle's smaller)
_LETTER = {code: _style({"font_size": 8 if code == "M" else 10, "text_anchor": "middle",
                         "font_weight": "bold", "fill": "#000" if code == "K" else "#fff"})
           for code in data.STAND_FARBE}
_COIN = _style({"fill": "none", "stroke": "#7a5c00", "stroke_width": 1.5,
                "stroke_dasharray": "2 1"})
#: the frame of a half of the display, and of the start card
_HALF_FRAME = _style({"rx": 3, "fill": "none", "stroke": "#bbb", "stroke_width": 1})
_START_FRAME = _style({"rx": 3, "fill": "none", "stroke": "#555", "stroke_width": 1.5})
#: what every picture draws around its seats' blocks: the heading, the bar beside a
#: seat to move and the rule under each seat (written here once, not at every picture)
_HEADING = _style({"font_size": 14, "font_weight": "bold", "text_anchor": "start"})
_MOVING_BAR = _style({"fill": "#2e7d32"})
_SEAT_RULE = _style({"stroke": "#ddd"})


def draw_symbol(svg: Canvas, code: str, x: float, y: float, coin: bool = False) -> None:
    """``_symbol`` drawn element by element."""
    cx, cy, r = x + SYMBOL / 2, y + SYMBOL / 2, SYMBOL / 2
    shape = _PERSON[code]
    if code == "K":
        svg.placed("circle", "", shape, cx=cx, cy=cy, r=r - 0.5)
    elif code == "R":
        svg.styled_rect(x + 0.5, y + 0.5, SYMBOL - 1, SYMBOL - 1, shape)
    else:
        svg.placed("polygon", "", shape,
                   points=f"{cx},{y} {x + SYMBOL},{y + SYMBOL} {x},{y + SYMBOL}")
    # the triangle is widest at its foot: its letter sits lower
    svg.styled_text(cx, y + SYMBOL - 2 if code == "M" else cy + 4, code, _LETTER[code])
    if coin:
        svg.placed("circle", "", _COIN, cx=cx, cy=cy, r=r + 2)


def _wappen(svg: Canvas, x: float, y: float) -> None:
    svg.path(f"M{x + 1},{y + 1} h{SYMBOL - 2} v7 q0,7 -{(SYMBOL - 2) / 2},8 "
             f"q-{(SYMBOL - 2) / 2},-1 -{(SYMBOL - 2) / 2},-8 z", fill="#6a1b9a")
    svg.text(x + SYMBOL / 2, y + 12, "W", font_size=9, text_anchor="middle", fill="#fff",
             font_weight="bold")


def _half(svg: Canvas, counts: tuple[int, ...], coin: str | None, wappen: bool, x: float,
          y: float) -> float:
    """A card half (its persons by estate, ``_counts``) as symbols from ``x``; returns the
    next free x, ``x + _width(counts, wappen)``."""
    if wappen:
        _wappen(svg, x, y)
        return x + SYMBOL + 2
    for code, n in zip(data.STAENDE, counts, strict=True):
        for _ in range(n):
            _symbol(svg, code, x, y, coin == code)
            x += SYMBOL + 2
    return x


def _width(counts: tuple[int, ...], wappen: int) -> int:
    """How wide ``_half`` draws a half (``wappen``: true or 1 for the Wappen; the places
    are whole numbers: its sum of steps is this product)."""
    return (SYMBOL + 2) * (1 if wappen else sum(counts))


def _text(svg: Canvas, x: float, y: float, text: str, size: int = 12, weight: str = "normal",
          anchor: str = "start") -> None:
    svg.text(x, y, text, font_size=size, font_weight=weight, text_anchor=anchor)


def _display(svg: Canvas, start: tuple[str, str, tuple[int, ...]],
             display: tuple[tuple[str, str, tuple[int, ...], str | None, int], ...], y: float,
             lang: str, mine: str, roomy: bool) -> float:
    """The display (``_seat_pieces``): the start card first, then each active half,
    wrapping lines; the y of its last line.  Each half is a region (``mine``: the prefix of
    another seat's region names); ``roomy`` spaces the lines for fingers (the viewer
    builds a tower from one of them)."""
    x = 6.0
    pitch = ROW + 6 if roomy else ROW
    if roomy:
        y += 3
    pieces = [(start[2], None, 0, start, None, None)] + [
        (counts, coin, wappen, None, card, side) for card, side, counts, coin, wappen in display]
    for counts, coin, wappen, start_card, card, side in pieces:
        need = (SYMBOL + 2) * max(1, sum(counts)) + 6
        if x + need > WIDTH - 4:
            x = 6.0
            y += pitch
        name = mine + ("start" if start_card else display_region(card))
        x = _piece(svg, (name,), _display_half, data.SETS.active.version, lang, name, counts,
                   coin, wappen, start_card, card, side, x, y, roomy)
    return y


def _counts(persons: dict[str, int]) -> tuple[int, ...]:
    """A half's persons as a key (``_seat_pieces``): their number by estate."""
    # (one C loop: a picture asks for some thirty, one per half it draws)
    return tuple(map(persons.get, data.STAENDE, _NONE))


#: as many zeros as estates: ``_counts``'s default for each
_NONE = (0,) * len(data.STAENDE)


def _piece(svg: Canvas, regions: tuple[str, ...], draw: Callable[..., _T], *args: Any) -> _T:
    """What ``draw(svg, *args)`` draws (a half of a display, a hand card, a tower, whose
    ``regions`` it names), kept in ``_unlinked`` where none of them has a link; drawn
    here where one has (the viewer's places to tap, its links written in)."""
    links = svg.links
    if links and any(name in links for name in regions):
        return draw(svg, *args)
    markup, result = _unlinked(draw, *args)
    svg.raw(markup)
    return result


# A seat's block, or a piece of it, without a link looks the same in every reader's
# picture, move after move, and in other tables where it lies at the same place (the
# persons of a half on the grid, a hand card in the row): kept here by what it draws
# (``draw`` is a module's function of its arguments alone, the data version and the
# language among them), not by ``Canvas.drawn``, whose key and bookkeeping cost more than
# drawing a half (and some 40 us a block); a block drawn anew draws its pieces again
# only where they changed, a table not seen before all of them, some forty.  ``typed``:
# a place 6 and a place 6.0 are written apart.
@functools.lru_cache(maxsize=2048, typed=True)
def _unlinked(draw: Callable[..., _T], *args: Any) -> tuple[str, _T]:
    """``draw``'s markup on a canvas without links, and what it returns."""
    drawn = Canvas(numbers="str")
    result = draw(drawn, *args)
    return drawn.markup(), result


@keeps_beside
def forget() -> None:
    """Forget what the picture keeps beside ``Canvas.drawn`` (``_unlinked``, ``_person``):
    ``pbem.games.svg.forget`` calls it with the canvas's own (a bench that
    draws the same pictures again starts each round as a fresh process would)."""
    for kept in _KEPT_HERE:
        kept.cache_clear()


def _display_half(svg: Canvas, _version: str, lang: str, name: str, counts: tuple[int, ...],
                  coin: str | None, wappen: int,
                  start: tuple[str, str, tuple[int, ...]] | None, card: str | None,
                  side: str | None, x: float, y: float, roomy: bool) -> float:
    """A half of the display (``start``: the start card, its number and text; a Wappen
    as 1 or 0) as the region ``name``; the x where the next one begins."""
    end = x + _width(counts, wappen)
    if start:
        words = words_for(lang)
        help = with_mark(f"{words['start card']}: {start[1]}", start[0], lang)
    else:
        help = _half_help(str(card), str(side), lang)
    box = (x - 2, y - 2, end - x + 2, TAP) if roomy else None
    with svg.region(name, help=help, box=box):
        svg.styled_rect(x - 2, y, end - x + 2, SYMBOL + 4, _START_FRAME if start else _HALF_FRAME)
        _half(svg, counts, coin, bool(wappen), x, y + 2)
    # a place to tap keeps its frame clear of the next one's
    return end + (10 if roomy else 6)


#: the look-ups ``forget`` empties (the functions as defined here, whatever a test puts
#: in their place)
_KEPT_HERE = (_unlinked, _person)


def _half_help(card: str, side: str, lang: str) -> str:
    """A half's help: the card, what the half shows, what it does (``full_half_help``),
    kept per data version: a display or a hand drawn anew writes each half's help, and
    each took a dozen calls."""
    if lang not in TABLES:  # keyed by the few languages spoken, not by whatever is asked
        return full_half_help(card, side, lang)
    return data.SETS.active.kept(("picture half help", card, side, lang), full_half_help,
                                 card, side, lang)


def _card_help(card: str, lang: str) -> str:
    """A card's help (a hand card, a tower turned up): ``full_card_help``, kept per data
    version like ``_half_help``."""
    if lang not in TABLES:
        return full_card_help(card, lang)
    return data.SETS.active.kept(("picture card help", card, lang), full_card_help, card, lang)


def full_card_help(card: str, lang: str) -> str:
    """``_card_help`` from the data version's card and words: its halves, its mark."""
    return with_mark(card_text(card, lang), card, lang)


def full_half_help(card: str, side: str, lang: str) -> str:
    """``_half_help`` from the data version's card and words."""
    half = data.karte(card).half(side)
    return with_mark(f"{marked_name(card, lang)}: {half_text(half, lang)}. "
                     f"{half_help(half, lang)}", card, lang)


def _hand(svg: Canvas, hand: tuple[tuple[str, tuple[Any, ...], str | None], ...], y: float,
          lang: str, mine: str) -> float:
    """The hand (``_seat_pieces``), card beside card, each with its halves one above the
    other (the upper half "a"): every card and every half a region; the half chosen in
    secret (the view holds it for its owner only) framed solid.  The y below it."""
    x = 6.0
    version = data.SETS.active.version
    for number, halves, picked in hand:
        if x + CARD_W > WIDTH - 4:
            x = 6.0
            y += CARD_H + 8
        # a card in hand looks the same move after move
        _piece(svg, (mine + hand_region(number), *(mine + hand_region(number, h[0])
                                                   for h in halves)),
               _hand_card, version, lang, mine, number, halves, picked, x, y)
        x += CARD_W + 8
    return y + CARD_H + 6


def _hand_card(svg: Canvas, _version: str, lang: str, mine: str, number: str,
               halves: tuple[tuple[str, tuple[int, ...], str | None, int], ...],
               picked: str | None, x: float, y: float) -> None:
    """A hand card, its halves one above the other (``picked``: the half chosen)."""
    label = (words_for(lang)["picture"]["legat"] if number == data.LEGAT
             else number)
    with svg.region(mine + hand_region(number), help=_card_help(number, lang),
                    box=(x, y, CARD_W, CARD_H)):
        svg.rect(x, y, CARD_W, CARD_H, rx=4, fill="#fff", stroke="#888")
        svg.text(x + CARD_W / 2, y + 10, label, font_size=11, font_weight="bold",
                 text_anchor="middle")
        for i, (side, counts, coin, wappen) in enumerate(halves):
            top = y + LABEL_H + i * HALF_H
            help = _half_help(number, side, lang)
            if picked is not None and picked == side:
                help += " " + words_for(lang)["picture"]["chosen"]
            with svg.region(mine + hand_region(number, side), help=help,
                            box=(x + 2, top + 2, CARD_W - 4, HALF_H - 4)):
                if i:
                    svg.line(x + 4, top, x + CARD_W - 4, top, stroke="#ccc")
                if picked is not None and picked == side:
                    svg.rect(x + 2, top + 2, CARD_W - 4, HALF_H - 4, rx=3,
                             fill="none", stroke="#2e7d32", stroke_width=2.5)
                _half(svg, counts, coin, bool(wappen), x + 5, top + (HALF_H - SYMBOL) / 2)


def _legat_row(svg: Canvas, counts: tuple[int, ...], y: float, lang: str) -> float:
    """The viewer's Legat waits for its estate: a place per estate (its persons in the
    display, and the Wappen's two); the y below it."""
    words = words_for(lang)
    _text(svg, 6, y + 11, words["picture"]["legat row"], 11, "bold")
    y += 16
    width = (WIDTH - 12 - 2 * 8) / 3
    for i, code in enumerate(data.STAENDE):
        x = 6 + i * (width + 8)
        with svg.region(legat_region(code),
                        help=words["help"]["legat_estate"].format(
                            estate=data.STAND_NAME[code]),
                        box=(x, y, width, TAP)):
            svg.rect(x, y, width, TAP, rx=3, fill="#fff", stroke="#888")
            _symbol(svg, code, x + 4, y + (TAP - SYMBOL) / 2)
            _text(svg, x + SYMBOL + 8, y + 16,
                  f"{data.STAND_NAME[code]} {counts[i]} + "
                  f"{data.LEGAT_PERSONEN}", 11)
    return y + TAP + 6


def _no_tower(svg: Canvas, y: float, lang: str) -> float:
    """The place to build no tower; the y below it."""
    label = words_for(lang)["no tower"]
    width = 12 + 6.5 * len(label)
    with svg.region(NO_TOWER_REGION, help=words_for(lang)["help"]["no_tower"],
                    box=(6, y, width, TAP)):
        svg.rect(6, y, width, TAP, rx=3, fill="#fff", stroke="#888")
        _text(svg, 6 + width / 2, y + 16, label, 11, anchor="middle")
    return y + TAP + 6


def _towers(svg: Canvas, towers: tuple[tuple[str | None, tuple[Any, ...]], ...], y: float,
            lang: str, mine: str) -> float:
    """A grey tower per tower (``_seat_pieces``), its face only when the view holds it
    (then a region with the card's help); the y of its last line."""
    x = 6.0
    for card, faces in towers:
        need = 20 + sum((SYMBOL + 2) * max(1, sum(counts)) + 4 for counts, _ in faces)
        if x > 6 and x + need > WIDTH - 4:
            x = 6.0
            y += ROW
        x = _piece(svg, (f"{mine}tower {card}",) if card else (), _kept_tower,
                   data.SETS.active.version, lang, mine, card, faces, x, y) + 6
    return y


def _kept_tower(svg: Canvas, _version: str, lang: str, mine: str, card: str | None,
                faces: tuple[tuple[tuple[int, ...], int], ...], x: float, y: float) -> float:
    """A tower, a region with its card's help where the view holds its card; the next
    free x."""
    if card:
        with svg.region(f"{mine}tower {card}", help=_card_help(card, lang)):
            return _tower(svg, faces, x, y)
    return _tower(svg, faces, x, y)


def _tower(svg: Canvas, faces: tuple[tuple[tuple[int, ...], int], ...], x: float,
           y: float) -> float:
    """A grey tower and the halves of its face the view holds; the next free x."""
    svg.path(f"M{x},{y + 18} v-12 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v12 z", fill="#8d8d8d")
    x += 20
    for counts, wappen in faces:
        x = _half(svg, counts, None, bool(wappen), x, y + 2) + 4
    return x


def _seat_block(svg: Canvas, view: dict[str, Any], entry: dict[str, Any], name: str,
                y: float, lang: str, others_linked: bool = True) -> float:
    """One seat (``_kept_seat_block``), kept whole by what it draws, its place and whether
    the viewer decides there: the seat page is drawn after every move, and most seats
    look as they did at the move before (in the picture of every reader of the table);
    the y below it.  Kept in ``_unlinked`` as its pieces are, or where the viewer has
    places to tap in it, by ``Canvas.drawn`` with its links written in at each use.
    ``others_linked``: whether a link may name another seat's region (``draw``)."""
    you = entry["seat"] == view["you"]
    deciding = view["phase"] if you and entry["seat"] in view["to_move"] else ""
    pieces = _seat_pieces(entry, lang)
    args = (data.SETS.active.version, lang, name, you, deciding, y, *pieces)
    links = svg.links
    regions = (_seat_regions(*pieces, you, deciding)
               if links and (you or others_linked) else ())
    if any(region in links for region in regions):
        return svg.drawn(_kept_seat_block, *args, regions=regions)
    markup, below = _unlinked(_kept_seat_block, *args)
    svg.raw(markup)
    return below


def _seat_pieces(entry: dict[str, Any], lang: str) -> tuple[tuple[Any, ...], ...]:
    """What a seat's block draws of its entry, as the key it is kept by: its numbers
    (seat, points, hand, pile, towers, persons by estate), its start card (number, words,
    persons), its display's halves (card, side, persons, coin, Wappen), its hand's cards
    (number, halves, the half chosen) and its towers (card, halves).  A half's persons
    by estate (``_counts``), a Wappen as 1 or 0 (a key keeps no truth value inside a
    tuple; a view's counts and points are whole numbers, none a float equal to one);
    not the entry itself, whose words (each half's, in two languages) made the key cost
    as much as the drawing."""
    start, chosen = entry["start"], entry.get("chosen")
    picked = chosen and chosen["card"]
    version = data.SETS.active.version
    display = []
    for d in entry["display"]:
        # a half the view shares (``view.half_view``): its piece made with it, once
        shared = _shared_pieces(version, d["card"], d["half"])
        display.append(shared[1] if shared[0] is d else _display_piece(d))
    return (
        (entry["seat"], entry["points"], entry["hand_count"], entry["pile_count"],
         entry["tower_count"], _counts(entry["counts"])),
        (start["card"], start[words_for(lang)["text field"]], _counts(start["persons"])),
        tuple(display),
        tuple((card["card"],
               tuple(_piece_of(version, h, 2, _hand_piece) for h in card["halves"]),
               chosen["half"] if picked == card["card"] else None)
              for card in entry.get("hand") or ()),
        tuple((tower.get("card"),
               tuple(_piece_of(version, h, 3, _tower_piece) for h in tower.get("halves", ())))
              for tower in entry["towers"]),
    )


def _display_piece(d: dict[str, Any]) -> tuple[Any, ...]:
    """A half of the display in a seat's key (``_seat_pieces``)."""
    return d["card"], d["half"], _counts(d["persons"]), d["coin"], 1 if d["wappen"] else 0


def _hand_piece(h: dict[str, Any]) -> tuple[Any, ...]:
    """A half of a hand card in a seat's key."""
    return h["half"], _counts(h["persons"]), h["coin"], 1 if h["wappen"] else 0


def _tower_piece(h: dict[str, Any]) -> tuple[Any, ...]:
    """A half of a tower turned up in a seat's key."""
    return _counts(h["persons"]), 1 if h["wappen"] else 0


def _piece_of(version: str, h: dict[str, Any], which: int,
              piece: Callable[[dict[str, Any]], tuple[Any, ...]]) -> tuple[Any, ...]:
    """``piece(h)``: made with the half where the view shares it (``_shared_pieces``)."""
    shared = _shared_pieces(version, h["card"], h["half"])
    return shared[which] if shared[0] is h else piece(h)


# A view shares each half's entry (``view.half_view``, one per data version): its pieces of
# a seat's key are made with it, once, and are the same tuples in every key.  A seat's key
# was made from every half's persons again at each picture, and then compared whole with
# the key it was kept by (tuples that are the same objects compare at once); a half not
# shared (a view read back from JSON) is read as before.
@functools.lru_cache(maxsize=1024)
def _shared_pieces(version: str, card: str, side: str) -> tuple[Any, ...]:
    """The half's shared entry (``half_view``, ``version`` the active one) and its pieces:
    of a display, a hand card and a tower."""
    entry = half_view(card, side)
    return entry, _display_piece(entry), _hand_piece(entry), _tower_piece(entry)


def _seat_regions(head: tuple[Any, ...], _start: tuple[Any, ...], display: tuple[Any, ...],
                  hand: tuple[Any, ...], towers: tuple[Any, ...], you: bool,
                  deciding: str) -> list[str]:
    """The regions ``_kept_seat_block`` draws: the start card, the display's cards, the
    hand's cards and halves, the towers turned up, and the viewer's places to decide."""
    mine = "" if you else f"seat {head[0] + 1} "
    names = [mine + "start", *(mine + display_region(half[0]) for half in display)]
    for number, halves, _ in hand:
        names.append(mine + hand_region(number))
        names.extend(mine + hand_region(number, half[0]) for half in halves)
    names.extend(f"{mine}tower {card}" for card, _ in towers if card)
    if deciding == "legat":
        names.extend(legat_region(code) for code in data.STAENDE)
    elif deciding == "tower":
        names.append(NO_TOWER_REGION)
    return names


def _kept_seat_block(svg: Canvas, _version: str, lang: str, name: str, you: bool,
                     deciding: str, y: float, head: tuple[Any, ...],
                     start: tuple[str, str, tuple[int, ...]], display: tuple[Any, ...],
                     hand: tuple[Any, ...], towers: tuple[Any, ...]) -> float:
    """One seat (``_seat_pieces``): name, points and persons, cards, hand (the viewer's),
    display, towers, and the viewer's places (``deciding``: the phase where the viewer is
    to move) for the Legat's estate or for no tower; the y below it."""
    words = words_for(lang)["picture"]
    seat, points, hand_count, pile_count, tower_count, counts = head
    mine = "" if you else f"seat {seat + 1} "
    title = name + (f" ({words['you']})" if you else "")
    if len(title) > 26:
        title = title[:25] + "…"
    _text(svg, 6, y + 13, title, 13, "bold")
    summary = "  ".join(f"{c} {n}" for c, n in zip(data.STAENDE, counts, strict=True))
    _text(svg, WIDTH - 6, y + 13, f"{points} {words['points']} · {summary}", 12, "bold",
          "end")
    y += ROW
    status = (f"{words['hand']} {hand_count} · {words['pile']} {pile_count}"
              f" · {words['towers']} {tower_count}")
    _text(svg, 6, y + 12, status, 11)
    y += ROW - 4
    if hand:
        y = _hand(svg, hand, y + 2, lang, mine)
    y = _display(svg, start, display, y, lang, mine, deciding == "tower") + ROW + 2
    if deciding == "legat":
        y = _legat_row(svg, counts, y, lang)
    if towers:
        y = _towers(svg, towers, y, lang, mine) + ROW + 2
    if deciding == "tower":
        y = _no_tower(svg, y, lang)
    return y


def draw(view: dict[str, Any], names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    """The SVG document for ``view``; ``names`` are plain text (escaped here)."""
    words = words_for(lang)["picture"]
    svg = Canvas(numbers="str", links=links)
    # another seat's regions all begin with "seat " (``_seat_regions``): their names are
    # listed only where a link begins so (the seat page links the viewer's alone)
    others_linked = any(type(link) is not str or link.startswith("seat ")
                        for link in svg.links)
    y = 4.0
    heading = (f"Tallinn · {words['over']}" if view["phase"] == "over" else
               f"Tallinn · {words['round']} {view['round']} {words['of']} "
               f"{view['max_rounds']}")
    svg.styled_text(6, y + 14, heading, _HEADING)
    y += ROW + 4
    for entry in view["seats"]:
        seat = entry["seat"]
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if entry["to_move"]:
            svg.styled_rect(1, y, 3, ROW * 2, _MOVING_BAR)
        y = _seat_block(svg, view, entry, name, y, lang, others_linked)
        svg.styled_line(4, y, WIDTH - 4, y, _SEAT_RULE)
        y += 4
    height = int(y + 4)
    title = xml_text(f"Tallinn, {words['round'].lower()} {view['round']}")
    # a picture with links is no longer one image: its links must stay readable
    role = "" if svg.linked else ' role="img"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%"{role} aria-label="{title}" '
            f'font-family="sans-serif"><title>{title}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="#fffdf6"/>')
    return svg.enclosed(head)
