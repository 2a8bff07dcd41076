"""What the last build made: the manifest, in a main file and a file per block of games.

The main file (``.manifest.json``) keeps the code fingerprints, every index
page's fingerprint, files and list, the statistics' totals, and each game's
summary (:meth:`GameSummary.kept`), which an incremental build reads for
every game.  What it reads of just the games it renders again or loses (the
fingerprint of a game's page, its files, what the statistics keep of it) is
kept apart, in a file per :data:`SHARD` game ids (``.manifest-games-NNNNN.json``):
such a build reads and writes those of the games it changed, not the details of
ten thousand others (most of the manifest's bytes).  Both are plain JSON with
sorted keys, so two builds of one database, full or incremental, write the same
bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.archive.paths import MANIFEST
from pbem.archive.writer import SiteWriter

#: what the manifest holds; a manifest of another format only names files to remove
FORMAT = 4
#: game ids per file of the games' details
SHARD = 500
#: what a game's entry keeps in its shard (the rest, its summary, is in the main file)
DETAILS = ("fp", "files", "stats")


def shard_path(n: int) -> str:
    """The file of the details of games ``n * SHARD`` to ``(n + 1) * SHARD - 1``."""
    return f".manifest-games-{n:05d}.json"


def _shard(key: str) -> int:
    return int(key) // SHARD


@dataclass
class Manifest:
    """What the last build made, as :meth:`read` found it.

    ``games`` maps a game id (text, as JSON keys are) to ``{"summary", "fp",
    "files", "stats"}`` (:meth:`GameSummary.kept`; the last three once its
    shard is read, :meth:`entry`); ``pages`` an index page to ``{"fp", "files",
    "group"}``; ``code`` a game name ("" for the archive itself) to its code
    fingerprint; ``totals`` the statistics' totals (``tally.Totals.to_json``), if
    exact.  ``usable`` is false for a manifest of another format, whose file
    lists only say what to remove.
    """

    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    code: dict[str, str] = field(default_factory=dict)
    usable: bool = False
    totals: dict[str, Any] | None = None
    #: where the shards are read from, and which have been
    writer: SiteWriter | None = None
    read_shards: set[int] = field(default_factory=set)

    @classmethod
    def read(cls, writer: SiteWriter) -> Manifest:
        data = writer.read_json(MANIFEST)
        games, pages, code = data.get("games"), data.get("pages"), data.get("code")
        totals = data.get("statistics")
        if data.get("format") == FORMAT and isinstance(games, dict) \
                and isinstance(pages, dict) and isinstance(code, dict) \
                and all(writer.exists(shard_path(n)) for n in {_shard(key) for key in games}):
            return cls({key: {"summary": kept} for key, kept in games.items()}, pages, code,
                       usable=True, totals=totals if isinstance(totals, dict) else None,
                       writer=writer)
        # an older manifest: its pages (game pages among them) name the files it made
        return cls(pages=pages if isinstance(pages, dict) else {})

    def entry(self, key: str) -> dict[str, Any]:
        """Game ``key``'s whole entry, its shard read if it was not yet.

        A shard that is not this code's leaves its games' entries without details
        (a ``KeyError`` for the incremental plan, a page to make again for a full
        one); a missing one makes the whole manifest another format's (:meth:`read`).
        """
        entry = self.games[key]
        if "fp" not in entry and self.writer is not None:
            self._read_shard(_shard(key))
        return entry

    def _read_shard(self, n: int) -> None:
        if n in self.read_shards or self.writer is None:
            return
        self.read_shards.add(n)
        for key, details in self.writer.read_json(shard_path(n)).items():
            entry = self.games.get(key)
            if entry is not None and isinstance(details, dict):
                entry.update((k, details[k]) for k in DETAILS if k in details)

    def shards(self) -> set[int]:
        return {_shard(key) for key in self.games}

    def files(self) -> set[str]:
        out: set[str] = set()
        for key in self.games:
            out.update(_files(self.entry(key)))
        for entry in self.pages.values():
            out.update(_files(entry))
        return out

    def gone(self, new: Manifest) -> set[str]:
        """The files this manifest names that ``new`` does not."""
        if not self.usable:  # another format: its entries are not ours, compare it all
            return self.files() - new.files()
        out: set[str] = set()
        for key, entry in self.games.items():
            now = new.games.get(key)
            if now is not entry:  # an entry kept as it was names the same files
                out.update(set(_files(self.entry(key))) - set(_files(now)))
        for path, entry in self.pages.items():
            now = new.pages.get(path)
            if now is not entry:
                out.update(set(_files(entry)) - set(_files(now)))
        return out

    def changed_shards(self, old: Manifest) -> set[int]:
        """The shards whose games differ from ``old``'s (all, when ``old`` is another
        format's)."""
        if not old.usable:
            return self.shards() | old.shards()
        changed = {_shard(key) for key, entry in self.games.items()
                   if old.games.get(key) is not entry}
        return changed | {_shard(key) for key in old.games if key not in self.games}

    def write(self, writer: SiteWriter, old: Manifest, full: bool) -> None:
        """Write the shards that changed since ``old`` (every one, ``full``), removing
        those left without games, then the main file."""
        changed = self.shards() | old.shards() if full else self.changed_shards(old)
        contents: dict[int, dict[str, Any]] = {n: {} for n in changed}
        for key, entry in self.games.items():
            n = _shard(key)
            if n in contents:
                whole = old.entry(key) if old.games.get(key) is entry else entry
                contents[n][key] = {k: whole[k] for k in DETAILS if k in whole}
        for n in sorted(contents):  # all read above, before any is written
            if contents[n]:
                writer.write_json(shard_path(n), contents[n])
            else:
                writer.remove(shard_path(n))
        main = {"format": FORMAT, "code": self.code, "pages": self.pages,
                "games": {key: entry["summary"] for key, entry in self.games.items()}}
        if self.totals is not None:
            main["statistics"] = self.totals
        writer.write_json(MANIFEST, main)


def _files(entry: Any) -> list[str]:
    files = entry.get("files") if isinstance(entry, dict) else None
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []
