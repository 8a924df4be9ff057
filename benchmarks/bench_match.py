"""One full 4-seat match of greedy bots, in-process through the domain (target <= 1 s).

Usage: python benchmarks/bench_match.py [--seats 4] [--bots greedy] [--runs 3] [--seed S]
Reports the median wall-clock seconds of ``--runs`` matches (set-up, bot choices, decide,
fold; no Redis, no HTTP).
"""

from __future__ import annotations

import argparse
import statistics

import _common  # noqa: F401  (import path)
from _common import report

from cli.bot_match import match_seed, play_bot_match
from domain.games import get_engine


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, play the matches, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ai-100-human")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", default="bench-match")
    args = parser.parse_args(argv)
    engine = get_engine(args.game)
    matches = [
        play_bot_match(engine, [args.bots] * args.seats, match_seed(args.seed, i))
        for i in range(args.runs)
    ]
    seconds = [m.seconds for m in matches]
    return report(
        "bench_match",
        "seconds_per_match",
        statistics.median(seconds),
        "s",
        "<=",
        1.0,
        game=args.game,
        seats=args.seats,
        bots=args.bots,
        runs=args.runs,
        min_s=min(seconds),
        max_s=max(seconds),
        decisions_per_match=statistics.fmean(m.decisions for m in matches),
        events_per_match=statistics.fmean(len(m.events) for m in matches),
    )


if __name__ == "__main__":
    main()
