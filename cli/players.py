"""``arena players create NAME``: make a player on a server and print its key (issue 22).

The key is printed once (the server keeps only its digest): keep it, and play as that
player with ``arena play --player-key KEY`` (or ``ARENA_PLAYER_KEY``).
"""

from __future__ import annotations

import click


@click.group("players")
def players() -> None:
    """Players: an id, a name and a key that binds seats (issue 22)."""


@players.command("create")
@click.argument("name")
@click.option(
    "--url",
    required=True,
    envvar="ARENA_URL",
    help="Server URL, e.g. http://127.0.0.1:8000 (env ARENA_URL).",
)
def create(name: str, url: str) -> None:
    """Create the player NAME and print its id and key (shown once)."""
    import requests

    from cli.http_client import ApiError, ArenaClient

    try:
        player = ArenaClient(url).create_player(name)
    except (ApiError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    except requests.RequestException as error:
        raise click.ClickException(f"cannot reach the server at {url}: {error}") from None
    click.echo(f"player {player['player_id']} ({player['name']})")
    click.echo(f"key {player['key']}")
    click.echo("Keep the key: it is shown only now. Play with `arena play --player-key KEY`.")
