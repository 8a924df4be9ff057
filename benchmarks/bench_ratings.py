"""Ratings costs (issue 22 item 6): CPU per rated match of the rating update, and a top-50
leaderboard read at 100 and at 100,000 players with the memory per player.

Usage: python benchmarks/bench_ratings.py [--redis-url URL] [--matches 2000] [--reads 300]

- **Update**: ``--matches`` synthetic rated matches (2, 4 and 8 seats, random places) are
  filed and folded one at a time through :class:`service.usecases.ratings.Ratings` on the
  real Redis at ``--redis-url`` (the job's path: file the input, read the checkpoint and
  the ratings, compute with OpenSkill, write everything with the checkpoint script); the
  figure is this process's CPU time (``time.process_time``) per match (target <= 5 ms), and
  the OpenSkill computation alone is given beside it.
- **Leaderboard**: boards of 100 and of 100,000 players (sorted set + ratings hash, as the
  fold writes them, and their names in the ``names`` hash); ``--reads`` top-50 page reads
  of each (one round trip each, names included, wall time); the value is the ratio
  100,000 / 100 of the median read (target <= 1.5: the same cost), with ``MEMORY USAGE``
  of both keys per player, and of ``names`` per name.

Keys live under a fresh ``bench-ratings-<hex>`` prefix, deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import bench_prefix, cleanup_prefix, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--redis-url", default=os.environ.get("ARENA_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
    )
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()

    import redis

    from service.ratings.fold import rate, start_rating
    from service.ratings.inputs import RatingInput
    from service.store.keys import Keys
    from service.store.player_store import PlayerStore
    from service.store.rating_store import RatingStore
    from service.usecases.ratings import Ratings

    prefix = bench_prefix("ratings")
    client = redis.Redis.from_url(args.redis_url, decode_responses=True)
    keys = Keys(prefix)
    store = RatingStore(client, keys)

    class Ctx:  # the use case reads only the engines for boards; not needed here
        engines: dict = {}  # noqa: RUF012 - read only

    class Players:  # the players' hashes the fold reads the names from (none here)
        def __init__(self) -> None:
            self.store = PlayerStore(client, keys)

    ratings = Ratings(Ctx(), store, Players())
    rng = random.Random(22)
    players = [f"player:{i:016x}" for i in range(500)]
    try:
        inputs = []
        for i in range(args.matches):
            seats = rng.choice([2, 4, 8])
            who = rng.sample(players, seats)
            ranks = list(range(1, seats + 1))
            rng.shuffle(ranks)
            inputs.append(
                RatingInput(
                    f"m{i:07d}",
                    f"bench:{seats}p",
                    tuple((p,) for p in who),
                    tuple(ranks),
                    "2026-12-02T00:00:00+00:00",
                    1_796_000_000_000_000 + i,
                )
            )
        started = time.process_time()
        for match in inputs:
            store.register(match.match_id, match.end_us, json.dumps(match.to_json()))
            ratings.advance()
        per_match_ms = (time.process_time() - started) * 1000 / len(inputs)
        started = time.process_time()
        for match in inputs:
            rate(match, {p: start_rating(match.board, p, {}) for t in match.teams for p in t})
        openskill_ms = (time.process_time() - started) * 1000 / len(inputs)

        reads: dict[int, float] = {}
        memory: dict[int, float] = {}
        for size in (100, 100_000):
            board = f"size{size}"
            pipe = client.pipeline(transaction=False)
            for i in range(size):
                mu, sigma = rng.uniform(10, 40), rng.uniform(1, 8.3)
                pid = f"player:{i:016x}"
                pipe.hset(
                    store.key(f"table:{board}"),
                    pid,
                    json.dumps({"matches": 3, "mu": mu, "sigma": sigma}),
                )
                pipe.zadd(store.key(f"board:{board}"), {pid: mu - 3 * sigma})
                pipe.hset(store.key("names"), pid, f"Player {i:06d}")
                if i % 5000 == 4999:
                    pipe.execute()
            pipe.execute()
            store.page(board, 0, 50)  # warm (script load)
            times = []
            for _ in range(args.reads):
                t0 = time.perf_counter()
                total, rows = store.page(board, 0, 50)
                times.append(time.perf_counter() - t0)
            assert total == size and len(rows) == 50 and all(r[3] for r in rows)
            reads[size] = statistics.median(times) * 1e6
            used = sum(
                client.memory_usage(store.key(f"{kind}:{board}")) or 0
                for kind in ("table", "board")
            )
            memory[size] = used / size
        name_bytes = (client.memory_usage(store.key("names")) or 0) / client.hlen(
            store.key("names")
        )
        print(
            f"update: {per_match_ms:.3f} ms CPU per match ({openskill_ms:.3f} ms OpenSkill); "
            f"top-50 read: {reads[100]:.0f} µs at 100, {reads[100_000]:.0f} µs at 100,000; "
            f"memory per player {memory[100]:.0f} B / {memory[100_000]:.0f} B, "
            f"{name_bytes:.0f} B per name",
            file=sys.stderr,
        )
        ratio = reads[100_000] / reads[100]
        report(
            "bench_ratings",
            "rating update CPU per rated match",
            per_match_ms,
            "ms",
            "<=",
            5.0,
            openskill_ms=round(openskill_ms, 4),
            matches=args.matches,
            top50_read_us={"100": round(reads[100], 1), "100000": round(reads[100_000], 1)},
            top50_read_ratio=round(ratio, 3),
            top50_ratio_meets=ratio <= 1.5,
            memory_bytes_per_player={
                "100": round(memory[100], 1),
                "100000": round(memory[100_000], 1),
            },
            name_bytes_per_player=round(name_bytes, 1),
        )
    finally:
        cleanup_prefix(args.redis_url, prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
