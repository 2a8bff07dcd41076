"""How a pbem process keeps the memory it frees: for the next page, not for the system.

A page, a mail and an archive page are built of large strings made and dropped within
one request: a Macao table's SVG is 65,000 characters, two bytes each where a "·" is
in it, and the seat page around it more.  glibc's ``malloc`` gives a block that large
its own ``mmap`` (128 KiB and up, at first) or trims the heap's top back to the system
once more than twice that lies free there, so the next request maps the same memory
again and faults on every page of it.  Measured on the 2-core machine of issue 23:
Macao pictures drawn one after another took 0.51 ms each against 0.33 ms with the
thresholds below, and a full archive build of 80 games 3.6 s of CPU against 2.9–3.05 s
(9,700 page faults against 6,300); a web click, whose heap is busy with other blocks
between its pictures, faulted about once either way and showed no difference.

``keep_freed_memory`` raises both thresholds with ``mallopt``: blocks up to
``MMAP_THRESHOLD`` come from the heap, and up to ``TRIM_THRESHOLD`` of free memory at
its top stays with the process.  A process so keeps at most that much it had used
anyway at its peak.  Where the C library is not glibc (musl, macOS), or where the
operator set glibc's own ``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``
variables, nothing is changed.  Every process that starts work calls it: the
``pbem`` command, the web app (gunicorn imports it without the command) and the
archive's worker processes.

``freeze_loaded`` is for a process that serves requests for hours (a gunicorn worker,
``pbem serve``), called once its app is built: what start-up loaded (modules, compiled
code, the games' data, templates: 50,000 to 70,000 objects the cyclic collector tracks)
lives as long as the process, yet each full collection walked all of it again: 40-50 ms
of CPU inside whichever request triggered it in issue 23's load runs, 11 ms with it
frozen.  ``gc.freeze`` moves those objects out of the collector's generations, so a full
collection walks only what the requests made since.  Not for ``create_app`` itself:
every test builds an app, and a frozen object that later becomes cyclic garbage is never
collected.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import platform

#: ``mallopt``'s parameters (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: blocks up to this size come from the heap, not from a mapping of their own
MMAP_THRESHOLD = 16 * 1024 * 1024
#: free memory at the heap's top kept for the process, up to this much
TRIM_THRESHOLD = 32 * 1024 * 1024
#: glibc's own variables: an operator who set one chose for the process
_OPERATORS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")

_done: bool | None = None


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds once in this process (see the module's
    docstring); whether they are raised (``False`` without glibc or where the operator
    set glibc's variables)."""
    global _done
    if _done is None:
        _done = _raise_thresholds()
    return _done


def _raise_thresholds() -> bool:
    if any(name in os.environ for name in _OPERATORS):
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt says 1 where it took the value; the mmap threshold first: setting either
    # ends glibc's own moving of both, which would otherwise follow the blocks freed
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def freeze_loaded() -> int:
    """Collect once, then leave everything alive now out of later collections (see the
    module's docstring); how many objects are frozen in all."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
