"""The archive's "about this game's data" page of each registered game.

The same text as the server's ``/games/<name>/data``
(:attr:`pbem.games.protocol.Rules.about_data`), written as ``games/<name>-data.md`` and
``.html`` beside the game pages, which link it (their footer) as the game's list does;
a game's data note stands there and nowhere else in the archive.  A game name is
letters only, so the file can never be mistaken for a game page (``games/<id>``).
"""

from __future__ import annotations

from pbem.archive import paths
from pbem.archive.render import Renderer
from pbem.archive.text import block_safe, md_text
from pbem.games import all_games
from pbem.games.protocol import Rules


def page(name: str) -> str:
    """The page (path without extension) of game ``name``'s data note."""
    return f"games/{name}-data"


def title(rules: Rules) -> str:
    return f"About the data of {rules.title}"


def markdown(rules: Rules) -> str:
    """The page as Markdown: the note's paragraphs, then the versions."""
    blocks = [f"# {md_text(title(rules))}"]
    note = [" ".join(p.split()) for p in rules.about_data.split("\n\n") if p.strip()]
    blocks += [block_safe(md_text(p)) for p in note] or [
        f"{md_text(rules.title)} gives no note on its data."]
    blocks.append(f"Rules version {md_text(rules.rules_version)}, data version "
                  f"{md_text(rules.data_version)}.")
    return "\n\n".join(blocks) + "\n"


def files(renderer: Renderer) -> dict[str, str]:
    """``{path: text}`` of every registered game's data page, Markdown and HTML."""
    out: dict[str, str] = {}
    for rules in all_games():
        where = page(rules.name)
        text = markdown(rules)
        out[where + ".md"] = text
        out[paths.html(where)] = renderer.page(where, title(rules), text, kind="about")
    return out
