"""A.I.Pokalypse expert tournament (issue 23): seeded domain-only matches of the ``expert`` bot
against the ``tactician`` and against the A.I.Toma, with 95% Wilson intervals.

Usage:
    python benchmarks/aipokalypse_tournament.py [--duo 40] [--four 40] [--toma 20]
        [--difficulties handy_man,boss,endboss,untamed] [--seed S] [--budget N]
        [--time-cap S] [--workers 1]

Parts:

- ``--duo``: 2-seat matches expert vs tactician, the expert's seat alternating (match ``i``:
  seat ``i mod 2``). Target: expert wins >= 65%.
- ``--four``: 4-seat matches expert vs three tacticians, the expert's seat ``i mod 4``.
  Target: >= 40% (25% is parity).
- ``--toma``: per difficulty, that many solo matches (Solo / Cooperative Mode) by the expert
  and by ``toma_hunter`` on the same seeds. Target: the expert's win rate at least 15
  points above toma_hunter's at each difficulty.

Match ``i`` of a part has the seed ``SHA-256("<seed>:<part>:<i>")`` (the same matches in
every run); the bots' RNG is ``random.Random(seed)`` as in ``aipokalypse_sim.py``. A shared
victory counts as a win of every winner. Per expert decision the CPU time of ``choose``
(``time.process_time``, unaffected by other processes) is recorded: p50, p95 and max over
all parts (target p95 <= 1 s at the default budget). The wall-clock cap of a decision is
raised to ``--time-cap`` (default 60 s) so that a loaded machine does not cut the search
and the results are the same on every machine.

Output: one JSON object on stdout (``_common.report``; metric: the 2-seat win rate) and one
progress line per match on stderr (its result and the CPU time of each expert decision).

The generic ``benchmarks/tournament.py`` plays the same lineups on its own seeds (with the
expert's wall-clock ``time_budget_ms`` in force): ``--game aipokalypse --seats 2 --levels
expert,tactician``; ``--seats 4 --levels expert,tactician``; ``--seats 1 --options
'{"mode": "solo", "difficulty": "boss"}' --levels expert --levels toma_hunter`` (the
difference of the two lineups with its interval).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report
from aipokalypse_sim import wilson

from domain.engine import Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.bots import POLICIES
from domain.games.aipokalypse.expert import DEFAULT_BUDGET, ExpertBot

DIFFICULTIES = ("handy_man", "boss", "endboss", "untamed")
DUO_TARGET, FOUR_TARGET, TOMA_MARGIN, P95_TARGET_S = 0.65, 0.40, 0.15, 1.0
MAX_DECISIONS = 20_000


def seed_of(base: str, part: str, index: int) -> bytes:
    """``SHA-256("<base>:<part>:<index>")``."""
    return hashlib.sha256(f"{base}:{part}:{index}".encode()).digest()


def play(
    levels: list[str],
    options: dict[str, Any],
    seed: bytes,
    budget: int,
    time_cap: float,
    expert_class: type[ExpertBot] = ExpertBot,
) -> dict[str, Any]:
    """One match: ``levels[s]`` plays seat ``s`` (``expert``: an ``expert_class`` with
    ``budget``); answers the result and the CPU seconds of every expert decision."""
    expert = expert_class(POLICIES, budget=budget, time_cap_s=time_cap)
    n = len(levels)
    events = ENGINE.new_match(Setup(n, ENGINE.validate_options(n, options)), derive_rng(seed, 0))
    state, count, rng = fold(ENGINE, events), len(events), random.Random(seed)
    times: list[float] = []
    for _ in range(MAX_DECISIONS):
        if ENGINE.result(state) is not None:
            break
        seat = min(ENGINE.pending(state))
        if levels[seat] == "expert":
            start = time.process_time()
            command = expert.choose(state, seat, rng)
            times.append(time.process_time() - start)
        else:
            command = ENGINE.bots[levels[seat]].choose(state, seat, rng)
        new = ENGINE.decide(state, seat, command, derive_rng(seed, count))
        count += len(new)
        state = fold(ENGINE, new, state)
    result = ENGINE.result(state)
    if result is None:
        raise RuntimeError("match did not finish")
    return {
        "winners": list(result.get("winners") or []),
        "reason": result.get("reason"),
        "times": times,
    }


def _job(args: tuple) -> dict[str, Any]:
    part, index, levels, options, seat, seed, budget, time_cap = args
    out = play(levels, options, seed, budget, time_cap)
    return {
        "part": part,
        "index": index,
        "win": seat in out["winners"],
        "times": out["times"],
        "reason": out["reason"],
    }


def jobs(args: argparse.Namespace) -> list[tuple]:
    """Every match of the run: ``(part, index, levels, options, watched seat, seed, budget,
    time cap)``."""
    out = []
    for i in range(args.duo):
        levels = ["tactician", "tactician"]
        levels[i % 2] = "expert"
        out.append(("duo", i, levels, {}, i % 2, seed_of(args.seed, "duo", i)))
    for i in range(args.four):
        levels = ["tactician"] * 4
        levels[i % 4] = "expert"
        out.append(("four", i, levels, {}, i % 4, seed_of(args.seed, "four", i)))
    for difficulty in args.difficulties:
        for level in ("expert", "toma_hunter"):
            for i in range(args.toma):
                out.append(
                    (
                        f"solo:{level}:{difficulty}",
                        i,
                        [level],
                        {"mode": "solo", "difficulty": difficulty},
                        0,
                        seed_of(args.seed, f"solo:{difficulty}", i),
                    )
                )
    return [job + (args.budget, args.time_cap) for job in out]


def summarise(results: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Win rates with Wilson intervals per part, the A.I.Toma margins and decision times."""
    parts: dict[str, dict[str, Any]] = {}
    for r in sorted(results, key=lambda r: (r["part"], r["index"])):
        cell = parts.setdefault(r["part"], {"matches": 0, "wins": 0})
        cell["matches"] += 1
        cell["wins"] += r["win"]
    for cell in parts.values():
        cell["win_rate"] = round(cell["wins"] / cell["matches"], 3)
        cell["ci95"] = wilson(cell["wins"], cell["matches"])
    margins = {}
    for difficulty in args.difficulties:
        ex, th = parts.get(f"solo:expert:{difficulty}"), parts.get(f"solo:toma_hunter:{difficulty}")
        if ex and th:
            margins[difficulty] = round(ex["win_rate"] - th["win_rate"], 3)
    times = sorted(t for r in results for t in r["times"])
    pick = (
        (lambda q: round(times[min(len(times) - 1, int(q * len(times)))], 4))
        if times
        else (lambda q: None)
    )
    return {
        "parts": parts,
        "toma_margins": margins,
        "decisions": {
            "count": len(times),
            "cpu_p50_s": pick(0.5),
            "cpu_p95_s": pick(0.95),
            "cpu_max_s": times[-1] if times else None,
        },
    }


