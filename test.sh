#!/usr/bin/env bash
# Install pbem with its test dependencies into .venv and run the whole suite.
# This is the README's test command; .ci/run calls it too.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/ruff check pbem tests bench
.venv/bin/lint-imports  # the layers of DESIGN.md, as pyproject.toml [tool.importlinter] writes them
set +e
# on every core (pytest-xdist; an idle worker takes tests from a busy one): 457 s for
# 1,853 tests on two cores (26 November, session 15, in CI from a clean clone, nothing
# else running; 579 s for 1,834 in session 14, before the pictures kept their pieces;
# 890 s for 1,884 on 27 November, on a machine about 3x slower that day: README).
# 27 November (issue 23): 483 CPU s in the test processes, not 594 (each mail picture
# drawn once per process, SQLite files copied); in CI from a clean clone on an idle
# machine 356 s for 1,904 tests (session 17), bound by CPU (three workers: 377 s);
# session 18, on a machine 1.6x slower that day: 537 s for 1,913, the code before 572 s;
# 445 s and 400 s for 1,908 (five archive tests about the builder's bookkeeping on SQLite
# only): the runs spread by more than the changes between them. Session 19: 556 s for
# 1,922, the code before 634 s right after (browser pages shown in one tab per test,
# the archive tests' first build linked, not copied). Session 20: 533 s for 1,924, the
# code before 550 s right after (mail pictures shared by the workers, cheaper contract checks).
# Session 21: 586 s for 1,929, the code before 578 s right after, on a machine 5% slower
# than the day before (contract playouts 135 -> 100 s of the workers' time; web tests swung 2x).
# Session 22: 381 s for 1,961 on the idle machine (469 s at session 21's end): cheaper
# Tallinn, Visby and Riga pages, the archive tests' rows copied, JSON copies in property tests.
# Session 23, on a faster host: 218 s for 1,965 (272 s for the code before, same hour):
# temporary files in /dev/shm and PostgreSQL commits not waiting for the disk (the
# suite had waited minutes for a virtual disk), fewer waits on the clock, a shared tab.
# Session 24, on a slower host again: 410 s for 1,996 (388 s for 1,965, the code before,
# right after): the same code took 213 s on session 23's host, so the hosts differ ~2x.
# Session 25: the longest tests first (tests/longest.txt, which bench/suite_cpu.py writes):
# a long test left to the end of a worker's run kept it busy while the other idled;
# 347 s for 2,009 tests in CI from a clean clone (the code before right after: 340 s for
# 1,996): the suite needs ~600 CPU s in all, ~300 s on two cores however it is packed.
# Session 26 (load 6-10, not idle): 361 CPU s in the test processes against 349 for the
# code before, within the noise; gc.freeze after collecting, PostgreSQL emptied in one
# text; fixtures' own setups are ~20 of those CPU s (bench/HISTORY.md). On a faster
# host, idle: 214.6 s for 2,025 tests in CI from a clean clone, the code before the
# session (e0fa76b) 217.8 s for 2,009 right after: the host, not the code, made it.
# The aim is 5 minutes; the contract playouts (every viewer's picture in both languages
# at every state) and the browser tests are the largest parts.
# Arguments come after, so `./test.sh -n 0` runs it in this one process.
# pytest keeps each test module with its asserts rewritten in __pycache__, unless Python
# is told to write no bytecode (some machines set that): then every run, in every
# worker, rewrites them all again
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest -n auto --dist worksteal "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
