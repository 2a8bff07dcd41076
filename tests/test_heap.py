"""The heap a pbem process keeps (``pbem.heap``): large strings made and dropped again
and again, as a page's pictures are, reuse the process's memory instead of mapping it
anew each time.  Counted in page faults (the kernel's count for the process), not
timed: a process whose freed memory went back to the system faults on every page of
each new block.  And a serving process's app leaves what start-up loaded out of the
garbage collector's walks: counted in objects the collector still tracks, not timed."""

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


#: a fresh interpreter (a frozen object stays frozen for the process's life): an app
#: built as tests build it, then one built as gunicorn and ``pbem serve`` build it; the
#: objects frozen after each and those the collector still walks at the end
_SERVING = """
import gc, json, sys
from pbem.context import make_context
from pbem import web
ctx = make_context(server={"instance": sys.argv[1]},
                   database={"url": "sqlite:///" + sys.argv[1] + "/pbem.db"})
web.create_app(ctx)
after_create = gc.get_freeze_count()
web.serving_app(ctx)
print(json.dumps({"after_create": after_create, "frozen": gc.get_freeze_count(),
                  "walked": len(gc.get_objects())}))
"""


def test_a_serving_app_leaves_what_start_up_loaded_out_of_collections(tmp_path) -> None:
    out = subprocess.run([sys.executable, "-c", _SERVING, str(tmp_path)],
                         capture_output=True, text=True, check=True, timeout=120)
    counts = json.loads(out.stdout)
    assert counts["after_create"] == 0, counts  # create_app, which every test calls: never
    # Flask, Jinja, peewee, the games and their data: tens of thousands of objects, which a
    # full collection walked in every worker again and again; after the freeze it walks a
    # handful
    assert counts["frozen"] > 20_000, counts
    assert counts["walked"] < counts["frozen"] // 20, counts
