"""Slow clients: do 300 half-open connections stop a normal client from being answered?

Usage: python benchmarks/bench_slow_clients.py [--target gunicorn|nginx|url] [--url URL]
       [--slow 300] [--mode headers|body|idle] [--seconds 20] [--interval 0.5]
       [--trickle-s 3] [--workers 2] [--threads 48]

Target (issue 18, item 6): with the shipped settings, while ``--slow`` connections each send
a request slowly and never finish it, every request of one normal client (a fresh
connection, ``GET /v1/games``, every ``--interval`` seconds for ``--seconds``) is answered
within 1 s. The metric is the slowest normal answer (an unanswered request counts as its
5 s client timeout).

- ``--target gunicorn``: gunicorn alone with the shipped settings (``-c
  python:api.gunicorn_config``, as ``compose.yaml``'s ``api`` service: ``--workers`` x
  ``--threads``, ``gthread``: this project's ``api.wire_errors.ProblemThreadWorker``,
  timeout 120 s), on a free loopback port.
- ``--target nginx`` (default): the same gunicorn behind Debian's ``nginx`` running the
  shipped server block ``deploy/nginx/arena.conf.template`` (:mod:`tests.support.nginx`
  renders it for loopback ports), as ``compose.yaml`` runs it.
- ``--target url --url http://host:port``: a server already running (a compose stack).

Slow connection modes: ``headers`` (default: the request line and one header, then one more
header line every ``--trickle-s`` seconds, never the blank line: the classic slowloris),
``body`` (complete headers announcing a 64 KiB JSON body, then one body byte every
``--trickle-s`` seconds), ``idle`` (connect, send nothing). The servers run without
``REDIS_URL`` (each process its embedded store): only connection handling is measured.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

from _common import ROOT, report

#: a normal request not answered within this many seconds counts as this long
CLIENT_TIMEOUT_S = 5.0
TARGET_S = 1.0


def free_port() -> int:
    """A TCP port no one listens on right now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_answering(port: int, process: subprocess.Popen, deadline_s: float = 120) -> None:
    """Return once ``GET /healthz`` on ``port`` answers; raise if ``process`` died first."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            if normal_request(port, "/healthz") is not None:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("server did not answer in time")


def start_gunicorn(stack: ExitStack, workers: int, threads: int) -> int:
    """gunicorn with compose.yaml's api settings on a free port; returns the port."""
    from gunicorn.config import KNOWN_SETTINGS

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env["ARENA_RATE_LIMITS_ENABLED"] = "0"
    quiet = (
        ["--no-control-socket"]
        if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS)
        else []
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_config",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            *quiet,
            "api.app:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    stack.callback(_stop, process)
    wait_until_answering(port, process)
    return port


def start_nginx(stack: ExitStack, upstream_port: int) -> int:
    """Debian's nginx with the shipped server block in front of ``upstream_port``."""
    from tests.support.nginx import LocalNginx

    nginx = LocalNginx(upstream=f"127.0.0.1:{upstream_port}")
    stack.callback(nginx.stop)
    nginx.start()
    return nginx.port


def _stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def normal_request(port: int, path: str = "/v1/games") -> float | None:
    """One request on a fresh connection; seconds until the whole answer arrived, or
    ``None`` when it did not within :data:`CLIENT_TIMEOUT_S` (or the server closed)."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=CLIENT_TIMEOUT_S) as sock:
            sock.sendall(
                f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode()
            )
            data = b""
            while True:
                part = sock.recv(65536)
                if not part:
                    break
                data += part
    except OSError:
        return None
    if not data.startswith(b"HTTP/1.1 200"):
        return None
    return time.monotonic() - start


class SlowClients:
    """``count`` connections sending requests slowly (see the module docstring)."""

    def __init__(self, port: int, count: int, mode: str, trickle_s: float):
        self.port, self.count, self.mode, self.trickle_s = port, count, mode, trickle_s
        self.sockets: list[socket.socket] = []
        self.stop = threading.Event()
        self.closed_by_server = 0
        self.thread = threading.Thread(target=self._trickle, daemon=True)

    def open(self) -> None:
        for _ in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            if self.mode == "headers":
                sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: bench\r\n")
            elif self.mode == "body":
                sock.sendall(
                    b"POST /v1/matches HTTP/1.1\r\nHost: bench\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 65536\r\n\r\n{"
                )
            self.sockets.append(sock)
        self.thread.start()

    def _trickle(self) -> None:
        tick = 0
        while not self.stop.wait(self.trickle_s):
            tick += 1
            for sock in list(self.sockets):
                if self.mode == "idle":
                    continue
                piece = b"X-Slow-%d: y\r\n" % tick if self.mode == "headers" else b" "
                try:
                    sock.sendall(piece)
                except OSError:
                    self.closed_by_server += 1
                    self.sockets.remove(sock)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(self.trickle_s + 5)
        for sock in self.sockets:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", choices=["gunicorn", "nginx", "url"], default="nginx")
    parser.add_argument("--url")
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--mode", choices=["headers", "body", "idle"], default="headers")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--trickle-s", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=48)
    args = parser.parse_args()
    with ExitStack() as stack:
        if args.target == "url":
            parts = urlsplit(args.url)
            port = parts.port or 80
        else:
            port = start_gunicorn(stack, args.workers, args.threads)
            if args.target == "nginx":
                port = start_nginx(stack, port)
        baseline = [normal_request(port) for _ in range(5)]
        slow = SlowClients(port, args.slow, args.mode, args.trickle_s)
        stack.callback(slow.close)
        slow.open()
        time.sleep(max(1.0, args.trickle_s))  # every slow connection is in the server now
        latencies: list[float] = []
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            took = normal_request(port)
            latencies.append(CLIENT_TIMEOUT_S if took is None else took)
            time.sleep(args.interval)
        still_open = len(slow.sockets)
    within = sum(1 for t in latencies if t <= TARGET_S)
    report(
        "slow_clients",
        "slowest_normal_answer_s",
        max(latencies),
        "s",
        "<=",
        TARGET_S,
        target_server=args.target,
        mode=args.mode,
        slow_connections=args.slow,
        slow_still_open_at_end=still_open,
        normal_requests=len(latencies),
        answered_within_1s=within,
        p50_s=round(statistics.median(latencies), 4),
        baseline_p50_s=round(statistics.median(t or CLIENT_TIMEOUT_S for t in baseline), 4),
        gunicorn=f"{args.workers} workers x {args.threads} threads (gthread)",
    )


if __name__ == "__main__":
    main()
