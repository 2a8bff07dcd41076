"""Signed tokens for every link we mail (itsdangerous), one salt per purpose.

A token proves who made the link and when; whether it may still be used
(the game moved on, the move was played, the seat changed hands) is checked
against the database by the caller, separately from the signature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from pbem.i18n import gettext

MOVE, SEAT, INVITE, UNSUBSCRIBE, CALENDAR = "move", "seat", "invite", "unsubscribe", "calendar"
#: a creator confirms their address; an address that has not joined asks for no more mail
CONFIRM, NEVER = "confirm", "never"
#: a player's own list of all their games ("my games")
GAMES = "games"
PURPOSES = (MOVE, SEAT, INVITE, UNSUBSCRIBE, CALENDAR, CONFIRM, NEVER, GAMES)


class LinkError(Exception):
    """A token that is not ours, was tampered with, or has expired."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason  # "forged" or "expired"


@dataclass
class Signer:
    #: oldest first, newest last: itsdangerous signs with the last and accepts all,
    #: so adding a key rotates without breaking links already mailed
    secret_keys: list[str]

    def _serializer(self, purpose: str) -> URLSafeTimedSerializer:
        if purpose not in PURPOSES:
            raise ValueError(f"unknown link purpose {purpose!r}")
        return URLSafeTimedSerializer(self.secret_keys, salt=f"pbem-{purpose}")

    def sign(self, purpose: str, payload: dict[str, Any]) -> str:
        return self._serializer(purpose).dumps(payload)

    def load(self, purpose: str, token: str, max_age_seconds: int | None = None) -> dict[str, Any]:
        try:
            payload = self._serializer(purpose).loads(token, max_age=max_age_seconds)
        except SignatureExpired as exc:
            raise LinkError("expired", gettext("This link has expired.")) from exc
        except BadSignature as exc:
            raise LinkError("forged", gettext("This link is not valid: it was not made by "
                                              "this server or it was changed.")) from exc
        if not isinstance(payload, dict):
            raise LinkError("forged", gettext("This link is not valid."))
        return payload
