"""Refusals: a link or form the server will not act on, shown as a page with a 4xx status.

Every refusal says in words what happened and links to where the reader can
go on: the game's public page and, when the link proved whose seat it is, the
seat itself.  ``reason`` is the stable keyword (the service's ``PlayError``
reasons, the link checks' "forged"/"expired", "csrf"…) that tests and logs use.
"""

from __future__ import annotations

from pbem.lifecycle.moves import PlayError
from pbem.links import LinkError

#: status and headline of each reason
REASONS: dict[str, tuple[int, str]] = {
    "forged": (400, "This link is not valid"),
    "expired": (410, "This link has expired"),
    "csrf": (400, "This form has expired"),
    "bad-form": (400, "This form was not filled in as expected"),
    "no-game": (404, "There is no such game"),
    "no-seat": (404, "There is no such seat"),
    "other-player": (403, "This link belongs to someone else"),
    "revoked": (410, "This link has been replaced"),
    "used": (409, "Already played"),
    "stale": (410, "The game has moved on"),
    "gone": (409, "This choice is no longer open"),
    "busy": (503, "The game is busy"),
    "limit": (429, "Enough for today"),
    "unconfirmed": (403, "Please confirm your address first"),
    "not-active": (410, "The game is not running"),
    "not-started": (409, "The game has not started yet"),
    "illegal": (422, "This move is not possible"),
    "final": (409, "Nothing to take back"),
    "taken": (409, "This seat is taken"),
    "withdrawn": (410, "This invitation was withdrawn"),
}


class Refusal(Exception):
    def __init__(self, reason: str, message: str, *, game_url: str | None = None,
                 seat_url: str | None = None, again_url: str | None = None,
                 detail: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.status, self.title = REASONS.get(reason, (400, "This cannot be done"))
        self.message = message
        self.detail = detail  # an extra line, e.g. which move was played
        self.game_url = game_url
        self.seat_url = seat_url
        self.again_url = again_url  # the page whose form failed, to load it afresh

    @classmethod
    def from_link(cls, exc: LinkError, **links: str | None) -> Refusal:
        return cls(exc.reason, str(exc), **links)

    @classmethod
    def from_play(cls, exc: PlayError, **links: str | None) -> Refusal:
        return cls(exc.reason, str(exc), **links)
