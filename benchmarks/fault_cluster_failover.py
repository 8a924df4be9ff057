"""Fault script: SIGKILL a Redis Cluster master mid-play on the production topology. The API
answers 200/409/503 ``store_unavailable`` (never 500) while the replica is promoted,
``arena worker`` processes stay alive, play resumes, no acknowledged event is lost and every
match finishes and verifies.

Topology: a private Redis Cluster (3 masters + 3 replicas, ``tests/support/cluster.py``)
holds the event store with ``ARENA_REDIS_WAIT_REPLICAS=1`` (an append is answered once a
replica has it), RQ runs on a private standalone ``redis-server`` (RQ does not support
Cluster), gunicorn serves the API as the Dockerfile runs it, and ``--workers`` separate
worker processes play. Matches: ``--matches`` bot-only matches of every game, and
``--humans`` matches of a human seat against a bot whose human is played over HTTP by a
client thread (first legal action, one ``Idempotency-Key`` per decision, every answered
event's version and hash recorded). Once every match has played ``--progress`` events, the
master serving the first human match is SIGKILLed.

Prints one JSON object: ``value`` is the number of 500 answers (target 0), with the
clients' answers by status (and 503 without ``Retry-After``), acknowledged events missing
from the final logs (must be 0), the seconds from the kill until every match stored on the
killed master played again, the workers alive, matches finished and verified.

Usage: ``python benchmarks/fault_cluster_failover.py [--matches 3] [--humans 2]
[--workers 2] [--progress 5] [--timeout 600]``
"""

from __future__ import annotations

import argparse
import shutil
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

BOT_MATCHES = [
    ("ai-100-human", ["random", "greedy"]),
    ("aipokalypse", ["random", "tactician"]),
    ("dead-apocalypse", ["random", "cooperative"]),
]
HUMAN_MATCHES = [
    ("ai-100-human", "random"),
    ("dead-apocalypse", "cooperative"),
    ("aipokalypse", "random"),
]


class Human(threading.Thread):
    """Plays seat 0 of one match over HTTP until it ends (or ``stop``): long-polls its legal
    actions, sends the first with an ``Idempotency-Key`` per decision (a retry after a 503
    re-sends the same key), counts answers by status and records each answered event."""

    def __init__(self, base_url: str, match_id: str, token: str):
        super().__init__(daemon=True)
        self.api = Api(base_url)
        self.match_id, self.token = match_id, token
        self.statuses: Counter = Counter()
        self.no_retry_after = 0
        self.acked: dict[int, str] = {}
        self.stop = threading.Event()
        self.done = False

    def _call(self, path: str, method: str = "GET", **kwargs):
        headers = {"Authorization": f"Bearer {self.token}", **kwargs.pop("headers", {})}
        try:
            answer = self.api.open(path, method, headers=headers, **kwargs)
        except Exception:  # noqa: BLE001 - a dropped connection counts, then retry
            self.statuses["error"] += 1
            time.sleep(0.2)
            return None, {}
        self.statuses[answer.status_code] += 1
        if answer.status_code == 503 and not answer.headers.get("Retry-After"):
            self.no_retry_after += 1
        try:
            return answer.status_code, answer.json()
        except ValueError:
            return answer.status_code, {}

    def run(self) -> None:
        base = f"/v1/matches/{self.match_id}"
        while not self.stop.is_set():
            status, legal = self._call(f"{base}/legal-actions?wait=5")
            if status != 200:
                time.sleep(0.2)
                continue
            actions = legal.get("actions") or []
            if not actions:
                status, match = self._call(base)
                if status == 200 and match.get("status") == "finished":
                    self.done = True
                    return
                continue
            key = f"d-{legal.get('version')}-{legal.get('decision_id', '')}"
            status, body = self._call(
                f"{base}/actions", "POST", json=actions[0], headers={"Idempotency-Key": key}
            )
            if status == 200:
                for event in body.get("events", []):
                    self.acked[event["version"]] = event["hash"]
            time.sleep(0.05)


