"""Signed tokens for every link we mail (itsdangerous), one salt per purpose.

A token proves who made the link and when; whether it may still be used
(the game moved on, the move was played, the seat changed hands) is checked
against the database by the caller, separately from the signature.

What each purpose's token carries is written once, in ``FIELDS``: mail signs links by
name (``Signer.sign_link``) and the pages read them by name (``Signer.load_link``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode, int_to_bytes, want_bytes
from itsdangerous.signer import HMACAlgorithm

from pbem.i18n import gettext

MOVE, SEAT, INVITE, UNSUBSCRIBE, CALENDAR = "move", "seat", "invite", "unsubscribe", "calendar"
#: a creator confirms their address; an address that has not joined asks for no more mail
CONFIRM, NEVER = "confirm", "never"
#: a player's own list of all their games ("my games")
GAMES = "games"
#: an address following a game (its confirmation, its unfollow); one joining an open game
FOLLOW, JOIN = "follow", "join"
PURPOSES = (MOVE, SEAT, INVITE, UNSUBSCRIBE, CALENDAR, CONFIRM, NEVER, GAMES, FOLLOW, JOIN)


#: what each purpose's token carries, by name: the key it has in the token (one letter:
#: every mailed link carries them) and the type its value must have
FIELDS: dict[str, dict[str, tuple[str, type]]] = {
    MOVE: {"game": ("g", int), "seat": ("s", int), "turn": ("t", int), "menu": ("n", int),
           "move": ("m", str), "player": ("p", int), "version": ("v", int)},
    SEAT: {"game": ("g", int), "seat": ("s", int), "player": ("p", int), "version": ("v", int)},
    INVITE: {"game": ("g", int), "seat": ("s", int), "email": ("e", str)},
    #: without a kind: all mail ("stop all mail"); with one: that kind (``mail.kinds``)
    UNSUBSCRIBE: {"player": ("p", int), "kind": ("k", str)},
    CALENDAR: {"player": ("p", int), "version": ("v", int)},
    CONFIRM: {"player": ("p", int)},
    NEVER: {"email": ("e", str)},
    GAMES: {"player": ("p", int), "version": ("v", int)},
    FOLLOW: {"follower": ("f", int), "key": ("k", str)},
    JOIN: {"game": ("g", int), "email": ("e", str)},
}


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
        return _serializer(tuple(self.secret_keys), purpose)

    def sign(self, purpose: str, payload: dict[str, Any]) -> str:
        return self._serializer(purpose).dumps(payload)

    def sign_link(self, purpose: str, **values: Any) -> str:
        """A token of ``purpose`` carrying ``values`` by their names in ``FIELDS``."""
        fields = FIELDS[purpose]
        return self.sign(purpose, {fields[name][0]: value for name, value in values.items()})

    def load_link(self, purpose: str, token: str, max_age_seconds: int | None = None) -> Link:
        """The token's values, read by name; ``LinkError`` if it is not ours or too old."""
        return Link(purpose, self.load(purpose, token, max_age_seconds))

    def load(self, purpose: str, token: str, max_age_seconds: int | None = None) -> dict[str, Any]:
        serializer = self._serializer(purpose)
        payload = verified(serializer, token, max_age_seconds)
        try:
            if payload is UNSURE:  # itsdangerous reads it, and says what is wrong
                payload = serializer.loads(token, max_age=max_age_seconds)
        except SignatureExpired as exc:
            raise LinkError("expired", gettext("This link has expired.")) from exc
        except BadSignature as exc:
            raise LinkError("forged", gettext("This link is not valid: it was not made by "
                                              "this server or it was changed.")) from exc
        if not isinstance(payload, dict):
            raise LinkError("forged", gettext("This link is not valid."))
        return payload


