"""``pbem scheduler`` whose ticks note who ran them and when (for test_scheduler_lock).

Each tick appends ``start <pid> <time>`` before and ``end <pid> <time>`` after the
real tick to the file named by ``PBEM_PROBE_TICKS``, and lasts at least
``PROBE_TICK_SECONDS``, long enough for two tickers at once to overlap visibly.
Each try of the lock (``Standby.ensure``, before every tick and every lock retry)
appends ``held <pid> <time>`` or ``refused <pid> <time>`` to ``PBEM_PROBE_TRIES``,
so that a test waits for the tries themselves, not for a time they should take.
Appends of one short line are atomic, so several processes can share the file.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from typing import Any

from pbem.cli import main
from pbem.context import Context
from pbem.time import scheduler

PROBE_TICK_SECONDS = 0.2
_real_tick = scheduler.tick
_real_ensure = scheduler.Standby.ensure


def _note(what: str, file: str = "PBEM_PROBE_TICKS") -> None:
    with open(os.environ[file], "a") as out:
        out.write(f"{what} {os.getpid()} {time.time():.6f}\n")


def probe_tick(ctx: Context, now: datetime | None = None, transport: Any = None) -> Any:
    _note("start")
    try:
        time.sleep(PROBE_TICK_SECONDS)
        return _real_tick(ctx, now, transport)
    finally:
        _note("end")


def probe_ensure(standby: scheduler.Standby) -> bool:
    held = _real_ensure(standby)
    _note("held" if held else "refused", "PBEM_PROBE_TRIES")
    return held


if __name__ == "__main__":
    scheduler.tick = probe_tick  # run_tick looks the tick up in the module at every run
    scheduler.Standby.ensure = probe_ensure
    main(["scheduler"])
