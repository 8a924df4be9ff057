"""Bot tournament for any installed game: seeded all-bot matches played in-process through
the domain engine, win rates with Wilson 95% intervals and per-decision CPU time.

Usage::

    python benchmarks/tournament.py --game GAME [--seats N] [--options JSON]
        --levels LINEUP [--levels LINEUP ...] [--bot-option LEVEL.KEY=VALUE ...]
        [--matches 40] [--seed S] [--jobs 1] [--no-rotate] [--log FILE [--resume]] [--quiet]

- ``--levels``: one bot level per seat, comma separated, the last one repeating
  (``expert,tactician`` on 4 seats is ``expert,tactician,tactician,tactician``; ``expert``
  is a whole team of experts in a co-operative game or one expert in a solo game). Give it
  several times to play several lineups on the **same** match seeds (e.g. an ``expert`` team
  against a ``cooperative`` team of Dead Apocalypse, or ``expert`` against ``greedy`` alone
  in AI: 100% Human's solo mode).
- Seats rotate: match ``i`` moves every bot of a mixed lineup ``i`` seats to the left, so
  no level keeps the first seat (``--no-rotate`` keeps the lineup as written).
- Matches: match ``i`` is seeded with ``SHA-256("<seed>:<i>")`` (``cli.bot_match.match_seed``)
  and played by ``cli.bot_match.play_bot_match`` (``arena simulate``'s loop: ``new_match``,
  the lowest pending seat's bot, ``decide`` with ``derive_rng``, ``evolve``), so a run is
  replayed exactly by the same arguments (bots with a wall-clock ``time_budget_ms`` may
  stop earlier on a busier machine).
- ``--jobs``: worker processes (``multiprocessing``); results do not depend on it.
- Order and ``--log``: every lineup's match ``i`` is played before match ``i + 1``;
  ``--log FILE`` appends one JSON line per finished match, so a long run stopped early
  (CPU-heavy experts) keeps paired matches, and ``--resume`` (same arguments) reads them
  back instead of playing them again, e.g. to grow ``--matches`` later.

Reported per lineup and bot level (``levels``):

- ``wins`` / ``entries``: in a lineup of one level (a co-operative team, a solo seat, or
  the same bot everywhere) an entry is one match, won when any seat of the lineup is among
  the match's ``winners`` (the team's win rate); in a mixed lineup an entry is one seat of
  that level in one match, won when the seat is among the ``winners`` (a shared victory
  counts for every winner; parity is 1/seats). ``win_rate`` and its 95% Wilson score
  interval ``win_ci95``.
- ``score``: mean final score per entry (a one-level lineup: the mean of its seats'
  scores in the match) with a 95% interval (Student t for n <= 30) and the median (VP in
  AI: 100% Human, points in A.I.Pokalypse, 1 for a win and 0 for a loss in co-operative
  Dead Apocalypse).
- ``cpu_ms``: CPU milliseconds (``time.process_time`` around each bot ``choose``) per
  decision: ``p50``, ``p95``, ``max`` and the number of decisions.
- ``reasons``: how the matches ended, when the game's result names a ``reason``.

With several lineups, ``comparisons`` gives the win-rate difference of each lineup's first
level against the first lineup's, with a 95% interval (Newcombe's hybrid Wilson method for
two proportions; conservative here since the lineups share their seeds); between two
one-level lineups (teams or solo seats) also ``paired``: the matches won by one lineup only
and by the other only on the same seed, with the exact McNemar p-value (each one-level
lineup's summary lists ``won`` per match).

Output: one JSON object on stdout (``_common.report``): the metric is the largest p95
decision CPU time over the levels, held to the issue-23 target (<= 1 s at the default
budget); a plain-text table on stderr unless ``--quiet``. Example::

    nice -n 10 python benchmarks/tournament.py --game dead-apocalypse --seats 4 \\
        --levels expert --levels cooperative --matches 40 --seed t1 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report

from cli.bot_match import match_seed, play_bot_match
from cli.bot_options import parse_bot_options
from domain.engine import InvalidBotOptions, InvalidCommand, build_bot
from domain.games import get_engine

#: issue 23: p95 decision <= 1 s of CPU at the default budget
CPU_P95_TARGET_S = 1.0
# two-sided 95% Student t quantiles (df -> t); 1.96 beyond 30
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


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval ``(low, high)`` in 0..1 of ``wins`` successes in ``n``
    trials (``(0.0, 1.0)`` for no trial)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference_ci(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float]:
    """95% interval of ``p_a - p_b`` by Newcombe's hybrid score method (method 10 of
    Newcombe 1998) from the two Wilson intervals."""
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pa - pb
    return (
        d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2),
        d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2),
    )


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """``{"mean", "ci95": [lo, hi], "n"}`` (Student t for n <= 30, else 1.96)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "ci95": [None, None], "n": 0}
    m = statistics.fmean(values)
    if n == 1:
        return {"mean": round(m, 3), "ci95": [round(m, 3), round(m, 3)], "n": 1}
    df = n - 1
    t = 1.96 if df > 30 else _T95[max(k for k in _T95 if k <= df)]
    half = t * statistics.stdev(values) / math.sqrt(n)
    return {"mean": round(m, 3), "ci95": [round(m - half, 3), round(m + half, 3)], "n": n}


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``values`` (0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def expand(spec: str, seats: int, available: Sequence[str]) -> list[str]:
    """``"expert,cooperative"`` -> one level per seat (the last repeats). Raises
    ``ValueError`` for an empty spec, more levels than seats or an unknown level."""
    levels = [part.strip() for part in spec.split(",") if part.strip()]
    if not levels:
        raise ValueError("--levels needs at least one bot level")
    if len(levels) > seats:
        raise ValueError(f"{len(levels)} bot levels for {seats} seats")
    unknown = [lv for lv in levels if lv not in available]
    if unknown:
        raise ValueError(f"unknown bot level(s) {unknown}; known: {sorted(available)}")
    return levels + [levels[-1]] * (seats - len(levels))


def rotated(lineup: list[str], i: int) -> list[str]:
    """``lineup`` with every bot moved ``i`` seats to the left."""
    k = i % len(lineup)
    return lineup[-k:] + lineup[:-k] if k else list(lineup)


def play_one(
    job: tuple[str, list[str], bytes, dict[str, Any], dict[str, dict[str, Any]]],
) -> dict[str, Any]:
    """One match: ``{"bots", "scores", "winners", "reason", "decisions", "cpu_s": {level:
    [seconds, ...]}}``. Runs in a worker process (module-level for pickling)."""
    game, bots, seed, options, bot_options = job
    engine = get_engine(game)
    cpu: dict[str, list[float]] = {}
    used = {level: opts for level, opts in bot_options.items() if level in bots}
    match = play_bot_match(engine, bots, seed, options=options, bot_options=used, decision_cpu=cpu)
    return {
        "bots": bots,
        "scores": list(match.result["scores"]),
        "winners": list(match.result["winners"]),
        "reason": match.result.get("reason"),
        "decisions": match.decisions,
        "cpu_s": cpu,
    }


def summarise(games: list[dict[str, Any]], lineup: list[str]) -> dict[str, Any]:
    """The per-level rows of one lineup's matches (module doc)."""
    levels: dict[str, Any] = {}
    for level in dict.fromkeys(lineup):
        scores: list[float] = []
        wins = 0
        cpu: list[float] = []
        team = len(set(lineup)) == 1
        for g in games:
            seats = [seat for seat, bot in enumerate(g["bots"]) if bot == level]
            if team:  # one trial per match: the team (or the solo seat) wins or not
                scores.append(statistics.fmean(g["scores"][seat] for seat in seats))
                wins += any(seat in g["winners"] for seat in seats)
            else:
                scores.extend(g["scores"][seat] for seat in seats)
                wins += sum(seat in g["winners"] for seat in seats)
            cpu.extend(g["cpu_s"].get(level, []))
        entries = len(scores)
        lo, hi = wilson(wins, entries)
        levels[level] = {
            "seats_per_match": lineup.count(level),
            "entries": entries,
            "wins": wins,
            "win_rate": round(wins / entries, 4) if entries else 0.0,
            "win_ci95": [round(lo, 4), round(hi, 4)],
            "score": mean_ci(scores),
            "median_score": statistics.median(scores) if scores else None,
            "cpu_ms": {
                "p50": round(percentile(cpu, 0.50) * 1000, 2),
                "p95": round(percentile(cpu, 0.95) * 1000, 2),
                "max": round(max(cpu, default=0.0) * 1000, 2),
                "decisions": len(cpu),
            },
        }
    reasons: dict[str, int] = {}
    for g in games:
        if g["reason"] is not None:
            reasons[str(g["reason"])] = reasons.get(str(g["reason"]), 0) + 1
    out = {"lineup": lineup, "matches": len(games), "levels": levels, "reasons": reasons}
    if len(set(lineup)) == 1:  # a team or a solo seat: won or not, per match (paired counts)
        seats = range(len(lineup))
        out["won"] = [any(seat in g["winners"] for seat in seats) for g in games]
    return out


def run(
    game: str,
    seats: int,
    options: dict[str, Any],
    lineups: list[list[str]],
    bot_options: dict[str, dict[str, Any]],
    matches: int,
    seed: str,
    jobs: int,
    rotate: bool = True,
    log: str | None = None,
    resume: bool = False,
) -> list[dict[str, Any]]:
    """Play ``matches`` matches of every lineup on the same seeds; one summary per lineup.

    The matches are played by match index, every lineup's match ``i`` before match ``i + 1``
    (so a run stopped early leaves paired matches). ``log``: a file that gets one JSON line
    per match as it ends (``{"lineup": index, "match": i, ...}`` with :func:`play_one`'s
    members); with ``resume`` the matches the file already holds (same lineup index and
    match index) are read back instead of played again (the caller keeps the arguments the
    same: nothing in the file says which they were)."""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if log and resume:
        try:
            with open(log, encoding="utf-8") as lines:
                for line in lines:
                    if line.strip():
                        row = json.loads(line)
                        done[(row.pop("lineup"), row.pop("match"))] = row
        except FileNotFoundError:
            pass
    work = []
    for i in range(matches):
        for index, lineup in enumerate(lineups):
            if (index, i) in done:
                continue
            bots = rotated(lineup, i) if rotate and len(set(lineup)) > 1 else list(lineup)
            work.append(((index, i), (game, bots, match_seed(seed, i), options, bot_options)))
    sink = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115 (closed below)
    try:
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                played = pool.map(play_one, [job for _, job in work])
                for (key, _), g in zip(work, played, strict=True):
                    done[key] = g
                    _log_match(sink, key, g)
        else:
            for key, job in work:
                done[key] = play_one(job)
                _log_match(sink, key, done[key])
    finally:
        if sink:
            sink.close()
    return [
        summarise([done[(index, i)] for i in range(matches)], lineup)
        for index, lineup in enumerate(lineups)
    ]


def _log_match(sink: Any, key: tuple[int, int], game: dict[str, Any]) -> None:
    """One JSON line for a finished match (``run``'s ``log``), flushed at once."""
    if sink is not None:
        sink.write(json.dumps({"lineup": key[0], "match": key[1], **game}) + "\n")
        sink.flush()


def comparisons(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Win-rate difference of each later lineup's first level against the first lineup's
    first level, with Newcombe's 95% interval."""
    if len(summaries) < 2:
        return []
    first = summaries[0]
    a_level = first["lineup"][0]
    a = first["levels"][a_level]
    out = []
    for other in summaries[1:]:
        b_level = other["lineup"][0]
        b = other["levels"][b_level]
        lo, hi = difference_ci(a["wins"], a["entries"], b["wins"], b["entries"])
        row = {
            "a": ",".join(first["lineup"]),
            "a_level": a_level,
            "b": ",".join(other["lineup"]),
            "b_level": b_level,
            "difference": round(a["win_rate"] - b["win_rate"], 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
        if "won" in first and "won" in other:  # two teams (or solo seats) on the same seeds
            a_only = sum(x and not y for x, y in zip(first["won"], other["won"], strict=True))
            b_only = sum(y and not x for x, y in zip(first["won"], other["won"], strict=True))
            row["paired"] = {
                "a_only": a_only,
                "b_only": b_only,
                "mcnemar_p": mcnemar(a_only, b_only),
            }
        out.append(row)
    return out


def mcnemar(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value of ``a_only`` against ``b_only`` discordant pairs
    (binomial, p = 1/2; 1.0 when there are none)."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(a_only, b_only) + 1)) / 2**n
    return round(min(1.0, 2 * tail), 4)


def table(body: dict[str, Any]) -> str:
    """A plain-text rendering of the report (for stderr)."""
    lines = [
        f"{body['game']}: {body['seats']} seat(s), options {json.dumps(body['options'])}, "
        f"{body['matches']} matches per lineup, seed {body['seed']!r}"
    ]
    head = (
        f"{'lineup':<28}{'level':<14}{'entries':>8}{'win rate':>10}{'95% CI':>18}"
        f"{'mean score (95% CI)':>26}{'median':>8}{'cpu ms p50/p95/max':>24}"
    )
    lines.append(head)
    for s in body["lineups"]:
        for level, r in s["levels"].items():
            ci = f"[{r['win_ci95'][0] * 100:5.1f}, {r['win_ci95'][1] * 100:5.1f}]"
            sc = r["score"]
            score = (
                f"{sc['mean']:.2f} [{sc['ci95'][0]:.2f}, {sc['ci95'][1]:.2f}]" if sc["n"] else "-"
            )
            cpu = r["cpu_ms"]
            lines.append(
                f"{','.join(s['lineup'])[:27]:<28}{level:<14}{r['entries']:>8}"
                f"{r['win_rate'] * 100:>9.1f}%{ci:>18}{score:>26}"
                f"{str(r['median_score']):>8}"
                f"{cpu['p50']:>8.1f}/{cpu['p95']:.1f}/{cpu['max']:.1f}"
            )
        if s["reasons"]:
            lines.append(f"{'':<28}ended: {json.dumps(s['reasons'], sort_keys=True)}")
    for c in body["comparisons"]:
        lines.append(
            f"{c['a_level']} ({c['a']}) - {c['b_level']} ({c['b']}): "
            f"{c['difference'] * 100:+.1f} points, 95% CI "
            f"[{c['ci95'][0] * 100:+.1f}, {c['ci95'][1] * 100:+.1f}]"
            + (
                f"; paired: {c['paired']['a_only']} won by the first only, "
                f"{c['paired']['b_only']} by the second only (exact McNemar p "
                f"{c['paired']['mcnemar_p']})"
                if "paired" in c
                else ""
            )
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line entry point (module doc). Exits with status 2 on bad arguments."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, help="game id (e.g. dead-apocalypse)")
    ap.add_argument(
        "--seats", type=int, default=None, help="seats per match (default: the game's minimum)"
    )
    ap.add_argument(
        "--options",
        "--mode",
        default="{}",
        help='match options as a JSON object, e.g. \'{"difficulty": "standard"}\'',
    )
    ap.add_argument(
        "--levels",
        action="append",
        required=True,
        help="one lineup: bot level per seat, comma separated, last repeats; "
        "repeat the flag to compare lineups on the same seeds",
    )
    ap.add_argument(
        "--bot-option",
        "--bot-options",
        dest="bot_option",
        action="append",
        default=[],
        metavar="LEVEL.KEY=VALUE",
        help="a bot option (repeatable)",
    )
    ap.add_argument("--matches", type=int, default=40, help="matches per lineup")
    ap.add_argument("--seed", default="tournament", help="base seed (any string)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument(
        "--no-rotate",
        dest="rotate",
        action="store_false",
        help="keep mixed lineups in the seats as written",
    )
    ap.add_argument(
        "--log",
        default=None,
        metavar="FILE",
        help="append one JSON line per finished match to FILE (a run stopped early keeps them)",
    )
    ap.add_argument(
        "--resume",
        action="store_true",
        help="with --log: read the matches FILE holds instead of playing them again",
    )
    ap.add_argument("--quiet", action="store_true", help="no table on stderr")
    args = ap.parse_args(argv)
    engine = get_engine(args.game)
    if engine is None:
        ap.error(f"unknown game {args.game!r}")
    seats = engine.min_seats if args.seats is None else args.seats
    if not engine.min_seats <= seats <= engine.max_seats:
        ap.error(f"{engine.title} seats {engine.min_seats}-{engine.max_seats}")
    if args.matches < 1 or args.jobs < 1:
        ap.error("--matches and --jobs must be at least 1")
    if args.resume and not args.log:
        ap.error("--resume needs --log")
    try:
        options = json.loads(args.options)
        if not isinstance(options, dict):
            raise ValueError("not an object")
        options = engine.validate_options(seats, options)
        lineups = [expand(spec, seats, list(engine.bots)) for spec in args.levels]
        playing = {level for lineup in lineups for level in lineup}
        bot_options = parse_bot_options(args.bot_option, playing)
        for level, values in bot_options.items():
            build_bot(engine, level, values)
    except InvalidCommand as error:
        ap.error(f"--options: {error.detail}")
    except InvalidBotOptions as error:
        ap.error(f"--bot-option: {error.detail}")
    except Exception as error:  # noqa: BLE001  (argument errors: JSON, click, levels)
        ap.error(str(getattr(error, "message", None) or error))
    started = time.perf_counter()
    summaries = run(
        args.game,
        seats,
        options,
        lineups,
        bot_options,
        args.matches,
        args.seed,
        args.jobs,
        args.rotate,
        args.log,
        args.resume,
    )
    worst = (
        max((r["cpu_ms"]["p95"] for s in summaries for r in s["levels"].values()), default=0.0)
        / 1000
    )
    body = report(
        "tournament",
        "decision_cpu_p95_s",
        worst,
        "s",
        "<=",
        CPU_P95_TARGET_S,
        game=args.game,
        seats=seats,
        options=options,
        matches=args.matches,
        seed=args.seed,
        jobs=args.jobs,
        rotate=args.rotate,
        bot_options=bot_options,
        lineups=summaries,
        comparisons=comparisons(summaries),
        seconds=round(time.perf_counter() - started, 1),
    )
    if not args.quiet:
        print(table(body), file=sys.stderr)
    return body


if __name__ == "__main__":
    main()