class KeptSigner(TimestampSigner):
    """itsdangerous's timestamp signer with each key derived once: it derives the key
    again (a SHA-1) for every signature and every check, and a seat page signs a link
    for every place to tap.  It signs in one HMAC call (``hmac.digest``, in C), where
    itsdangerous goes through four layers of Python.  The tokens are itsdangerous's,
    byte for byte."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._derived: dict[Any, bytes] = {}

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        derived = self._derived.get(secret_key)
        if derived is None:
            derived = self._derived[secret_key] = super().derive_key(secret_key)
        return derived

    def sign(self, value: str | bytes) -> bytes:
        if type(self.algorithm) is not HMACAlgorithm:
            return super().sign(value)
        # ``TimestampSigner.sign`` and ``Signer.get_signature``, step for step
        stamped = (want_bytes(value) + self.sep
                   + base64_encode(int_to_bytes(self.get_timestamp())))
        return stamped + self.sep + base64_encode(
            hmac.digest(self.derive_key(), stamped, self.digest_method))


class KeptSerializer(URLSafeTimedSerializer):
    """itsdangerous's URL-safe timed serializer signing with one :class:`KeptSigner`
    (itsdangerous makes a new signer for every token, and derives its key again); the
    signer keeps nothing of a token, so threads share it."""

    default_signer = KeptSigner

    def make_signer(self, salt: str | bytes | None = None) -> TimestampSigner:
        if salt is not None and salt != self.salt:
            return super().make_signer(salt)
        kept = self.__dict__.get("_kept_signer")
        if kept is None:
            kept = self._kept_signer = super().make_signer(salt)
        return kept

    def dump_payload(self, obj: Any) -> bytes:
        """itsdangerous's payload of ``obj`` (its JSON, zlib-compressed where that is
        shorter, in URL-safe base64), kept by that JSON: trying the compression costs
        more than all the rest of a token (zlib sets up its tables for every call), and
        the same values are signed again and again (a seat's address on every page of
        it, a session cookie as it was)."""
        data = want_bytes(self.serializer.dumps(obj, **self.serializer_kwargs))
        made = _PAYLOADS.get(data)
        if made is None:
            made = super().dump_payload(obj)
            if len(_PAYLOADS) >= _PAYLOADS_MOST:
                _PAYLOADS.clear()
            _PAYLOADS[data] = made
        return made


#: token payloads by the JSON they were made of (``KeptSerializer.dump_payload``): a
#: pure function of it, so kept for the process; forgotten all at once when full
_PAYLOADS: dict[bytes, bytes] = {}
_PAYLOADS_MOST = 4096


class CompactJSON:
    """itsdangerous's JSON for tokens (``itsdangerous._json._CompactJSON``: no spaces,
    not ASCII-escaped), the same text from an encoder made once: ``json.dumps`` with
    any option makes a new one for every call."""

    _encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def loads(payload: str | bytes) -> Any:
        return json.loads(payload)

    @classmethod
    def dumps(cls, obj: Any, **kwargs: Any) -> str:
        if kwargs:
            return json.dumps(obj, **{"ensure_ascii": False, "separators": (",", ":"),
                                      **kwargs})
        return cls._encoder.encode(obj)


#: ``verified``'s answer where itsdangerous is to decide
UNSURE: Any = object()


def verified(serializer: URLSafeTimedSerializer, token: str, max_age: int | None) -> Any:
    """The payload of a good token of ``serializer`` that is young enough, as
    ``serializer.loads`` reads it, read with one HMAC call in C; ``UNSURE`` for any
    other token (a bad signature, too old, compressed, not as we write tokens), which
    itsdangerous reads and refuses with its own reasons, as always.

    A signature made with one of our keys over the token's payload and time is proof
    that we wrote both, so they are read as we write them (canonical base64, JSON)."""
    if type(token) is not str or not token.isascii():
        return UNSURE
    signed, _dot, signature = token.rpartition(".")
    payload, _dot, stamp = signed.rpartition(".")
    signer = serializer.make_signer()
    if not payload or payload.startswith(".") or len(stamp) > 11 or type(
            signer.algorithm) is not HMACAlgorithm:
        return UNSURE
    raw, wanted = signed.encode("ascii"), signature.encode("ascii")
    if not any(hmac.compare_digest(base64_encode(hmac.digest(
            signer.derive_key(key), raw, signer.digest_method)), wanted)
            for key in reversed(signer.secret_keys)):
        return UNSURE
    try:
        made = int.from_bytes(base64.urlsafe_b64decode(stamp + "=" * (-len(stamp) % 4)),
                              "big")
        if max_age is not None and not 0 <= signer.get_timestamp() - made <= max_age:
            return UNSURE
        return serializer.serializer.loads(
            base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8"))
    except (ValueError, binascii.Error):  # UnicodeDecodeError and JSON's errors too
        return UNSURE


#: the hash of the signatures: SHA-1 as itsdangerous's default, but OpenSSL's own function,
#: which ``hmac`` computes in C (its default, a Python function that looks SHA-1 up when
#: called, sends every HMAC through ``hmac``'s slower pure-Python path)
SHA1 = hashlib.sha1


@functools.lru_cache(maxsize=64)
def _serializer(secret_keys: tuple[str, ...], purpose: str) -> URLSafeTimedSerializer:
    """One serializer per keys and purpose (it keeps no state between tokens): making one
    tries its JSON serializer out, and a seat page signs a link for every place to tap."""
    return KeptSerializer(list(secret_keys), salt=f"pbem-{purpose}", serializer=CompactJSON,
                          signer_kwargs={"digest_method": SHA1})


#: the numbers a reply address's token carries, in order: the game, the seat's index,
#: the seat's turn and menu version the mail was sent for, the mail (``Outbox`` row) and
#: the player's link version
REPLY_FIELDS = ("game", "seat", "turn", "menu", "mail", "version")
_REPLY_SIG_CHARS = 16


def _reply_mac(key: str, numbers: str) -> str:
    digest = hmac.new(key.encode(), f"pbem-reply:{numbers}".encode(), hashlib.sha256).digest()
    # base32 in lower case: a mail server may fold the case of an address's local part
    return base64.b32encode(digest).decode().lower()[:_REPLY_SIG_CHARS]


def sign_reply(signer: Signer, **values: int) -> str:
    """The token of a personal reply address: short, for an address's local part may
    be 64 characters long (RFC 5321), hence not an itsdangerous token but its numbers
    and an HMAC of them with the newest key, e.g. ``12-0-3-5-77-1-k3j4h5g6f7d8s9a0``."""
    numbers = "-".join(str(int(values[name])) for name in REPLY_FIELDS)
    return f"{numbers}-{_reply_mac(signer.secret_keys[-1], numbers)}"


def load_reply(signer: Signer, token: str) -> dict[str, int] | None:
    """The numbers of a reply token made by ``sign_reply`` with any of our keys, or None."""
    numbers, _sep, mac = token.lower().rpartition("-")
    parts = numbers.split("-")
    if len(parts) != len(REPLY_FIELDS) or not all(p.isascii() and p.isdigit()
                                                    and len(p) <= 10 for p in parts):
        return None
    if not any(hmac.compare_digest(_reply_mac(key, numbers), mac)
               for key in signer.secret_keys):
        return None
    return dict(zip(REPLY_FIELDS, map(int, parts), strict=True))


@dataclass(frozen=True)
class Link:
    """A loaded token's values by their names in ``FIELDS``.  A value is checked when it is
    read, so a page asks first what it needs first (the game, then its seat...)."""

    purpose: str
    payload: Mapping[str, Any]

    def get(self, name: str) -> Any:
        """The value, or None when the token lacks it or it has another type."""
        key, kind = FIELDS[self.purpose][name]
        value = self.payload.get(key)
        return value if type(value) is kind else None

    def __getitem__(self, name: str) -> Any:
        value = self.get(name)
        if value is None:
            raise LinkError("forged", gettext("This link is not valid: it does not name what "
                                              "it should."))
        return value
