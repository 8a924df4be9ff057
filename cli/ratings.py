"""``arena ratings``: the ratings projection from the command line (issue 22 items 2-3).

- ``rebuild [--write]``: recompute every rating from the stored (and archived) logs of the
  deployment (``REDIS_URL``; archive from ``ARENA_ARCHIVE_URL``) and say whether it equals
  the live table; ``--write`` replaces the live table with it.
- ``replay EXPORT...``: the ratings that export files alone give (``.json`` or
  ``.json.xz``): anyone holding the logs can check a leaderboard. A match given twice
  (two files, or one file named twice) counts once, and the output says so.
- ``calibrate --game G --matches N``: seeded bot-vs-bot matches of the game's bot levels
  (in-process, no server) folded into ratings from the model's default; ``--write`` stores
  them as the levels' starting ratings in ``service/ratings/bot_ratings.json``. A solo or
  co-op family (``--seats 1``, ``--options`` once per difficulty) rates each level against
  the game at each difficulty, and the difficulties with it.
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
    """Print the ratings EXPORTS give (JSON: rated, skipped, duplicates, boards best
    first). A match given more than once counts once (its longest export); each such
    match is named on stderr and in ``duplicates``."""
    from service.usecases.ratings import replay as replay_docs

    report = replay_docs([read_export(p) for p in exports])
    for match_id, extra in sorted(report["duplicates"].items()):
        click.echo(f"match {match_id}: given {extra + 1} times, counted once", err=True)
    click.echo(json.dumps(report, indent=2, sort_keys=True))


def calibration(
    game: str,
    matches: int,
    seats: int,
    levels: list[str] | None,
    seed: int,
    options: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Play ``matches`` seeded bot matches of ``game`` (``seats`` seats, each pairing of
    ``levels`` in turn, then each of ``options`` in turn, seat order alternating; match
    ``i``'s secret seed is ``SHA-256("<seed>:<i>")``, :func:`cli.bot_match.match_seed`, so
    the same arguments give the same matches and ratings) in-process and fold them in
    match order: ``{"game", "matches", "seats", "seed", "levels", "options", "boards"}``.

    In a family played against the game (:func:`service.ratings.families.family_of`: one
    seat of AI: 100% Human, A.I.Pokalypse solo, Dead Apocalypse co-op) the bot seats are
    one team against the game's difficulty, which is rated too (as a rated match does,
    :func:`service.ratings.inputs.rating_input`); every level then plays alone
    (``seats`` 1). Raises ``click.UsageError`` for a team of one level twice."""
    from cli.bot_match import match_seed, play_bot_match
    from domain.games import registry
    from service.ratings.families import bot_player, family_of
    from service.ratings.fold import fold
    from service.ratings.inputs import RatingInput

    engine = registry()[game]
    levels = levels or [lv for lv in engine.bots if lv != "idle"]
    variants = options or [{}]
    pairs = [list(p) for p in itertools.combinations(levels, min(seats, len(levels)))]
    inputs = []
    for index in range(matches):
        lineup = pairs[index % len(pairs)]
        given = variants[(index // len(pairs)) % len(variants)]
        lineup = lineup[::-1] if (index // (len(pairs) * len(variants))) % 2 else lineup
        lineup = (lineup * seats)[:seats]
        checked = engine.validate_options(seats, dict(given))
        family = family_of(game, seats, checked)
        if family.opponent is not None and len(set(lineup)) != len(lineup):
            raise click.UsageError("a team against the game needs one seat per level")
        played = play_bot_match(engine, lineup, match_seed(seed, index), options=checked)
        result = played.result
        if family.opponent is not None:
            won = bool(result.get("winners")) and result.get("outcome") != "stopped"
            stopped = result.get("outcome") == "stopped"
            teams: tuple[tuple[str, ...], ...] = (
                tuple(bot_player(game, lv) for lv in lineup),
                (family.opponent,),
            )
            ranks: tuple[int, ...] = (1, 1) if stopped else ((1, 2) if won else (2, 1))
        else:
            place = {e["seat"]: e["rank"] for e in result.get("ranking") or []}
            teams = tuple((bot_player(game, lv),) for lv in lineup)
            ranks = tuple(place.get(s, 2) for s in range(seats))
        inputs.append(
            RatingInput(
                f"calibration-{index}",
                family.board,
                teams,
                ranks,
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
        "options": variants,
        "boards": {
            b: {p: {"mu": r["mu"], "sigma": r["sigma"]} for p, r in sorted(t.items())}
            for b, t in table.items()
        },
    }


def _options(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> list:
    """``--options`` values as JSON objects (``click.BadParameter`` otherwise)."""
    out = []
    for text in values:
        try:
            doc = json.loads(text)
        except ValueError as error:
            raise click.BadParameter(f"not JSON: {error}") from error
        if not isinstance(doc, dict):
            raise click.BadParameter("each --options is a JSON object")
        out.append(doc)
    return out


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
    type=click.IntRange(1),
    help="Seats per match (the family: e.g. 2 for ai-100-human 2p, 1 for a solo family).",
)
@click.option("--levels", default=None, help="Comma-separated levels (default: all but idle).")
@click.option(
    "--options",
    "options",
    multiple=True,
    callback=_options,
    help="Game options as a JSON object (repeat: the matches take each in turn), e.g. "
    '\'{"difficulty": "easy"}\'.',
)
@click.option("--seed", default=22, show_default=True, type=int)
@click.option(
    "--write",
    is_flag=True,
    help="Store the result as the levels' starting ratings (bot_ratings.json).",
)
def calibrate(
    game: str,
    matches: int,
    seats: int,
    levels: str | None,
    options: list[dict[str, Any]],
    seed: int,
    write: bool,
) -> None:
    """Rate the bot levels of GAME from seeded bot matches (and, in a solo or co-op
    family, the game's difficulties)."""
    from service.ratings.fold import BOT_RATINGS_PATH

    found = calibration(
        game, matches, seats, levels.split(",") if levels else None, seed, options or None
    )
    click.echo(json.dumps(found, indent=2, sort_keys=True))
    if write:
        current = (
            json.loads(BOT_RATINGS_PATH.read_text(encoding="utf-8"))
            if BOT_RATINGS_PATH.exists()
            else {"boards": {}, "calibrations": []}
        )
        current["boards"].update(found["boards"])
        done = {k: found[k] for k in ("game", "matches", "seats", "seed", "levels", "options")}
        boards = set(found["boards"])
        current["calibrations"] = [
            c
            for c in current.get("calibrations", [])
            if not boards & set(c.get("boards") or [_board_of(c)])
        ] + [{**done, "boards": sorted(boards)}]
        BOT_RATINGS_PATH.write_text(
            json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )


def _board_of(calibration_entry: dict[str, Any]) -> str:
    """The board an older calibration entry (without ``boards``) rated."""
    from domain.games import registry
    from service.ratings.families import family_of

    game, seats = calibration_entry["game"], calibration_entry["seats"]
    engine = registry()[game]
    return family_of(game, seats, engine.validate_options(seats, {})).board
