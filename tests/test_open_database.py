"""Opening the database again (tests, commands, a scheduler that reconnects) lets go of
what the last opening held: SQLite's writer-lock file beside the database
(``pbem.models._SqliteWriter``) is closed, not left open for the life of the process."""

from __future__ import annotations

import os

from pbem.models import Game, create_tables, db, open_database, write_transaction


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_opening_again_leaves_no_lock_file_open(tmp_path):
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    open_database(url)
    create_tables()

    def write_once() -> None:
        with write_transaction():  # takes the writer lock: its file is opened
            Game.select().count()

    write_once()
    before = _open_files()
    for _ in range(20):
        db.close()
        open_database(url)
        write_once()
    db.close()
    assert _open_files() <= before + 2, "each opening left its lock file open"
    assert (tmp_path / "pbem.db.writer").exists()
