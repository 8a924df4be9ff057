"""AI: 100% Human bot tournament: seeded 4-seat matches and solo games, domain-only play.

Usage:
    python benchmarks/ai_100_human_tournament.py [--matches 40] [--solo 20] [--duo 20]
        [--seed S] [--lineup expert,greedy,greedy,random] [--solo-bots expert,greedy,random]
        [--duo-lineup expert,greedy] [--budget N] [--workers 2] [--table]

4-seat part: ``--matches`` matches of the lineup, seats rotated (match ``i`` moves every
bot ``i mod 4`` seats to the left), match seeds ``SHA-256("<seed>:<i>")`` and bot RNGs
as in ``cli/bot_match.py`` (``arena simulate``). Reported per bot level: wins (shared
victories count for every winner, "In case of tie, share the victory"), win rate, mean
score with a 95% confidence interval (normal approximation, t for small N), mean
decision time and the slowest decision.

Solo part (only when the engine accepts 1 seat, ``min_seats == 1``): ``--solo`` games per
bot level on the same seeds; mean/median score with a 95% CI and the distribution over
the rulebook's ladder ("Solo Mode", Scoring): Failure <= 110, Mentat 111, AL9000 117,
Shyrka 123, Cortana 129, Skynet 135, PRIV8 142; mean and slowest decision time.

2-player part ("2-Player Mode", only when the engine accepts 2 seats): ``--duo``
matches of ``--duo-lineup``, seats alternated (match ``i`` rotates the lineup ``i`` seats),
seeds ``SHA-256("<seed>-duo:<i>")``; reported like the 4-seat part.

Targets (issue 3): ``expert`` wins >= 45% of the 4-seat matches and reaches a median
solo score >= 117. Output: one JSON object on stdout (``_common.report`` format with the
4-seat win rate as the metric); ``--table`` also prints rich tables on stderr.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report

from cli.bot_match import bot_rng, match_seed
from domain.engine import Setup, derive_rng, fold
from domain.games import get_engine

GAME = "ai-100-human"
LADDER = (
    (142, "PRIV8"),
    (135, "Skynet"),
    (129, "Cortana"),
    (123, "Shyrka"),
    (117, "AL9000"),
    (111, "Mentat"),
    (None, "Failure"),
)
WIN_TARGET = 0.45
SOLO_MEDIAN_TARGET = 117
# two-sided 95% t quantiles for small samples (df -> t); normal 1.96 beyond
_T95 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    12: 2.179,
    15: 2.131,
    20: 2.086,
    25: 2.060,
    30: 2.042,
}


def ladder(score: int) -> str:
    """The solo rating of ``score`` (rulebook "Solo Mode", Scoring)."""
    for threshold, name in LADDER:
        if threshold is None or score >= threshold:
            return name
    return "Failure"


def mean_ci(values: list[float]) -> dict[str, float]:
    """``{"mean", "ci95": [lo, hi], "n"}``; Student t for n <= 30, else 1.96."""
    n = len(values)
    if n == 0:
        return {"mean": float("nan"), "ci95": [float("nan"), float("nan")], "n": 0}
    m = statistics.fmean(values)
    if n == 1:
        return {"mean": m, "ci95": [m, m], "n": 1}
    df = n - 1
    t = 1.96 if df > 30 else _T95[max(k for k in _T95 if k <= df)]
    half = t * statistics.stdev(values) / math.sqrt(n)
    return {"mean": round(m, 3), "ci95": [round(m - half, 3), round(m + half, 3)], "n": n}


def p95(times: list[float]) -> float:
    """The 95th percentile of decision times in seconds (0.0 for none)."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return round(ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)], 4)


