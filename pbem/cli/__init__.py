"""The ``pbem`` command.  Each group of subcommands lives in its own module."""

from __future__ import annotations

import click

from pbem.cli import archive, data, lmtp, play, schedule, server


@click.group(help="pbem: a play-by-email server for slow board games.")
def main() -> None:
    pass


play.register(main)
archive.register(main)
server.register(main)
schedule.register(main)
lmtp.register(main)
data.register(main)
