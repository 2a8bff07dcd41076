"""Link tokens signed with kept keys (``pbem.links.KeptSerializer``) are itsdangerous's
own, byte for byte, and read as they were, under every key of a rotation."""

from __future__ import annotations

import pytest
from freezegun import freeze_time
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from pbem import links

PAYLOADS = [{"g": 12, "s": 0, "p": 3, "v": 1},
            {"g": 7, "s": 2, "t": 40, "n": 41, "m": "discard Wein", "p": 9, "v": 2},
            {"e": "ä@example.org" * 20, "g": 1}]  # long enough to be compressed


@pytest.mark.parametrize("keys", [["only"], ["older", "newer"]])
def test_kept_tokens_are_itsdangerous_tokens(keys):
    signer = links.Signer(keys)
    plain = URLSafeTimedSerializer(keys, salt="pbem-move")
    with freeze_time("2026-11-20 12:00:00"):
        for payload in PAYLOADS:
            token = signer.sign(links.MOVE, payload)
            assert token == plain.dumps(payload)
            assert signer.load(links.MOVE, token, 60) == payload
            # the same token twice: nothing of the first kept in the signer
            assert signer.sign(links.MOVE, payload) == token
        old = URLSafeTimedSerializer(keys[:1], salt="pbem-move").dumps(PAYLOADS[0])
        assert signer.load(links.MOVE, old) == PAYLOADS[0]  # signed before a rotation
        with pytest.raises(links.LinkError):
            signer.load(links.SEAT, token)  # another purpose's salt
        with pytest.raises(links.LinkError):
            links.Signer(["someone else's"]).load(links.MOVE, token)
    with freeze_time("2026-11-20 12:02:00"), pytest.raises(links.LinkError) as expired:
        signer.load(links.MOVE, token, 60)
    assert expired.value.reason == "expired"
    assert isinstance(expired.value.__cause__, SignatureExpired)
    assert isinstance(expired.value.__cause__, BadSignature)


def _variants(token: str) -> list[str]:
    """The token and ways it could be changed: every character in turn, cut, lengthened."""
    alphabet = "A."
    made = [token, token[:-1], token + "A", token[1:], "." + token, token.replace(".", "", 1)]
    for i in range(len(token)):
        for c in alphabet:
            if token[i] != c:
                made.append(token[:i] + c + token[i + 1:])
    return made


@pytest.mark.parametrize("keys", [["only"], ["older", "newer"]])
def test_a_token_is_read_as_itsdangerous_reads_it(keys):
    """``links.verified`` reads only what itsdangerous reads, the same values; it leaves
    every other token (changed, too old, from the future, compressed) to itsdangerous."""
    signer = links.Signer(keys)
    plain = URLSafeTimedSerializer(keys, salt="pbem-move")
    serializer = signer._serializer(links.MOVE)
    with freeze_time("2026-11-20 12:00:00"):
        tokens = [signer.sign(links.MOVE, payload) for payload in PAYLOADS]
        tokens.append(URLSafeTimedSerializer(keys[:1], salt="pbem-move").dumps(PAYLOADS[1]))
        tokens.append(URLSafeTimedSerializer(keys, salt="pbem-move").dumps([1, 2]))
        tokens.append("ä" + tokens[0])
    assert tokens[2].startswith(".")  # the compressed one
    read = 0
    for moment, max_age in (("2026-11-20 12:00:30", 60), ("2026-11-20 12:02:00", 60),
                            ("2026-11-20 11:59:00", 60), ("2026-11-20 11:59:00", None),
                            ("2026-11-21 12:00:00", None)):
        with freeze_time(moment):
            for token in [v for t in tokens for v in _variants(t)]:
                try:
                    wanted = plain.loads(token, max_age=max_age)
                except BadSignature:
                    wanted = BadSignature
                got = links.verified(serializer, token, max_age)
                if got is not links.UNSURE:
                    read += 1
                    assert got == wanted and type(got) is type(wanted), token
                elif wanted is not BadSignature:  # good: only compressed ones are left
                    assert token.startswith("."), token
    assert read > 0


def test_payloads_are_kept_by_their_json_alone():
    """The payload kept for a JSON text is what itsdangerous makes of it under any salt
    and keys (``KeptSerializer.dump_payload``)."""
    with freeze_time("2026-11-20 12:00:00"):
        for purpose in (links.MOVE, links.SEAT):
            for keys in (["one"], ["two", "three"]):
                signer = links.Signer(keys)
                plain = URLSafeTimedSerializer(keys, salt=f"pbem-{purpose}")
                for payload in PAYLOADS:
                    assert signer.sign(purpose, payload) == plain.dumps(payload)
