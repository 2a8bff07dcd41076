"""The quick Markdown converter writes what Python-Markdown writes, or declines.

``pbem.archive.quick`` is only allowed to be faster: on every page of an
archive of hostile names, and on random text through the archive's own
escaping in every place the archive puts text, it gives Python-Markdown's
HTML byte for byte, or ``None``.
"""

from __future__ import annotations

import random

import pytest
from archive_data import Archive

from pbem.archive import quick
from pbem.archive.render import make_markdown
from pbem.archive.text import block_safe, code_block, fill, md_name, md_text, table_row


@pytest.fixture(scope="module")
def md():
    return make_markdown()


def slow(md, text: str) -> str:
    return md.reset().convert(text)


def same_or_declined(md, text: str) -> bool:
    html = quick.convert(text)
    assert html is None or html == slow(md, text), text
    return html is not None


def test_every_page_of_an_archive_converts_as_python_markdown_does(sqlite_archive: Archive,
                                                                  sqlite_built_site, md):
    pages = sorted(sqlite_archive.site.rglob("*.md"))
    quick_pages = [p for p in pages if same_or_declined(md, p.read_text(encoding="utf-8"))]
    games = [p for p in pages if p.parent.name == "games"]
    # the fast path is the usual one: only a hostile name sends a page the slow way
    assert len(quick_pages) >= 0.75 * len(pages)
    assert len([p for p in quick_pages if p.parent.name == "games"]) >= 0.75 * len(games)


EDGE_CASES = [
    "# Title\n", "# Title \\#\n", "# Title #\n", "# T \\\\#\n", "## Round 1 {#round-1}\n",
    "## Round {#r} x\n", "# [a](b.html)\n", "#NoSpace\n", "####### seven\n",
    "plain\n", "two\nlines\n", "a  \n", " lead\n", "1. list\n", "1\\. escaped\n",
    "2020-01-01 to 2020-02-01\n", "- item\n- item 2\n", "- a\n\n- b\n", "-   spaced\n",
    "- Turn of X, moves 1–2:\n    - [1](#m1){#m1} a\n    - [2](#m2){#m2} b\n- [3](#m3){#m3} c\n",
    "- a\n    - b\n        - c\n", "- a\ncontinued\n", "- # heading\n", "- - nested\n",
    "- [1](#m1){#m1} x *(default move after a timeout)*\n", "- a *b*\n", "- a *b* c\n",
    "> note\n", "> one\n\n> two\n", "> one\n> two\n",
    "| a | b |\n|---|---:|\n| 1 | 2 |\n", "| a | b |\n|:-:|:--|\n| \\| | \\\\ |\n",
    "| a | b |\n|---|---|\n| 1 |\n", "| a |\n|---|\n| 1 |\n", "| a | b |\n|---|---|\n",
    "| `a` | b |\n|---|---|\n| 1 | 2 |\n",
    "    code & <b>\n\n    more\n\n\n    again\n", "- list\n\n    code\n",
    "para\n\n    code\n\n- list\n", "![Alt text](1.svg)\n",
    "![Böttcherei C2, Mönch's](1.svg)\n", "![é\u0301 ß_x](1.svg)\n", "![ø ١٢ Ω](1.svg)\n",
    "![](x.svg)\n", "a ![b](c) d\n",
    "x `code & <b>` y\n", "x `` y\n", "x `a\\` y\n", "x \\`a` y\n", "x \\\\`a` y\n",
    "&amp; &lt; &#61; &#x3D; & bare\n", "a &copy b\n", "\\< \\& \\q \\\n",
    "[link](a.html) and [other](../b/c.html){#id} and [x](#m1){#m1}\n",
    "[a [b] c](x.html)\n", "[ a](x.html)\n", "[a](x y)\n", "[a](javascript:alert(1))\n",
    "text {#id}\n", "text \\{#id\\}\n", "a_b_c\n", "a *b*\n", "*a*\n", "a ** b\n",
    "tab\there\n", "nul\x00\n", "stx\x02x\x03\n", "cr\r\nlf\n", "ls\u2028x\n",
    "", "\n", "\n\n# Late heading\n", "# A\n\n\n\nB\n", "a\n\n\n", "    \xa0", "     \n    a\n",
    "    a \n\n    b\n", "x ` \xa0a\xa0` y\n", "## a\xa0 {#x}\n", "a\xa0\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases(md, text):
    same_or_declined(md, text)


ALPHABET = "\\`*_{}[]()>#+-.!|<&\"' aAz19é:;=~^$%/\u00a0\t\n\x02"


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 16)))


