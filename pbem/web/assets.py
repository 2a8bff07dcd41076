"""The service's own static files (the stylesheet, the scripts, the icon), named by
their content so that a browser keeps them.

Flask serves ``/static/<file>`` for a conditional request: every page a player opens
asked again for ``style.css`` (and the scripts of the seat page), and the stylesheet
holds up the page's first paint until the answer, one round trip on a phone's network
for every click.  Every page names each file with its version, the start of the
SHA-256 of its bytes (``/static/style.css?v=1a2b3c4d5e6f``): such a URL is served
to be kept a year, unchanged (``immutable``).  A new release changes the bytes and so
the URL, and pages ask for the new file; a URL with a version that is not (or no
longer) the file's, or none, is served as before, to be asked for again each time.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from typing import Any

from flask import Flask, Response, request, send_from_directory
from werkzeug.security import safe_join

from pbem.web import urls

#: how long a browser keeps a file named by its version: a year, the longest HTTP says
KEPT_SECONDS = 365 * 24 * 3600
#: hexadecimal digits of the SHA-256 in a version: 48 bits, no two releases alike
VERSION_DIGITS = 12
#: how long a page names a file by the version read last without looking at the file
#: again (its size and time): every page names three to five, and a file edited under
#: ``pbem serve --reload`` is named by its new version that much later at most (the file
#: itself is served as it is, and kept only under the version it has then)
RECHECK_SECONDS = 1.0


class Versions:
    """Each static file's version, read again when its size or time changes (a file
    edited under ``pbem serve --reload``), else known."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._known: dict[str, tuple[int, int, str]] = {}
        self._lock = threading.Lock()
        #: per file: the version of ``of``'s last answer and when it was read (monotonic)
        self._recent: dict[str, tuple[str | None, float]] = {}

    def named(self, filename: str) -> str | None:
        """The version a page names ``filename`` by: ``of``'s, looked up again at most
        every ``RECHECK_SECONDS``."""
        now = time.monotonic()
        recent = self._recent.get(filename)
        if recent is not None and now - recent[1] < RECHECK_SECONDS:
            return recent[0]
        version = self.of(filename)
        self._recent[filename] = (version, now)
        return version

    def of(self, filename: str) -> str | None:
        """The version of ``filename`` in the folder; ``None`` for no such file."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        known = self._known.get(filename)
        if known is not None and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        try:
            with open(path, "rb") as file:
                version = hashlib.sha256(file.read()).hexdigest()[:VERSION_DIGITS]
        except OSError:  # a folder, or gone since: served (or refused) as Flask would
            return None
        with self._lock:
            self._known[filename] = (stat.st_mtime_ns, stat.st_size, version)
        return version


def install(app: Flask) -> None:
    """Static URLs with their versions on ``app``, and those kept a year by browsers."""
    folder = app.static_folder
    if folder is None:
        return
    versions = Versions(folder)

    @app.url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values and "filename" in values:
            version = versions.named(values["filename"])
            if version is not None:
                values["v"] = version

    def static(filename: str) -> Response:
        asked = request.args.get("v")
        kept = asked is not None and asked == versions.of(filename)
        response = send_from_directory(folder, filename,
                                       max_age=KEPT_SECONDS if kept else None)
        if kept:
            response.cache_control.immutable = True
        return response

    app.view_functions["static"] = static
    urls.install(app, versions.named)
