"""Ziehen's words, one table per language: everything the game says to people.

A renderer (``menu``, ``sentences``, ``text``, ``picture``) asks :func:`words` for the
reader's table and fills its entries; no renderer has a copy of itself for another
language, so a new language is one more table here (and its name in ``TABLES``).
An entry missing from a table reads in English.  Seats are ``{0}``-style placeholders
(``str.format`` fields named by other words, such as ``{card}``, are filled by the
renderer); card names stay as printed.
"""

from __future__ import annotations

from pbem.games.language import Words, table_for

EN: Words = {
    # the menu (menu.py): a label and a group per verb
    "step": "Take a step",
    "draw": "Draw a card",
    "end": "End your turn",
    "group": "turn",
    # the sentences (sentences.py)
    "said step": "{seat} takes a step",
    "said draw": "{seat} draws {card}",
    "said draw secret": "{seat} draws a card",
    "said end": "{seat} ends the turn",
    # the text view (text.py) and the picture (picture.py)
    "heading": "Ziehen, round {round} of {rounds}. Deck: {deck} cards.",
    "seat": "{name}: {cards} cards{hand}",
    "title": "Ziehen · round {round} of {rounds}",
    "cards": "{n} cards",
    # beside a card's value where players read it: the value is not printed anywhere
    # (each game marks its reconstructed values with the sign of pbem.games.datafile)
    "mark": "◇ reconstructed: pbem's own value (the example game has no printed edition)",
    "deck": "Deck: {n}",
    "your row": "Your cards: take a step, or end your turn",
}

DE: Words = {
    "step": "Einen Schritt gehen",
    "draw": "Eine Karte ziehen",
    "end": "Zug beenden",
    "group": "Zug",
    "said step": "{seat} geht einen Schritt",
    "said draw": "{seat} zieht {card}",
    "said draw secret": "{seat} zieht eine Karte",
    "said end": "{seat} beendet den Zug",
    "heading": "Ziehen, Runde {round} von {rounds}. Stapel: {deck} Karten.",
    "seat": "{name}: {cards} Karten{hand}",
    "title": "Ziehen · Runde {round} von {rounds}",
    "cards": "{n} Karten",
    "mark": "◇ rekonstruiert: pbems eigener Wert (das Beispielspiel ist nirgends gedruckt)",
    "deck": "Stapel: {n}",
    "your row": "Deine Karten: einen Schritt gehen oder den Zug beenden",
}

TABLES = {"en": EN, "de": DE}


def words(lang: str | None) -> Words:
    """The table of ``lang`` ("de", "de-AT"…), English where Ziehen has none."""
    return table_for(TABLES, lang)