def main(argv: list[str] | None = None) -> dict:
    """Run the tournament and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duo", type=int, default=40, help="2-seat matches")
    parser.add_argument("--four", type=int, default=40, help="4-seat matches")
    parser.add_argument(
        "--toma", type=int, default=20, help="solo matches per difficulty and level"
    )
    parser.add_argument("--difficulties", default=",".join(DIFFICULTIES))
    parser.add_argument("--seed", default="aipokalypse-tournament")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--time-cap", type=float, default=60.0, help="seconds per decision")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    args.difficulties = [d for d in args.difficulties.split(",") if d]
    work = jobs(args)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(_job, work))
    else:
        results = []
        for job in work:  # one progress line per match on stderr
            results.append(_job(job))
            done = results[-1]
            print(
                json.dumps(
                    {k: done[k] for k in ("part", "index", "win", "reason")}
                    | {
                        "decisions": len(done["times"]),
                        "cpu_max_s": round(max(done["times"], default=0.0), 3),
                        "cpu_s": [round(t, 3) for t in done["times"]],
                    }
                ),
                file=sys.stderr,
                flush=True,
            )
    body = summarise(results, args)
    duo = body["parts"].get("duo", {"win_rate": 0.0})
    targets = {
        "duo_win_rate": {
            "target": DUO_TARGET,
            "value": duo["win_rate"],
            "meets": duo["win_rate"] >= DUO_TARGET,
        },
        "four_win_rate": {
            "target": FOUR_TARGET,
            "value": body["parts"].get("four", {}).get("win_rate"),
            "meets": body["parts"].get("four", {}).get("win_rate", 0) >= FOUR_TARGET,
        },
        "toma_margin": {
            "target": TOMA_MARGIN,
            "value": body["toma_margins"],
            "meets": bool(body["toma_margins"])
            and all(m >= TOMA_MARGIN for m in body["toma_margins"].values()),
        },
        "cpu_p95_s": {
            "target": P95_TARGET_S,
            "value": body["decisions"]["cpu_p95_s"],
            "meets": (body["decisions"]["cpu_p95_s"] or 0) <= P95_TARGET_S,
        },
    }
    return report(
        "aipokalypse_tournament",
        "expert_duo_win_rate",
        duo["win_rate"],
        "ratio",
        ">=",
        DUO_TARGET,
        budget=args.budget,
        seed=args.seed,
        targets=targets,
        **body,
    )


if __name__ == "__main__":
    main()
