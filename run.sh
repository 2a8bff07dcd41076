#!/usr/bin/env bash
# Install pbem into .venv and start it on its embedded defaults: SQLite in
# instance/pbem.db, mail written into instance/mail/ and shown at /dev/mail,
# with a demo game (you against two bots) in it. This is the README's first
# command. Stop it with Ctrl-C; run it again to carry on where you were.
# Arguments go to `pbem serve` (e.g. --reload). For another port set both
# PBEM_SERVER_PORT and PBEM_SERVER_BASE_URL, so that the mailed links match.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
.venv/bin/pbem demo
# deliver the mail of a move within seconds, not within the minute of production
export PBEM_SCHEDULER_INTERVAL_SECONDS=${PBEM_SCHEDULER_INTERVAL_SECONDS:-5}
exec .venv/bin/pbem serve "$@"
