"""A table's picture is drawn once per reader and state in a process (issue 23):
``pbem.mail.picture.draw`` and ``table_picture`` share what they drew by ``picture_key``."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.mail import picture

SVG = '<svg xmlns="http://www.w3.org/2000/svg"><title>Visby · round 3</title></svg>'


class Rules:
    """A game whose picture counts how often it is drawn."""

    name = "counting"

    def __init__(self, svg: str = SVG):
        self.svg = svg
        self.drawn = 0

    def picture(self, view, names, lang):
        self.drawn += 1
        return self.svg


@dataclass
class Game:
    thread_key: str
    seq: int


@dataclass
class Seat:
    menu_seq: int


def test_a_page_and_a_mail_of_one_table_draw_it_once():
    rules = Rules()
    game, seats = Game("k-page-and-mail", 50), [Seat(3), Seat(4)]
    key = picture.picture_key(game, seats, 1, ["Ann", "Bob"], "en")
    mailed = picture.table_picture(rules, {}, ["Ann", "Bob"], "en", "Visby #1", key)
    shown = picture.draw(rules, {}, ["Ann", "Bob"], "en", key)
    assert rules.drawn == 1
    assert mailed is not None and mailed.svg == shown == SVG
    assert mailed.alt == "Visby · round 3"


def test_another_reader_language_or_state_is_drawn_again():
    rules = Rules()
    game, seats = Game("k-others", 50), [Seat(3), Seat(4)]
    names = ["Ann", "Bob"]
    picture.draw(rules, {}, names, "en", picture.picture_key(game, seats, 0, names, "en"))
    picture.draw(rules, {}, names, "en", picture.picture_key(game, seats, 1, names, "en"))
    picture.draw(rules, {}, names, "de", picture.picture_key(game, seats, 1, names, "de"))
    # a take-back brings the move number back, but a menu version stays raised
    after = [Seat(4), Seat(4)]
    picture.draw(rules, {}, names, "de", picture.picture_key(game, after, 1, names, "de"))
    # a game whose row id is reused has another thread key
    picture.draw(rules, {}, names, "de",
                 picture.picture_key(Game("k-other-game", 50), after, 1, names, "de"))
    assert rules.drawn == 5


def test_a_picture_a_page_showed_is_still_refused_by_a_mail_when_it_is_not_xml():
    rules = Rules("<svg><title>broken</svg")
    key = picture.picture_key(Game("k-broken", 7), [Seat(1)], 0, ["Ann"], "en")
    assert picture.draw(rules, {}, ["Ann"], "en", key) == rules.svg  # a page shows it as is
    assert picture.table_picture(rules, {}, ["Ann"], "en", "Visby #2", key) is None
    assert rules.drawn == 1


def test_without_a_key_every_call_draws():
    rules = Rules()
    picture.draw(rules, {}, [], "en")
    picture.table_picture(rules, {}, [], "en", "Visby #3")
    assert rules.drawn == 2
