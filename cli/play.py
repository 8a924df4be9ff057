"""``arena play``: a terminal client that plays one seat over the public HTTP API.

It creates a match with one human seat (you, seat 0) and bots, then loops: read the match
as seat 0 (``GET /v1/matches/{id}``), and when ``legal-actions`` lists something, draw the
board with the game's renderer (:mod:`cli.render`: card faces from
``GET /v1/games/{game}/cards``) and the legal actions as a numbered menu in words
(:mod:`cli.menu`: the move that ends the turn or passes is key 0, asked y/N while other
moves remain), and send the chosen one (``POST .../actions`` with an ``Idempotency-Key``,
``expected_version`` and ``Prefer: return=representation``, whose answer carries the next
view and legal actions: while the seat keeps the turn, one request per move); otherwise
long-poll ``.../events`` until the bots (or the other seats) have acted. Everything shown
comes from what the server returns for seat 0's token, so no other seat's hidden cards
can appear.

Commands at the prompt (:data:`cli.menu.HELP`): a number, ``0``, ``help``, ``resign``
(give the seat up, ``POST .../resign``, and watch the match to its result) and ``quit``
(resign and leave). Ctrl-C leaves the same way as ``quit`` but exits with code 130; end of
input (a closed stdin) is a ``quit``.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import click
import requests
from rich.console import Console

from cli.bot_options import BOT_OPTION_HELP, default_bot_level, parse_bot_options
from cli.http_client import ApiError, ArenaClient, default_timeout_s
from cli.menu import QUIT, RESIGN, Choice, MenuLine, menu_lines, print_menu, prompt_chooser
from cli.render import SEATS_HELP, CardBook, render_result, renderer_for

#: How long one long-poll waits for the next event (seconds).
POLL_WAIT_S = 10.0
#: Exit code after Ctrl-C (128 + SIGINT, the shell's convention).
EXIT_INTERRUPTED = 130

#: A chooser answers the index of the chosen menu line, or :data:`QUIT` / :data:`RESIGN`.
Chooser = Callable[[list[MenuLine]], Choice]


@dataclass
class Session:
    """The match being played: filled in by :func:`play_match` as soon as it exists, so
    an interrupted client can still resign its seat (:func:`leave`)."""

    match_id: str | None = None
    token: str | None = None
    finished: bool = False
    resigned: bool = False


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


def auto_chooser(seed: int | None) -> Chooser:
    """The ``--auto`` policy: a uniformly random legal action (seeded by ``--seed``)."""
    rng = random.Random(seed)
    return lambda actions: rng.randrange(len(actions))


def play_match(
    client: ArenaClient,
    game: str,
    seats: int,
    bots: str,
    choose: Chooser,
    console: Console,
    show: bool = True,
    max_steps: int = 10_000,
    bot_options: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    session: Session | None = None,
    player_key: str | None = None,
    rated: bool = False,
) -> dict[str, Any] | None:
    """Create a match of ``game`` (seat 0 human, seats 1.. bots of level ``bots``, each
    with ``bot_options`` when given; match ``options``) and play it out.

    Returns the finished match as seat 0 sees it (``"result"`` holds the scores and e.g.
    a solo ``"rating"``), or ``None`` when the player quit (the seat was resigned first).
    ``session`` (a fresh one when not given) gets the match id and token at once.
    ``player_key``: seat 0 is bound to that player (named as the player); ``rated``: a
    rated match (issue 22; needs ``player_key``).

    Raises:
        cli.http_client.ApiError: the server refused something a retry cannot fix.
        RuntimeError: more than ``max_steps`` loop iterations (a stuck match).
    """
    session = session if session is not None else Session()
    renderer = renderer_for(game)
    cards = _cards(client, game)
    bot_seat: dict[str, Any] = {"kind": "bot", "bot": bots}
    if bot_options:
        bot_seat["bot_options"] = dict(bot_options)
    me: dict[str, Any] = {"kind": "human"}  # no name: one a rated player holds is refused
    created = client.create_match(
        game, [me] + [bot_seat] * (seats - 1), options or {}, player_key=player_key, rated=rated
    )
    match_id = created["match_id"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    session.match_id, session.token = match_id, token
    console.print(
        f"match [bold]{match_id}[/] ({renderer.title or game}, "
        f"{lineup(game, seats, bots, options)}); "
        f"seed commitment {created['seed_commitment'][:16]}..."
    )
    seen = created.get("version", 0)
    roster: list[dict[str, Any]] = list(created.get("seats") or [])
    view: dict[str, Any] = {}
    match: dict[str, Any] | None = None
    legal: dict[str, Any] | None = None  # from the last answer's representation
    for _ in range(max_steps):
        if legal is None or match is None or match["status"] != "running":
            match = client.match(match_id, token)
            roster = list(match.get("seats") or roster)
        view = match.get("view") or view
        if match["status"] != "running":
            session.finished = True
            if show:
                renderer.render_events(
                    console,
                    client.events(match_id, token, after=seen)["events"],
                    cards,
                    roster,
                    0,
                    view,
                )
            render_result(console, match, 0, cards)
            return match
        if 0 in (match.get("resigned") or ()):
            session.resigned = True
        # A resigned seat decides nothing any more (its timeout policy plays it): only watch.
        if session.resigned:
            legal = {"version": seen, "actions": []}  # poll from the last shown event
        elif legal is None:
            legal = client.legal_actions(match_id, token)
        actions = legal["actions"]
        if not actions:
            # after the last event shown: others may have moved before the legal actions
            # were read (an answer at once then shows them; otherwise it waits)
            polled = client.events(match_id, token, after=seen, wait_s=POLL_WAIT_S)
            if show:
                renderer.render_events(console, polled["events"], cards, roster, 0, view)
            seen = max([seen] + [e["version"] for e in polled["events"]])
            legal = None
            continue
        if legal["version"] != match.get("version"):
            legal = None  # others moved between the two reads: the board and menu of one version
            continue
        if show and match["version"] > seen:  # what led here (the bots' moves), then the board
            page = client.events(match_id, token, after=seen)
            renderer.render_events(console, page["events"], cards, roster, 0, view)
            seen = max([seen] + [e["version"] for e in page["events"]])
        # one line per different move (identical cards in one place are one entry); the
        # move that ends the turn or passes is key 0, never a play's number (cli/menu.py)
        lines = menu_lines(
            renderer.menu(actions, match, 0, cards), lambda a, now=view: renderer.ends(a, now)
        )
        if show:
            renderer.render_view(console, match, 0, cards)
            print_menu(console, lines)
        choice = choose(lines)
        if choice == QUIT:
            leave(client, session, console, "You quit")
            return None
        if choice == RESIGN:
            leave(client, session, console, "You resigned")
            console.print("The match goes on without you; its result follows.")
            legal = None
            continue
        answer = _send(client, match_id, token, dict(lines[int(choice)].action), legal["version"])
        legal = None
        if answer is None:
            continue  # no longer legal (the match moved on): read it again and re-ask
        if isinstance(answer.get("legal_actions"), dict) and "view" in answer:
            legal = answer["legal_actions"]  # the representation: no GET for the next move
            match = {  # the view and legal actions of one version (it may be past ours)
                **match,
                "version": legal.get("version", answer["version"]),
                **{k: answer[k] for k in ("view", "pending", "status", "result")},
            }
        if show:  # everything since the last shown event: others' moves, then ours
            page = client.events(match_id, token, after=seen)
            renderer.render_events(console, page["events"], cards, roster, 0, view)
            seen = max([seen] + [e["version"] for e in page["events"]])
        seen = max(seen, answer["version"])
    raise RuntimeError(f"match {match_id} did not finish within {max_steps} steps")


def leave(client: ArenaClient, session: Session, console: Console, why: str) -> bool:
    """Resign ``session``'s seat unless the match is over or it already resigned, and say
    so in a sentence beginning with ``why``; ``True`` when this call resigned it. A refusal
    because the match just ended or the seat already resigned (409) is no error; an
    unreachable server is reported, not raised."""
    if session.match_id is None or session.token is None:
        console.print(f"{why} before the match was created.")
        return False
    if session.finished or session.resigned:
        console.print(f"{why}; match {session.match_id} is already over for your seat.")
        return False
    try:
        client.resign(session.match_id, session.token)
    except ApiError as exc:
        if exc.code in ("match_finished", "seat_resigned"):
            console.print(f"{why}; match {session.match_id} was already over for your seat.")
            session.resigned = True
            return False
        console.print(f"{why}, but the server refused the resignation: {exc}")
        return False
    except requests.RequestException as exc:
        console.print(f"{why}, but the server could not be reached to resign: {exc}")
        return False
    session.resigned = True
    console.print(f"{why}: seat 0 resigned match {session.match_id}.")
    return True


def _cards(client: ArenaClient, game: str) -> CardBook:
    """The game's card data; an empty book when the server has none to give (cards are
    then drawn by id)."""
    try:
        return CardBook(client.cards(game))
    except ApiError:
        return CardBook()


def lineup(game: str, seats: int, bots: str, options: dict[str, Any] | None = None) -> str:
    """Who plays, in the game's own mode names (:mod:`cli.render`): ``solo mode: you are
    seat 0, no bots`` (AI: 100% Human), ``Cooperative Mode against the A.I.Toma (Boss):
    you are seat 0, 1 bot (tactician)``, ``co-operative game, 4 players, standard game: you
    are seat 0, 3 bots (cooperative)``."""
    mode = renderer_for(game).mode_name(seats, options or {})
    if seats == 1:
        return f"{mode}: you are seat 0, no bots"
    return f"{mode}: you are seat 0, {seats - 1} bot{'s' if seats > 2 else ''} ({bots})"


def _send(
    client: ArenaClient,
    match_id: str,
    token: str,
    command: dict[str, Any],
    version: int,
    attempts: int = 5,
) -> dict[str, Any] | None:
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


def parse_match_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``("mode=coop", "difficulty=endboss", "expert=true")`` -> ``{"mode": "coop", ...}``:
    each value read as JSON when it parses (``true``, ``3``), else as a string. The server
    checks the options (a 400 names the bad one).

    Raises:
        click.BadParameter: an entry without ``=``.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


@click.command("play")
@click.option(
    "--url",
    default=None,
    help="Server URL, e.g. http://127.0.0.1:8000 (default: start an embedded one).",
)
@click.option(
    "--game",
    default="ai-100-human",
    show_default=True,
    help="Game id: ai-100-human, aipokalypse or dead-apocalypse.",
)
@click.option(
    "--seats",
    default=4,
    show_default=True,
    type=click.IntRange(1),
    help=f"Seats (you are seat 0). {SEATS_HELP}.",
)
@click.option(
    "--bots",
    default=None,
    help="Bot level of the others (default: the game's general bot, e.g. greedy, "
    "tactician, cooperative).",
)
@click.option(
    "--bot-option", "bot_option", multiple=True, metavar="LEVEL.KEY=VALUE", help=BOT_OPTION_HELP
)
@click.option(
    "--option",
    "match_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="A match option of the game (its options_schema in GET /v1/games), e.g. "
    "--option mode=coop --option difficulty=endboss for A.I.Pokalypse.",
)
@click.option("--auto", is_flag=True, help="Pick actions automatically (random legal action).")
@click.option("--seed", default=None, type=int, help="Seed of the --auto policy.")
@click.option("--quiet", is_flag=True, help="With --auto: print only the result.")
@click.option(
    "--player-key",
    "player_key",
    default=None,
    envvar="ARENA_PLAYER_KEY",
    help="Play as this player (its key from `arena players create`; env "
    "ARENA_PLAYER_KEY): seat 0 is bound to the player.",
)
@click.option("--rated", is_flag=True, help="A rated match (needs --player-key).")
def play(
    url: str | None,
    game: str,
    seats: int,
    bots: str,
    bot_option: tuple[str, ...],
    match_option: tuple[str, ...],
    auto: bool,
    seed: int | None,
    quiet: bool,
    player_key: str | None = None,
    rated: bool = False,
) -> None:
    """Play a match in the terminal against bots, over the public HTTP API.

    At the prompt type an action's number, 0 for the move that ends your turn or passes
    (asked y/N while other moves remain), help, resign (give up the seat and watch the
    match to its result) or quit (resign and leave). Ctrl-C resigns the seat too and exits
    with code 130; quit exits with 0.

    Bot options apply to every bot seat, e.g. --bots expert --bot-option
    expert.time_budget_ms=800; the server checks them (a 400 names the seat and option).
    """
    if bots is None:
        bots = _local_default_bots(game)
    options = (
        parse_bot_options(bot_option, [bots] if seats > 1 else []).get(bots)
        if bots is not None
        else None
    )
    match_options = parse_match_options(match_option)
    console = Console()
    choose = auto_chooser(seed) if auto else prompt_chooser(console)
    session = Session()
    interrupted = False
    try:
        timeout_s = default_timeout_s()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    with server_url(url, console) as base:
        client = ArenaClient(base, timeout_s=timeout_s)
        try:
            if bots is None:  # a game this installation does not know: ask the server
                bots = default_bot_level(_server_levels(client, game))
                options = parse_bot_options(bot_option, [bots] if seats > 1 else []).get(bots)
            play_match(
                client,
                game,
                seats,
                bots,
                choose,
                console,
                show=not (auto and quiet),
                bot_options=options,
                options=match_options,
                session=session,
                player_key=player_key,
                rated=rated,
            )
        except KeyboardInterrupt:
            console.print()
            leave(client, session, console, "Interrupted (Ctrl-C)")
            interrupted = True
        except (ApiError, RuntimeError) as exc:
            raise click.ClickException(str(exc)) from exc
        except requests.RequestException as exc:
            raise click.ClickException(f"cannot reach the server at {base}: {exc}") from exc
    if interrupted:
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
