"""``arena ratings``: the ratings projection from the command line (issue 22 items 2-3).

- ``rebuild [--write]``: recompute every rating from the stored (and archived) logs of the
  deployment (``REDIS_URL``; archive from ``ARENA_ARCHIVE_URL``) and say whether it equals
  the live table; ``--write`` replaces the live table with it.
- ``replay EXPORT...``: the ratings that export files alone give (``.json`` or
  ``.json.xz``): anyone holding the logs can check a leaderboard.
- ``calibrate --game G --matches N``: seeded bot-vs-bot matches of the game's bot levels
  (in-process, no server) folded into ratings from the model's default; ``--write`` stores
  them as the levels' starting ratings in ``service/ratings/bot_ratings.json``.
"""

from __future__ import annotations

import itertools
import json
import lzma
from pathlib import Path
from typing import Any

import click


@click.group("ratings")
def ratings() -> None:
    """Ratings: a fold over the logs of rated matches (OpenSkill, Plackett-Luce)."""


@ratings.command("rebuild")
@click.option("--write", is_flag=True, help="Replace the live table with the rebuilt one.")
def rebuild(write: bool) -> None:
    """Recompute every rating from the logs; exit 1 when it differs from the live table
    (and --write was not given)."""
    from service.bootstrap import build_service

    report = build_service().ratings_rebuild(write=write)
    click.echo(json.dumps(report, indent=2, sort_keys=True))
    if not report["same"] and not write:
        raise click.exceptions.Exit(1)


def read_export(path: Path) -> dict[str, Any]:
    """An export document from ``path`` (JSON, or xz-compressed JSON)."""
    raw = path.read_bytes()
    if path.suffix == ".xz":
        raw = lzma.decompress(raw)
    return json.loads(raw)


@ratings.command("replay")
@click.argument(
    "exports", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
def replay(exports: tuple[Path, ...]) -> None:
    """Print the ratings EXPORTS give (JSON: rated, skipped, boards best first)."""
    from service.usecases.ratings import replay as replay_docs

    click.echo(json.dumps(replay_docs([read_export(p) for p in exports]), indent=2, sort_keys=True))


def calibration(
    game: str, matches: int, seats: int, levels: list[str] | None, seed: int
) -> dict[str, Any]:
    """Play ``matches`` seeded bot-vs-bot matches of ``game`` (``seats`` seats, each
    pairing of ``levels`` in turn, seat order alternating; match ``i``'s secret seed is
    ``SHA-256("<seed>:<i>")``, :func:`cli.bot_match.match_seed`, so the same arguments give
    the same matches and ratings) in-process and fold them in match order:
    ``{"game", "matches", "seats", "seed", "levels", "boards"}``."""
    from cli.bot_match import match_seed, play_bot_match
    from domain.games import registry
    from service.ratings.families import bot_player, family_of
    from service.ratings.fold import fold
    from service.ratings.inputs import RatingInput

    engine = registry()[game]
    levels = levels or [lv for lv in engine.bots if lv != "idle"]
    pairs = [list(p) for p in itertools.combinations(levels, min(seats, len(levels)))]
    inputs = []
    for index in range(matches):
        lineup = pairs[index % len(pairs)]
        lineup = lineup[::-1] if (index // len(pairs)) % 2 else lineup
        lineup = (lineup * seats)[:seats]
        played = play_bot_match(engine, lineup, match_seed(seed, index))
        place = {e["seat"]: e["rank"] for e in played.result.get("ranking") or []}
        family = family_of(game, seats, engine.validate_options(seats, {}))
        inputs.append(
            RatingInput(
                f"calibration-{index}",
                family.board,
                tuple((bot_player(game, lv),) for lv in lineup),
                tuple(place.get(s, 2) for s in range(seats)),
                "1970-01-01T00:00:00+00:00",
                index,
            )
        )
    table, _ = fold(inputs, starts={})
    return {
        "game": game,
        "matches": matches,
        "seats": seats,
        "seed": seed,
        "levels": levels,
        "boards": {
            b: {p: {"mu": r["mu"], "sigma": r["sigma"]} for p, r in sorted(t.items())}
            for b, t in table.items()
        },
    }


@ratings.command("calibrate")
@click.option("--game", required=True, help="Game id.")
@click.option(
    "--matches",
    default=20,
    show_default=True,
    type=click.IntRange(1),
    help="Bot-vs-bot matches to play.",
)
@click.option(
    "--seats",
    default=2,
    show_default=True,
    type=click.IntRange(2),
    help="Seats per match (the family: e.g. 2 for ai-100-human 2p).",
)
@click.option("--levels", default=None, help="Comma-separated levels (default: all but idle).")
@click.option("--seed", default=22, show_default=True, type=int)
@click.option(
    "--write",
    is_flag=True,
    help="Store the result as the levels' starting ratings (bot_ratings.json).",
)
def calibrate(
    game: str, matches: int, seats: int, levels: str | None, seed: int, write: bool
) -> None:
    """Rate the bot levels of GAME from seeded bot-vs-bot matches."""
    from service.ratings.fold import BOT_RATINGS_PATH

    found = calibration(game, matches, seats, levels.split(",") if levels else None, seed)
    click.echo(json.dumps(found, indent=2, sort_keys=True))
    if write:
        current = (
            json.loads(BOT_RATINGS_PATH.read_text(encoding="utf-8"))
            if BOT_RATINGS_PATH.exists()
            else {"boards": {}, "calibrations": []}
        )
        current["boards"].update(found["boards"])
        done = {k: found[k] for k in ("game", "matches", "seats", "seed", "levels")}
        current["calibrations"] = [
            c for c in current.get("calibrations", []) if (c["game"], c["seats"]) != (game, seats)
        ] + [done]
        BOT_RATINGS_PATH.write_text(
            json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
