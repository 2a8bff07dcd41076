"""CSRF protection for every POST: a random secret in the session cookie, echoed by the form.

A page that shows a form puts :func:`token` in a hidden ``csrf_token`` field;
the POST handler calls :func:`check`.  Another site can make a browser send
our cookie, but cannot read the page to learn the value, so it cannot forge
the field.  The only POST without it is the RFC 8058 one-click unsubscribe,
which mail providers send with no cookie at all (its signed link is the proof).

The session is permanent (``PERMANENT_SESSION_LIFETIME``) but its cookie is not
signed and sent again with every response (``SESSION_REFRESH_EACH_REQUEST`` is off:
each response had paid a compression, an HMAC and a header for it): :func:`token`
renews it when it is older than :data:`RENEW_AFTER_DAYS`, so a page that shows a
form always leaves the browser a cookie good for at least that long.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import UTC, datetime

from flask import request, session
from markupsafe import Markup

from pbem.i18n import gettext
from pbem.web.refusal import Refusal

FIELD = "csrf_token"
#: half the cookie's lifetime (62 days): a form on a page shown now still posts a month on
RENEW_AFTER_DAYS = 31


def token() -> str:
    """This browser's CSRF value, created on first use and kept in its session."""
    value = session.get("csrf")
    if not isinstance(value, str) or not value:
        value = secrets.token_urlsafe(32)
        session["csrf"] = value
        session.permanent = True
    today = datetime.now(UTC).date().toordinal()
    since = session.get("day")
    if not isinstance(since, int) or today - since >= RENEW_AFTER_DAYS:
        session["day"] = today  # modified: Flask sends the cookie with a new expiry
    return value


#: the hidden field of a form that posts (``field``)
_FIELD_HTML = Markup(f'<input type="hidden" name="{FIELD}" value="%s">')


def field() -> Markup:
    """The form's hidden field with this browser's token (``token``): the templates'
    ``csrf_field()`` (``pages/_forms.html``)."""
    return _FIELD_HTML % token()


def check(again_url: str | None = None) -> None:
    """Refuse the current POST unless its form carries this browser's CSRF value.

    ``again_url`` is the page that showed the form, offered on the refusal page.
    """
    sent = request.form.get(FIELD, "")
    wanted = session.get("csrf")
    if not isinstance(wanted, str) or not wanted or not hmac.compare_digest(
            sent.encode(), wanted.encode()):
        raise Refusal(
            "csrf",
            gettext("The form did not come with this browser's security token: the page may "
                    "have been open for very long, or cookies are blocked for this site. "
                    "Nothing was changed. Open the page again and repeat."),
            again_url=again_url,
        )
