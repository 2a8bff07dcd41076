"""An ICS calendar feed of a player's current deadlines, by a personal signed URL.

A calendar app subscribes to ``/calendar/<token>.ics`` (token: ``links.CALENDAR``,
its fields in ``links.FIELDS``) and shows each running turn as an event at its
deadline, in UTC, which every calendar shows in its owner's own zone.  Each
event links the game's public page (``URL`` and its description), never a move
or seat link: calendars are shared more readily than mail, and a feed must not
hand anyone a seat.  An event's UID is the seat's, so a
deadline that moves (a vacation, the next turn) updates the one event instead
of adding another.  The feed's words follow the player's language.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from pbem import links
from pbem.context import Context
from pbem.i18n import gettext, in_language
from pbem.models import Player
from pbem.time import clock
from pbem.time.running import running_clocks


def player_from_token(ctx: Context, token: str) -> Player | None:
    """The player a feed token names; raises ``links.LinkError`` for a forged token, and
    for one made before the player asked for new links ("revoked")."""
    link = ctx.signer.load_link(links.CALENDAR, token)
    player = Player.get_or_none(Player.id == link.get("player"))
    if player is not None and link.get("version") != player.link_version:
        raise links.LinkError("revoked", "This calendar link has been replaced by a newer "
                                         "one; the newest is on your vacation page.")
    return player


def escape(text: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and newlines escaped."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def fold(line: str) -> str:
    """Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1)."""
    out, current, size = [], "", 0
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > 75:
            out.append(current)
            current, size = " ", 1
        current += char
        size += width
    out.append(current)
    return "\r\n".join(out)


def _stamp(when: datetime) -> str:
    return when.strftime("%Y%m%dT%H%M%SZ")


def build(ctx: Context, player: Player, now: datetime) -> str:
    """The feed of ``player``'s running deadlines at ``now``, in the player's language."""
    with in_language(player.language):
        return _build(ctx, player, now)


def _build(ctx: Context, player: Player, now: datetime) -> str:
    host = urlsplit(ctx.base_url).hostname or "pbem"
    calendar_name = gettext("pbem: deadlines of %(name)s", name=player.name)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//pbem//deadlines//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(calendar_name)}",
        "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
    ]
    for running in running_clocks(player, now):
        seat, game, title = running.seat, running.game, running.title
        what = gettext("grace period ends") if running.grace else gettext("your move is due")
        url = ctx.url(f"/g/{game.id}")
        summary = gettext("%(title)s: %(what)s", title=title, what=what)
        description = (f"{summary}. {clock.describe_policy(game.clock)}. "
                       f"{clock.describe_ladder(game.clock)}\n"
                       + gettext("The game: %(url)s (your moves: the seat link in your mails)",
                                 url=url))
        lines += [
            "BEGIN:VEVENT",
            f"UID:pbem-game{game.id}-seat{seat.index}@{host}",
            f"DTSTAMP:{_stamp(now)}",
            # a deadline is an instant: no DTEND, which must lie after DTSTART (RFC 5545
            # 3.8.2.2); without one the event ends when it starts (3.6.1)
            f"DTSTART:{_stamp(seat.deadline)}",
            f"SUMMARY:{escape(summary)}",
            f"DESCRIPTION:{escape(description)}",
            f"URL:{url}",  # RFC 5545 3.8.4.6: a URI value, not escaped text
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(fold(line) for line in lines) + "\r\n"
