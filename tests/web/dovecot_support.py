"""A throwaway Dovecot IMAP server for a test: Debian's dovecot (``apt-get install
dovecot-imapd``, which .ci/run does) with a configuration of its own in a temporary
folder, on a free loopback port, one user with a password, no TLS.  As root it keeps
the mail as Debian's ``dovecot`` user (Dovecot does not keep mail as root); otherwise
as the user running the tests."""

from __future__ import annotations

import atexit
import grp
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists()
                                      else None)
USER, PASSWORD = "pbem", "a-test-password"


def skip_reason() -> str | None:
    if DOVECOT is None:
        return "Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does)"
    if not Path("/usr/lib/dovecot/imap").exists():
        return "Dovecot's IMAP server is not installed (apt-get install dovecot-imapd)"
    return None


@dataclass
class Mailbox:
    host: str
    port: int
    user: str = USER
    password: str = PASSWORD

    def append(self, raw: bytes) -> None:
        with imaplib.IMAP4(self.host, self.port) as imap:
            imap.login(self.user, self.password)
            imap.append("INBOX", None, None, raw)

    def count(self) -> int:
        with imaplib.IMAP4(self.host, self.port) as imap:
            imap.login(self.user, self.password)
            _status, data = imap.select("INBOX")
            return int(data[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(folder: Path, port: int, owner: str, group: str) -> str:
    uid, gid = pwd.getpwnam(owner).pw_uid, grp.getgrnam(group).gr_gid
    return f"""
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
default_login_user = {owner}
default_internal_user = {owner}
default_internal_group = {group}
first_valid_uid = {uid}
last_valid_uid = 0
mail_location = maildir:{folder}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={folder}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  unix_listener stats-reader {{
    user = {owner}
  }}
  unix_listener stats-writer {{
    user = {owner}
  }}
}}
"""


@contextmanager
def dovecot() -> Iterator[Mailbox]:
    """A running Dovecot with one empty INBOX, stopped and removed afterwards."""
    root = os.getuid() == 0
    owner = "dovecot" if root else pwd.getpwuid(os.getuid()).pw_name
    group = "dovecot" if root else grp.getgrgid(os.getgid()).gr_name
    folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    folder.chmod(0o755)
    (folder / "mail").mkdir()
    (folder / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    if root:
        shutil.chown(folder / "mail", owner, group)
    port = _free_port()
    conf = folder / "dovecot.conf"
    conf.write_text(_config(folder, port, owner, group))
    # in the foreground, so that the test owns the process and ends it
    server = subprocess.Popen([DOVECOT, "-F", "-c", str(conf)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log = folder / "dovecot.log"
                    raise RuntimeError("dovecot does not listen: " + (
                        log.read_text() if log.exists() else "")) from None
                time.sleep(0.01)  # it listens about 0.1 s after its start
        yield Mailbox("127.0.0.1", port)
    finally:
        server.terminate()
        # Dovecot's master sleeps a whole second while it stops (after it tells its log
        # process to quit): the next test need not wait for that, on its own port and
        # folder; the process is reaped and its folder removed behind it
        stopping = threading.Thread(target=_reap, args=(server, folder), daemon=True)
        stopping.start()
        _stopping.append(stopping)


#: Dovecots being stopped: joined before the process exits, so none is left behind
_stopping: list[threading.Thread] = []


def _reap(server: subprocess.Popen, folder: Path) -> None:
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=15)
    shutil.rmtree(folder, ignore_errors=True)


@atexit.register
def _stopped() -> None:
    for stopping in _stopping:
        stopping.join(timeout=35)
