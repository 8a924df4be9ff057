"""What the request rate limits add to a request (target: <= 3 ms at the median).

Usage: python benchmarks/bench_rate_limits.py [--redis-url redis://127.0.0.1:6379/14]
       [--requests 2000]
Serves the API over a service on the real Redis (its own key prefix, every key deleted
afterwards) through Flask's test client, and times ``--requests`` ``GET /v1/matches/{id}``
of one seat (its token: the client is the seat) with rate limits off, then on with the
default limits (``120/minute;20/second`` raised far enough that nothing is refused, so both
runs do the same work plus the limiter's counters: one Redis call per limit). Prints the
median and p99 latency of each run and the median difference, the metric. The limiter's
own work is negligible (``memory://`` storage measures like no limits); the cost is its
Redis calls, one per configured limit (two by default), so the target is two loopback
round trips on a loaded shared 2-core box.
"""

from __future__ import annotations

import argparse
import statistics
import time

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, bench_prefix, cleanup_prefix, report


def timed(client, path: str, headers: dict, count: int) -> list[float]:
    """Latencies (ms) of ``count`` GETs of ``path``; each must answer 200."""
    out = []
    for _ in range(count):
        start = time.perf_counter()
        response = client.get(path, headers=headers)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.get_data(as_text=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()

    from api.app import create_app
    from service.bootstrap import build_service
    from service.config import Config

    prefix = bench_prefix("limits")
    try:
        service = build_service(Config(redis_url=args.redis_url, key_prefix=prefix))
        created = service.create_match(
            "ai-100-human", [{"kind": "human"}] * 3, {"objectives": "starter"}
        )
        token = created["seats"][0]["token"]
        path, headers = f"/v1/matches/{created['match_id']}", {"Authorization": f"Bearer {token}"}
        runs = {}
        for name, settings in (
            ("off", {"ARENA_RATE_LIMITS_ENABLED": "0"}),
            (
                "on",
                {
                    "ARENA_RATE_LIMITS_ENABLED": "1",
                    "ARENA_RATE_LIMITS": "1000000/minute;100000/second",
                },
            ),
        ):
            client = create_app(service, settings).test_client()
            timed(client, path, headers, 50)  # warm caches
            runs[name] = timed(client, path, headers, args.requests)
        stats = {
            name: {
                "p50_ms": round(statistics.median(v), 3),
                "p99_ms": round(statistics.quantiles(v, n=100)[98], 3),
            }
            for name, v in runs.items()
        }
        extra = stats["on"]["p50_ms"] - stats["off"]["p50_ms"]
        report(
            "bench_rate_limits",
            "extra_ms_per_request_p50",
            extra,
            "ms",
            "<=",
            3.0,
            requests=args.requests,
            limits=2,
            **stats,
        )
    finally:
        cleanup_prefix(args.redis_url, prefix)


if __name__ == "__main__":
    main()
