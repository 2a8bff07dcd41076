"""The archive's "about this game's data" pages of each registered game, in every
language a player may choose.

The same text as the server's ``/games/<name>/data``
(:attr:`pbem.games.protocol.Rules.about_data`, in German from the game's
``translations``, :meth:`~pbem.games.protocol.Rules.texts`), written as
``games/<name>-data.md`` and ``.html`` beside the game pages, which link it (their
footer) as the game's list does, and for each other language as
``games/<name>-data-<lang>``; each page links its twins.  The archive is otherwise
English: its headings here are the server page's, in the page's language
(:mod:`pbem.i18n`).  A game's data note stands there and nowhere else in the archive.
A game name is letters only, so the file can never be mistaken for a game page
(``games/<id>``).
"""

from __future__ import annotations

from pbem import i18n
from pbem.archive import paths
from pbem.archive.render import Renderer
from pbem.archive.text import block_safe, md_text
from pbem.games import all_games
from pbem.games.protocol import Rules

#: the languages of the data pages, the archive's own (English) first
LANGUAGES = tuple(i18n.LANGUAGES)


def page(name: str, lang: str = i18n.DEFAULT) -> str:
    """The page (path without extension) of game ``name``'s data note in ``lang``."""
    return f"games/{name}-data" + ("" if lang == i18n.DEFAULT else f"-{lang}")


def title(rules: Rules, lang: str = i18n.DEFAULT) -> str:
    with i18n.in_language(lang):
        return i18n.gettext("About the data of %(game)s", game=rules.title)


def markdown(rules: Rules, lang: str = i18n.DEFAULT) -> str:
    """The page as Markdown: the note's paragraphs, the versions, the page in the other
    languages (each by its own name)."""
    blocks = [f"# {md_text(title(rules, lang))}"]
    texts = rules.texts(lang)
    note = [" ".join(p.split()) for p in texts.about_data.split("\n\n") if p.strip()]
    with i18n.in_language(lang):
        blocks += [block_safe(md_text(p)) for p in note] or [md_text(i18n.gettext(
            "%(game)s gives no note on its data.", game=rules.title))]
        blocks.append(md_text(i18n.gettext("Rules version %(rules)s, data version %(data)s.",
                                           rules=rules.rules_version,
                                           data=rules.data_version)))
    here = page(rules.name, lang)
    blocks.append(" · ".join(
        f"[{i18n.LANGUAGES[other]}]({paths.rel(here, paths.html(page(rules.name, other)))})"
        for other in LANGUAGES if other != lang))
    return "\n\n".join(blocks) + "\n"


def files(renderer: Renderer) -> dict[str, str]:
    """``{path: text}`` of every registered game's data pages, Markdown and HTML."""
    out: dict[str, str] = {}
    for rules in all_games():
        for lang in LANGUAGES:
            where = page(rules.name, lang)
            text = markdown(rules, lang)
            out[where + ".md"] = text
            out[paths.html(where)] = renderer.page(where, title(rules, lang), text,
                                                   kind="about", lang=lang)
    return out
