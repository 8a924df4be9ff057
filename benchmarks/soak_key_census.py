"""Soak and key census: play matches of every game with real ``arena worker`` processes,
let them settle, then SCAN every key of the store's and RQ's Redis databases and account
for each one by pattern (issue 12 item 4).

The production topology: a private ``redis-server`` holds the store on database 0
(``REDIS_URL``) and RQ on database 1 (``RQ_REDIS_URL``), gunicorn serves the API as the
Dockerfile runs it (matches are created, and the human seats play, over HTTP) and
``--workers`` separate worker processes play, per game, ``--per-game`` bot-only matches
and one timed match whose human seat first sends three commands with ``Idempotency-Key``s
and is then played by its turn timeouts; one listed match with an open seat stays running.
While they play, a sampler sums ``MEMORY USAGE`` over RQ's database every
``SAMPLE_EVERY_S`` seconds: RQ's bytes per running match (issue 18 item 4: RQ's job and
result records were ~375 KB per live match, mostly results kept 300 s). Once every match ended and
the queue is empty, the workers stop
(SIGTERM: RQ's warm shutdown) and one full reconcile pass runs (compaction retries, RQ
registry cleanup).

Every key must match one of :data:`STORE_PATTERNS` (database 0: all under
``ARENA_KEY_PREFIX``) or :data:`RQ_PATTERNS` (database 1: RQ's own ``rq:`` keys and the
workers' leases). Checks printed: unaccounted keys (must be none), per-match keys of the
finished matches (``meta``, ``log``, ``tokens``, ``idem`` with a TTL only), stale ids in
RQ's finished/failed registries (must be 0), per-job keys without a TTL on RQ's side (must
be none), and bytes per finished match (``MEMORY USAGE``, with and without the clients'
idempotency records, which expire ``ARENA_IDEMPOTENCY_TTL_S`` after the end). There is
no archive, so the indexes of finished matches are bounded by
``ARENA_FINISHED_INDEX_MAX`` (:data:`FINISHED_INDEX_MAX` here, below the number of
finished matches): reported are the sizes of ``P:compacted`` and of the largest lobby
``finished`` shard, which must stay within it.

Usage: ``python benchmarks/soak_key_census.py [--per-game 2] [--workers 2] [--timeout 900]``
"""

from __future__ import annotations

import argparse
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import report  # noqa: E402
from benchmarks._faults import Api, ApiServer, PrivateRedis, WorkerPool, wait_until  # noqa: E402

