"""Refusals: a link or form the server will not act on, shown as a page with a 4xx status.

Every refusal says in words what happened and links to where the reader can
go on: the game's public page and, when the link proved whose seat it is, the
seat itself.  ``reason`` is the stable keyword (the service's ``PlayError``
reasons, the link checks' "forged"/"expired", "csrf"…) that tests and logs use.
"""

from __future__ import annotations

import math
from datetime import datetime

from pbem.i18n import N_, gettext
from pbem.lifecycle.moves import PlayError
from pbem.links import LinkError
from pbem.models import utcnow

__all__ = ["N_", "REASONS", "Refusal", "refusal_seconds"]

#: a limit that cannot say when it eases is a daily one: at the latest a day later
DAY_SECONDS = 86_400


def refusal_seconds(retry_at: datetime | None, now: datetime | None = None) -> int:
    """Whole seconds from ``now`` until ``retry_at`` (naive UTC), for ``Retry-After``:
    at least 1, and a day where the limit does not say."""
    if retry_at is None:
        return DAY_SECONDS
    now = now or utcnow()
    return max(1, math.ceil((retry_at - now).total_seconds()))


#: status and headline of each reason
REASONS: dict[str, tuple[int, str]] = {
    "forged": (400, N_("This link is not valid")),
    "expired": (410, N_("This link has expired")),
    "csrf": (400, N_("This form has expired")),
    "bad-form": (400, N_("This form was not filled in as expected")),
    "no-game": (404, N_("There is no such game")),
    "no-seat": (404, N_("There is no such seat")),
    "other-player": (403, N_("This link belongs to someone else")),
    "revoked": (410, N_("This link has been replaced")),
    "used": (409, N_("Already played")),
    "stale": (410, N_("The game has moved on")),
    "gone": (409, N_("This choice is no longer open")),
    "busy": (503, N_("The game is busy")),
    "limit": (429, N_("Enough for today")),
    "unconfirmed": (403, N_("Please confirm your address first")),
    "not-active": (410, N_("The game is not running")),
    "not-started": (409, N_("The game has not started yet")),
    "illegal": (422, N_("This move is not possible")),
    "final": (409, N_("Nothing to take back")),
    "taken": (409, N_("This seat is taken")),
    "withdrawn": (410, N_("This invitation was withdrawn")),
}


class Refusal(Exception):
    def __init__(self, reason: str, message: str, *, game_url: str | None = None,
                 seat_url: str | None = None, again_url: str | None = None,
                 detail: str | None = None, retry_after: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.status, self._title = REASONS.get(reason, (400, N_("This cannot be done")))
        self.message = message
        self.detail = detail  # an extra line, e.g. which move was played
        self.game_url = game_url
        self.seat_url = seat_url
        self.again_url = again_url  # the page whose form failed, to load it afresh
        #: a 429's ``Retry-After`` in seconds (a day when not given: limits are daily)
        self.retry_after = retry_after if retry_after is not None or self.status != 429 \
            else DAY_SECONDS

    @property
    def title(self) -> str:
        """The headline, in the language of the page showing it."""
        return gettext(self._title)

    @classmethod
    def from_link(cls, exc: LinkError, **links: str | None) -> Refusal:
        return cls(exc.reason, str(exc), **links)

    @classmethod
    def from_play(cls, exc: PlayError, **links: str | None) -> Refusal:
        return cls(exc.reason, str(exc), **links)