def run_failover(
    matches: int = 3,
    humans: int = 2,
    workers: int = 2,
    progress: int = 5,
    timeout_s: float = 600.0,
    work_dir: str | None = None,
) -> dict[str, Any]:
    """Run the scenario (module docstring); returns the figures."""
    from service.bootstrap import build_service
    from service.config import Config
    from tests.support.cluster import LocalCluster

    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        raise RuntimeError("redis-server and redis-cli are needed")
    tmp = Path(work_dir or tempfile.mkdtemp(prefix="arena-fault-failover-"))
    cluster = LocalCluster().start()
    rq_server = PrivateRedis(tmp / "rq").start()
    config = Config(
        redis_url=cluster.url,
        rq_redis_url=rq_server.url(0),
        key_prefix="failover",
        heartbeat_file=str(tmp / "heartbeat"),
        wait_replicas=1,
        wait_ms=200,
        max_bot_matches_per_client=0,
    )
    pool = WorkerPool(config.to_env(), tmp / "logs")
    api_server = ApiServer(config.to_env(), tmp / "api")
    service = build_service(config)  # the observer: reads match status straight from Redis
    players: list[Human] = []
    try:
        api = Api(api_server.start().url)
        for _ in range(workers):
            pool.start()
        ids = []
        for n in range(humans):
            game, bot = HUMAN_MATCHES[n % len(HUMAN_MATCHES)]
            created = api.create_match(game, [{"kind": "human"}, {"kind": "bot", "bot": bot}])
            ids.append(created["match_id"])
            token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
            players.append(Human(api_server.url, created["match_id"], token))
        for n in range(matches):
            game, levels = BOT_MATCHES[n % len(BOT_MATCHES)]
            ids.append(
                api.create_match(game, [{"kind": "bot", "bot": b} for b in levels])["match_id"]
            )
        for player in players:
            player.start()

        def view(mid: str) -> dict:
            try:
                return service.match_view(mid, None)
            except Exception:  # noqa: BLE001 - the store is failing over
                return {"version": -1, "status": "?"}

        start = [view(m)["version"] for m in ids]
        if not wait_until(
            lambda: all(
                view(m)["version"] >= s + progress or view(m)["status"] == "finished"
                for m, s in zip(ids, start, strict=True)
            ),
            300,
            0.2,
        ):
            raise RuntimeError("matches did not get going before the kill")
        victim_key = service.keys.events(ids[0])
        killed_port = cluster.master_port_of(victim_key)
        on_victim = [
            m for m in ids if cluster.master_port_of(service.keys.events(m)) == killed_port
        ]
        at_kill = {m: view(m)["version"] for m in on_victim}
        before = {id(p): Counter(p.statuses) for p in players}
        killed_at = time.monotonic()
        cluster.kill_master_of(victim_key)
        wait_until(
            lambda: all(
                view(m)["version"] > v or view(m)["status"] == "finished"
                for m, v in at_kill.items()
            ),
            timeout_s,
            0.2,
        )
        resumed_s = time.monotonic() - killed_at
        finished = wait_until(
            lambda: all(view(m)["status"] == "finished" for m in ids), timeout_s, 0.5
        )
        for player in players:
            player.stop.set()
        for player in players:
            player.join(30)
        answers: Counter = Counter()
        after_kill: Counter = Counter()
        for player in players:
            answers.update(player.statuses)
            after_kill.update(player.statuses - before[id(player)])
        logs = {m: api.export(m) for m in ids if view(m)["status"] == "finished"}
        verified = sum(bool(service.verify(log)["valid"]) for log in logs.values())
        lost = 0
        for player in players:
            stored = {
                e["version"]: e["hash"] for e in logs.get(player.match_id, {}).get("events", [])
            }
            lost += sum(stored.get(v) != h for v, h in player.acked.items())
        return {
            "status_500": answers.get(500, 0),
            "answers_by_status": {str(k): v for k, v in sorted(answers.items(), key=str)},
            "answers_after_kill_by_status": {
                str(k): v for k, v in sorted(after_kill.items(), key=str)
            },
            "503_without_retry_after": sum(p.no_retry_after for p in players),
            "acknowledged_events": sum(len(p.acked) for p in players),
            "acknowledged_events_lost": lost,
            "matches_on_killed_master": len(on_victim),
            "resumed_all_on_killed_master_s": round(resumed_s, 2),
            "workers": workers,
            "workers_alive_at_end": len(pool.alive()),
            "matches": len(ids),
            "finished": len(logs),
            "all_finished_in_time": bool(finished),
            "verified": verified,
            "topology": "gunicorn (2 x 48 gthread) + Redis Cluster 3+3 (store) + redis-server "
            "(RQ) + separate arena worker processes",
        }
    finally:
        for player in players:
            player.stop.set()
        pool.stop()
        api_server.stop()
        rq_server.stop()
        cluster.stop()


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); prints the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--humans", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--progress", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    figures = run_failover(args.matches, args.humans, args.workers, args.progress, args.timeout)
    ok = (
        figures["status_500"] == 0
        and figures["503_without_retry_after"] == 0
        and figures["acknowledged_events_lost"] == 0
        and figures["workers_alive_at_end"] == args.workers
        and figures["finished"] == figures["matches"] == figures["verified"]
    )
    report(
        "fault_cluster_failover",
        "status_500_during_failover",
        figures["status_500"],
        "answers",
        "<=",
        0,
        all_ok=ok,
        **figures,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
