"""The production topology for tests: gunicorn with the shipped settings serving the API on a
real Redis (or Redis Cluster), and separate ``arena worker`` processes.

:class:`ProductionStack` starts

- gunicorn with the arguments of the Dockerfile's ``CMD`` (:func:`shipped_gunicorn_args`:
  worker class, workers, threads, timeouts, access log), bound to a free loopback port
  instead of ``0.0.0.0:8000``;
- ``workers`` ``arena worker`` processes (the console script), each with its own name and
  heartbeat file;

all with ``REDIS_URL`` (and ``RQ_REDIS_URL`` for a cluster) and a key prefix no one else
uses (``ARENA_KEY_PREFIX``; RQ's queue is ``<prefix>-turns``), every other setting left at
its default except those listed in :data:`TEST_ENV`. Each process runs in its own process
group and is stopped by PID (SIGTERM to its group, SIGKILL when it does not exit); every
key under the prefix is deleted afterwards. Their output goes to files under ``log_dir``
(:meth:`ProductionStack.logs` for failure messages).

Nothing here asserts a duration: start-up waits are generous bounds on a busy machine.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[2]
#: Generous bound for a process to come up on a loaded 2-core machine (never asserted as a
#: duration: only "it came up").
START_TIMEOUT_S = 300.0
#: Settings that differ from a deployment's defaults, and why: every request of the suite
#: comes from 127.0.0.1, so the per-client request limits and bot-match caps are off.
TEST_ENV = {"ARENA_RATE_LIMITS_ENABLED": "0", "ARENA_MAX_BOT_MATCHES_PER_CLIENT": "0"}


def free_port() -> int:
    """A TCP port nothing listens on at the moment (the kernel's pick on 127.0.0.1)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def shipped_gunicorn_args(dockerfile: Path = ROOT / "Dockerfile") -> list[str]:
    """The gunicorn command line of the image: the Dockerfile's ``CMD`` (exec form, a JSON
    array, possibly continued over lines with ``\\``) without its leading ``gunicorn`` and
    without its ``--bind``/``-b`` option. Raises ValueError when the ``CMD`` is missing or
    does not run gunicorn."""
    text = dockerfile.read_text().replace("\\\n", " ")
    match = re.search(r"^CMD\s+(\[.*\])\s*$", text, re.MULTILINE)
    if not match:
        raise ValueError(f"no exec-form CMD in {dockerfile}")
    argv = json.loads(match.group(1))
    if not argv or Path(argv[0]).name != "gunicorn":
        raise ValueError(f"the image's CMD does not run gunicorn: {argv}")
    args, rest = [], argv[1:]
    while rest:
        item = rest.pop(0)
        if item in ("--bind", "-b"):
            rest.pop(0)
        elif not item.startswith("--bind="):
            args.append(item)
    return args


def _no_control_socket() -> list[str]:
    """``--no-control-socket`` when this gunicorn has that setting (newer gunicorns open a
    control socket at one fixed path per user unless told not to)."""
    from gunicorn.config import KNOWN_SETTINGS

    return (
        ["--no-control-socket"]
        if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS)
        else []
    )


def _arena_command() -> list[str]:
    """The ``arena`` console script of this environment (else the same through Python)."""
    script = Path(sys.executable).with_name("arena")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from cli.main import main; main()"]


def stop_groups(procs: list[subprocess.Popen], grace_s: float = 5.0) -> None:
    """Stop the process groups led by ``procs`` (each started with ``start_new_session``),
    all at once: SIGTERM to every group, SIGKILL to those still there after ``grace_s``
    seconds in all; every leader is reaped. A group can outlive its leader (a gunicorn
    worker, a work horse): it gets SIGKILL too."""

    def signal_group(proc: subprocess.Popen, sig: int) -> None:
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    for proc in procs:
        if proc.poll() is None:
            signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    for proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for proc in procs:
        signal_group(proc, signal.SIGKILL)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass


def wait_until(check: Callable[[], Any], timeout_s: float, every_s: float = 0.1) -> Any:
    """Poll ``check`` until it returns something true (returned) or ``timeout_s`` pass
    (its last value); an exception inside ``check`` counts as not yet."""
    deadline = time.monotonic() + timeout_s
    value = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # noqa: BLE001 - a process still starting
            value = None
        if value:
            return value
        time.sleep(every_s)
    return value


