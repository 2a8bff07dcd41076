"""``./run.sh`` checks the port before it makes a demo game.

The check is the Python that run.sh feeds to ``.venv/bin/python``; it runs here as run.sh
runs it (the settings from the environment, ``pbem serve``'s arguments after it), so the
test needs neither a fresh virtualenv nor a server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

RUN_SH = Path(__file__).resolve().parents[1] / "run.sh"


def _check() -> str:
    script = RUN_SH.read_text()
    return script.split("<<'PY'\n", 1)[1].split("\nPY\n", 1)[0]


def _run(port: int, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PBEM_SERVER_PORT=str(port), PBEM_SERVER_HOST="127.0.0.1")
    return subprocess.run([sys.executable, "-", *args], input=_check(), text=True,
                          capture_output=True, env=env, timeout=60, check=False)


def test_the_check_comes_before_the_demo_game():
    script = RUN_SH.read_text()
    assert script.index("<<'PY'") < script.index(".venv/bin/pbem demo")
    assert "set -euo pipefail" in script  # a failed check stops the script


def test_a_busy_port_stops_run_sh_with_a_message_and_a_free_one_passes():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        refused = _run(port)
        assert refused.returncode != 0
        assert f"already listening on 127.0.0.1:{port}" in refused.stderr
        assert "PBEM_SERVER_PORT" in refused.stderr and "No demo game was made" in refused.stderr
        # --port for `pbem serve` is what counts, when given
        assert _run(port + 1 if port < 65535 else port - 1, "--port", str(port)).returncode != 0
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    passed = _run(free, "--reload")
    assert passed.returncode == 0, passed.stderr


def test_run_sh_says_what_it_does_before_each_slow_step():
    """A fresh machine waits a minute or two for pip: a line says so before each step."""
    lines = RUN_SH.read_text().splitlines()

    def said_before(step: str) -> str:
        at = next(i for i, line in enumerate(lines) if step in line and "echo" not in line)
        return next(line for line in reversed(lines[:at]) if line.strip().startswith("echo"))

    assert "virtual environment" in said_before("-m venv .venv")
    assert "installing pbem" in said_before("pip install")
    assert "demo game" in said_before(".venv/bin/pbem demo")
    assert "starting the server" in said_before("exec .venv/bin/pbem serve")
