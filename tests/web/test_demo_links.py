"""``pbem demo`` in a second terminal prints links for the server that runs on the same
instance folder, which ``pbem serve`` records there, not this terminal's settings."""

from __future__ import annotations

import json
import re
import socket

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.cli.server import RUNNING_FILE, record_running, running_server
from pbem.context import make_context
from pbem.models import db


@pytest.fixture
def run(tmp_path, monkeypatch):
    env = {"PBEM_SERVER_INSTANCE": str(tmp_path / "instance"),
           "PBEM_SERVER_BASE_URL": "http://127.0.0.1:5000",
           "PBEM_ARCHIVE_SITE_DIR": str(tmp_path / "site"),
           "PBEM_DATABASE_URL": ""}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    yield invoke
    db.close()


@pytest.fixture
def listening() -> socket.socket:
    """A port something listens on, as a running ``pbem serve`` would."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    yield sock
    sock.close()


def test_demo_prints_the_running_servers_links(run, tmp_path, listening, monkeypatch):
    port = listening.getsockname()[1]
    monkeypatch.setenv("PBEM_SERVER_BASE_URL", f"http://127.0.0.1:{port}")
    record_running(make_context(), "127.0.0.1", port)  # what `pbem serve` does at start
    monkeypatch.setenv("PBEM_SERVER_BASE_URL", "http://127.0.0.1:5000")  # terminal two
    result = run("demo")
    assert result.exit_code == 0, result.output
    assert f"the running server's links say http://127.0.0.1:{port}" in result.output
    seat = re.search(r"your seat:\s+(\S+)", result.output).group(1)
    assert seat.startswith(f"http://127.0.0.1:{port}/s/")
    assert "http://127.0.0.1:5000" not in result.output.split("your seat:")[1]
    mails = list((tmp_path / "instance" / "mail").glob("*.eml"))
    assert mails and all(b"127.0.0.1:5000" not in m.read_bytes() for m in mails)


def test_a_stopped_server_is_not_followed(run, tmp_path):
    with socket.socket() as sock:  # a port nothing listens on any more
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / RUNNING_FILE).write_text(json.dumps(
        {"base_url": f"http://127.0.0.1:{port}", "host": "127.0.0.1", "port": port, "pid": 1}))
    assert running_server(make_context()) is None
    result = run("demo")
    assert re.search(r"your seat:\s+http://127\.0\.0\.1:5000/s/", result.output), result.output


def test_a_server_whose_links_miss_its_port_is_named(run, listening):
    port = listening.getsockname()[1]
    record_running(make_context(), "127.0.0.1", port)  # links say :5000, it listens elsewhere
    result = run("demo")
    assert f"listens on port {port} but its links say http://127.0.0.1:5000" in result.output