def _escaped(rng: random.Random) -> str:
    """Text as the archive writes it into Markdown: a name, a sentence, or raw."""
    raw = _random_text(rng)
    kind = rng.randrange(5)
    if kind == 0:
        return md_name(raw)
    if kind == 1:
        return md_text(raw)
    if kind == 2:
        return fill("{0} plays " + raw + " against {1}", [md_name(_random_text(rng)), "B"],
                    name_escape=str)
    if kind == 3:
        return block_safe(md_text(raw))
    return raw


def _document(rng: random.Random) -> str:
    t = [_escaped(rng) for _ in range(3)]
    shapes = [
        f"# {t[0]}: {t[1]}",
        f"## {t[0]} {{#setup}}",
        t[0],
        f"- {t[0]}\n- {t[1]}",
        f"- Turn of {t[0]}, moves 1–2:\n    - [1](#m1){{#m1}} {t[1]}\n    - [2](#m2){{#m2}} {t[2]}",
        f"- [7](#m7){{#m7}} {t[0]} *(default move after a timeout)*",
        table_row(["Seat", "Player"]) + "\n|---:|---|\n" + table_row([t[0], t[1]]),
        f"> {t[0]}",
        f"- Game: [{t[0]}](../by-game/visby.html)",
        f"[{t[0]}](../players/3.html) and [{t[1]}](all/2.html)",
        code_block(_random_text(rng) + "\n\n" + _random_text(rng)),
        f"- Game record: [5.json](5.json) (JSON; `pbem replay 5.json` {t[0]})",
    ]
    return "\n\n".join(rng.choice(shapes) for _ in range(rng.randint(1, 4))) + "\n"


def test_random_text_in_every_place_the_archive_puts_text(md):
    rng = random.Random(20240611)
    accepted = sum(same_or_declined(md, _document(rng)) for _ in range(3000))
    assert accepted > 800  # a good part of it takes the fast path


def test_the_game_record_is_written_as_game_record_dumps_writes_it(sqlite_archive: Archive):
    from pbem.archive.collect import collect, load_moves
    from pbem.archive.pages import _record_text

    for finished in load_moves(collect()):
        record = finished.record()
        assert _record_text(record) == record.dumps()


def test_the_game_record_is_not_dumped_with_json_indent(monkeypatch):
    """The moves are written by hand: ``json.dumps`` with ``indent`` (pure Python) gets the
    record without them, never the whole record."""
    import json

    from pbem.archive import pages
    from pbem.gamelog.records import GameRecord

    dumps = json.dumps

    def without_moves(value, *args, **kwargs):
        assert not (isinstance(value, dict) and isinstance(value.get("moves"), list)
                    and value["moves"]), "the moves went through json.dumps"
        return dumps(value, *args, **kwargs)

    record = GameRecord("visby", ["A", "B"], "7", moves=[(0, "play x"), (1, "pass")],
                        rules_version="1", data_version="1")
    expected = record.dumps()
    monkeypatch.setattr(pages.json, "dumps", without_moves)
    assert pages._record_text(record) == expected


PIECES = ["- ", "    - ", "    ", "# ", "## ", "> ", "| ", " |", "|---|", "|---:|", "\n", "\n\n",
          "\n\n\n", "[a](b.html)", "{#m1}", "[1](#m1){#m1} ", "*(x y)*", "`c`", "\\", "&amp;",
          "&", "<", ">", "a", "b c", "1. ", "1\\. ", "é", "\xa0", " ", "*", "_", "!",
          "![A b](c.svg)", "#", "=", "-", ":"]


def test_random_pieces_of_markdown(md):
    rng = random.Random(7)
    accepted = sum(
        same_or_declined(md, "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 25))))
        for _ in range(5000))
    assert accepted > 200


def test_fill_escapes_each_piece_as_it_did_piece_by_piece():
    """``fill`` keeps each sentence's escaped pieces; what it writes is what escaping
    the text between the placeholders and the names one by one writes."""
    import re

    def reference(template: str, names: list[str], name_escape) -> str:
        out, pos = [], 0
        for m in re.finditer(r"\{(\d+)\}", template):
            index = int(m.group(1))
            out += [md_text(template[pos:m.start()]),
                    name_escape(names[index]) if index < len(names) else md_text(m.group(0))]
            pos = m.end()
        return "".join(out + [md_text(template[pos:])])

    rng = random.Random(3)
    for _ in range(3000):
        template = "".join(rng.choice("{}0123456789ab*_[]\\<&|# ") for _ in range(15))
        names = ["A*", "<b>", "x"][:rng.randint(0, 3)]
        for name_escape in (str, md_name):
            assert fill(template, names, name_escape=name_escape) == \
                reference(template, names, name_escape)
