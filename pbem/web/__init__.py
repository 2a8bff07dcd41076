"""The web server: a Flask application factory and its blueprints.

``create_app(ctx)`` builds one application from one :class:`~pbem.context.Context`
(settings, link signer): tests make a fresh app per test; ``pbem serve`` and
gunicorn (``gunicorn "pbem.web:serving_app()"``) make one at start-up through
``serving_app``, which also leaves what start-up loaded out of the garbage
collector's walks (``pbem.heap.freeze_loaded``).  The
pages never apply rules or send mail themselves: they read the database, and
every change goes through :mod:`pbem.lifecycle.moves`, whose transaction also queues
the mails that the scheduler delivers.

Blueprints, one concern each:

``play``   the pages behind mailed links: move confirm (``/m/``), personal
           seat (``/s/``), public game (``/g/``)
``lobby``  the home page, creating a game (``/new``), accepting an invitation
           (``/i/``), unsubscribing (``/u/``)
``archive_views``  the static archive of finished games (``/archive/``)
``about``  each game's "about this game's data" page (``/games/<name>/data``)
``dev``    development only: the mails of the folder transport (``/dev/mail``)

GET never changes anything (mail scanners open links to check them); every
change is a POST carrying the CSRF token of :mod:`pbem.web.csrf`.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

import jinja2
from flask import Flask, current_app, render_template, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask.templating import Environment as FlaskTemplates
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException

from pbem import i18n, links
from pbem.context import TEMPLATES_DIR, Context, make_context
from pbem.heap import freeze_loaded, keep_freed_memory
from pbem.models import db, open_database
from pbem.web import assets, csrf
from pbem.web.refusal import Refusal

STATIC_DIR = Path(__file__).resolve().parent / "static"

#: modules whose ``bp`` the app serves; a part of pbem with pages adds its module here
BLUEPRINTS: tuple[str, ...] = ("pbem.web.play", "pbem.web.lobby", "pbem.web.time_views",
                                "pbem.web.archive_views", "pbem.web.mine", "pbem.web.about",
                                "pbem.web.follow", "pbem.web.open_games",
                                "pbem.web.inbound")
#: served only when [server] production is false
DEV_BLUEPRINTS: tuple[str, ...] = ("pbem.web.dev",)


def create_app(ctx: Context | None = None) -> Flask:
    """A Flask application serving pbem with the settings of ``ctx``.

    Without ``ctx`` the settings are loaded as everywhere else (defaults,
    ``config.ini``, ``PBEM_*`` variables).  A production configuration that
    fails :meth:`~pbem.config.Config.check_production` stops the start.  The
    database is opened from the settings unless the caller (a test, the CLI)
    has opened one already.
    """
    keep_freed_memory()  # gunicorn imports the app without the command (pbem.heap)
    ctx = ctx or make_context()
    config = ctx.config
    config.check_production()
    if db.obj is None:
        open_database(config.database_url)
    production = config.getbool("server", "production")

    app = Flask(__name__, template_folder=str(TEMPLATES_DIR), static_folder=str(STATIC_DIR),
                static_url_path="/static")
    keys = [k.strip() for k in config.get("server", "secret_key").split(",") if k.strip()]
    app.config.update(
        SECRET_KEY=keys[-1],
        SECRET_KEY_FALLBACKS=keys[:-1],
        SESSION_COOKIE_NAME="pbem",
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=ctx.base_url.startswith("https://"),
        PERMANENT_SESSION_LIFETIME=timedelta(days=62),
        # renewed by csrf.token() when half used up, not re-signed on every response
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=64 * 1024,
        PBEM_PRODUCTION=production,
    )
    app.session_interface = _SessionCookies()
    # every template kept, in a plain dict: Jinja's LRU cache takes a lock and moves the
    # name to its end for every include and import (a page has about eight), and our
    # templates are a few dozen files
    app.jinja_options = {**app.jinja_options, "cache_size": -1}
    app.jinja_environment = _Templates
    app.extensions["pbem"] = ctx
    app.jinja_env.undefined = jinja2.StrictUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.filters["seats"] = ctx.html.filters["seats"]
    app.jinja_env.filters["seat_lines"] = ctx.html.filters["seat_lines"]
    app.jinja_env.globals["csrf_token"] = csrf.token
    app.jinja_env.globals["csrf_input"] = csrf.field
    app.jinja_env.globals["production"] = production
    i18n.install(app)

    for module in BLUEPRINTS + (() if production else DEV_BLUEPRINTS):
        app.register_blueprint(import_module(module).bp)

    assets.install(app)
    _one_context_processor_run(app)
    _database_per_request(app)
    _pages_for_errors(app)
    _safety_headers(app)
    return app


def serving_app(ctx: Context | None = None) -> Flask:
    """The app for a process that serves it until it stops (gunicorn's workers, ``pbem
    serve``): ``create_app(ctx)``, then what it loaded frozen out of the collector's
    generations, so no full collection inside a request walks it all again."""
    app = create_app(ctx)
    freeze_loaded()
    return app


class _Templates(FlaskTemplates):
    """Flask's template environment, each template's globals one dict, made when the
    template is loaded, where Jinja makes a ``ChainMap`` over the environment's: every
    render and every include makes a context that takes the set of the globals' names,
    and every import compares them, which a ``ChainMap`` answers by merging its maps
    again (a page has about eight).  Every global is set in ``create_app``, before any
    template is loaded, as Jinja advises (``Environment.make_globals``)."""

    def make_globals(self, d: Any) -> Any:
        return {**self.globals, **(d or {})}


class _SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, its serializer made once per keys: Flask makes a new
    one to read the cookie of every request and another to write it, and making one tries
    its JSON serializer out (a third of reading the cookie); its signer keeps its derived
    keys (``links.KeptSerializer``) and signs with OpenSSL's SHA-1 (``links.SHA1``).  The
    serializer keeps nothing between cookies; the cookies are Flask's, byte for byte.
    A good cookie is read as a good link is (``links.verified``: one HMAC call, not
    itsdangerous's layers; every request of a click reads it, for its CSRF value); any
    other cookie is Flask's to read, and to refuse for its reasons, as before."""

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        cookie = request.cookies.get(self.get_cookie_name(app)) if serializer else None
        if not cookie:
            return super().open_session(app, request)
        data = links.verified(serializer, cookie,
                              int(app.permanent_session_lifetime.total_seconds()))
        if data is links.UNSURE:
            return super().open_session(app, request)
        return self.session_class(data)

    digest_method = staticmethod(links.SHA1)
    _made: tuple[tuple[Any, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._made
        if made is None or made[0] != keys:  # keys changed (a test's app): made again
            made = self._made = (keys, self._serializer(keys) if app.secret_key else None)
        return made[1]

    def _serializer(self, keys: tuple[Any, ...]) -> URLSafeTimedSerializer:
        # as Flask's get_signing_serializer: the current key last, the fallbacks before
        return links.KeptSerializer(
            [*keys[1:], keys[0]], salt=self.salt, serializer=self.serializer,
            signer_kwargs={"key_derivation": self.key_derivation,
                           "digest_method": self.digest_method})


try:  # Flask's context variable of the application: its ``current_app`` proxy costs
    # several times as much, and a click asks for the context a dozen times
    from flask.globals import _cv_app
except ImportError:  # a Flask with other names: its public proxy then
    _cv_app = None


def running_app() -> Flask:
    """The application handling the current request, read from Flask's context variable
    (``flask.current_app``, the proxy, where this Flask has none)."""
    found = _cv_app.get(None) if _cv_app is not None else None
    return found.app if found is not None else current_app


def context() -> Context:
    """The context of the application handling the current request."""
    return running_app().extensions["pbem"]


#: the names and descriptions of the HTTP errors our pages meet, as Werkzeug says them,
#: marked for the catalog
_HTTP_WORDS = (
    i18n.N_("Bad Request"),
    i18n.N_("The browser (or proxy) sent a request that this server could not understand."),
    i18n.N_("Not Found"),
    i18n.N_("The requested URL was not found on the server. If you entered the URL manually "
            "please check your spelling and try again."),
    i18n.N_("Method Not Allowed"),
    i18n.N_("The method is not allowed for the requested URL."),
    i18n.N_("Request Entity Too Large"),
    i18n.N_("The data value transmitted exceeds the capacity limit."),
)


def _one_context_processor_run(app: Flask) -> None:
    """Flask's template context processors each run once a page: every blueprint brings
    Flask's default one (``g``, ``request``, ``session``) under its own name, so a page
    of a blueprint ran it twice, the second time for the same values.  A processor that
    the application runs for every page is dropped from the blueprints' lists."""
    processors = app.template_context_processors
    everywhere = processors.get(None, [])
    for name in [name for name in processors if name is not None]:
        kept = [f for f in processors[name] if f not in everywhere]
        if kept:
            processors[name] = kept
        else:
            del processors[name]


def _database_per_request(app: Flask) -> None:
    """One connection per request, closed at its end (threads of the server do not share)."""

    @app.before_request
    def _connect() -> None:
        if request.endpoint != "static":
            db.connect(reuse_if_open=True)

    @app.teardown_request
    def _close(_exc: BaseException | None) -> None:
        if not db.is_closed() and not db.in_transaction():
            db.close()


def _pages_for_errors(app: Flask) -> None:
    """Refusals and HTTP errors as readable pages with their status; never a stack trace."""

    @app.errorhandler(Refusal)
    def _refusal(exc: Refusal) -> Any:
        # a 429 says when to come back (RFC 6585), so a client need not guess
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else {}
        return render_template("pages/refusal.html", refusal=exc), exc.status, headers

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        # Werkzeug's own words, in the reader's language where the catalog has them
        return render_template("pages/error.html", code=exc.code,
                               name=i18n.gettext(exc.name),
                               description=i18n.gettext(exc.description or "")), exc.code

    @app.errorhandler(Exception)
    def _crash(exc: Exception) -> Any:
        app.logger.exception("request failed: %s %s", request.method, request.path)
        return render_template("pages/error.html", code=500,
                               name=i18n.gettext("Something went wrong"),
                               description=i18n.gettext(
                                   "The server could not answer this request. Nothing was "
                                   "changed by the failed request; please try again in a "
                                   "moment.")), 500


def _safety_headers(app: Flask) -> None:
    """No caching of personal pages, no token in a Referer, no framing, no inline scripts
    (our own static files only: ``zone.js`` presets a form's time zone)."""

    @app.after_request
    def _headers(response: Any) -> Any:
        # each header added unless the response has it, in this order (as ``setdefault``
        # would, which looks through all the headers again for each one)
        headers = response.headers
        present = {name.lower() for name in headers.keys()}
        for name, value in _SAFETY if request.endpoint == "static" else _SAFETY_PAGES:
            if name.lower() not in present:
                headers.add(name, value)
        return response


#: the headers every response gets (``_safety_headers``), and those of the pages beside
_SAFETY = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy",
     "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     "script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
)
_SAFETY_PAGES = (*_SAFETY, ("Cache-Control", "no-store"),
                 ("X-Robots-Tag", "noindex, nofollow"))
