"""``arena play``: a terminal client that plays one seat over the public HTTP API.

It creates a match with one human seat (you, seat 0) and bots, then loops: read the match
as seat 0 (``GET /v1/matches/{id}``), and when ``legal-actions`` lists something, show the
view and the numbered actions and send the chosen one (``POST .../actions`` with an
``Idempotency-Key`` and ``expected_version``); otherwise long-poll ``.../events`` until
the bots (or the other seats) have acted. Everything shown comes from what the server
returns for seat 0's token, so no other seat's hidden cards can appear.
"""
from __future__ import annotations

import contextlib
import random
from typing import Any, Callable, Iterator

import click
import requests
from rich.console import Console

from cli.bot_options import BOT_OPTION_HELP, default_bot_level, parse_bot_options
from cli.http_client import ApiError, ArenaClient
from cli.render import (copy_sources, describe_action, render_events, render_result,
                        render_view)

#: How long one long-poll waits for the next event (seconds).
POLL_WAIT_S = 10.0

Chooser = Callable[[list[dict[str, Any]]], int]


@contextlib.contextmanager
def server_url(url: str | None, console: Console) -> Iterator[str]:
    """Yield ``url``, or start an embedded server on a free loopback port and yield its URL."""
    if url:
        yield url
        return
    from cli.serve import EmbeddedServer

    with EmbeddedServer("127.0.0.1", 0, access_log=False) as server:
        console.print(f"[dim]embedded server on {server.url}[/]")
        yield server.url


def prompt_chooser() -> Chooser:
    """Ask on stdin for the number of an action (1-based, as listed)."""

    def choose(actions: list[dict[str, Any]]) -> int:
        number = click.prompt("your choice", type=click.IntRange(1, len(actions)),
                              default=1 if len(actions) == 1 else None)
        return number - 1

    return choose


def auto_chooser(seed: int | None) -> Chooser:
    """The ``--auto`` policy: a uniformly random legal action (seeded by ``--seed``)."""
    rng = random.Random(seed)
    return lambda actions: rng.randrange(len(actions))


