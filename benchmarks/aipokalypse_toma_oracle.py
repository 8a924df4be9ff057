"""An omniscient bound on the A.I.Pokalypse solo target (issue 23): how often does the
expert's search win against the A.I.Toma when it may see everything?

Issue 23 asks the ``expert`` for a solo win rate at least 15 points above
``toma_hunter``'s at each difficulty (``toma_hunter``: 29.8 / 15.8 / 9.5 / 4.5% on 1,000
matches each). This script plays the same solo matches with an **oracle**: the expert's
search (shortlist, budget, horizon, value, rollout policy ``toma_hunter``: all unchanged)
whose every rollout starts from the *true* state — the deck order, the Special Units
deck, the A.I.Toma's piles — instead of a world drawn from the seat's view
(``expert.sample_world``). It is not a bot of the server (it peeks); it bounds what this
kind of search can gain from better sampling. Where the oracle's rate is below
``toma_hunter``'s + 15 points, the target is out of reach of the search as designed.

Usage:
    cd benchmarks && python aipokalypse_toma_oracle.py [--matches 24]
        [--difficulties handy_man,boss,endboss,untamed] [--seed S] [--budget N]
        [--log FILE]

Match ``i`` of a difficulty is seeded as ``aipokalypse_tournament.py``'s solo match ``i``
(``SHA-256("<seed>:solo:<difficulty>:<i>")``), and ``toma_hunter`` plays the same seeds
(a paired comparison). ``--log`` appends one JSON line per match and a rerun with the same
file skips the matches it holds. Output: one JSON object on stdout (per difficulty and
level: wins, matches, rate, Wilson 95% interval; the oracle's margin over
``toma_hunter`` and the paired counts) and one progress line per match on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report
from aipokalypse_sim import wilson
from aipokalypse_tournament import DIFFICULTIES, TOMA_MARGIN, play, seed_of

from domain.games.aipokalypse.expert import DEFAULT_BUDGET, ExpertBot, _Search


class OracleSearch(_Search):
    """Rollouts from the true state (the dump of the whole match state) every time."""

    def world(self, seed: int) -> dict[str, Any]:
        """The true state's dump (``rollout`` loads a deep copy of it); ``seed`` unused."""
        return self.dump


class OracleBot(ExpertBot):
    """The expert whose search sees the true state (module doc)."""

    search_class = OracleSearch


LEVELS = ("oracle", "toma_hunter")


def run_one(level: str, difficulty: str, index: int, seed: str, budget: int) -> dict[str, Any]:
    """One solo match of ``level`` (``oracle`` or ``toma_hunter``): ``{"level",
    "difficulty", "index", "win", "reason", "cpu_s"}`` (CPU seconds of the oracle's
    decisions)."""
    out = play(
        ["expert" if level == "oracle" else level],
        {"mode": "solo", "difficulty": difficulty},
        seed_of(seed, f"solo:{difficulty}", index),
        budget,
        60.0,
        OracleBot,
    )
    return {
        "level": level,
        "difficulty": difficulty,
        "index": index,
        "win": 0 in out["winners"],
        "reason": out["reason"],
        "cpu_s": round(sum(out["times"]), 3),
    }


def summarise(rows: list[dict[str, Any]], difficulties: list[str]) -> dict[str, Any]:
    """Per difficulty: each level's wins, matches, rate and Wilson interval; the oracle's
    margin over ``toma_hunter`` and the paired counts (matches only one of them won)."""
    out: dict[str, Any] = {}
    for difficulty in difficulties:
        mine = [r for r in rows if r["difficulty"] == difficulty]
        cell: dict[str, Any] = {}
        for level in LEVELS:
            wins = [r["win"] for r in mine if r["level"] == level]
            if wins:
                cell[level] = {
                    "wins": sum(wins),
                    "matches": len(wins),
                    "rate": round(sum(wins) / len(wins), 3),
                    "ci95": wilson(sum(wins), len(wins)),
                }
        by = {(r["level"], r["index"]): r["win"] for r in mine}
        both = [i for (level, i) in by if level == "oracle" and ("toma_hunter", i) in by]
        if both:
            cell["paired"] = {
                "matches": len(both),
                "oracle_only": sum(by[("oracle", i)] and not by[("toma_hunter", i)] for i in both),
                "toma_hunter_only": sum(
                    by[("toma_hunter", i)] and not by[("oracle", i)] for i in both
                ),
            }
        if "oracle" in cell and "toma_hunter" in cell:
            cell["margin"] = round(cell["oracle"]["rate"] - cell["toma_hunter"]["rate"], 3)
        out[difficulty] = cell
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the matches (skipping those ``--log`` holds) and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=24, help="per difficulty and level")
    parser.add_argument("--difficulties", default=",".join(DIFFICULTIES))
    parser.add_argument("--seed", default="aipokalypse-tournament")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--log", default=None)
    args = parser.parse_args(argv)
    difficulties = [d for d in args.difficulties.split(",") if d]
    rows: list[dict[str, Any]] = []
    log = Path(args.log) if args.log else None
    if log is not None and log.exists():
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    done = {(r["level"], r["difficulty"], r["index"]) for r in rows}
    for index in range(args.matches):
        for difficulty in difficulties:
            for level in LEVELS:
                if (level, difficulty, index) in done:
                    continue
                row = run_one(level, difficulty, index, args.seed, args.budget)
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
                if log is not None:
                    with log.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(row) + "\n")
    body = summarise(rows, difficulties)
    margins = {d: c["margin"] for d, c in body.items() if "margin" in c}
    worst = min(margins.values(), default=0.0)
    return report(
        "aipokalypse_toma_oracle",
        "worst_oracle_margin_over_toma_hunter",
        worst,
        "win-rate points",
        ">=",
        TOMA_MARGIN,
        difficulties=body,
        budget=args.budget,
        seed=args.seed,
    )


if __name__ == "__main__":
    main()
