"""The inbound-mail webhook: a mail provider posts each reply here as raw MIME.

``POST /inbound/mail`` with the whole message as the body and the header
``Authorization: Bearer <[inbound] webhook_secret>``; optionally the envelope's
recipients in ``X-Envelope-To`` (comma-separated), where the provider knows them.
Off (404) while the secret is empty.  The reply is acted on by
``pbem.lifecycle.replies.receive`` before the answer: 200 with what became of it
(played, talked, refused, ignored, duplicate; never an error for what a sender put
in a mail), 503 when it could not be recorded just now (nothing was kept: the
provider posts it again, and its Message-ID makes the second post play once).
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from flask import Blueprint, abort, jsonify, request

from pbem.lifecycle import moves, replies
from pbem.web import context

bp = Blueprint("inbound", __name__)
log = logging.getLogger("pbem.webhook")


def _authorized(secret: str) -> bool:
    given = request.headers.get("Authorization", "")
    scheme, _sep, value = given.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(),
                                                              secret.encode())


@bp.post("/inbound/mail")
def inbound_mail() -> Any:
    config = context().config
    secret = config.get("inbound", "webhook_secret")
    if not secret:
        abort(404)
    if not _authorized(secret):
        return jsonify(error="unauthorized"), 401, {"WWW-Authenticate": "Bearer"}
    # the app's own limit is a form's; a mail may be larger, up to [inbound] max_bytes
    request.max_content_length = config.getint("inbound", "max_bytes")
    raw = request.get_data(cache=False)  # 413 beyond the limit, before anything is read
    recipients = [a.strip() for a in request.headers.get("X-Envelope-To", "").split(",")
                  if a.strip()][:20]
    try:
        result = replies.receive(context(), raw, recipients)
    except moves.PlayError as exc:  # "busy": the game's lock was held too long
        log.warning("webhook: reply not recorded (%s); the provider will post it again", exc)
        return jsonify(error="busy"), 503, {"Retry-After": "60"}
    log.info("webhook: %s", replies.describe(result))
    return jsonify(replies.describe(result)), 200
