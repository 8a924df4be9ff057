"""Paired A/B of the A.I.Pokalypse ``expert``'s solo budget (issue 23): does a larger budget
win more solo matches against the A.I.Toma?

Each arm is the ``expert`` with one ``--budgets`` value (rollouts per decision before the
solo factor, ``expert.SOLO_BUDGET_FACTOR``: budget 36 with factor 2 is 72 rollouts, the
default 24 x 1.5) plus ``toma_hunter`` as a reference; every arm plays the same solo
matches (match ``i`` of a difficulty seeded as ``aipokalypse_tournament.py``'s solo match
``i``: ``SHA-256("<seed>:solo:<difficulty>:<i>")``). The arms of one match are played one
after the other before the next match, so a run cut short stays paired.

Usage:
    cd benchmarks && nice -n 15 python aipokalypse_budget_ab.py [--matches 40]
        [--difficulties boss,untamed] [--budgets 24,36] [--seed S] [--log FILE]

``--log`` appends one JSON line per match and a rerun with the same file skips the matches
it holds (the summary covers every row of the log). Output: one JSON object on stdout: per
difficulty and pooled, each arm's wins, matches, rate and Wilson 95% interval; per budget
against the first: the paired counts (matches won by one arm only), the difference and the
McNemar z ``(b - c) / sqrt(b + c)``; per arm the CPU seconds of each expert decision
(``time.process_time``, the wall-clock cap lifted to 60 s) p50 / p95 / max. Metric: the
pooled z of the second budget against the first (target >= 2).
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
from aipokalypse_tournament import play, seed_of

from domain.games.aipokalypse.expert import DEFAULT_BUDGET

REFERENCE = "toma_hunter"
Z_TARGET, P95_TARGET_S = 2.0, 1.0


def run_one(arm: str, difficulty: str, index: int, seed: str) -> dict[str, Any]:
    """One solo match of ``arm`` (a budget as a string, or ``toma_hunter``)."""
    level = REFERENCE if arm == REFERENCE else "expert"
    budget = DEFAULT_BUDGET if arm == REFERENCE else int(arm)
    out = play(
        [level],
        {"mode": "solo", "difficulty": difficulty},
        seed_of(seed, f"solo:{difficulty}", index),
        budget,
        60.0,
    )
    return {
        "arm": arm,
        "difficulty": difficulty,
        "index": index,
        "win": 0 in out["winners"],
        "reason": out["reason"],
        "cpu_s": [round(t, 4) for t in out["times"]],
    }


def quantile(sorted_values: list[float], q: float) -> float | None:
    """The ``q`` quantile (nearest rank below) of ascending values; ``None`` when empty."""
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def paired(by: dict[tuple[str, str, int], bool], a: str, b: str, cells: list[str]) -> dict:
    """Matches both arms played in ``cells`` (difficulties): won by ``b`` only, by ``a``
    only, ``b``'s rate minus ``a``'s and the McNemar z."""
    keys = [(d, i) for (arm, d, i) in by if arm == a and d in cells and (b, d, i) in by]
    only_b = sum(by[(b, d, i)] and not by[(a, d, i)] for d, i in keys)
    only_a = sum(by[(a, d, i)] and not by[(b, d, i)] for d, i in keys)
    n = len(keys)
    return {
        "matches": n,
        f"only_{b}": only_b,
        f"only_{a}": only_a,
        "difference": round((only_b - only_a) / n, 3) if n else None,
        "z": round((only_b - only_a) / (only_b + only_a) ** 0.5, 2) if only_a + only_b else 0.0,
    }


def summarise(rows: list[dict[str, Any]], arms: list[str]) -> dict[str, Any]:
    """Per difficulty and pooled: rates, intervals and the paired comparisons; CPU per arm."""
    by = {(r["arm"], r["difficulty"], r["index"]): r["win"] for r in rows}
    difficulties = sorted({r["difficulty"] for r in rows})
    out: dict[str, Any] = {}
    for cell_name, cells in [(d, [d]) for d in difficulties] + [("pooled", difficulties)]:
        cell: dict[str, Any] = {}
        for arm in arms:
            wins = [w for (a, d, _), w in by.items() if a == arm and d in cells]
            if wins:
                cell[arm] = {
                    "wins": sum(wins),
                    "matches": len(wins),
                    "rate": round(sum(wins) / len(wins), 3),
                    "ci95": wilson(sum(wins), len(wins)),
                }
        budgets = [a for a in arms if a != REFERENCE]
        for other in budgets[1:] + [REFERENCE]:
            cell[f"{other}_vs_{budgets[0]}"] = paired(by, budgets[0], other, cells)
        out[cell_name] = cell
    cpu: dict[str, Any] = {}
    for arm in arms:
        times = sorted(t for r in rows if r["arm"] == arm for t in r["cpu_s"])
        if times:
            cpu[arm] = {
                "decisions": len(times),
                "p50_s": quantile(times, 0.5),
                "p95_s": quantile(times, 0.95),
                "max_s": times[-1],
            }
    return {"cells": out, "cpu": cpu}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the matches (skipping those ``--log`` holds) and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="per difficulty and arm")
    parser.add_argument("--difficulties", default="boss,untamed")
    parser.add_argument("--budgets", default=f"{DEFAULT_BUDGET},{DEFAULT_BUDGET * 3 // 2}")
    parser.add_argument("--seed", default="aipokalypse-budget")
    parser.add_argument("--log", default=None)
    args = parser.parse_args(argv)
    difficulties = [d for d in args.difficulties.split(",") if d]
    arms = [str(int(b)) for b in args.budgets.split(",") if b] + [REFERENCE]
    rows: list[dict[str, Any]] = []
    log = Path(args.log) if args.log else None
    if log is not None and log.exists():
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    done = {(r["arm"], r["difficulty"], r["index"]) for r in rows}
    for index in range(args.matches):
        for difficulty in difficulties:
            for arm in arms:
                if (arm, difficulty, index) in done:
                    continue
                row = run_one(arm, difficulty, index, args.seed)
                rows.append(row)
                brief = {k: row[k] for k in ("arm", "difficulty", "index", "win", "reason")}
                print(
                    json.dumps(brief | {"cpu_total_s": round(sum(row["cpu_s"]), 2)}),
                    file=sys.stderr,
                    flush=True,
                )
                if log is not None:
                    with log.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(row) + "\n")
    arms = sorted({r["arm"] for r in rows} - {REFERENCE}, key=int) + [REFERENCE]
    body = summarise(rows, arms)
    budgets = arms[:-1]
    pooled = body["cells"]["pooled"]
    z = pooled.get(f"{budgets[1]}_vs_{budgets[0]}", {}).get("z", 0.0) if len(budgets) > 1 else 0.0
    return report(
        "aipokalypse_budget_ab",
        "pooled_paired_z",
        z,
        "z",
        ">=",
        Z_TARGET,
        seed=args.seed,
        p95_target_s=P95_TARGET_S,
        **body,
    )


if __name__ == "__main__":
    main()
