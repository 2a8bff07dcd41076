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

from collections.abc import Mapping
from typing import Any

from pbem.games.svg import Canvas, xml_text
from pbem.games.tallinn import data
from pbem.games.tallinn.menu import (
    NO_TOWER_REGION,
    display_region,
    hand_region,
    legat_region,
)
from pbem.games.tallinn.words import (
    TABLES,
    card_text,
    half_help,
    half_text,
    marked_name,
    with_mark,
)
from pbem.games.tallinn.words import words as words_for

WIDTH = 390
ROW = 22  # one line of symbols
SYMBOL = 16
TAP = 24  # the least height of a place to tap
CARD_W = 3 * (SYMBOL + 2) + 8  # a hand card: its halves one above the other
HALF_H = TAP + 4
LABEL_H = 14  # the card's number above its halves
CARD_H = LABEL_H + 2 * HALF_H + 2


def _symbol(svg: Canvas, code: str, x: float, y: float, coin: bool = False) -> None:
    """One person: shape, colour and letter; ``(x, y)`` is the top left corner.

    Kept by its arguments (``Canvas.drawn``): a half or a card drawn anew (a new half in
    a display, a reader's own prefix, a line moved down) puts its persons where persons
    stood before, on the grid of symbols, and each took three elements written."""
    svg.drawn(draw_symbol, code, x, y, coin)


def draw_symbol(svg: Canvas, code: str, x: float, y: float, coin: bool = False) -> None:
    """``_symbol`` drawn element by element."""
    colour = data.STAND_FARBE[code]
    cx, cy, r = x + SYMBOL / 2, y + SYMBOL / 2, SYMBOL / 2
    if code == "K":
        svg.circle(cx, cy, r - 0.5, fill=colour)
    elif code == "R":
        svg.rect(x + 0.5, y + 0.5, SYMBOL - 1, SYMBOL - 1, fill=colour)
    else:
        svg.element("polygon", points=f"{cx},{y} {x + SYMBOL},{y + SYMBOL} {x},{y + SYMBOL}",
                    fill=colour)
    ink = "#000" if code == "K" else "#fff"
    # the triangle is widest at its foot: its letter sits lower
    base, size = (y + SYMBOL - 2, 8) if code == "M" else (cy + 4, 10)
    svg.text(cx, base, code, font_size=size, text_anchor="middle", font_weight="bold",
             fill=ink)
    if coin:
        svg.circle(cx, cy, r + 2, fill="none", stroke="#7a5c00", stroke_width=1.5,
                   stroke_dasharray="2 1")


def _wappen(svg: Canvas, x: float, y: float) -> None:
    svg.path(f"M{x + 1},{y + 1} h{SYMBOL - 2} v7 q0,7 -{(SYMBOL - 2) / 2},8 "
             f"q-{(SYMBOL - 2) / 2},-1 -{(SYMBOL - 2) / 2},-8 z", fill="#6a1b9a")
    svg.text(x + SYMBOL / 2, y + 12, "W", font_size=9, text_anchor="middle", fill="#fff",
             font_weight="bold")


def _half(svg: Canvas, persons: dict[str, int], coin: str | None, wappen: bool, x: float,
          y: float) -> float:
    """A card half as symbols from ``x``; returns the next free x."""
    if wappen:
        _wappen(svg, x, y)
        return x + SYMBOL + 2
    for code in data.STAENDE:
        for _ in range(persons.get(code, 0)):
            _symbol(svg, code, x, y, coin == code)
            x += SYMBOL + 2
    return x


def _text(svg: Canvas, x: float, y: float, text: str, size: int = 12, weight: str = "normal",
          anchor: str = "start") -> None:
    svg.text(x, y, text, font_size=size, font_weight=weight, text_anchor=anchor)


def _display(svg: Canvas, entry: dict[str, Any], y: float, lang: str, mine: str,
             roomy: bool) -> float:
    """The display: the start card first, then each active half, wrapping lines; the y
    of its last line.  Each half is a region (``mine``: the prefix of another seat's
    region names); ``roomy`` spaces the lines for fingers (the viewer builds a tower from
    one of them)."""
    x = 6.0
    pitch = ROW + 6 if roomy else ROW
    if roomy:
        y += 3
    start = entry["start"]
    pieces = [(start["persons"], None, False, True, None, None)] + [
        (d["persons"], d["coin"], d["wappen"], False, d["card"], d["half"])
        for d in entry["display"]]
    version = data.SETS.active.version
    start_text = start[words_for(lang)["text field"]]
    for persons, coin, wappen, first, card, side in pieces:
        need = (SYMBOL + 2) * max(1, sum(persons.values())) + 6
        if x + need > WIDTH - 4:
            x = 6.0
            y += pitch
        name = mine + ("start" if first else display_region(card))
        # a half looks the same in every reader's picture, move after move
        x = svg.drawn(_display_half, version, lang, name, _counts(persons), coin, wappen,
                      (start["card"], start_text) if first else None, card, side, x, y,
                      roomy, regions=(name,))
    return y


