"""Fault script: a Redis outage mid-play. The API answers 503 ``store_unavailable`` with
``Retry-After`` (never 500), ``arena worker`` processes stay alive, and every match finishes
after Redis returns with nothing restarted by hand.

The production topology: a private ``redis-server`` (AOF on, ``appendfsync always``) holds
store and queue, gunicorn serves the API as the Dockerfile runs it, and separate worker
processes play bot matches of all three games plus one timed match (turn timeouts through
the scheduler). Once every match has played ``--progress`` events the server is SIGKILLed;
while it is down, API requests (views, an action, a new match, ``/healthz``) are sent to
gunicorn over HTTP for ``--outage`` seconds (with each answer's time); then the server restarts on
the same port and data directory (reloading its AOF: ``LOADING`` answers are part of the
outage) and the script waits for every match to finish.

Prints one JSON object: ``value`` is the number of 500 answers (target 0), with the answers
by status code and problem code during the outage, whether each had ``Retry-After``,
``/healthz`` during the outage, the slowest answer during the outage, the workers alive
after it, matches finished and verified, and the seconds from the restart until every
match had played again.

Usage: ``python benchmarks/fault_redis_outage.py [--matches 6] [--workers 2] [--outage 5]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import report  # noqa: E402
from benchmarks._faults import Api, ApiServer, PrivateRedis, WorkerPool, wait_until  # noqa: E402

GAMES = [
    ("ai-100-human", ["random", "greedy"]),
    ("aipokalypse", ["random", "tactician"]),
    ("dead-apocalypse", ["random", "cooperative"]),
]


def run_outage(
    matches: int = 6,
    workers: int = 2,
    outage_s: float = 5.0,
    progress: int = 5,
    timeout_s: float = 600.0,
    work_dir: str | None = None,
) -> dict[str, Any]:
    """Run the scenario (module docstring); returns the figures."""
    from service.bootstrap import build_service
    from service.config import Config

    tmp = Path(work_dir or tempfile.mkdtemp(prefix="arena-fault-outage-"))
    server = PrivateRedis(tmp / "redis").start()
    config = Config(
        redis_url=server.url(0),
        key_prefix="outage",
        heartbeat_file=str(tmp / "heartbeat"),
        max_bot_matches_per_client=0,
    )
    pool = WorkerPool(config.to_env(), tmp / "logs")
    api_server = ApiServer(config.to_env(), tmp / "api")
    service = build_service(config)  # the observer: reads match status straight from Redis
    try:
        client = Api(api_server.start().url)
        for _ in range(workers):
            pool.start()
        ids = []
        for n in range(matches):
            game, levels = GAMES[n % len(GAMES)]
            ids.append(
                client.create_match(game, [{"kind": "bot", "bot": b} for b in levels], {})[
                    "match_id"
                ]
            )
        # every decision of this one is a turn timeout (RQ's scheduler, then a worker)
        timed = client.create_match(
            "dead-apocalypse", [{"kind": "human"}] * 2, {}, turn_timeout_s=1
        )
        human = client.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}])
        ids.append(timed["match_id"])
        versions = lambda: [service.match_view(m, None)["version"] for m in ids]  # noqa: E731
        start_versions = versions()
        if not wait_until(
            lambda: all(v >= s + progress for v, s in zip(versions(), start_versions, strict=True)),
            120,
            0.2,
        ):
            raise RuntimeError("matches did not get going before the outage")

        server.kill()
        answers: Counter = Counter()
        codes: Counter = Counter()
        missing_retry_after = 0
        health: Counter = Counter()
        token = human["seats"][0]["token"]
        requests = [
            ("GET", f"/v1/matches/{ids[0]}", None, None),
            (
                "GET",
                f"/v1/matches/{human['match_id']}/legal-actions",
                {"Authorization": f"Bearer {token}"},
                None,
            ),
            (
                "POST",
                f"/v1/matches/{human['match_id']}/actions",
                {"Authorization": f"Bearer {token}", "Idempotency-Key": "outage-1"},
                {"type": "pass"},
            ),
            (
                "POST",
                "/v1/matches",
                None,
                {"game": "dead-apocalypse", "seats": [{"kind": "human"}]},
            ),
            ("GET", f"/v1/matches/{ids[1]}/events?after=0", None, None),
        ]
        down_until = time.monotonic() + outage_s
        i = 0
        slowest = 0.0
        while time.monotonic() < down_until:
            method, path, headers, body = requests[i % len(requests)]
            i += 1
            sent = time.monotonic()
            answer = client.open(path, method=method, headers=headers or {}, json=body)
            slowest = max(slowest, time.monotonic() - sent)
            answers[answer.status_code] += 1
            try:
                problem = answer.json()
            except ValueError:
                problem = {}
            codes[problem.get("code", "?") if isinstance(problem, dict) else "?"] += 1
            if answer.status_code == 503 and not answer.headers.get("Retry-After"):
                missing_retry_after += 1
            health[client.open("/healthz").status_code] += 1
        alive_during = len(pool.alive())
        restart_at = time.monotonic()
        server.start()
        health_after = wait_until(lambda: client.open("/healthz").status_code == 200, 60, 0.2)
        moved = versions()

        def all_moved() -> bool:
            now = versions()
            return all(
                v > m or service.match_view(mid, None)["status"] == "finished"
                for v, m, mid in zip(now, moved, ids, strict=True)
            )

        wait_until(all_moved, timeout_s, 0.2)
        resumed_s = time.monotonic() - restart_at
        finished = wait_until(
            lambda: all(service.match_view(m, None)["status"] == "finished" for m in ids),
            timeout_s,
            0.5,
        )
        verified = sum(
            bool(service.verify(client.export(m))["valid"])
            for m in ids
            if service.match_view(m, None)["status"] == "finished"
        )
        return {
            "answers_during_outage_by_status": {str(k): v for k, v in sorted(answers.items())},
            "answers_during_outage_by_code": dict(codes),
            "status_500": answers.get(500, 0),
            "503_without_retry_after": missing_retry_after,
            "healthz_during_outage_by_status": {str(k): v for k, v in sorted(health.items())},
            "healthz_after_restart_ok": bool(health_after),
            "slowest_answer_during_outage_s": round(slowest, 3),
            "topology": "gunicorn (2 x 48 gthread) + redis-server + separate arena worker processes",
            "outage_s": outage_s,
            "workers": workers,
            "workers_alive_during_outage": alive_during,
            "workers_alive_at_end": len(pool.alive()),
            "matches": len(ids),
            "finished": len(ids)
            if finished
            else sum(service.match_view(m, None)["status"] == "finished" for m in ids),
            "verified": verified,
            "resumed_all_after_restart_s": round(resumed_s, 2),
        }
    finally:
        pool.stop()
        api_server.stop()
        server.stop()


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); prints the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--outage", type=float, default=5.0)
    args = parser.parse_args(argv)
    figures = run_outage(args.matches, args.workers, args.outage)
    ok = (
        figures["status_500"] == 0
        and figures["503_without_retry_after"] == 0
        and figures["workers_alive_at_end"] == args.workers
        and figures["finished"] == figures["matches"] == figures["verified"]
    )
    report(
        "fault_redis_outage",
        "status_500_during_outage",
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
