"""Shared helpers of the benchmark scripts: the JSON report, the import path, Redis key
clean-up and CPU accounting of local processes (Linux ``/proc``).

Every benchmark prints exactly one JSON object on stdout::

    {"benchmark": str, "metric": str, "value": float, "unit": str,
     "target": {"op": ">=" | "<=", "value": float}, "meets_target": bool, ...details}
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

# Run as `python benchmarks/bench_x.py` from a checkout: make the project importable.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def report(
    benchmark: str,
    metric: str,
    value: float,
    unit: str,
    target_op: str,
    target: float,
    **details: Any,
) -> dict[str, Any]:
    """Print (and return) the one-line JSON report; ``target_op`` is ``">="`` or ``"<="``."""
    meets = value >= target if target_op == ">=" else value <= target
    body = {
        "benchmark": benchmark,
        "metric": metric,
        "value": round(value, 6),
        "unit": unit,
        "target": {"op": target_op, "value": target},
        "meets_target": meets,
        **details,
    }
    print(json.dumps(body, sort_keys=False))
    return body


#: one row of a logistic fit: ``(features, outcome 0 or 1)``
Row = tuple[tuple[float, ...], int]


def logistic(w: Sequence[float], x: Sequence[float]) -> float:
    """The logistic model's probability ``1 / (1 + e^-(w . x))`` (``w . x`` clamped to
    ±30)."""
    z = sum(a * b for a, b in zip(w, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit_logistic(data: Sequence[Row], iterations: int = 25) -> list[float]:
    """Logistic-regression weights by Newton's method (a tiny ridge keeps it solvable)."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(iterations):
        g = [0.0] * k
        h = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in data:
            p = logistic(w, x)
            for i in range(k):
                g[i] += (y - p) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        a = [h[i][:] + [g[i]] for i in range(k)]
        for i in range(k):  # Gauss-Jordan with partial pivoting
            pivot = max(range(i, k), key=lambda r, i=i: abs(a[r][i]))
            a[i], a[pivot] = a[pivot], a[i]
            for r in range(k):
                if r != i:
                    f = a[r][i] / a[i][i]
                    a[r] = [u - f * v for u, v in zip(a[r], a[i], strict=True)]
        w = [u + a[i][k] / a[i][i] for i, u in enumerate(w)]
    return w


def log_loss(data: Sequence[Row], p: Callable[[Sequence[float]], float]) -> float:
    """Mean log loss of ``p(x)`` over ``data``."""
    total = 0.0
    for x, y in data:
        q = min(max(p(x), 1e-9), 1 - 1e-9)
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / len(data)


def logistic_report(data: Sequence[Row]) -> dict[str, Any]:
    """Fit on every other row of ``data`` (:func:`fit_logistic`) and hold the others out:
    ``{"weights" (4 decimals), "rows", "base_rate" (of the training rows), "train", "test"
    (mean log loss of the fit), "test_base" (of the base rate on the held-out rows)}``."""
    train, test = data[::2], data[1::2]
    w = fit_logistic(train)
    base = sum(y for _, y in train) / len(train)
    return {
        "weights": [round(x, 4) for x in w],
        "rows": len(data),
        "base_rate": round(base, 4),
        "train": round(log_loss(train, lambda x: logistic(w, x)), 4),
        "test": round(log_loss(test, lambda x: logistic(w, x)), 4),
        "test_base": round(log_loss(test, lambda x: base), 4),
    }


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
            deleted += conn.delete(*batch[start : start + 500])
    for set_key in ("rq:workers", "rq:queues"):
        members = [m for m in conn.smembers(set_key) if prefix.encode() in m]
        if members:
            conn.srem(set_key, *members)
    return deleted


def _proc_stats() -> dict[int, tuple[int, int]]:
    """``pid -> (process group id, CPU clock ticks used: user + system)`` of every process."""
    out: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                raw = handle.read()
        except OSError:
            continue
        fields = raw[raw.rfind(")") + 2 :].split()  # after "pid (comm) "
        # fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15 (proc(5))
        out[int(name)] = (int(fields[2]), int(fields[11]) + int(fields[12]))
    return out


class CpuMeter:
    """CPU seconds used by groups of local processes between :meth:`start` and :meth:`stop`.

    ``groups``: name -> set of process-group ids (every process in the group counts,
    including children started later, e.g. gunicorn workers) ; ``pids``: name -> set of
    single pids (e.g. the Redis server). Also measures the whole machine (``/proc/stat``),
    so a report can say how much CPU *other* processes took during the run. Linux only;
    elsewhere every figure is ``None``.
    """

    def __init__(
        self, groups: dict[str, set[int]] | None = None, pids: dict[str, set[int]] | None = None
    ):
        self.groups = groups or {}
        self.pids = pids or {}
        self.available = os.path.isdir("/proc") and os.path.exists("/proc/stat")
        self._start: dict[str, int] = {}
        self._machine_start = 0
        self._wall_start = 0.0
        self.tick = os.sysconf("SC_CLK_TCK") if self.available else 100

    def _sample(self) -> dict[str, int]:
        stats = _proc_stats()
        used = {name: 0 for name in [*self.groups, *self.pids]}
        for pid, (pgrp, ticks) in stats.items():
            for name, pgids in self.groups.items():
                if pgrp in pgids:
                    used[name] += ticks
            for name, wanted in self.pids.items():
                if pid in wanted:
                    used[name] += ticks
        return used

    @staticmethod
    def _machine_ticks() -> int:
        with open("/proc/stat", encoding="ascii") as handle:
            parts = handle.readline().split()[1:]
        busy = [int(v) for v in parts[:3]] + [int(v) for v in parts[5:8]]  # not idle/iowait
        return sum(busy)

    def start(self) -> None:
        """Take the starting sample."""
        import time

        self._wall_start = time.perf_counter()
        if self.available:
            self._start = self._sample()
            self._machine_start = self._machine_ticks()

    def stop(self, own_cpu_s: float | None = None) -> dict[str, Any]:
        """CPU seconds per group since :meth:`start`, plus ``machine_busy_cores`` (average
        busy cores over the window) and ``other_processes_cores`` (the part not used by the
        measured groups nor ``own_cpu_s``, this process's CPU seconds)."""
        import time

        wall = max(time.perf_counter() - self._wall_start, 1e-9)
        if not self.available:
            return {"wall_s": wall, **{name: None for name in [*self.groups, *self.pids]}}
        end = self._sample()
        used = {name: (end[name] - self._start.get(name, 0)) / self.tick for name in end}
        machine = (self._machine_ticks() - self._machine_start) / self.tick
        ours = sum(used.values()) + (own_cpu_s or 0.0)
        return {
            "wall_s": wall,
            **used,
            "machine_busy_cores": machine / wall,
            "other_processes_cores": max(0.0, machine - ours) / wall,
        }
