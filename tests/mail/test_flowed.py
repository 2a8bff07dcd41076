"""Plain text as format=flowed (``pbem.mail.flowed``): lines of at most 78 characters,
cut only at spaces, that a flowed-aware reader joins back into the lines written."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem.mail.flowed import WIDTH, flow, unflow

CHOICE = ("  2. Play card 3◇, active half: 1 Kaufmann + coin: contest for the Kaufleute "
          "(merchants) (Coin: a contest for the one with the most coins)")


def test_a_long_choice_is_cut_at_spaces_and_joined_again():
    sent = flow(CHOICE)
    lines = sent.split("\n")
    assert len(lines) == 2 and all(len(line) <= WIDTH for line in lines)
    # a soft break ends in a space; the indented first line is stuffed with one more
    assert lines[0] == ("   2. Play card 3◇, active half: 1 Kaufmann + coin: contest for the "
                        "Kaufleute ")
    assert lines[1] == "(merchants) (Coin: a contest for the one with the most coins)"
    assert unflow(sent) == CHOICE


def test_a_link_is_never_cut_and_short_lines_stay_as_they_are():
    link = "https://pbem.example.org/m/" + "a" * 120
    text = f"Play it here:\n{link} or reply\n\nFrom the table:\n> quoted\n-- \nsignature"
    sent = flow(text)
    assert link + " " in sent.split("\n")   # a line of its own, whole
    assert " From the table:" in sent.split("\n") and " > quoted" in sent.split("\n")
    assert "-- " in sent.split("\n")        # the signature's separator stays hard
    assert unflow(sent) == text


def test_trailing_spaces_of_written_lines_are_dropped_they_would_read_as_soft_breaks():
    assert flow("one  \ntwo") == "one\ntwo"
    assert unflow(flow("one  \ntwo")) == "one\ntwo"


_PIECES = st.sampled_from(list("ab ◇>-F\t\u00a0") + ["From ", "-- ", "x" * 90])
_TEXT = st.lists(st.lists(_PIECES, max_size=60).map("".join), max_size=6).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
@example("  6. Play Zöllner (customs officer) (From the supply: 1 seal per rival Schiff in "
         "the harbour)")
@example("a " * 39 + "b")
def test_flowing_keeps_every_line_and_cuts_only_between_words(text):
    sent = flow(text)
    expected = "\n".join(line if line == "-- " else line.rstrip(" ")
                         for line in text.split("\n"))
    assert unflow(sent) == expected
    for line in sent.split("\n"):
        # longer only where one word (with its stuffing and the soft break's space) is,
        # or a word after "-- ", which cut there would read as a signature's separator
        assert len(line) <= WIDTH or " " not in line.strip(" ").removeprefix("-- ")


def test_quoted_lines_join_within_their_depth_and_delsp_takes_the_space_away():
    text = "> one two \n> three\n>> deeper \nout\nsoft, then \n> quoted"
    assert unflow(text) == "> one two three\n>> deeper\nout\nsoft, then\n> quoted"
    assert unflow("cut in the mid \ndle", delsp=True) == "cut in the middle"


def test_a_flowed_reply_is_read_as_its_writer_wrote_it():
    """Thunderbird and Apple Mail send format=flowed: a long first line arrives cut in
    two, and must reach the reply's reader whole (one line: one choice, or the talk)."""
    from pbem.mail import inbound

    said = ("talk: well played, I did not see the Kaufleute coming and now I have to "
            "think about my next turn")

    def reply(content_type: str, text: str) -> bytes:
        return ("From: Alice <alice@example.org>\nTo: pbem+tok@example.org\n"
                "Subject: Re: Visby #1\nMessage-ID: <r1@example.org>\nMIME-Version: 1.0\n"
                f"Content-Type: text/plain; charset=utf-8{content_type}\n\n{text}\n\n"
                "On Monday pbem wrote:\n> Visby #1: your move \n> now\n").encode()

    # DelSp=Yes: the writer's program added a space before each soft break
    cut = flow(said).replace(" \n", "  \n")
    assert "\n" in cut
    lines = inbound.parse(reply("; format=flowed; delsp=yes", cut)).lines
    assert lines == inbound.parse(reply("", said)).lines and lines[0] == said
    # the same cut without format=flowed: lines as they came
    assert inbound.parse(reply("", cut)).lines[0] != said
