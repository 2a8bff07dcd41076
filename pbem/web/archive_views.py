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

from flask import Blueprint, abort, redirect, send_from_directory
from werkzeug.security import safe_join

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
    response.headers["X-Robots-Tag"] = "all"  # public pages, unlike the personal ones
    return response
