"""Shared helpers of the benchmark scripts: the JSON report and the import path.

Every benchmark prints exactly one JSON object on stdout::

    {"benchmark": str, "metric": str, "value": float, "unit": str,
     "target": {"op": ">=" | "<=", "value": float}, "meets_target": bool, ...details}
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

# Run as `python benchmarks/bench_x.py` from a checkout: make the project importable.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def report(benchmark: str, metric: str, value: float, unit: str, target_op: str,
           target: float, **details: Any) -> dict[str, Any]:
    """Print (and return) the one-line JSON report; ``target_op`` is ``">="`` or ``"<="``."""
    meets = value >= target if target_op == ">=" else value <= target
    body = {"benchmark": benchmark, "metric": metric, "value": round(value, 6), "unit": unit,
            "target": {"op": target_op, "value": target}, "meets_target": meets, **details}
    print(json.dumps(body, sort_keys=False))
    return body


DEFAULT_BENCH_REDIS_URL = "redis://127.0.0.1:6379/14"


def bench_prefix(name: str) -> str:
    """A key prefix no other run uses (``bench-<name>-<8 hex>``); its RQ queue is
    ``<prefix>-turns`` (service.config)."""
    import uuid

    return f"bench-{name}-{uuid.uuid4().hex[:8]}"


def cleanup_prefix(redis_url: str, prefix: str) -> int:
    """Delete every key under ``prefix`` and the RQ queue, jobs and registries named after
    it on ``redis_url`` (nothing else). Returns the number of keys deleted."""
    import redis

    conn = redis.Redis.from_url(redis_url)
    deleted = 0
    for pattern in (f"{prefix}:*", f"rq:*{prefix}-*"):
        batch = list(conn.scan_iter(pattern, count=1000))
        for start in range(0, len(batch), 500):
            deleted += conn.delete(*batch[start:start + 500])
    for set_key in ("rq:workers", "rq:queues"):
        members = [m for m in conn.smembers(set_key) if prefix.encode() in m]
        if members:
            conn.srem(set_key, *members)
    return deleted
