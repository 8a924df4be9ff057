"""HTTP actions per second and latency: gunicorn + the real Redis, 16 concurrent clients.

Usage: python benchmarks/bench_http.py [--redis-url redis://127.0.0.1:6379/14]
       [--clients 16] [--max-requests 1000000] [--max-seconds 20] [--warmup-seconds 2]
       [--gunicorn-workers 2*cores+1] [--worker-class sync|gthread] [--threads 4]
       [--rq-workers 1] [--humans 4]

Target (issue 2, "Benchmarks"): >= 500 accepted actions/s with p99 action latency <= 30 ms
at 16 concurrent clients.

What is measured: gunicorn (``api.app:create_app()``) and ``--rq-workers`` turn workers
(``python -m workers.runner``) run as subprocesses on a free loopback port, on
``--redis-url`` under a fresh key prefix that is deleted afterwards. Each of ``--clients``
client threads (one keep-alive HTTP/1.1 connection each) creates a 4-seat match and plays
its ``--humans`` seats (default all 4: no bot, so every action is a client's HTTP request;
with fewer, the other seats are greedy bots run by the RQ workers and their moves are NOT
counted) over the public API: ``GET .../legal-actions``, then ``POST .../actions`` with a
random legal command, ``expected_version`` and a fresh ``Idempotency-Key``; a long-poll
``GET .../events`` while only bots may act; a new match when one ends.

Server settings: gunicorn ``gthread`` workers, ``2 * cores + 1`` of them with 4 threads
each (on 2 cores ``sync`` workers, which close the connection after every response, used
~50% more server CPU per action; fewer, fatter gthread workers had a longer p99 tail).

Reported: accepted actions per second (``POST .../actions`` answered 200) over the timed
window (after ``--warmup-seconds``; requests of the warm-up are not counted), p50/p99 of
their latency, p50/p99 of every request, and the CPU each part used (gunicorn processes,
RQ workers, the Redis server when it runs on this machine, the client threads) together
with the CPU other processes of the machine took meanwhile (a busy machine lowers the
figures; compare ``server_cpu_ms_per_action`` across runs instead).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, ROOT, CpuMeter, bench_prefix, cleanup_prefix, report

TARGET_ACTIONS_PER_S = 500
TARGET_ACTION_P99_MS = 30


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
    """Shared stop condition: at most ``max_requests`` requests before ``deadline``;
    requests started before ``counting_from`` (warm-up) are made but not counted."""

    def __init__(self, max_requests: int, max_seconds: float, warmup_s: float = 0.0):
        now = time.monotonic()
        self.left = max_requests
        self.counting_from = now + warmup_s
        self.deadline = self.counting_from + max_seconds
        self.lock = threading.Lock()

    def take(self) -> bool:
        """Claim one request; False once the count or the time is used up."""
        with self.lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                return False
            if time.monotonic() >= self.counting_from:
                self.left -= 1
            return True

    def counting(self) -> bool:
        """True once the warm-up is over."""
        return time.monotonic() >= self.counting_from


class HttpError(Exception):
    """A non-2xx answer: ``status`` and the problem+json ``code``."""

    def __init__(self, status: int, code: str):
        super().__init__(f"HTTP {status} {code}")
        self.status = status
        self.code = code


class Connection:
    """One keep-alive HTTP/1.1 connection to the API over a raw socket, JSON in and out.

    A deliberately small client (like ``wrk``'s): the load generator shares the machine
    with the server, so its own CPU per request must stay small; ``http.client`` parses
    every response header through ``email.parser`` and costs several times more.
    Handles ``Content-Length`` and ``chunked`` bodies and re-connects when the server
    closes the connection (``Connection: close`` or a dropped socket).
    """

    def __init__(self, host: str, port: int, timeout_s: float = 30.0):
        self.address = (host, port)
        self.host = f"{host}:{port}"
        self.timeout_s = timeout_s
        self.sock: socket.socket | None = None
        self.buffer = b""

    def close(self) -> None:
        """Close the socket (the next call re-connects)."""
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("server closed the connection")
        return chunk

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            self.buffer += self._recv()
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self.buffer += self._recv()
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        return body

    def _exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=self.timeout_s)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(request)
        lines = self._read_until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int(self._read_until(b"\r\n").split(b";")[0], 16)
                if size == 0:
                    self._read_until(b"\r\n")
                    break
                parts.append(self._read_exactly(size))
                self._read_exactly(2)
            body = b"".join(parts)
        else:
            body = self._read_exactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, body

    def call(self, method: str, path: str, token: str | None = None, body: Any = None,
             headers: dict[str, str] | None = None) -> Any:
        """Send one request; the decoded JSON answer, or :class:`HttpError`."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", "Accept: application/json"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        payload = b"" if body is None else json.dumps(body).encode()
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        for attempt in (1, 2):
            try:
                status, raw = self._exchange(request)
                break
            except (ConnectionResetError, BrokenPipeError, ConnectionAbortedError):
                self.close()   # a keep-alive connection the server closed meanwhile
                if attempt == 2:
                    raise
        if status >= 400:
            try:
                code = json.loads(raw).get("code", "")
            except ValueError:
                code = ""
            raise HttpError(status, code or str(status))
        return json.loads(raw) if raw else None


class Client(threading.Thread):
    """One client: plays 4-seat matches (``humans`` seats driven over HTTP with their
    tokens, the others greedy bots run by the RQ workers) until the budget runs out."""

    def __init__(self, port: int, budget: Budget, seed: int, humans: int, seats: int = 4):
        super().__init__(daemon=True)
        self.http = Connection("127.0.0.1", port)
        self.budget = budget
        self.rng = random.Random(seed)
        self.seat_specs = ([{"kind": "human"}] * humans
                           + [{"kind": "bot", "bot": "greedy"}] * (seats - humans))
        self.latencies: list[float] = []         # every counted request, seconds
        self.action_latencies: list[float] = []  # counted accepted actions only
        self.errors: dict[str, int] = {}
        self.matches_finished = 0
        self.cpu_s = 0.0

    def _timed(self, *args, **kwargs) -> tuple[Any, float]:
        if not self.budget.take():
            raise StopIteration
        counted = self.budget.counting()
        started = time.perf_counter()
        try:
            return self.http.call(*args, **kwargs), started
        finally:
            if counted:
                self.latencies.append(time.perf_counter() - started)

    def _act(self, match_id: str, token: str) -> bool:
        """Send a random legal action for ``token``'s seat; False when it has none."""
        legal, _ = self._timed("GET", f"/v1/matches/{match_id}/legal-actions", token)
        if not legal["actions"]:
            return False
        command = dict(self.rng.choice(legal["actions"]), expected_version=legal["version"])
        counted = self.budget.counting()
        try:
            _, started = self._timed("POST", f"/v1/matches/{match_id}/actions", token, command,
                                     {"Idempotency-Key": uuid.uuid4().hex})
        except HttpError as exc:
            self.errors[exc.code] = self.errors.get(exc.code, 0) + 1
            return True
        if counted:
            self.action_latencies.append(time.perf_counter() - started)
        return True

    def run(self) -> None:
        started = time.thread_time()
        try:
            while True:
                created, _ = self._timed("POST", "/v1/matches", body={
                    "game": "ai-100-human", "seats": self.seat_specs, "options": {}})
                match_id = created["match_id"]
                tokens = [s["token"] for s in created["seats"] if s.get("token")]
                while True:
                    if any([self._act(match_id, token) for token in tokens]):
                        continue
                    match, _ = self._timed("GET", f"/v1/matches/{match_id}", tokens[0])
                    if match["status"] == "finished":
                        self.matches_finished += 1
                        break
                    self._timed("GET", f"/v1/matches/{match_id}/events?after={match['version']}"
                                f"&wait=5", tokens[0])
        except StopIteration:
            return
        finally:
            self.cpu_s = time.thread_time() - started


def start_stack(redis_url: str, prefix: str, port: int, gunicorn_workers: int, worker_class: str,
                threads: int, rq_workers: int) -> list[subprocess.Popen]:
    """gunicorn + RQ worker subprocesses (own process groups); waits for ``/healthz``."""
    env = {**os.environ, "REDIS_URL": redis_url, "ARENA_KEY_PREFIX": prefix,
           "PYTHONPATH": ROOT}
    env.pop("RQ_REDIS_URL", None)
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}",
               "--workers", str(gunicorn_workers), "--worker-class", worker_class,
               "--backlog", "256", "--keep-alive", "30", "--log-level", "warning"]
    if worker_class == "gthread":
        command += ["--threads", str(threads)]
    procs = [subprocess.Popen([*command, "api.app:create_app()"], cwd=ROOT, env=env,
                              start_new_session=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    for index in range(rq_workers):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "workers.runner", "--name", f"{prefix}-w{index}"],
            cwd=ROOT, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            probe = Connection("127.0.0.1", port, timeout_s=1)
            if probe.call("GET", "/healthz") is not None:
                probe.close()
                return procs
        except (OSError, HttpError, ValueError):
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


def redis_server_pid(redis_url: str) -> int | None:
    """The Redis server's pid when it runs on this machine (loopback URL), else None."""
    import redis

    conn = redis.Redis.from_url(redis_url)
    host = conn.connection_pool.connection_kwargs.get("host", "")
    if host not in ("127.0.0.1", "localhost", "::1"):
        return None
    pid = int(conn.info("server").get("process_id", 0))
    return pid if pid and os.path.exists(f"/proc/{pid}") else None


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, run the load, print and return the JSON report."""
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--max-requests", type=int, default=1_000_000)
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--warmup-seconds", type=float, default=2.0)
    parser.add_argument("--gunicorn-workers", type=int, default=2 * cores + 1)
    parser.add_argument("--worker-class", choices=("sync", "gthread"), default="gthread")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--rq-workers", type=int, default=1)
    parser.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                        help="seats per match driven over HTTP (the rest are greedy bots)")
    args = parser.parse_args(argv)
    prefix, port = bench_prefix("http"), free_port()
    cleanup_prefix(args.redis_url, prefix)
    procs = start_stack(args.redis_url, prefix, port, args.gunicorn_workers, args.worker_class,
                        args.threads, args.rq_workers)
    redis_pid = redis_server_pid(args.redis_url)
    meter = CpuMeter(groups={"gunicorn": {procs[0].pid}, "rq_workers": {p.pid for p in procs[1:]}},
                     pids={"redis": {redis_pid} if redis_pid else set()})
    try:
        budget = Budget(args.max_requests, args.max_seconds, args.warmup_seconds)
        clients = [Client(port, budget, seed, args.humans) for seed in range(args.clients)]
        for client in clients:
            client.start()
        time.sleep(max(0.0, budget.counting_from - time.monotonic()))
        meter.start()
        started = time.perf_counter()
        for client in clients:
            client.join(args.max_seconds + args.warmup_seconds + 60)
        elapsed = time.perf_counter() - started
        client_cpu = sum(c.cpu_s for c in clients)
        cpu = meter.stop(own_cpu_s=client_cpu)
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

    def per_action_ms(seconds: float | None) -> float | None:
        return None if seconds is None or not actions else round(1000 * seconds / len(actions), 3)

    return report("bench_http", "actions_per_second", rate, "actions/s", ">=", TARGET_ACTIONS_PER_S,
                  clients=args.clients, seconds=round(elapsed, 3), requests=len(requests_),
                  actions=len(actions), action_p50_ms=round(percentile(actions, 0.5) * 1000, 2),
                  action_p99_ms=round(p99, 2),
                  request_p50_ms=round(percentile(requests_, 0.5) * 1000, 2),
                  request_p99_ms=round(percentile(requests_, 0.99) * 1000, 2),
                  latency_target={"metric": "action_p99_ms", "op": "<=",
                                  "value": TARGET_ACTION_P99_MS},
                  meets_latency_target=p99 <= TARGET_ACTION_P99_MS,
                  server_cpu_ms_per_action=per_action_ms(cpu.get("gunicorn")),
                  redis_cpu_ms_per_action=per_action_ms(cpu.get("redis")),
                  client_cpu_ms_per_action=per_action_ms(client_cpu),
                  rq_workers_cpu_s=cpu.get("rq_workers"),
                  machine_cores=cores,
                  machine_busy_cores=round(cpu.get("machine_busy_cores") or 0.0, 2),
                  other_processes_cores=round(cpu.get("other_processes_cores") or 0.0, 2),
                  matches_finished=sum(c.matches_finished for c in clients),
                  rejected_actions=errors, gunicorn_workers=args.gunicorn_workers,
                  worker_class=args.worker_class,
                  threads=args.threads if args.worker_class == "gthread" else 1,
                  rq_workers=args.rq_workers, human_seats_per_match=args.humans,
                  bot_moves_counted=False)


if __name__ == "__main__":
    main()
