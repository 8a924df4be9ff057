"""The ``arena`` command line (console script ``arena = cli.main:main``).

Sub-commands live in one small module each: ``serve``, ``worker``, ``play``, ``replay``,
``simulate``. Configuration comes from environment variables (see README "Configuration").
"""
from __future__ import annotations

import click

from cli.play import play
from cli.replay import replay
from cli.serve import serve
from cli.simulate import simulate
from cli.worker import worker


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="apocalypse-arena", prog_name="arena")
def main() -> None:
    """Apocalypse Arena: event-sourced HTTP game server for card games."""


for _command in (serve, worker, play, replay, simulate):
    main.add_command(_command)