def play_match(client: ArenaClient, game: str, seats: int, bots: str,
               choose: Chooser, console: Console, show: bool = True,
               max_steps: int = 10_000,
               bot_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Create a match (seat 0 human, seats 1.. bots of level ``bots``, each with
    ``bot_options`` when given) and play it out.

    Returns the finished match as seat 0 sees it (``"result"`` holds the scores and, in
    solo mode, the ``"rating"``). One seat is the solo mode (no bots), two the 2-player
    mode.

    Raises:
        cli.http_client.ApiError: the server refused something a retry cannot fix.
        RuntimeError: more than ``max_steps`` loop iterations (a stuck match).
    """
    bot_seat: dict[str, Any] = {"kind": "bot", "bot": bots}
    if bot_options:
        bot_seat["bot_options"] = dict(bot_options)
    created = client.create_match(game, [{"kind": "human", "name": "you"}] + [bot_seat] * (seats - 1))
    match_id = created["match_id"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    console.print(f"match [bold]{match_id}[/] ({game}, {_lineup(seats, bots)}); "
                  f"seed commitment {created['seed_commitment'][:16]}...")
    seen = created.get("version", 0)
    for _ in range(max_steps):
        match = client.match(match_id, token)
        if match["status"] == "finished":
            if show:
                render_events(console, client.events(match_id, token, after=seen)["events"], you=0)
            render_result(console, match, you=0)
            return match
        legal = client.legal_actions(match_id, token)
        actions = legal["actions"]
        if not actions:
            polled = client.events(match_id, token, after=seen, wait_s=POLL_WAIT_S)
            if show:
                render_events(console, polled["events"], you=0)
            seen = max([seen] + [e["version"] for e in polled["events"]])
            continue
        if show:
            render_view(console, match, you=0)
            where = copy_sources(match.get("view") or {}, 0)
            for number, action in enumerate(actions, start=1):
                console.print(f"  [bold cyan]{number:>3}[/]  {describe_action(action, where)}")
        command = actions[choose(actions)]
        answer = _send(client, match_id, token, command, legal["version"])
        if answer is None:
            continue  # no longer legal (the match moved on): read it again and re-ask
        if show:  # everything since the last shown event: others' moves, then ours
            page = client.events(match_id, token, after=seen)
            render_events(console, page["events"], you=0)
            seen = max([seen] + [e["version"] for e in page["events"]])
        seen = max(seen, answer["version"])
    raise RuntimeError(f"match {match_id} did not finish within {max_steps} steps")


def _lineup(seats: int, bots: str) -> str:
    """Who plays, by the rulebook mode of the seat count: ``solo mode: you are seat 0, no
    bots``, ``2-player mode: you are seat 0, 1 bot (greedy)``, ``4 seats: you are seat 0,
    3 bots (greedy)``."""
    if seats == 1:
        return "solo mode: you are seat 0, no bots"
    others = f"{seats - 1} bot{'s' if seats > 2 else ''} ({bots})"
    return f"{'2-player mode' if seats == 2 else f'{seats} seats'}: you are seat 0, {others}"


def _send(client: ArenaClient, match_id: str, token: str, command: dict[str, Any],
          version: int, attempts: int = 5) -> dict[str, Any] | None:
    """Send ``command`` expecting ``version``. When others acted in between (409
    ``version_conflict``, or 503 ``busy`` after lost append races) and the command is still
    legal, resend it at the new version (a simultaneous step stays open while other seats
    decide); ``None`` when it is no longer legal. Other errors raise :class:`ApiError`."""
    for _ in range(attempts):
        try:
            return client.act(match_id, token, command, expected_version=version)
        except ApiError as exc:
            if exc.code not in ("version_conflict", "not_your_turn", "busy"):
                raise
        legal = client.legal_actions(match_id, token)
        if command not in legal["actions"]:
            return None
        version = legal["version"]
    return None


def _local_default_bots(game: str) -> str | None:
    """The default ``--bots`` of ``game`` from the installed games (:func:`default_bot_level`);
    ``None`` when the game is not installed here (the server's list decides then)."""
    from domain.games import get_engine

    engine = get_engine(game)
    return default_bot_level(list(engine.bots)) if engine is not None else None


def _server_levels(client: ArenaClient, game: str) -> list[str]:
    """The bot levels the server lists for ``game`` (``GET /v1/games``).

    Raises:
        click.BadParameter: the server does not know ``game``.
    """
    for entry in client.games():
        if entry.get("id") == game:
            return list(entry.get("bots") or [])
    raise click.BadParameter(f"unknown game {game!r}", param_hint="--game")


@click.command("play")
@click.option("--url", default=None,
              help="Server URL, e.g. http://127.0.0.1:8000 (default: start an embedded one).")
@click.option("--game", default="ai-100-human", show_default=True, help="Game id.")
@click.option("--seats", default=4, show_default=True, type=click.IntRange(1),
              help="Seats: 1 = solo mode, 2 = 2-player mode, 3-6 = the standard game.")
@click.option("--bots", default=None,
              help="Bot level of the others (default: the game's general bot, e.g. greedy, "
                   "tactician, cooperative).")
@click.option("--bot-option", "bot_option", multiple=True, metavar="LEVEL.KEY=VALUE",
              help=BOT_OPTION_HELP)
@click.option("--auto", is_flag=True, help="Pick actions automatically (random legal action).")
@click.option("--seed", default=None, type=int, help="Seed of the --auto policy.")
@click.option("--quiet", is_flag=True, help="With --auto: print only the result.")
def play(url: str | None, game: str, seats: int, bots: str, bot_option: tuple[str, ...],
         auto: bool, seed: int | None, quiet: bool) -> None:
    """Play a match in the terminal against bots, over the public HTTP API.

    Bot options apply to every bot seat, e.g. --bots expert --bot-option
    expert.time_budget_ms=800; the server checks them (a 400 names the seat and option).
    """
    if bots is None:
        bots = _local_default_bots(game)
    options = (parse_bot_options(bot_option, [bots] if seats > 1 else []).get(bots)
               if bots is not None else None)
    console = Console()
    choose = auto_chooser(seed) if auto else prompt_chooser()
    with server_url(url, console) as base:
        client = ArenaClient(base)
        try:
            if bots is None:          # a game this installation does not know: ask the server
                bots = default_bot_level(_server_levels(client, game))
                options = parse_bot_options(bot_option, [bots] if seats > 1 else []).get(bots)
            play_match(client, game, seats, bots, choose, console, show=not (auto and quiet),
                       bot_options=options)
        except (ApiError, RuntimeError) as exc:
            raise click.ClickException(str(exc)) from exc
        except requests.RequestException as exc:
            raise click.ClickException(f"cannot reach the server at {base}: {exc}") from exc