PREFIX = "soak"
#: (game, bot levels) of the bot-only matches
BOT_MATCHES = [
    ("ai-100-human", ["random", "greedy"]),
    ("aipokalypse", ["random", "tactician"]),
    ("dead-apocalypse", ["random", "cooperative"]),
]
TIMED_BOT = {"ai-100-human": "random", "aipokalypse": "random", "dead-apocalypse": "cooperative"}
MID = r"\{(?P<mid>[0-9a-f]{20})\}"
#: every key the deployment may leave in the store database, by kind
STORE_PATTERNS = {
    "match:meta": rf"^{PREFIX}:{MID}:meta$",
    "match:log": rf"^{PREFIX}:{MID}:log$",
    "match:tokens": rf"^{PREFIX}:{MID}:tokens$",
    "match:idem": rf"^{PREFIX}:{MID}:idem$",
    "match:events": rf"^{PREFIX}:{MID}:events$",
    "match:snap": rf"^{PREFIX}:{MID}:snap$",
    "match:deadlines": rf"^{PREFIX}:{MID}:deadlines$",
    # the global indexes and counters are sharded (service/store/slots.py); the single
    # pre-sharding keys are read and drained, never written
    "index:matches": rf"^{PREFIX}:(\{{{PREFIX}-ix-\d+\}}:)?matches$",
    "index:running": rf"^{PREFIX}:(\{{{PREFIX}-ix-\d+\}}:)?running$",
    "index:awaiting": rf"^{PREFIX}:(\{{{PREFIX}-ix-\d+\}}:)?awaiting$",
    "index:compacted": rf"^{PREFIX}:compacted$",
    "index:compact-pending": rf"^{PREFIX}:compact-pending$",
    "index:lobby": rf"^{PREFIX}:\{{{PREFIX}-ix-\d+\}}:lobby:(all|open|running|finished)(:[a-z0-9-]+)?$",
    "metrics": rf"^{PREFIX}:(\{{{PREFIX}-ix-\d+\}}:)?metrics$",
    "quota:botmatches": rf"^{PREFIX}:botmatches:.+$",
    # a bot match between its reservation and its write (expires in 60 s)
    "quota:reserving": rf"^{PREFIX}:{MID}:reserving$",
    "limits": rf"^{PREFIX}:limits:.+$",
    "idem:new-match": rf"^{PREFIX}:idem-new:\{{[0-9a-f]{{64}}\}}$",
}
#: every key RQ and the workers may leave in the RQ database, by kind
RQ_PATTERNS = {
    "rq:job": rf"^rq:job:{PREFIX}-(bot|timeout)-.+$",
    "rq:results": rf"^rq:results:{PREFIX}-(bot|timeout)-.+$",
    "rq:queue": rf"^rq:queue:{PREFIX}-turns(:intermediate)?$",
    "rq:first_seen": rf"^rq:queue:{PREFIX}-turns:intermediate:first_seen:{PREFIX}-.+$",
    "rq:registry": rf"^rq:(wip|finished|failed|scheduled|deferred|canceled|started):{PREFIX}-turns$",
    "rq:executions": rf"^rq:executions:{PREFIX}-.+$",
    "rq:queues": r"^rq:queues$",
    "rq:workers": r"^rq:workers(:{PREFIX}-turns)?$",
    "rq:worker": r"^rq:worker:.+$",
    "rq:clean_groups": r"^rq:clean_groups$",
    "rq:scheduler": r"^rq:scheduler(-lock|_instance|:scheduler_instance)?[:_].+$",
    "lease": rf"^{PREFIX}:worker-lease:.+$",
    "reconcile-turn": rf"^{PREFIX}:reconcile-turn:(pass|full)$",
}
#: ARENA_FINISHED_INDEX_MAX of the soak: fewer than the matches that finish
FINISHED_INDEX_MAX = 3
FINISHED_MATCH_KINDS = {"match:meta", "match:log", "match:tokens", "match:idem"}


#: Seconds between two samples of RQ's bytes while the matches play.
SAMPLE_EVERY_S = 2.0


class RqBytesSampler(threading.Thread):
    """Every :data:`SAMPLE_EVERY_S`: the bytes of every key in RQ's database (``SCAN`` +
    ``MEMORY USAGE``) and the number of running matches (``running()``), until ``stop``."""

    def __init__(self, rq_conn, running):
        super().__init__(daemon=True)
        self.rq_conn, self.running = rq_conn, running
        self.samples: list[tuple[int, int]] = []  # (bytes, running matches)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(SAMPLE_EVERY_S):
            try:
                live = len(self.running())
                total = sum(
                    self.rq_conn.memory_usage(k, samples=0) or 0
                    for k in self.rq_conn.scan_iter(count=1000)
                )
            except Exception:  # noqa: BLE001 - a sample lost is a sample lost
                continue
            if live:
                self.samples.append((total, live))

    def figures(self) -> dict[str, Any]:
        """``{"samples", "bytes_max", "bytes_mean", "per_running_match_mean",
        "per_running_match_max"}`` (bytes)."""
        if not self.samples:
            return {"samples": 0}
        per = [b / n for b, n in self.samples]
        return {
            "samples": len(self.samples),
            "bytes_max": max(b for b, _ in self.samples),
            "bytes_mean": round(statistics.fmean(b for b, _ in self.samples)),
            "per_running_match_mean": round(statistics.fmean(per)),
            "per_running_match_max": round(max(per)),
        }


