"""The "about this game's data" page of each registered game (``/games/<name>/data``).

A game's data module says, value by value, what the rulebook prints, what public
sources give and what pbem reconstructed; :attr:`pbem.games.protocol.Rules.about_data`
says it in paragraphs for players.  It stands on this one page (and its twin in the
archive, written by :mod:`pbem.archive.about`), which the game's pages link, so that
the note is there for whoever wants it and in nobody's way.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from pbem import i18n
from pbem.games import UnknownGameError, get_game
from pbem.games.protocol import Rules

bp = Blueprint("about", __name__)


def paragraphs(text: str) -> list[str]:
    """Plain text split at blank lines, each paragraph on one line."""
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


def _rules_or_404(name: str) -> Rules:
    try:
        return get_game(name)
    except UnknownGameError:
        abort(404)


@bp.get("/games/<name>/data")
def game_data(name: str) -> Any:
    rules = _rules_or_404(name)
    # in the reader's language where the game has it (``Rules.translations``)
    texts = rules.texts(i18n.current())
    return render_template("pages/about_data.html", rules=rules,
                           paragraphs=paragraphs(texts.about_data))
