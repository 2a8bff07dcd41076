"""An Atom feed (RFC 4287) of the newest finished games.

Links are absolute when the site is built with the server's base URL as its
key (the scheduler and ``pbem build-site`` do: ``pbem serve`` serves the site
under ``/archive/``), since feed readers resolve a relative link against nothing;
else relative to the feed's own address, as Atom allows.  Times are those of the games (never of
the build), and ids are derived from the game, so a feed reader sees each
game once, and two builds of one database write the same bytes.
"""

from __future__ import annotations

import html
import uuid
from collections.abc import Sequence
from datetime import datetime

from pbem.archive import paths
from pbem.archive.collect import GameSummary
from pbem.archive.markdown import and_list
from pbem.archive.pages import game_display_title
from pbem.archive.text import iso, one_line, xml_text

ENTRIES = 50


def _urn(key: str) -> str:
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, key)}"


def entry_summary(s: GameSummary) -> str:
    scores = s.scores()
    standing = ", ".join(f"{one_line(seat.name)} {'' if scores[i] is None else scores[i]}"
                         .rstrip() for i, seat in enumerate(s.seats))
    winners = and_list([one_line(s.seats[w].name) for w in s.winners()])
    won = f"{winners} won. " if winners else ""
    return f"{won}{standing}. {s.seq} moves."


def _base(site_key: str) -> str:
    """Where the site is served when ``site_key`` is the server's base URL (``pbem serve``
    serves it under ``/archive/``): feed readers resolve a relative link against nothing."""
    if site_key.startswith(("http://", "https://")):
        return html.escape(site_key.rstrip("/") + "/archive/", quote=True)
    return ""


def atom(summaries: Sequence[GameSummary], site_key: str = "pbem") -> str:
    """The feed of the newest :data:`ENTRIES` of ``summaries`` (given oldest first)."""
    base = _base(site_key)
    newest = list(reversed(summaries[-ENTRIES:]))
    updated = iso(newest[0].finished_at) if newest else "1970-01-01T00:00:00Z"
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        "<title>pbem: finished games</title>",
        f"<id>{_urn(site_key + '/archive')}</id>",
        f"<updated>{updated}</updated>",
        f'<link rel="self" href="{base}{paths.FEED}"/>',
        f'<link rel="alternate" type="text/html" href="{base}{paths.html(paths.INDEX)}"/>',
        "<author><name>pbem</name></author>",
    ]
    for s in newest:
        title = (f"{game_display_title(s.game)} #{s.id}: "
                 f"{and_list([one_line(n) for n in s.names])}")
        out += [
            "<entry>",
            f"<title>{xml_text(title)}</title>",
            f'<link rel="alternate" type="text/html" '
            f'href="{base}{paths.html(paths.game_page(s.id))}"/>',
            f"<id>{_urn(f'{site_key}/archive/games/{s.id}/{s.seed}')}</id>",
            f"<published>{iso(s.finished_at)}</published>",
            f"<updated>{iso(s.finished_at)}</updated>",
            f"<summary>{xml_text(entry_summary(s))}</summary>",
            "</entry>",
        ]
    out.append("</feed>")
    return "\n".join(out) + "\n"


def moves_atom(title: str, key: str, page_url: str, feed_url: str,
               entries: Sequence[tuple[int, datetime, str]]) -> str:
    """The feed of a running game's public moves (``entries``: move number, when, its
    sentence as a spectator reads it, newest first), written as the archive's feed is:
    ids derived from ``key`` (the game's page) and the move number, so a reader sees each
    move once, and times of the moves, never of the request."""
    updated = iso(entries[0][1]) if entries else "1970-01-01T00:00:00Z"
    page, feed = html.escape(page_url, quote=True), html.escape(feed_url, quote=True)
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<title>{xml_text(title)}</title>",
        f"<id>{_urn(key)}</id>",
        f"<updated>{updated}</updated>",
        f'<link rel="self" href="{feed}"/>',
        f'<link rel="alternate" type="text/html" href="{page}"/>',
        "<author><name>pbem</name></author>",
    ]
    for seq, moment, sentence in entries:
        out += [
            "<entry>",
            f"<title>{xml_text(f'{seq}. {one_line(sentence)}')}</title>",
            f'<link rel="alternate" type="text/html" href="{page}"/>',
            f"<id>{_urn(f'{key}/moves/{seq}')}</id>",
            f"<updated>{iso(moment)}</updated>",
            f"<summary>{xml_text(one_line(sentence))}</summary>",
            "</entry>",
        ]
    out.append("</feed>")
    return "\n".join(out) + "\n"
