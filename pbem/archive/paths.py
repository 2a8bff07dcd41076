"""Where each page of the archive lives, and relative links between them.

A page is named by its path without extension (``games/12``); it is written
as ``games/12.md`` and ``games/12.html``.  Every link is relative to the page
it is on, so ``site/index.html`` works opened from disk and the folder can be
copied to any static host as it is.
"""

from __future__ import annotations

import posixpath

INDEX = "index"
STYLESHEET = "style.css"
FEED = "feed.xml"
MANIFEST = ".manifest.json"
#: an empty file that tells GitHub Pages to serve the folder as it is; without it,
#: Jekyll renders each ``.md`` (front matter is optional there) over the ``.html``
#: of the same name
NO_JEKYLL = ".nojekyll"
BY_GAME_INDEX = "by-game/index"
PLAYERS_INDEX = "players/index"
MONTHS_INDEX = "months/index"


def game_page(game_id: int) -> str:
    return f"games/{game_id}"


def by_game(name: str) -> str:
    return f"by-game/{name}"


def player_page(player_id: int) -> str:
    return f"players/{player_id}"


def month_page(month: str) -> str:
    return f"months/{month}"


def block_page(front: str, number: int) -> str:
    """The n-th fixed block of a long list whose front page is ``front``."""
    folder = "all" if front == INDEX else front
    return f"{folder}/{number}"


def html(page: str) -> str:
    return page + ".html"


def rel(from_page: str, target: str) -> str:
    """``target`` (a file path under the site) as a link from page ``from_page``."""
    folder = posixpath.dirname(from_page)
    if folder == posixpath.dirname(target):
        return posixpath.basename(target)
    return root(from_page) + target


def root(from_page: str) -> str:
    """The prefix that leads from ``from_page`` back to the site's top (``""``, ``"../"``…)."""
    return "../" * from_page.count("/")
