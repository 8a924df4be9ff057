"""A.I.Pokalypse simulation: N seeded 4-seat bot matches through the domain (no Redis).

Usage: python benchmarks/aipokalypse_sim.py [--matches 40] [--seats 4] [--seed S]
        [--levels tactician,random] [--no-replay] [--expert] [--force-the-luck]
       python benchmarks/aipokalypse_sim.py --toma [--matches 50] [--seed S] [--no-replay]
        [--cells solo:toma_hunter,coop:toma_hunter+toma_hunter] [--difficulties handy_man,boss]

Seats get the bot levels in turn, rotated by match index, so every level plays every seat.
Each match must finish; unless ``--no-replay`` it is replayed from the same seed (identical
events) and its log is folded again (identical state). Prints one JSON object: the metric is
the tactician's win share (target >= 0.6 against random), with rounds per match, the share of
games ending by elimination / A.I.Pokalypse / alternative win, win rates by faction and by
bot level, and how many effect decisions (``ChoiceRequested``) a match holds. ``--expert``
and ``--force-the-luck`` play the rulebook's variants; ``--seats 5`` to ``8`` the 5-8 Player
Variant.

``--toma`` plays "Solo / Cooperative Mode" instead: for every A.I.Toma difficulty
(Handy-Man, Boss, Endboss, Untamed A.I.) ``--matches`` matches per cell of solo (toma_hunter;
tactician; random) and co-op (toma_hunter + toma_hunter; tactician + tactician; tactician +
random), and reports the human side's win rate per cell (with a 95% Wilson interval) and the
seeds of its matches (``SHA-256("<seed>:<cell>:<index>")``; a cell's seeds do not depend on
the other cells). ``--cells`` / ``--difficulties`` play a subset. The metric is the share of
matches that finished and replayed identically (target 1.0).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report

from domain.engine import Event, Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.batching import unbatch
from domain.games.aipokalypse.cards import catalogue

MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class Match:
    """A finished match: every event, the folded state and ``ENGINE.result``."""

    events: list[Event]
    state: Any
    result: dict[str, Any]


def match_seed(base: str, index: int) -> bytes:
    """Secret seed of match ``index``: ``SHA-256("<base>:<index>")`` (same run, same matches)."""
    return hashlib.sha256(f"{base}:{index}".encode()).digest()


def play_bot_match(engine: Any, bots: list[str], seed: bytes, options: dict | None = None) -> Match:
    """The decider loop of ``domain/engine.py``: ``new_match`` with ``derive_rng(seed, 0)``,
    then the lowest pending seat's bot chooses and ``decide`` runs with
    ``derive_rng(seed, version)``. Raises RuntimeError when the match does not finish."""
    options = engine.validate_options(len(bots), options or {})
    events = engine.new_match(Setup(len(bots), options), derive_rng(seed, 0))
    state = fold(engine, events)
    bot_rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if engine.result(state) is not None:
            return Match(events, state, engine.result(state))
        seat = min(engine.pending(state))
        command = engine.bots[bots[seat]].choose(state, seat, bot_rng)
        new = engine.decide(state, seat, command, derive_rng(seed, len(events)))
        for event in new:
            state = engine.evolve(state, event)
        events = events + new
    raise RuntimeError(f"match did not finish in {MAX_DECISIONS} decisions")


TOMA_CELLS = (
    ("solo", ("toma_hunter",)),
    ("solo", ("tactician",)),
    ("solo", ("random",)),
    ("coop", ("toma_hunter", "toma_hunter")),
    ("coop", ("tactician", "tactician")),
    ("coop", ("tactician", "random")),
)


def wilson(wins: int, n: int, z: float = 1.96) -> list[float]:
    """95% Wilson score interval of a win rate ``wins / n`` (``[lo, hi]``, 3 decimals)."""
    if not n:
        return [0.0, 1.0]
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def toma_report(
    matches: int,
    base: str,
    replay: bool,
    cells_wanted: list[str] | None = None,
    difficulties: list[str] | None = None,
) -> dict:
    """Play every cell of :data:`TOMA_CELLS` (or ``cells_wanted``, ``"<mode>:<bot>+<bot>"``)
    x difficulty (or ``difficulties``) and report the win rates."""
    from domain.games.aipokalypse.spec import DIFFICULTIES

    cells = []
    finished = total = 0
    wanted = (
        [(c.split(":")[0], tuple(c.split(":")[1].split("+"))) for c in cells_wanted]
        if cells_wanted
        else TOMA_CELLS
    )
    for difficulty in difficulties or list(DIFFICULTIES):
        for mode, bots in wanted:
            name = f"{mode}:{'+'.join(bots)}:{difficulty}"
            wins, rounds, reasons, seeds = 0, [], Counter(), []
            for i in range(matches):
                label = f"{base}:{name}:{i}"
                seed = hashlib.sha256(label.encode()).digest()
                seeds.append(label)
                total += 1
                match = play_bot_match(
                    ENGINE, list(bots), seed, {"mode": mode, "difficulty": difficulty}
                )
                ok = True
                if replay:
                    again = play_bot_match(
                        ENGINE, list(bots), seed, {"mode": mode, "difficulty": difficulty}
                    )
                    ok = [e.to_dict() for e in again.events] == [
                        e.to_dict() for e in match.events
                    ] and fold(ENGINE, match.events) == match.state
                finished += ok
                wins += match.result["outcome"] == "won"
                rounds.append(match.state.round)
                reasons[match.result["reason"]] += 1
            cells.append(
                {
                    "cell": name,
                    "mode": mode,
                    "bots": list(bots),
                    "difficulty": difficulty,
                    "matches": matches,
                    "wins": wins,
                    "human_win_rate": round(wins / matches, 3),
                    "ci95": wilson(wins, matches),
                    "rounds_mean": round(statistics.mean(rounds), 2),
                    "end_reasons": dict(reasons),
                    "seeds": seeds,
                }
            )
    return report(
        "aipokalypse_sim",
        "toma_matches_finished_and_replayed",
        finished / max(1, total),
        "share",
        ">=",
        1.0,
        matches_per_cell=matches,
        seed=base,
        replayed=replay,
        win_rates={c["cell"]: c["human_win_rate"] for c in cells},
        cells=cells,
    )


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, play and check the matches, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", default="aipokalypse-sim")
    parser.add_argument("--levels", default="tactician,random")
    parser.add_argument("--no-replay", action="store_true")
    parser.add_argument(
        "--expert", action="store_true", help="Expert Variant: draft the health stacks"
    )
    parser.add_argument("--force-the-luck", action="store_true", help="Engineer Guild for everyone")
    parser.add_argument(
        "--toma",
        action="store_true",
        help="solo / co-op against the A.I.Toma: win rate per difficulty",
    )
    parser.add_argument(
        "--cells", help="--toma: comma-separated cells, e.g. solo:toma_hunter,coop:tactician+random"
    )
    parser.add_argument(
        "--difficulties", help="--toma: comma-separated difficulties (default: all four)"
    )
    args = parser.parse_args(argv)
    from domain.games.aipokalypse.spec import DIFFICULTIES

    for cell in args.cells.split(",") if args.cells else []:
        mode, _, bots = cell.partition(":")
        seats = {"solo": 1, "coop": 2}.get(mode)
        if (
            seats is None
            or len(bots.split("+")) != seats
            or not set(bots.split("+")) <= set(ENGINE.bots)
        ):
            parser.error(
                f"--cells: {cell!r} is not solo:<bot> or coop:<bot>+<bot> with bots {sorted(ENGINE.bots)}"
            )
    for difficulty in args.difficulties.split(",") if args.difficulties else []:
        if difficulty not in DIFFICULTIES:
            parser.error(f"--difficulties: {difficulty!r} is not one of {sorted(DIFFICULTIES)}")
    if args.toma:
        return toma_report(
            args.matches,
            args.seed,
            not args.no_replay,
            args.cells.split(",") if args.cells else None,
            args.difficulties.split(",") if args.difficulties else None,
        )
    options = {"expert": args.expert, "force_the_luck": args.force_the_luck}
    choices = []
    levels = args.levels.split(",")
    cat = catalogue()
    rounds, reasons = [], Counter()
    level_games, level_wins = Counter(), Counter()
    faction_games, faction_wins = Counter(), Counter()
    replay_failures = 0
    for i in range(args.matches):
        bots = [levels[(seat + i) % len(levels)] for seat in range(args.seats)]
        seed = match_seed(args.seed, i)
        match = play_bot_match(ENGINE, bots, seed, options)
        # (a hidden Recruitment command is one RecruitmentMoves event: count its inner events)
        choices.append(sum(1 for e in unbatch(match.events) if e.type == "ChoiceRequested"))
        if not args.no_replay:
            again = play_bot_match(ENGINE, bots, seed, options)
            same = [e.to_dict() for e in again.events] == [e.to_dict() for e in match.events]
            if not same or fold(ENGINE, match.events) != match.state:
                replay_failures += 1
        state, result = match.state, match.result
        rounds.append(state.round)
        reasons[result["reason"]] += 1
        share = 1 / len(result["winners"])
        for seat, bot in enumerate(bots):
            # the faction chosen at Game Setup (B): Fallout Boyz may have been discarded since
            chosen = next(
                e.data["faction"]
                for e in match.events
                if e.type == "FactionChosen" and e.seat == seat
            )
            faction = cat[chosen].name
            level_games[bot] += 1
            faction_games[faction] += 1
            if seat in result["winners"]:
                level_wins[bot] += share
                faction_wins[faction] += share
    n = args.matches
    by_level = {
        lv: round(level_wins[lv] / level_games[lv], 3) if level_games[lv] else 0.0 for lv in levels
    }
    win_share = defaultdict(float)
    for lv in levels:
        win_share[lv] = round(level_wins[lv] / n, 3)
    return report(
        "aipokalypse_sim",
        "tactician_win_share",
        win_share.get("tactician", 0.0) or 1e-9,
        "share",
        ">=",
        0.6,
        matches=n,
        seats=args.seats,
        replay_failures=replay_failures,
        options=options,
        decisions_per_match=round(statistics.mean(choices), 2),
        rounds_per_match={
            "mean": round(statistics.mean(rounds), 2),
            "min": min(rounds),
            "max": max(rounds),
            "all": rounds,
        },
        end_reasons={
            k: round(reasons[k] / n, 3) for k in ("elimination", "aipokalypse", "alternative_win")
        },
        win_share_by_level=dict(win_share),
        win_rate_by_level_per_seat=by_level,
        win_rate_by_faction={
            f: round(faction_wins[f] / faction_games[f], 3) for f in sorted(faction_games)
        },
    )


if __name__ == "__main__":
    main()
