"""The static archive (``[archive] site_dir``, built by ``pbem build-site`` and the
scheduler) served under ``/archive/``, so that ``pbem serve`` alone shows it.

Files only from inside the folder (``send_from_directory`` refuses any path that
would leave it); a folder's ``index.html`` for the folder; a missing file is the
404 page.  A production deployment may let its web server serve the folder
instead: the archive needs no application.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, redirect, send_from_directory, url_for
from werkzeug.security import safe_join

from pbem.archive import paths
from pbem.web import context

bp = Blueprint("archive", __name__)


def _site() -> Path:
    return Path(context().config.get("archive", "site_dir")).absolute()


@bp.get("/archive")
def archive_root() -> Any:
    return redirect("/archive/", code=308)


@bp.get("/archive/", defaults={"path": ""})
@bp.get("/archive/<path:path>")
def archive_file(path: str) -> Any:
    site = _site()
    if path.startswith(".") or "/." in path:  # the manifest and other hidden files
        abort(404)
    full = safe_join(str(site), path) if path else str(site)
    if full is None:
        abort(404)
    if Path(full).is_dir():
        if path and not path.endswith("/"):
            return redirect(f"/archive/{path}/", code=308)
        path = f"{path}index.html"
    response = send_from_directory(site, path, max_age=300)
    if path.endswith(".html"):
        _link_home(response)
    if path == paths.FEED:  # guessed from ".xml" as application/xml: feed readers want Atom's
        response.mimetype = "application/atom+xml"
    response.headers["X-Robots-Tag"] = "all"  # public pages, unlike the personal ones
    return response


#: the archive's menu (``templates/archive/page.html``); the site itself links nothing
#: outside it, so that it works from disk and on any static host
_NAV = b'<nav aria-label="Archive">'


def _link_home(response: Response) -> None:
    """Served by pbem, an archive page's menu begins with the way back to the home page."""
    response.direct_passthrough = False  # a file response: read it to change it
    html = response.get_data()
    if _NAV in html:
        home = f'<a href="{url_for("lobby.home")}">Home</a>\n'.encode()
        response.set_data(html.replace(_NAV, _NAV + b"\n" + home, 1))
