"""Fold (replay) throughput on the logs of finished matches (target >= 200,000 events/s).

Usage: python benchmarks/bench_fold.py [--matches 4] [--seats 4] [--min-seconds 2]
Plays ``--matches`` greedy-bot matches through the domain, then folds every log from the
start (``domain.engine.fold``, what a load without snapshot does) until at least
``--min-seconds`` have passed. Also reports the rate including decoding the stored JSON
envelopes (``Event.from_dict(service.log.codec.loads(...))``, the parser the event store
uses), the cost of a load from Redis.
"""

from __future__ import annotations

import argparse
import json
import time

import _common  # noqa: F401  (import path)
from _common import report

from cli.bot_match import match_seed, play_bot_match
from domain.engine import Event, fold
from domain.games import get_engine
from service.log.codec import loads


def _rate(work, min_seconds: float) -> tuple[float, int]:
    """Run ``work()`` (returns events processed) until ``min_seconds``; events/s, events."""
    done, started = 0, time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds:
            return done / elapsed, done


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, build the logs, time the folds, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ai-100-human")
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--seed", default="bench-fold")
    args = parser.parse_args(argv)
    engine = get_engine(args.game)
    logs = [
        play_bot_match(engine, ["greedy"] * args.seats, match_seed(args.seed, i)).events
        for i in range(args.matches)
    ]
    stored = [[json.dumps(e.to_dict()) for e in log] for log in logs]

    def fold_all() -> int:
        for log in logs:
            fold(engine, log)
        return sum(map(len, logs))

    def decode_and_fold_all() -> int:
        for log in stored:
            fold(engine, (Event.from_dict(loads(raw)) for raw in log))
        return sum(map(len, stored))

    rate, events = _rate(fold_all, args.min_seconds)
    decoded_rate, _ = _rate(decode_and_fold_all, args.min_seconds / 2)
    return report(
        "bench_fold",
        "events_folded_per_second",
        rate,
        "events/s",
        ">=",
        200_000,
        game=args.game,
        matches=args.matches,
        seats=args.seats,
        events_per_match=sum(map(len, logs)) / len(logs),
        events_folded=events,
        with_json_decode_events_per_second=round(decoded_rate, 1),
    )


if __name__ == "__main__":
    main()
