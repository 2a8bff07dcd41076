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
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