def _counts(persons: dict[str, int]) -> tuple[int, ...]:
    """A half's persons as a key (``Canvas.drawn``): their number by estate."""
    # (one C loop: a picture asks for some thirty, one per half it draws)
    return tuple(map(persons.get, data.STAENDE, _NONE))


#: as many zeros as estates: ``_counts``'s default for each
_NONE = (0,) * len(data.STAENDE)


def _display_half(svg: Canvas, _version: str, lang: str, name: str, counts: tuple[int, ...],
                  coin: str | None, wappen: bool, start: tuple[str, str] | None,
                  card: str | None, side: str | None, x: float, y: float,
                  roomy: bool) -> float:
    """A half of the display (``start``: the start card, its number and text) as the
    region ``name``; the x where the next one begins."""
    half = Canvas(numbers="str")
    end = _half(half, dict(zip(data.STAENDE, counts, strict=True)), coin, wappen, x, y + 2)
    if start:
        words = words_for(lang)
        help = with_mark(f"{words['start card']}: {start[1]}", start[0], lang)
    else:
        help = _half_help(str(card), str(side), lang)
    box = (x - 2, y - 2, end - x + 2, TAP) if roomy else None
    with svg.region(name, help=help, box=box):
        # the frame goes first, but its width is known once the half is drawn
        svg.rect(x - 2, y, end - x + 2, SYMBOL + 4, rx=3, fill="none",
                 stroke="#555" if start else "#bbb", stroke_width=1.5 if start else 1)
        svg.raw(half.markup())
    # a place to tap keeps its frame clear of the next one's
    return end + (10 if roomy else 6)


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


def _hand(svg: Canvas, entry: dict[str, Any], y: float, lang: str, mine: str) -> float:
    """The hand, card beside card, each with its halves one above the other (the upper
    half "a"): every card and every half a region; the half chosen in secret (the view
    holds it for its owner only) framed solid.  The y below it."""
    x = 6.0
    chosen = entry.get("chosen")
    version = data.SETS.active.version
    for card in entry["hand"]:
        if x + CARD_W > WIDTH - 4:
            x = 6.0
            y += CARD_H + 8
        number = card["card"]
        # (a Wappen as 1 or 0: a key keeps no truth value inside a tuple)
        halves = tuple((h["half"], _counts(h["persons"]), h["coin"], 1 if h["wappen"] else 0)
                       for h in card["halves"])
        picked = chosen["half"] if chosen and chosen["card"] == number else None
        # a card in hand looks the same move after move
        svg.drawn(_hand_card, version, lang, mine, number, halves, picked, x, y,
                  regions=(mine + hand_region(number),
                           *(mine + hand_region(number, h[0]) for h in halves)))
        x += CARD_W + 8
    return y + CARD_H + 6