def play(
    bots: list[str], seed: bytes, budget: int | None, time_cap_s: float | None = None
) -> dict[str, Any]:
    """One domain-only match (the loop of ``cli.bot_match.play_bot_match``), timing every
    bot decision. ``budget`` / ``time_cap_s``: the expert's rollouts per decision and
    wall-clock cap (``None``: its defaults). Returns ``{"bots", "scores", "winners",
    "decision_s": {level: [..]}}``."""
    engine = get_engine(GAME)
    policies = {level: engine.bots[level] for level in set(bots)}
    if (budget is not None or time_cap_s is not None) and "expert" in policies:
        from domain.games.ai_100_human.expert import DEFAULT_BUDGET, ExpertBot

        policies["expert"] = ExpertBot(
            budget=DEFAULT_BUDGET if budget is None else budget, time_cap_s=time_cap_s
        )
    options = engine.validate_options(len(bots), {})
    events = list(engine.new_match(Setup(seats=len(bots), options=options), derive_rng(seed, 0)))
    state = fold(engine, events)
    timings: dict[str, list[float]] = {level: [] for level in policies}
    while (result := engine.result(state)) is None:
        seat = min(engine.pending(state))
        version = len(events)
        started = time.perf_counter()
        command = policies[bots[seat]].choose(state, seat, bot_rng(seed, version, seat))
        timings[bots[seat]].append(time.perf_counter() - started)
        produced = engine.decide(state, seat, command, derive_rng(seed, version))
        state = fold(engine, produced, state)
        events.extend(produced)
    return {
        "bots": bots,
        "scores": result["scores"],
        "winners": result["winners"],
        "decision_s": timings,
    }


def _job(args: tuple) -> dict[str, Any]:
    bots, seed, budget, time_cap_s = args
    return play(bots, seed, budget, time_cap_s)


def rotated(lineup: list[str], i: int) -> list[str]:
    """The lineup with every bot moved ``i`` seats to the left (seat rotation)."""
    k = i % len(lineup)
    return lineup[-k:] + lineup[:-k] if k else list(lineup)


def summarise(
    games: list[dict[str, Any]], levels: list[str], seats_per_level: dict[str, int]
) -> dict[str, Any]:
    """Per bot level: wins, win rate (per match and seat), mean score CI, decision times."""
    out = {}
    for level in levels:
        scores, wins, times = [], 0, []
        for g in games:
            for seat, b in enumerate(g["bots"]):
                if b == level:
                    scores.append(g["scores"][seat])
                    wins += seat in g["winners"]
            times.extend(g["decision_s"].get(level, []))
        entries = len(games) * seats_per_level[level]
        out[level] = {
            "seats_per_match": seats_per_level[level],
            "wins": wins,
            "win_rate": round(wins / entries, 4) if entries else 0.0,
            "score": mean_ci(scores),
            "median_score": statistics.median(scores) if scores else None,
            "decision_mean_s": round(statistics.fmean(times), 4) if times else 0.0,
            "decision_p95_s": p95(times),
            "decision_max_s": round(max(times), 4) if times else 0.0,
        }
    return out


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, run the tournament, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--solo", type=int, default=20)
    parser.add_argument("--seed", default="ai100-tournament")
    parser.add_argument("--lineup", default="expert,greedy,greedy,random")
    parser.add_argument("--solo-bots", default="expert,greedy,random")
    parser.add_argument("--duo", type=int, default=20, help="2-player matches")
    parser.add_argument("--duo-lineup", default="expert,greedy")
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help="expert rollouts per decision (default: the module default)",
    )
    parser.add_argument(
        "--time-cap",
        type=float,
        default=None,
        help="expert wall-clock cap per decision in seconds (default: the "
        "module's; a large value makes the results independent of load)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table", action="store_true", help="also print rich tables on stderr")
    args = parser.parse_args(argv)
    engine = get_engine(GAME)
    lineup = args.lineup.split(",")
    started = time.perf_counter()
    jobs = [
        (rotated(lineup, i), match_seed(args.seed, i), args.budget, args.time_cap)
        for i in range(args.matches)
    ]
    solo_levels = args.solo_bots.split(",") if engine.min_seats <= 1 else []
    solo_jobs = [
        ([level], match_seed(f"{args.seed}-solo", i), args.budget, args.time_cap)
        for level in solo_levels
        for i in range(args.solo)
    ]
    duo_lineup = args.duo_lineup.split(",")
    duo_n = args.duo if engine.min_seats <= 2 <= engine.max_seats else 0
    duo_jobs = [
        (rotated(duo_lineup, i), match_seed(f"{args.seed}-duo", i), args.budget, args.time_cap)
        for i in range(duo_n)
    ]
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        games = list(pool.map(_job, jobs))
        solo_games = list(pool.map(_job, solo_jobs))
        duo_games = list(pool.map(_job, duo_jobs))
    levels = list(dict.fromkeys(lineup))
    four = summarise(games, levels, {lv: lineup.count(lv) for lv in levels})
    solo: dict[str, Any] = {}
    for level in solo_levels:
        scores = [g["scores"][0] for g in solo_games if g["bots"] == [level]]
        times = [t for g in solo_games if g["bots"] == [level] for t in g["decision_s"][level]]
        dist = {name: sum(1 for s in scores if ladder(s) == name) for _, name in reversed(LADDER)}
        solo[level] = {
            "games": len(scores),
            "score": mean_ci(scores),
            "median_score": statistics.median(scores) if scores else None,
            "ladder": dist,
            "decision_mean_s": round(statistics.fmean(times), 4) if times else 0.0,
            "decision_p95_s": p95(times),
            "decision_max_s": round(max(times), 4) if times else 0.0,
        }
    duo_levels = list(dict.fromkeys(duo_lineup))
    duo = (
        summarise(duo_games, duo_levels, {lv: duo_lineup.count(lv) for lv in duo_levels})
        if duo_games
        else {}
    )
    expert = four.get("expert", {})
    body = report(
        "ai_100_human_tournament",
        "expert_win_rate_4_seats",
        expert.get("win_rate", 0.0),
        "ratio",
        ">=",
        WIN_TARGET,
        matches=args.matches,
        lineup=lineup,
        seed=args.seed,
        expert_budget=args.budget,
        expert_time_cap_s=args.time_cap,
        four_seats=four,
        solo_available=engine.min_seats <= 1,
        solo=solo,
        duo_matches=duo_n,
        duo_lineup=duo_lineup,
        duo=duo,
        solo_target={
            "bot": "expert",
            "median_score": {"op": ">=", "value": SOLO_MEDIAN_TARGET},
            "meets": (solo.get("expert", {}).get("median_score") or 0) >= SOLO_MEDIAN_TARGET
            if solo
            else None,
        },
        seconds=round(time.perf_counter() - started, 1),
    )
    if args.table:
        _tables(body)
    return body


