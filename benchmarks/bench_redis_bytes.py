"""Redis bytes held by one finished 6-seat match, compacted (target <= 25 KB) against the
same kind of match kept uncompacted (the reference, measured in the same run).

Usage: python benchmarks/bench_redis_bytes.py [--redis-url redis://127.0.0.1:6379/14]
       [--seats 6] [--matches 1]
Creates ``--matches`` all-bot matches (greedy) per arm through the MatchService on the real
Redis (its own key prefix, every key deleted afterwards), plays each to the end in this
process (``run_bot_turn`` at each version, no RQ worker: nothing is enqueued) and sums
``MEMORY USAGE <key> SAMPLES 0`` over the match's keys (``Keys.match_keys``: event stream,
meta, snapshot, idempotency records, tokens, deadlines, compacted log). Arm ``reference``
runs with compaction off (``ARENA_COMPACTION=0``: the full stream stays); arm
``compacted`` compacts each match when it ends (``service/upkeep/compaction.py``: verified export,
zlib, one key) and reports the CPU time (``time.process_time``) of that compaction. The
global index entries (lobby, compacted set) are a few dozen bytes per match and are not
counted.

Target: 25 KB per finished match keeps 40,000 finished 6-seat matches within 1 GiB of
Redis; the archive tier (``ARENA_ARCHIVE_URL``) moves older ones out.
"""

from __future__ import annotations

import argparse
import statistics

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, bench_prefix, cleanup_prefix, report


def play_to_end(service, match_id: str, max_turns: int = 10_000) -> int:
    """Run the pending bots' turns until the match is finished; returns the final version."""
    for _ in range(max_turns):
        view = service.match_view(match_id, None)
        if view["status"] == "finished":
            return view["version"]
        service.run_bot_turn(match_id, view["version"])
    raise RuntimeError(f"match {match_id} did not finish in {max_turns} bot turns")


def measure(redis_url: str, seats: int, matches: int, compaction: bool = True) -> dict:
    """Play the matches under a fresh prefix and return the per-match byte counts (and
    the CPU seconds of each compaction when ``compaction``)."""
    import time

    import redis

    from service.config import Config
    from service.match_service import MatchService
    from service.store.connections import store_connection
    from service.store.keys import Keys

    prefix = bench_prefix("bytes")
    config = Config(redis_url=redis_url, key_prefix=prefix)
    keys = Keys(prefix)
    try:
        service = MatchService(
            store_connection(config),
            keys,
            scheduler=None,
            snapshot_every=config.snapshot_every,
            compaction=False,
        )
        raw = redis.Redis.from_url(redis_url)
        totals, by_key, versions, cpu = [], {}, [], []
        for _ in range(matches):
            created = service.create_match(
                "ai-100-human", [{"kind": "bot", "bot": "greedy"}] * seats, {}
            )
            match_id = created["match_id"]
            versions.append(play_to_end(service, match_id))
            if compaction:
                began = time.process_time()
                if not service.compact(match_id):
                    raise RuntimeError(f"match {match_id} was not compacted")
                cpu.append(time.process_time() - began)
            total = 0
            for key in keys.match_keys(match_id):
                size = raw.memory_usage(key, samples=0) or 0
                kind = key.rsplit(":", 1)[-1]
                by_key.setdefault(kind, []).append(size)
                total += size
            totals.append(total)
        return {
            "bytes": totals,
            "by_key": {k: statistics.fmean(v) for k, v in by_key.items()},
            "events": versions,
            "compaction_cpu_s": cpu,
        }
    finally:
        cleanup_prefix(redis_url, prefix)


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, measure, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--matches", type=int, default=1)
    args = parser.parse_args(argv)
    reference = measure(args.redis_url, args.seats, args.matches, compaction=False)
    found = measure(args.redis_url, args.seats, args.matches, compaction=True)
    compacted = statistics.fmean(found["bytes"])
    uncompacted = statistics.fmean(reference["bytes"])
    return report(
        "bench_redis_bytes",
        "bytes_per_finished_match",
        compacted,
        "bytes",
        "<=",
        25 * 1000,
        seats=args.seats,
        matches=args.matches,
        events_per_match=statistics.fmean(found["events"]),
        mean_bytes_by_key=found["by_key"],
        bytes_per_event=round(compacted / statistics.fmean(found["events"]), 1),
        reference_uncompacted_bytes=uncompacted,
        reference_events_per_match=statistics.fmean(reference["events"]),
        reference_bytes_by_key=reference["by_key"],
        reference_over_compacted=round(uncompacted / compacted, 1),
        compaction_cpu_s_per_match=round(statistics.fmean(found["compaction_cpu_s"]), 4),
    )


if __name__ == "__main__":
    main()
