"""The one writer that owns the output folder.

Every file of the site goes through :class:`SiteWriter`: it writes to a
temporary file beside the target and moves it into place with
``os.replace`` (a reader never sees half a page), and only when the bytes
differ from what is there, so an unchanged page keeps its file and its
modification time.  It keeps the manifest (``.manifest.json``): for each
page, the fingerprint of what it was made from and the files it made; the
next build renders only pages whose fingerprint changed (as Lektor's
artifacts table does) and removes the files of pages that are gone.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pbem.archive.paths import MANIFEST

MANIFEST_FORMAT = 1
LOCK = ".lock"


class BuildLocked(RuntimeError):
    """Another build holds the output folder."""


class SiteWriter:
    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        self.written: list[str] = []
        self.removed: list[str] = []

    def path(self, rel: str) -> Path:
        if rel.startswith("/") or ".." in rel.split("/"):
            raise ValueError(f"{rel!r} is not a path inside the site")
        return self.root / rel

    def exists(self, rel: str) -> bool:
        return os.path.isfile(os.path.join(self.root, rel))

    def write(self, rel: str, content: str | bytes) -> bool:
        """Write ``content`` to ``rel`` atomically if it differs; whether it was written."""
        data = content.encode("utf-8") if isinstance(content, str) else content
        target = self.path(rel)
        try:
            if target.stat().st_size == len(data) and target.read_bytes() == data:
                return False
        except FileNotFoundError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        # os.open honours the umask, so pages are as readable as any file made here
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        self.written.append(rel)
        return True

    def remove(self, rel: str) -> bool:
        try:
            self.path(rel).unlink()
        except FileNotFoundError:
            return False
        self.removed.append(rel)
        return True

    # -- the manifest -------------------------------------------------------

    def read_manifest(self) -> dict[str, dict[str, Any]]:
        """``{page: {"fp": fingerprint, "files": [...]}}`` of the last build, or empty."""
        try:
            data = json.loads(self.path(MANIFEST).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            return {}
        pages = data.get("pages")
        return pages if isinstance(pages, dict) else {}

    def write_manifest(self, pages: dict[str, dict[str, Any]]) -> bool:
        text = json.dumps({"format": MANIFEST_FORMAT, "pages": pages}, sort_keys=True,
                          ensure_ascii=False, indent=0, separators=(",", ":"))
        return self.write(MANIFEST, text + "\n")

    # -- one build at a time ------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, wait: bool = True) -> Iterator[None]:
        """Hold the folder's lock file; ``wait=False`` raises :class:`BuildLocked` at once."""
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            import fcntl
        except ImportError:  # not POSIX: one build at a time is up to the operator
            yield
            return
        with open(self.root / LOCK, "a") as handle:
            flags = fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)
            try:
                fcntl.flock(handle, flags)
            except BlockingIOError as exc:
                raise BuildLocked(f"another build is writing {self.root}") from exc
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
