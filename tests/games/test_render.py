"""``pbem.games.render``: the ``seats`` filter that fills an engine text's ``{n}``
placeholders with names, escaped, in pages and HTML mails."""

from __future__ import annotations

from markupsafe import Markup

from pbem.games.render import seat_filter


def test_seat_filter_escapes_text_and_names():
    out = seat_filter("{0} <b>beats</b> {1} & {0}", ["<i>A</i>", "B&B"])
    assert isinstance(out, Markup)
    assert str(out) == ("&lt;i&gt;A&lt;/i&gt; &lt;b&gt;beats&lt;/b&gt; B&amp;B &amp; "
                        "&lt;i&gt;A&lt;/i&gt;")


def test_seat_filter_leaves_other_braces_and_unknown_seats_readable():
    assert str(seat_filter("{x} {} {7}", ["A"])) == "{x} {} seat 8"
    assert str(seat_filter("no seats", [])) == "no seats"


def test_seat_filter_does_not_fill_placeholders_inside_names():
    assert str(seat_filter("{0} and {1}", ["{1}", "B"])) == "{1} and B"