class ProductionStack:
    """gunicorn + ``arena worker`` processes on ``redis_url`` (see module docstring).

    Args:
        redis_url: the event store (``redis://...`` or ``redis+cluster://...``).
        log_dir: where the processes' output files go (created).
        rq_redis_url: RQ's standalone Redis (required for a cluster ``redis_url``).
        workers: ``arena worker`` processes started by :meth:`start`.
        env: more environment variables for every process.
        gunicorn_args: more gunicorn options, after the shipped ones (the last of an option
            wins: ``["--workers", "1"]`` runs one worker process).
    """

    def __init__(
        self,
        redis_url: str,
        log_dir: Path,
        *,
        rq_redis_url: str | None = None,
        workers: int = 2,
        env: dict[str, str] | None = None,
        gunicorn_args: list[str] | None = None,
    ):
        self.redis_url = redis_url
        self.rq_redis_url = rq_redis_url
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.key_prefix = "p" + uuid.uuid4().hex[:10]
        self.port = free_port()
        self.worker_count = workers
        self.extra_env = dict(env or {})
        self.gunicorn_args = list(gunicorn_args or [])
        self.gunicorn: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>`` gunicorn answers on."""
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The environment every process of the stack gets."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("REDIS_URL", "RQ_REDIS_URL", "ARENA_REDIS_CLUSTER")
        }
        env.update(TEST_ENV)
        env.update(
            REDIS_URL=self.redis_url,
            ARENA_KEY_PREFIX=self.key_prefix,
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
        )
        if self.rq_redis_url:
            env["RQ_REDIS_URL"] = self.rq_redis_url
        env.update(self.extra_env)
        return env

    def _spawn(self, argv: list[str], log_name: str, env: dict[str, str]) -> subprocess.Popen:
        log = open(self.log_dir / log_name, "ab")  # a file: an unread pipe blocks the process
        try:
            return subprocess.Popen(
                argv,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            log.close()

    def start(self) -> ProductionStack:
        """Start gunicorn and the workers; return once gunicorn answers ``/healthz`` and
        every worker has beaten its heartbeat (RuntimeError with the logs otherwise)."""
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            *shipped_gunicorn_args(),
            *self.gunicorn_args,
            "--bind",
            f"127.0.0.1:{self.port}",
            *_no_control_socket(),
        ]
        try:
            self.gunicorn = self._spawn(argv, "gunicorn.log", self.env())
            for _ in range(self.worker_count):
                self.start_worker(ready=False)
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def start_worker(self, ready: bool = True) -> subprocess.Popen:
        """Start one more ``arena worker`` (own name and heartbeat file); ``ready``: return
        once it has beaten (RuntimeError otherwise)."""
        name = f"{self.key_prefix}-w{len(self.workers)}"
        env = {**self.env(), "ARENA_WORKER_HEARTBEAT_FILE": str(self.log_dir / f"{name}.beat")}
        proc = self._spawn([*_arena_command(), "worker", "--name", name], f"{name}.log", env)
        proc.arena_name = name  # type: ignore[attr-defined]
        self.workers.append(proc)
        if ready:
            self._wait_worker(proc)
        return proc

    def _wait_worker(self, proc: subprocess.Popen) -> None:
        from workers.rq_runtime import check_heartbeat

        beat = self.log_dir / f"{proc.arena_name}.beat"  # type: ignore[attr-defined]
        if (
            not wait_until(
                lambda: proc.poll() is not None or check_heartbeat(beat, 30.0)[0],
                START_TIMEOUT_S,
                0.2,
            )
            or proc.poll() is not None
        ):
            raise RuntimeError(
                f"worker {proc.arena_name} did not start "  # type: ignore[attr-defined]
                f"(exit {proc.poll()}):\n{self.logs()}"
            )

    def wait_ready(self) -> None:
        """Block until gunicorn answers ``GET /healthz`` with 200 and every worker beats."""

        def answers() -> bool:
            if self.gunicorn.poll() is not None:
                raise RuntimeError("gunicorn exited")
            return requests.get(self.url + "/healthz", timeout=10).status_code == 200

        try:
            ok = wait_until(answers, START_TIMEOUT_S, 0.2)
        except RuntimeError:
            ok = False
        if not ok or self.gunicorn.poll() is not None:
            raise RuntimeError(
                f"gunicorn did not start (exit {self.gunicorn.poll()}):\n{self.logs()}"
            )
        for proc in self.workers:
            self._wait_worker(proc)

    def stop(self) -> None:
        """Stop every process by its group (gunicorn, workers) and delete the prefix's keys."""
        stop_groups([*self.workers, *([self.gunicorn] if self.gunicorn else [])])
        self.cleanup()

    def cleanup(self) -> None:
        """Delete every key under this stack's prefix (event store and RQ), where the
        servers still answer."""
        import redis

        from service.store.connections import cluster_connection

        prefix = self.key_prefix
        standalone = self.rq_redis_url or self.redis_url
        try:
            conn = redis.Redis.from_url(standalone, socket_connect_timeout=2, socket_timeout=10)
            for pattern in (f"{prefix}:*", f"{prefix}-*", f"rq:*{prefix}-*", f"rq:*:{prefix}*"):
                for key in conn.scan_iter(pattern, count=1000):
                    conn.delete(key)
            for set_key in (b"rq:workers", b"rq:queues"):
                for member in conn.smembers(set_key):
                    if prefix.encode() in member:
                        conn.srem(set_key, member)
            conn.close()
        except redis.RedisError:
            pass
        if "+cluster://" in self.redis_url:
            try:
                conn = cluster_connection(self.redis_url)
                for key in list(conn.scan_iter(f"{prefix}:*", count=1000)):
                    conn.delete(key)
                conn.close()
            except Exception:  # noqa: BLE001 - the cluster fixture may be gone already
                pass

    def logs(self, tail_chars: int = 4000) -> str:
        """The end of every process's output file (for failure messages)."""
        parts = []
        for path in sorted(self.log_dir.glob("*.log")):
            text = path.read_text(errors="replace")
            parts.append(f"--- {path.name} ---\n{text[-tail_chars:]}")
        return "\n".join(parts)

    def log_text(self, name: str = "gunicorn.log") -> str:
        """One process's whole output so far (``gunicorn.log``, ``<prefix>-w0.log``, ...)."""
        path = self.log_dir / name
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> ProductionStack:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
