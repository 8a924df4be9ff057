"""The ``arena`` command line (console script ``arena = cli.main:main``).

Sub-commands live in one small module each: ``serve``, ``worker``, ``play``, ``replay``,
``analyse``, ``simulate``, ``players``, ``ratings``. Configuration comes from environment
variables (docs/configuration.md).

Each sub-command's module is imported only when that command runs (:class:`LazyGroup`):
the server image installs the package without the ``cli`` extra (rich, requests,
fakeredis), and ``arena worker`` / ``arena serve`` with ``REDIS_URL`` need none of it;
``play``, ``replay``, ``analyse``, ``simulate`` and the embedded mode do (``pip install
'apocalypse-arena[cli]'``).
"""

from __future__ import annotations

import importlib

import click

#: command name -> ``module:attribute`` of its click command.
COMMANDS = {
    "serve": "cli.serve:serve",
    "worker": "cli.worker:worker",
    "play": "cli.play:play",
    "replay": "cli.replay:replay",
    "analyse": "cli.analyse:analyse_command",
    "simulate": "cli.simulate:simulate",
    "players": "cli.players:players",
    "ratings": "cli.ratings:ratings",
}


class LazyGroup(click.Group):
    """A click group importing a command's module when the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        try:
            return getattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError as error:
            if error.name and error.name.split(".")[0] in ("rich", "requests", "fakeredis"):
                raise click.ClickException(
                    f"`arena {name}` needs the cli extra ({error.name} is not installed): "
                    "pip install 'apocalypse-arena[cli]'"
                ) from None
            raise

    def invoke(self, ctx: click.Context):
        """Run the command; a refused environment variable is one ``Error:`` line, exit 1."""
        from service.settings import ConfigError

        try:
            return super().invoke(ctx)
        except ConfigError as error:
            raise click.ClickException(str(error)) from None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="apocalypse-arena", prog_name="arena")
def main() -> None:
    """Apocalypse Arena: event-sourced HTTP game server for card games."""
