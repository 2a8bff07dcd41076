"""The heap a pbem process keeps (``pbem.heap``): large strings made and dropped again
and again, as a page's pictures are, reuse the process's memory instead of mapping it
anew each time.  Counted in page faults (the kernel's count for the process), not
timed: a process whose freed memory went back to the system faults on every page of
each new block."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

glibc = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="mallopt's thresholds are glibc's: elsewhere pbem.heap changes nothing")

#: a fresh interpreter: the heap tuned or not (argv[1]), then 200 strings of 300,000
#: characters (two bytes each: "·"), each made while the one before is alive and
#: dropped after, as a page holds its picture and the page around it; the minor page
#: faults of that loop and what keep_freed_memory said
_CHILD = """
import json, resource, sys
from pbem.heap import keep_freed_memory
said = keep_freed_memory() if sys.argv[1] == "tuned" else None
piece = "·" * 300_000
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(200):
    a = piece + str(i)
    b = a + "."
    del a, b
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(json.dumps({"said": said, "faults": faults}))
"""


def _child(mode: str, **env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    out = subprocess.run([sys.executable, "-c", _CHILD, mode], env={**clean, **env},
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


@glibc
def test_freed_blocks_are_reused_not_mapped_again() -> None:
    plain, tuned = _child("plain"), _child("tuned")
    assert tuned["said"] is True
    # 200 blocks of 600 kB: untuned, glibc maps (or trims and grows) each one anew, some
    # 150 faults a block; tuned, the first blocks' pages serve the rest
    assert plain["faults"] > 10_000, plain
    assert tuned["faults"] < plain["faults"] // 10, (plain, tuned)


@glibc
def test_an_operators_own_malloc_settings_are_left_alone() -> None:
    chosen = _child("tuned", MALLOC_TRIM_THRESHOLD_="131072")
    assert chosen["said"] is False
