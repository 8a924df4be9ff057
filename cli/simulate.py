"""``arena simulate``: many all-bot matches in-process through the domain only.

Each match is played by :func:`cli.bot_match.play_bot_match` (``new_match`` / ``decide`` /
``evolve`` with ``derive_rng``); no Redis, no HTTP. Prints score statistics per seat and per
bot level, win shares (a shared victory — rulebook "End of the Game": "In case of tie, share
the victory" — gives each of the ``k`` winners ``1/k`` of a win) and the mean time per match.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.bot_match import BotMatch, match_seed, play_bot_match
from cli.bot_options import BOT_OPTION_HELP, default_bot_level, parse_bot_options
from domain.engine import InvalidBotOptions, build_bot
from domain.games import GameRegistryError, get_engine, registry


@dataclass
class SimulationStats:
    """Aggregated results of a batch of bot matches.

    ``scores[i]`` lists seat ``i``'s final VP per match; ``wins[i]`` its win share (float);
    ``bot_options``: level -> the per-seat bot options its seats played with.
    """

    bots: list[str]
    bot_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    scores: list[list[int]] = field(init=False)
    wins: list[float] = field(init=False)
    seconds: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.scores = [[] for _ in self.bots]
        self.wins = [0.0 for _ in self.bots]

    def add(self, match: BotMatch) -> None:
        """Record one finished match (its ``result["scores"]`` and ``result["winners"]``)."""
        for seat, score in enumerate(match.result["scores"]):
            self.scores[seat].append(score)
        winners = match.result["winners"]
        for seat in winners:
            self.wins[seat] += 1.0 / len(winners)
        self.seconds.append(match.seconds)
        self.decisions.append(match.decisions)

    def as_dict(self) -> dict[str, Any]:
        """JSON summary: ``{"matches", "mean_seconds_per_match", "seats": [...], "bots": {...}}``.

        Seat rows: ``{"seat", "bot", "mean", "min", "max", "win_share"}`` (+ ``"bot_options"``
        when its level had options); win shares are fractions of the matches played (they
        sum to 1 over the seats).
        """
        n = len(self.seconds)
        seats = [
            _score_row(self.scores[s], self.wins[s], n) | {"seat": s, "bot": self.bots[s]}
            for s in range(len(self.bots))
        ]
        for row in seats:
            if self.bot_options.get(row["bot"]):
                row["bot_options"] = dict(self.bot_options[row["bot"]])
        by_bot: dict[str, Any] = {}
        for level in dict.fromkeys(self.bots):
            seats_of = [s for s, b in enumerate(self.bots) if b == level]
            pooled = [v for s in seats_of for v in self.scores[s]]
            by_bot[level] = _score_row(pooled, sum(self.wins[s] for s in seats_of), n) | {
                "seats": seats_of
            }
        return {
            "matches": n,
            "mean_seconds_per_match": statistics.fmean(self.seconds) if n else 0.0,
            "mean_decisions_per_match": statistics.fmean(self.decisions) if n else 0.0,
            "seats": seats,
            "bots": by_bot,
        }


def _score_row(values: list[int], wins: float, matches: int) -> dict[str, Any]:
    if not values:
        return {"mean": 0.0, "min": 0, "max": 0, "win_share": 0.0}
    return {
        "mean": statistics.fmean(values),
        "min": min(values),
        "max": max(values),
        "win_share": wins / matches if matches else 0.0,
    }


def default_bots(available: Sequence[str], seats: int) -> str:
    """``--bots`` when not given: the game's general bot (:func:`default_bot_level`) on the
    first two seats and ``random`` on the others (only the general bot when the game has no
    ``random``), cut to ``seats`` levels, e.g. ``"tactician,tactician,random"`` for 3 seats
    of A.I.Pokalypse."""
    best = default_bot_level(available)
    rest = "random" if "random" in available else best
    return ",".join(([best, best] + [rest] * max(0, seats - 2))[: max(1, min(seats, 4))])


def parse_bots(spec: str, seats: int, available: Sequence[str]) -> list[str]:
    """Turn ``"greedy,random"`` into one level per seat (the last level repeats).

    Raises:
        click.BadParameter: empty spec, more levels than seats, or an unknown level.
    """
    levels = [part.strip() for part in spec.split(",") if part.strip()]
    if not levels:
        raise click.BadParameter("give at least one bot level", param_hint="--bots")
    if len(levels) > seats:
        raise click.BadParameter(f"{len(levels)} bot levels for {seats} seats", param_hint="--bots")
    unknown = [lv for lv in levels if lv not in available]
    if unknown:
        raise click.BadParameter(
            f"unknown bot level(s) {unknown}; known: {sorted(available)}", param_hint="--bots"
        )
    return levels + [levels[-1]] * (seats - len(levels))


def check_bot_options(engine: Any, options: dict[str, dict[str, Any]]) -> None:
    """Validate ``level -> options`` against each level's schema (the engine builds the bots).

    Raises:
        click.BadParameter: options a level does not take (the engine's message).
    """
    for level, values in options.items():
        try:
            build_bot(engine, level, values)
        except InvalidBotOptions as error:
            raise click.BadParameter(
                f"{level}: {error.detail}", param_hint="--bot-option"
            ) from None


#: the seat count ``arena simulate`` plays when ``--seats`` is not given (clamped per game)
DEFAULT_SEATS = 4


def default_seats(engine: Any) -> int:
    """:data:`DEFAULT_SEATS` clamped to ``engine.min_seats..engine.max_seats`` (a two-seat
    game plays 2, a solo-only game 1)."""
    return min(max(DEFAULT_SEATS, engine.min_seats), engine.max_seats)


def run_simulation(
    game: str,
    matches: int,
    bots: list[str],
    seed: str | None,
    progress: Progress | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
) -> SimulationStats:
    """Play ``matches`` bot matches of ``game`` (match ``i`` seeded by ``match_seed(seed, i)``),
    each bot level configured by ``bot_options[level]`` when given."""
    engine = get_engine(game)
    stats = SimulationStats(bots=bots, bot_options=dict(bot_options or {}))
    task = progress.add_task("matches", total=matches) if progress else None
    for index in range(matches):
        stats.add(play_bot_match(engine, bots, match_seed(seed, index), bot_options=bot_options))
        if progress is not None:
            progress.advance(task)
    return stats


def render_stats(console: Console, game: str, stats: SimulationStats) -> None:
    """Print the per-seat and per-bot tables of ``stats``."""
    summary = stats.as_dict()
    seats = Table(
        title=f"{game}: {summary['matches']} matches, "
        f"{summary['mean_seconds_per_match'] * 1000:.1f} ms per match"
    )
    for column in ("seat", "bot", "mean VP", "min", "max", "win share"):
        seats.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary["seats"]:
        seats.add_row(
            str(row["seat"]),
            row["bot"],
            f"{row['mean']:.2f}",
            str(row["min"]),
            str(row["max"]),
            f"{row['win_share']:.1%}",
        )
    console.print(seats)
    levels = Table(title="per bot level")
    for column in ("bot", "seats", "mean VP", "min", "max", "win share"):
        levels.add_column(column)
    for level, row in summary["bots"].items():
        options = stats.bot_options.get(level)
        name = f"{level} {json.dumps(options, sort_keys=True)}" if options else level
        levels.add_row(
            name,
            ",".join(map(str, row["seats"])),
            f"{row['mean']:.2f}",
            str(row["min"]),
            str(row["max"]),
            f"{row['win_share']:.1%}",
        )
    console.print(levels)


@click.command("simulate")
@click.option("--game", default="ai-100-human", show_default=True, help="Game id.")
@click.option(
    "--matches",
    "-n",
    default=20,
    show_default=True,
    type=click.IntRange(1),
    help="Number of matches.",
)
@click.option(
    "--seats",
    default=None,
    type=int,
    help="Seats per match. Default: 4 clamped to the seats the game allows.",
)
@click.option(
    "--bots",
    default=None,
    help="Bot level per seat, comma separated; the last one repeats. Default: the "
    "game's general bot on two seats, then random (ai-100-human: "
    "greedy,greedy,random,random).",
)
@click.option(
    "--bot-option", "bot_option", multiple=True, metavar="LEVEL.KEY=VALUE", help=BOT_OPTION_HELP
)
@click.option("--seed", default=None, help="Base seed (any string); same seed, same matches.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON instead.")
def simulate(
    game: str,
    matches: int,
    seats: int | None,
    bots: str,
    bot_option: tuple[str, ...],
    seed: str | None,
    as_json: bool,
) -> None:
    """Play N bot matches in-process (domain only) and print score statistics.

    Bot options configure every seat of a level, e.g. --bots expert,greedy --bot-option
    expert.budget=8 --bot-option expert.time_budget_ms=300.
    """
    try:
        engine = get_engine(game)
    except GameRegistryError as error:  # ARENA_GAME_PACKAGES names no valid game
        raise click.ClickException(str(error)) from None
    if engine is None:
        raise click.BadParameter(
            f"unknown game; installed: {sorted(registry())}", param_hint="--game"
        )
    if seats is None:
        seats = default_seats(engine)
    if not engine.min_seats <= seats <= engine.max_seats:
        raise click.BadParameter(
            f"{engine.title} seats {engine.min_seats}-{engine.max_seats}", param_hint="--seats"
        )
    levels = parse_bots(
        bots if bots else default_bots(list(engine.bots), seats), seats, list(engine.bots)
    )
    options = parse_bot_options(bot_option, levels)
    check_bot_options(engine, options)
    console = Console()
    if as_json:
        click.echo(
            json.dumps(run_simulation(game, matches, levels, seed, bot_options=options).as_dict())
        )
        return
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        stats = run_simulation(game, matches, levels, seed, progress, bot_options=options)
    render_stats(console, game, stats)
