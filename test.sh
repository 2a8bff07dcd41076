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
# on every core (pytest-xdist; an idle worker takes tests from a busy one): 579 s for
# 1,834 tests on two cores (26 November, session 14, in CI from a clean clone, a niced
# bot bench beside it for the first minutes; 678 s for 1,811 earlier that day). The
# aim is 5 minutes; the suite's CPU is about 690 s (bench/suite_cpu.py), so two cores
# need at least about 345 s.
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
