"""HTTP throughput and latency: gunicorn + RQ workers + the real Redis, 16 clients.

Usage: python benchmarks/bench_http.py [--redis-url redis://127.0.0.1:6379/14]
       [--clients 16] [--max-requests 4000] [--max-seconds 20] [--gunicorn-workers 4]
       [--rq-workers 2]
Starts gunicorn (``api.app:create_app()``, gthread) and ``--rq-workers`` turn workers
(``python -m workers.runner``) as subprocesses on a free loopback port, all on
``--redis-url`` under a fresh key prefix that is deleted afterwards. Each client thread
creates a 4-seat match and plays its ``--humans`` seats (default all 4; the others are
greedy bots run by the RQ workers) over the public API with random legal actions
(legal-actions, actions with Idempotency-Key and expected_version, long-poll events while
bots act), starting a new match when one ends. Stops at ``--max-requests`` requests or
``--max-seconds``, whichever comes first.

Reports accepted actions per second (``POST .../actions`` answered 200), their p50/p99
latency, and the p50/p99 of every request. Target: >= 100 actions/s with p99 <= 250 ms
(an action answered within a quarter second feels immediate to a player).
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, ROOT, bench_prefix, cleanup_prefix, report


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by nearest rank (0.0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


class Budget:
    """Shared stop condition: at most ``max_requests`` requests before ``deadline``."""

    def __init__(self, max_requests: int, max_seconds: float):
        self.left = max_requests
        self.deadline = time.monotonic() + max_seconds
        self.lock = threading.Lock()

    def take(self) -> bool:
        """Claim one request; False once the count or the time is used up."""
        with self.lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                return False
            self.left -= 1
            return True


class Client(threading.Thread):
    """One client: plays 4-seat matches (``humans`` seats it drives over HTTP with their
    tokens, the others greedy bots run by the RQ workers) until the budget runs out."""

    def __init__(self, base_url: str, budget: Budget, seed: int, humans: int, seats: int = 4):
        super().__init__(daemon=True)
        import requests

        from cli.http_client import ArenaClient

        self.api = ArenaClient(base_url, timeout_s=30.0, session=requests.Session())
        self.budget = budget
        self.rng = random.Random(seed)
        self.seat_specs = ([{"kind": "human"}] * humans
                           + [{"kind": "bot", "bot": "greedy"}] * (seats - humans))
        self.latencies: list[float] = []         # every request, seconds
        self.action_latencies: list[float] = []  # accepted actions only
        self.errors: dict[str, int] = {}
        self.matches_finished = 0

    def _timed(self, call, *args, **kwargs):
        if not self.budget.take():
            raise StopIteration
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            self.latencies.append(time.perf_counter() - started)

    def _act(self, match_id: str, token: str) -> bool:
        """Send a random legal action for ``token``'s seat; False when it has none."""
        from cli.http_client import ApiError

        legal = self._timed(self.api.legal_actions, match_id, token)
        if not legal["actions"]:
            return False
        command = self.rng.choice(legal["actions"])
        started = time.perf_counter()
        try:
            self._timed(self.api.act, match_id, token, command, expected_version=legal["version"])
        except ApiError as exc:
            self.errors[exc.code] = self.errors.get(exc.code, 0) + 1
            return True
        self.action_latencies.append(time.perf_counter() - started)
        return True

    def run(self) -> None:
        try:
            while True:
                created = self._timed(self.api.create_match, "ai-100-human", self.seat_specs)
                match_id = created["match_id"]
                tokens = [s["token"] for s in created["seats"] if s.get("token")]
                while True:
                    if any([self._act(match_id, token) for token in tokens]):
                        continue
                    match = self._timed(self.api.match, match_id, tokens[0])
                    if match["status"] == "finished":
                        self.matches_finished += 1
                        break
                    self._timed(self.api.events, match_id, tokens[0], match["version"], 5.0)
        except StopIteration:
            return


def start_stack(redis_url: str, prefix: str, port: int, gunicorn_workers: int,
                rq_workers: int) -> list[subprocess.Popen]:
    """gunicorn + RQ worker subprocesses (own process groups); waits for ``/healthz``."""
    import requests

    env = {**os.environ, "REDIS_URL": redis_url, "ARENA_KEY_PREFIX": prefix,
           "PYTHONPATH": ROOT}
    env.pop("RQ_REDIS_URL", None)
    procs = [subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers",
         str(gunicorn_workers), "--threads", "8", "--worker-class", "gthread",
         "--log-level", "warning", "api.app:create_app()"],
        cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for index in range(rq_workers):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "workers.runner", "--name", f"{prefix}-w{index}"],
            cwd=ROOT, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).ok:
                return procs
        except requests.RequestException:
            pass
        time.sleep(0.1)
    stop_stack(procs)
    raise RuntimeError("gunicorn did not answer /healthz within 30 s")


def stop_stack(procs: list[subprocess.Popen]) -> None:
    """SIGTERM each process group (warm shutdown), SIGKILL after 10 s."""
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, run the load, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--max-requests", type=int, default=4000)
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--gunicorn-workers", type=int, default=4)
    parser.add_argument("--rq-workers", type=int, default=2)
    parser.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                        help="seats per match driven over HTTP (the rest are greedy bots)")
    args = parser.parse_args(argv)
    prefix, port = bench_prefix("http"), free_port()
    cleanup_prefix(args.redis_url, prefix)
    procs = start_stack(args.redis_url, prefix, port, args.gunicorn_workers, args.rq_workers)
    try:
        budget = Budget(args.max_requests, args.max_seconds)
        clients = [Client(f"http://127.0.0.1:{port}", budget, seed, args.humans) for seed in range(args.clients)]
        started = time.perf_counter()
        for client in clients:
            client.start()
        for client in clients:
            client.join(args.max_seconds + 60)
        elapsed = time.perf_counter() - started
    finally:
        stop_stack(procs)
        cleanup_prefix(args.redis_url, prefix)
    actions = [lat for c in clients for lat in c.action_latencies]
    requests_ = [lat for c in clients for lat in c.latencies]
    errors: dict[str, int] = {}
    for client in clients:
        for code, count in client.errors.items():
            errors[code] = errors.get(code, 0) + count
    rate = len(actions) / elapsed if elapsed else 0.0
    p99 = percentile(actions, 0.99) * 1000
    body = report("bench_http", "actions_per_second", rate, "actions/s", ">=", 100,
                  clients=args.clients, seconds=round(elapsed, 3), requests=len(requests_),
                  actions=len(actions), action_p50_ms=round(percentile(actions, 0.5) * 1000, 2),
                  action_p99_ms=round(p99, 2),
                  request_p50_ms=round(percentile(requests_, 0.5) * 1000, 2),
                  request_p99_ms=round(percentile(requests_, 0.99) * 1000, 2),
                  latency_target={"metric": "action_p99_ms", "op": "<=", "value": 250},
                  meets_latency_target=p99 <= 250,
                  matches_finished=sum(c.matches_finished for c in clients),
                  rejected_actions=errors, gunicorn_workers=args.gunicorn_workers,
                  rq_workers=args.rq_workers, human_seats_per_match=args.humans)
    return body


if __name__ == "__main__":
    main()
