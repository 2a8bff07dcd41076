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
