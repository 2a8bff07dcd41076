"""The one writer that owns the output folder.

Every file of the site goes through :class:`SiteWriter`: it writes to a
temporary file beside the target and moves it into place with
``os.replace`` (a reader never sees half a page), and only when the bytes
differ from what is there, so an unchanged page keeps its file and its
modification time.  It writes the manifest's files (``.manifest.json`` and
its shards): for each page, the fingerprint of what it was made from and the
files it made; the next build renders only pages whose fingerprint changed
(as Lektor's artifacts table does) and removes the files of pages that are
gone (what the manifest holds: :class:`pbem.archive.manifest.Manifest`).  Worker
processes of a build each write the files of their own pages through a
writer of their own; only the building process writes the manifest.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LOCK = ".lock"


def _json(value: Any) -> str:
    """Compact JSON, with ``<>&`` as escapes (as in the game records): no name in the
    manifest can read as markup, whatever a host makes of the file."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


class BuildLocked(RuntimeError):
    """Another build holds the output folder."""


class SiteWriter:
    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        self._root = os.fspath(self.root)
        self.written: list[str] = []
        self.removed: list[str] = []
        #: folders known to exist (one ``mkdir`` each, not one per file)
        self._folders: set[str] = set()

    def path(self, rel: str) -> Path:
        return Path(self._target(rel))

    def _target(self, rel: str) -> str:
        """``rel`` inside the site, as a string (no ``Path`` made for each of a build's
        thousands of files)."""
        if rel.startswith("/") or ".." in rel.split("/"):
            raise ValueError(f"{rel!r} is not a path inside the site")
        return os.path.join(self._root, rel)

    def exists(self, rel: str) -> bool:
        return os.path.isfile(os.path.join(self._root, rel))

    def write(self, rel: str, content: str | bytes) -> bool:
        """Write ``content`` to ``rel`` atomically if it differs; whether it was written."""
        data = content.encode("utf-8") if isinstance(content, str) else content
        target = self._target(rel)
        try:
            if os.stat(target).st_size == len(data):
                with open(target, "rb") as old:
                    if old.read() == data:
                        return False
        except FileNotFoundError:
            pass
        folder, name = os.path.split(target)
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        temp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        # os.open honours the umask, so pages are as readable as any file made here
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            os.replace(temp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        self.written.append(rel)
        return True

    def remove(self, rel: str) -> bool:
        """Remove the page ``rel``, and each folder above it that this leaves empty (a
        game name's statistics whose last game left): a visitor finds no empty folder."""
        target = self.path(rel)
        try:
            target.unlink()
        except FileNotFoundError:
            return False
        self.removed.append(rel)
        folder = target.parent
        while folder != self.root and self.root in folder.parents:
            try:
                folder.rmdir()  # only an empty one goes
            except OSError:
                break
            folder = folder.parent
        return True

    # -- the manifest -------------------------------------------------------

    def read_json(self, rel: str) -> dict[str, Any]:
        """A JSON object a build wrote (the manifest's files), or empty."""
        try:
            data = json.loads(self.path(rel).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def write_json(self, rel: str, data: dict[str, Any]) -> bool:
        """Write a JSON object of the manifest: keys sorted, a line for each top-level key."""
        lines = [f"{_json(key)}:{_json(data[key])}" for key in sorted(data)]
        return self.write(rel, "{\n" + ",\n".join(lines) + "\n}\n")

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
