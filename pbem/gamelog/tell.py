"""History lines from the stored sentences of moves: the one place that words a history.

A game's ``describe`` tells each step on its own.  A history reads better told the
way a person at the table would tell it, so pages, mails and the archive all build
their lines here, from the sentences stored on the rows (``{n}`` seat placeholders
kept; each reader fills in names its own way):

* a step whose sentence is empty is not told (a game's menu navigation);
* one seat's consecutive steps in one turn are one line, "{2}: step one, step two
  and step three", a step repeated counted ("pays violet ×3");
* consecutive lines of different seats that say the same thing about each seat
  (simultaneous secret choices) are one line, "{1} chooses a card in secret, and
  so does {2}", or in the game's words for several seats where it has them
  (``Rules.together``: "{1} and {2} choose a card in secret").

Pure: strings in, strings out, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.i18n import phrase, say

#: a sentence's seat stands for any seat: two sentences alike but for it say the same
ANY_SEAT = "{n}"
#: ``Rules.together``: a sentence about ``{n}`` said of several seats, in a language
Plural = Callable[[str, str], str | None]
#: ``Rules.tell_turn``: one seat's steps of one turn in one sentence, in a language
Summary = Callable[[int, list[str], str], str | None]


def _subject(seat: int) -> str:
    return f"{{{seat}}}"


def without_subject(seat: int, sentence: str) -> str | None:
    """``sentence`` without its leading seat (``"{2} pays"`` → ``"pays"``, ``"{2}: …"``
    → ``"…"``), or None where it does not begin with that seat."""
    subject = _subject(seat)
    if not sentence.startswith(subject):
        return None
    rest = sentence[len(subject):]
    for gap in (": ", " "):
        if rest.startswith(gap) and rest[len(gap):]:
            return rest[len(gap):]
    return None


def and_list(items: Sequence[str], lang: str) -> str:
    """``a, b and c`` in ``lang``."""
    if len(items) <= 1:
        return "".join(items)
    return say(phrase("{items} and {last}", items=", ".join(items[:-1]), last=items[-1]),
               lang)


def one_turn(seat: int, sentences: Sequence[str], lang: str,
             summary: Summary | None = None) -> str:
    """One seat's consecutive steps in one turn as one line (a single step as it is), in
    the game's own words where it has them (``summary``, ``Rules.tell_turn``)."""
    told = [s for s in sentences if s]
    if len(told) <= 1:
        return "".join(told)
    if summary is not None and (said := summary(seat, told, lang)):
        return said
    counts: dict[str, int] = {}
    for sentence in told:
        step = without_subject(seat, sentence)
        key = step if step is not None else sentence
        counts[key] = counts.get(key, 0) + 1
    steps = [step if n == 1 else say(phrase("{step} ×{count}", step=step, count=n), lang)
             for step, n in counts.items()]
    return f"{_subject(seat)}: {and_list(steps, lang)}"


def alike(seat: int, line: str) -> str | None:
    """What ``line`` says about ``seat``, with that seat as ``{n}`` (None where the line
    names it nowhere or names another seat too): the key on which lines join."""
    subject = _subject(seat)
    if line.count(subject) != 1 or line.count("{") != 1:
        return None
    return line.replace(subject, ANY_SEAT)


def together(lines: Sequence[tuple[int, str]], lang: str,
             plural: Plural | None = None) -> list[tuple[list[int], str]]:
    """``(seat, line)`` in order, with consecutive lines of different seats that say the
    same thing (``alike``) joined: ``(seats, line)`` for each line that stays.  A joined
    line is the game's form for several seats (``plural``, ``Rules.together``) where
    it has one, else "…, and so does {2}"."""
    out: list[tuple[list[int], str, str | None]] = []
    for seat, line in lines:
        key = alike(seat, line)
        if out and key is not None and out[-1][2] == key and seat not in out[-1][0]:
            out[-1][0].append(seat)
            continue
        out.append(([seat], line, key))
    return [(seats, line if len(seats) == 1 else _joined(seats, line, key, lang, plural))
            for seats, line, key in out]


def _joined(seats: list[int], first: str, key: str | None, lang: str,
            plural: Plural | None) -> str:
    form = plural(key, lang) if plural is not None and key is not None else None
    if form and form.count(ANY_SEAT) == 1:
        return form.replace(ANY_SEAT, and_list([_subject(s) for s in seats], lang))
    others = and_list([_subject(s) for s in seats[1:]], lang)
    if len(seats) == 2:
        return say(phrase("{sentence}, and so does {other}", sentence=first, other=others),
                   lang)
    return say(phrase("{sentence}, and so do {others}", sentence=first, others=others), lang)