def classify(key: str, patterns: dict[str, str]) -> tuple[str | None, str | None]:
    """``(kind, match id or None)`` of ``key``; ``(None, None)`` when nothing matches."""
    for kind, pattern in patterns.items():
        found = re.match(pattern.replace("{PREFIX}", PREFIX), key)
        if found:
            return kind, found.groupdict().get("mid")
    return None, None


def census(conn, patterns: dict[str, str]) -> dict[str, Any]:
    """SCAN every key of ``conn``'s database: counts by kind, unaccounted keys, and the
    keys of each match id."""
    kinds: Counter = Counter()
    unaccounted: list[str] = []
    per_match: dict[str, set[str]] = {}
    for raw in conn.scan_iter(count=1000):
        key = raw.decode() if isinstance(raw, bytes) else raw
        kind, mid = classify(key, patterns)
        if kind is None:
            unaccounted.append(key)
            continue
        kinds[kind] += 1
        if mid:
            per_match.setdefault(mid, set()).add(kind)
    return {
        "kinds": dict(sorted(kinds.items())),
        "unaccounted": sorted(unaccounted),
        "per_match": per_match,
    }


def run_census(
    per_game: int = 2, workers: int = 2, timeout_s: float = 900.0, work_dir: str | None = None
) -> dict[str, Any]:
    """Run the soak (module docstring) and return the figures."""
    import redis

    from service.bootstrap import build_service
    from service.config import Config

    tmp = Path(work_dir or tempfile.mkdtemp(prefix="arena-soak-"))
    server = PrivateRedis(tmp / "redis").start()
    config = Config(
        redis_url=server.url(0),
        rq_redis_url=server.url(1),
        key_prefix=PREFIX,
        reconcile_s=0.5,
        reconcile_full_s=2.0,
        heartbeat_file=str(tmp / "heartbeat"),
        max_bot_matches_per_client=0,
        finished_index_max=FINISHED_INDEX_MAX,
    )
    pool = WorkerPool(config.to_env(), tmp / "logs")
    api_server = ApiServer(config.to_env(), tmp / "api")
    service = build_service(config)  # the observer: reads straight from Redis
    started = time.monotonic()
    finishing: dict[str, str] = {}

    def running() -> list[str]:
        return [m for m in list(finishing) if service.match_view(m, None)["status"] == "running"]

    sampler = RqBytesSampler(redis.Redis.from_url(server.url(1)), running)
    try:
        api = Api(api_server.start().url)
        for _ in range(workers):
            pool.start()
        sampler.start()
        for game, levels in BOT_MATCHES:
            for _ in range(per_game):
                created = api.create_match(game, [{"kind": "bot", "bot": b} for b in levels], {})
                finishing[created["match_id"]] = game
        idem_keys = 0
        for game, bot in TIMED_BOT.items():
            created = api.create_match(
                game, [{"kind": "human"}, {"kind": "bot", "bot": bot}], {}, turn_timeout_s=1
            )
            mid = created["match_id"]
            token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
            auth = {"Authorization": f"Bearer {token}"}
            finishing[mid] = game
            for n in range(3):  # the human seat sends commands with idempotency keys
                legal = api.open(f"/v1/matches/{mid}/legal-actions?wait=10", headers=auth)
                acts = legal.json().get("actions") if legal.status_code == 200 else None
                if not acts:
                    break
                answer = api.open(
                    f"/v1/matches/{mid}/actions",
                    "POST",
                    json=acts[0],
                    headers={**auth, "Idempotency-Key": f"soak-{n}"},
                )
                idem_keys += answer.status_code == 200  # else its timeout or the bot moved first
        open_game = "ai-100-human"
        waiting = api.create_match(
            open_game, [{"kind": "open"}, {"kind": "bot", "bot": "random"}], {}
        )["match_id"]

        wait_until(lambda: not running(), timeout_s, step_s=0.5)
        sampler.stop.set()
        unfinished = running()
        queue = service.scheduler.queue
        wait_until(lambda: len(queue) == 0, 60, step_s=0.2)
        for proc in pool.procs:
            pool.kill(proc, signal.SIGTERM)
        summary = service.reconcile(full=True)
        store = redis.Redis.from_url(server.url(0))
        rq_conn = redis.Redis.from_url(server.url(1))
        store_census = census(store, STORE_PATTERNS)
        rq_census = census(rq_conn, RQ_PATTERNS)
        keys = service.keys
        finished_keys = {m: store_census["per_match"].get(m, set()) for m in finishing}
        bad_finished = {
            m: sorted(k - FINISHED_MATCH_KINDS)
            for m, k in finished_keys.items()
            if k - FINISHED_MATCH_KINDS or "match:log" not in k
        }
        idem_without_ttl = [
            m for m, k in finished_keys.items() if "match:idem" in k and store.ttl(keys.idem(m)) < 0
        ]

        def held(m: str, idem: bool) -> int:
            return sum(
                store.memory_usage(k, samples=0) or 0
                for k in keys.match_keys(m)
                if (idem or k != keys.idem(m)) and store.exists(k)
            )

        bytes_per_match = [held(m, True) for m in finishing]
        bytes_without_idem = [held(m, False) for m in finishing]
        stale_registry = 0
        for name in ("finished", "failed"):
            for job_id in rq_conn.zrange(f"rq:{name}:{queue.name}", 0, -1):
                stale_registry += not rq_conn.exists(b"rq:job:" + job_id)
        rq_jobs_without_ttl = [
            k.decode()
            for pattern in ("rq:job:*", "rq:results:*", "rq:queue:*:first_seen:*")
            for k in rq_conn.scan_iter(match=pattern)
            if rq_conn.ttl(k) < 0
        ]
        shards = service.stores.index.shards
        lobby_finished = [store.zcard(keys.lobby(k, "finished")) for k in range(shards)]
        verified = sum(
            bool(service.verify(api.export(m))["valid"]) for m in finishing if m not in unfinished
        )
        return {
            "matches": len(finishing) + 1,
            "finished": len(finishing) - len(unfinished),
            "verified": verified,
            "unfinished": unfinished,
            "open_match": waiting,
            "idempotent_commands": idem_keys,
            "reconcile": summary,
            "store_keys_by_kind": store_census["kinds"],
            "rq_keys_by_kind": rq_census["kinds"],
            "unaccounted_store_keys": store_census["unaccounted"],
            "unaccounted_rq_keys": rq_census["unaccounted"],
            "finished_matches_with_other_keys": bad_finished,
            "idem_without_ttl": idem_without_ttl,
            "open_match_keys": sorted(store_census["per_match"].get(waiting, set())),
            "stale_rq_registry_ids": stale_registry,
            "rq_jobs_without_ttl": rq_jobs_without_ttl,
            "finished_index_max": FINISHED_INDEX_MAX,
            "index_shards": shards,
            "compacted_index_size": store.zcard(keys.compacted()),
            "lobby_finished_listed": sum(lobby_finished),
            "lobby_finished_largest_shard": max(lobby_finished),
            "bytes_per_finished_match": bytes_per_match,
            "bytes_per_finished_match_after_idem_ttl": bytes_without_idem,
            "rq_bytes_while_playing": sampler.figures(),
            "topology": "gunicorn (2 x 48 gthread) + redis-server + separate arena worker processes",
            "elapsed_s": round(time.monotonic() - started, 1),
        }
    finally:
        sampler.stop.set()
        pool.stop()
        api_server.stop()
        server.stop()


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, run, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args(argv)
    figures = run_census(args.per_game, args.workers, args.timeout)
    unaccounted = len(figures["unaccounted_store_keys"]) + len(figures["unaccounted_rq_keys"])
    return report("soak_key_census", "unaccounted_keys", unaccounted, "keys", "<=", 0, **figures)


if __name__ == "__main__":
    main()