def _hand_card(svg: Canvas, _version: str, lang: str, mine: str, number: str,
               halves: tuple[tuple[str, tuple[int, ...], str | None, int], ...],
               picked: str | None, x: float, y: float) -> None:
    """A hand card, its halves one above the other (``picked``: the half chosen)."""
    label = (words_for(lang)["picture"]["legat"] if number == data.LEGAT
             else number)
    with svg.region(mine + hand_region(number),
                    help=_card_help(number, lang),
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
                _half(svg, dict(zip(data.STAENDE, counts, strict=True)), coin, bool(wappen),
                      x + 5, top + (HALF_H - SYMBOL) / 2)


def _legat_row(svg: Canvas, entry: dict[str, Any], y: float, lang: str) -> float:
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
                  f"{data.STAND_NAME[code]} {entry['counts'][code]} + "
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


def _towers(svg: Canvas, towers: list[dict[str, Any]], y: float, lang: str,
            mine: str) -> float:
    """A grey tower per tower, its face only when the view holds it (then a region with
    the card's help); the y of its last line."""
    x = 6.0
    for tower in towers:
        halves = tower.get("halves", [])
        need = 20 + sum((SYMBOL + 2) * max(1, sum(h["persons"].values())) + 4
                        for h in halves)
        if x > 6 and x + need > WIDTH - 4:
            x = 6.0
            y += ROW
        card = tower.get("card")
        # (a Wappen as 1 or 0: a key keeps no truth value inside a tuple)
        faces = tuple((_counts(h["persons"]), 1 if h["wappen"] else 0) for h in halves)
        x = svg.drawn(_kept_tower, data.SETS.active.version, lang, mine, card, faces, x, y,
                      regions=(f"{mine}tower {card}",) if card else ()) + 6
    return y


def _kept_tower(svg: Canvas, _version: str, lang: str, mine: str, card: str | None,
                faces: tuple[tuple[tuple[int, ...], int], ...], x: float, y: float) -> float:
    """A tower, a region with its card's help where the view holds its card; the next
    free x."""
    halves = [{"persons": dict(zip(data.STAENDE, counts, strict=True)), "wappen": bool(w)}
              for counts, w in faces]
    if card:
        with svg.region(f"{mine}tower {card}",
                        help=_card_help(card, lang)):
            return _tower(svg, halves, x, y)
    return _tower(svg, halves, x, y)


def _tower(svg: Canvas, halves: list[dict[str, Any]], x: float, y: float) -> float:
    """A grey tower and the halves of its face the view holds; the next free x."""
    svg.path(f"M{x},{y + 18} v-12 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v12 z", fill="#8d8d8d")
    x += 20
    for half in halves:
        x = _half(svg, half["persons"], None, half["wappen"], x, y + 2) + 4
    return x


def _seat_block(svg: Canvas, view: dict[str, Any], entry: dict[str, Any], name: str,
                y: float, lang: str) -> float:
    """One seat: name, points and persons, cards, hand (the viewer's), display, towers,
    and the viewer's places for the Legat's estate or for no tower; the y below it."""
    words = words_for(lang)["picture"]
    you = entry["seat"] == view["you"]
    deciding = you and entry["seat"] in view["to_move"]
    mine = "" if you else f"seat {entry['seat'] + 1} "
    title = name + (f" ({words['you']})" if you else "")
    if len(title) > 26:
        title = title[:25] + "…"
    _text(svg, 6, y + 13, title, 13, "bold")
    counts = entry["counts"]
    summary = "  ".join(f"{c} {counts[c]}" for c in data.STAENDE)
    _text(svg, WIDTH - 6, y + 13, f"{entry['points']} {words['points']} · {summary}", 12,
          "bold", "end")
    y += ROW
    status = (f"{words['hand']} {entry['hand_count']} · {words['pile']} {entry['pile_count']}"
              f" · {words['towers']} {entry['tower_count']}")
    _text(svg, 6, y + 12, status, 11)
    y += ROW - 4
    if entry.get("hand"):
        y = _hand(svg, entry, y + 2, lang, mine)
    y = _display(svg, entry, y, lang, mine, deciding and view["phase"] == "tower") + ROW + 2
    if deciding and view["phase"] == "legat":
        y = _legat_row(svg, entry, y, lang)
    if entry["towers"]:
        y = _towers(svg, entry["towers"], y, lang, mine) + ROW + 2
    if deciding and view["phase"] == "tower":
        y = _no_tower(svg, y, lang)
    return y


def draw(view: dict[str, Any], names: list[str], lang: str = "en",
         links: Mapping[str, str] | None = None) -> str:
    """The SVG document for ``view``; ``names`` are plain text (escaped here)."""
    words = words_for(lang)["picture"]
    svg = Canvas(numbers="str", links=links)
    y = 4.0
    heading = (f"Tallinn · {words['over']}" if view["phase"] == "over" else
               f"Tallinn · {words['round']} {view['round']} {words['of']} "
               f"{view['max_rounds']}")
    _text(svg, 6, y + 14, heading, 14, "bold")
    y += ROW + 4
    for entry in view["seats"]:
        seat = entry["seat"]
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if entry["to_move"]:
            svg.rect(1, y, 3, ROW * 2, fill="#2e7d32")
        y = _seat_block(svg, view, entry, name, y, lang)
        svg.line(4, y, WIDTH - 4, y, stroke="#ddd")
        y += 4
    height = int(y + 4)
    title = xml_text(f"Tallinn, {words['round'].lower()} {view['round']}")
    # a picture with links is no longer one image: its links must stay readable
    role = "" if svg.linked else ' role="img"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="100%"{role} aria-label="{title}" '
            f'font-family="sans-serif"><title>{title}</title>'
            f'<rect width="{WIDTH}" height="{height}" fill="#fffdf6"/>'
            + svg.markup() + "</svg>")