def _tables(body: dict[str, Any]) -> None:
    """Rich tables of the report on stderr (optional)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stderr)
    parts = [
        (
            f"4 seats, {body['matches']} matches ({', '.join(body['lineup'])}, rotated)",
            body["four_seats"],
        )
    ]
    if body["duo"]:
        parts.append(
            (
                f"2 players, {body['duo_matches']} matches "
                f"({', '.join(body['duo_lineup'])}, alternated)",
                body["duo"],
            )
        )
    for title, rows in parts:
        t = Table(title=title)
        for col in (
            "bot",
            "wins",
            "win rate",
            "mean score (95% CI)",
            "median",
            "mean s/decision",
            "max s/decision",
        ):
            t.add_column(col)
        for level, r in rows.items():
            ci = r["score"]["ci95"]
            t.add_row(
                level,
                str(r["wins"]),
                f"{r['win_rate']:.1%}",
                f"{r['score']['mean']:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]",
                str(r["median_score"]),
                f"{r['decision_mean_s']:.3f}",
                f"{r['decision_max_s']:.3f}",
            )
        console.print(t)
    if body["solo"]:
        s = Table(title="Solo")
        for col in (
            "bot",
            "games",
            "mean (95% CI)",
            "median",
            *[n for _, n in reversed(LADDER)],
            "max s/decision",
        ):
            s.add_column(col)
        for level, r in body["solo"].items():
            ci = r["score"]["ci95"]
            s.add_row(
                level,
                str(r["games"]),
                f"{r['score']['mean']:.1f} [{ci[0]:.1f}, {ci[1]:.1f}]",
                str(r["median_score"]),
                *[str(r["ladder"][n]) for _, n in reversed(LADDER)],
                f"{r['decision_max_s']:.3f}",
            )
        console.print(s)
    else:
        console.print("solo mode not available yet (engine min_seats > 1)")


if __name__ == "__main__":
    main()
