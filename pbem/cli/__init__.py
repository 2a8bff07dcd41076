"""The ``pbem`` command.  Each group of subcommands lives in its own module."""

from __future__ import annotations

import click

from pbem.cli import archive, data, lmtp, play, schedule, server
from pbem.heap import keep_freed_memory


@click.group(help="pbem: a play-by-email server for slow board games.")
def main() -> None:
    keep_freed_memory()  # every command builds pages, mails or pictures (pbem.heap)


play.register(main)
archive.register(main)
server.register(main)
schedule.register(main)
lmtp.register(main)
data.register(main)
