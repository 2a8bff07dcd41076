#!/usr/bin/env bash
# Install pbem into .venv and start it on its embedded defaults: SQLite in
# instance/pbem.db, mail written into instance/mail/ and shown at /dev/mail,
# with a demo game (you against two bots) in it. Its mails can be answered by reply
# from /dev/mail too ("2" plays the second choice): `pbem serve` listens for replies by
# LMTP on [inbound] lmtp_port (8025). This is the README's first
# command. Stop it with Ctrl-C; run it again to carry on where you were.
# Arguments go to `pbem serve` (e.g. --reload). For another port set both
# PBEM_SERVER_PORT and PBEM_SERVER_BASE_URL, so that the mailed links match.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "run.sh: making a virtual environment in .venv ($PY)"
    "$PY" -m venv .venv
fi
echo "run.sh: installing pbem and its dependencies into .venv (the first time takes a minute or two)"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
# fail before the demo game is made if the port is taken (an earlier run.sh still
# running, another server): the port and host as pbem will read them, --port/--host too
.venv/bin/python - "$@" <<'PY'
import socket
import sys

from pbem.context import make_context

config = make_context().config
host, port = config.get("server", "host"), config.get("server", "port")
args = sys.argv[1:]
for i, arg in enumerate(args):  # what `pbem serve` would take from the arguments
    for name in ("host", "port"):
        if arg == f"--{name}" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(f"--{name}="):
            value = arg.split("=", 1)[1]
        else:
            continue
        host, port = (value, port) if name == "host" else (host, value)
probe = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
with socket.socket(socket.AF_INET6 if ":" in probe else socket.AF_INET) as s:
    s.settimeout(2)
    if s.connect_ex((probe, int(port))) == 0:
        sys.exit(f"run.sh: something is already listening on {host}:{port}, so pbem could "
                 "not serve there. Stop it (an earlier ./run.sh?), or choose another port "
                 "with both PBEM_SERVER_PORT and PBEM_SERVER_BASE_URL, e.g.\n"
                 "  PBEM_SERVER_PORT=5001 PBEM_SERVER_BASE_URL=http://127.0.0.1:5001 ./run.sh\n"
                 "No demo game was made.")
PY
echo "run.sh: preparing the demo game (you against two bots) and delivering its first mail"
.venv/bin/pbem demo
echo "run.sh: starting the server (Ctrl-C stops it)"
# deliver the mail of a move within seconds, not within the minute of production
export PBEM_SCHEDULER_INTERVAL_SECONDS=${PBEM_SCHEDULER_INTERVAL_SECONDS:-5}
exec .venv/bin/pbem serve "$@"
