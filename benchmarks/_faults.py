"""Shared machinery of the fault scripts (``fault_worker_kill.py``, ``fault_redis_outage.py``)
and of the integration tests that run small versions of them.

- :class:`PrivateRedis`: a ``redis-server`` of our own on a free loopback port (AOF on,
  ``appendfsync always``: an acknowledged write survives ``SIGKILL``), killed and restarted
  on the same port and data directory to simulate an outage.
- :class:`WorkerPool`: ``arena worker`` processes (``python -m workers.runner``) started,
  SIGKILLed (the whole process group) and replaced, or stopped with SIGTERM and timed.
- :class:`ApiServer` and :class:`Api`: the API as deployed (gunicorn with the Dockerfile's
  worker class and threads) on a free loopback port, and a small JSON client for it: the
  fault scripts run on the production topology (gunicorn + real Redis + separate workers).
- :func:`timeout_report`: the turn-timeout runs and lateness the workers logged.
- :func:`decision_report`: folds a finished match's log and counts duplicate decisions.
- :func:`resume_times`: after each kill, how long until each running match played again.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from service.log.envelopes import batches, to_event  # noqa: E402


def free_port() -> int:
    """A TCP port nothing listens on at the moment (loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate: Callable[[], Any], timeout_s: float, step_s: float = 0.05) -> Any:
    """Poll ``predicate`` until truthy or ``timeout_s`` passed; its last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step_s)


class PrivateRedis:
    """A private ``redis-server`` (see module docstring) in ``directory``."""

    def __init__(self, directory: str | os.PathLike, port: int | None = None):
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        """``redis://127.0.0.1:<port>/<db>``."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout_s: float = 30.0) -> PrivateRedis:
        """Start (or restart) the server and wait until it answers ``PING`` (after loading
        its AOF)."""
        import redis

        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--logfile",
                str(self.directory / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=1, retry=None)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        if not wait_until(answers, timeout_s):
            raise RuntimeError(f"redis-server on port {self.port} did not start")
        client.close()
        return self

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Stop the server abruptly (default) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        """Kill the server and delete its data directory."""
        self.kill()
        shutil.rmtree(self.directory, ignore_errors=True)


class WorkerPool:
    """``arena worker`` processes for ``env`` (a ``Config.to_env()``), logs in ``log_dir``."""

    def __init__(self, env: Mapping[str, str], log_dir: str | os.PathLike):
        self.env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen] = []
        self.started = 0

    def start(self) -> subprocess.Popen:
        """One more worker process."""
        self.started += 1
        name = f"fault-w{self.started}"
        with open(self.log_dir / f"{name}.log", "ab") as log_file:
            proc = subprocess.Popen(
                [sys.executable, "-m", "workers.runner", "--name", name],
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        self.procs.append(proc)
        return proc

    def alive(self) -> list[subprocess.Popen]:
        """The processes still running."""
        return [proc for proc in self.procs if proc.poll() is None]

    @staticmethod
    def kill(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        """Signal ``proc``'s whole process group and reap it."""
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass

    def stop(self) -> None:
        """Kill every process started."""
        for proc in self.procs:
            self.kill(proc)

    @staticmethod
    def terminate(
        proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout_s: float = 60.0
    ) -> tuple[float | None, int | None]:
        """Send ``sig`` to ``proc`` itself (as ``docker stop`` signals PID 1) and time its
        exit: ``(seconds, exit status)``, ``(None, None)`` when it outlived ``timeout_s``."""
        started = time.monotonic()
        proc.send_signal(sig)
        try:
            status = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return None, None
        return time.monotonic() - started, status


class ApiServer:
    """gunicorn serving ``api.app:create_app()`` as the Dockerfile runs it (the shipped
    settings ``-c python:api.gunicorn_config``, the gthread
    ``api.wire_errors.ProblemThreadWorker``, ``workers`` processes of ``threads`` threads)
    on a free loopback port, with ``env`` (a ``Config.to_env()``) and rate limits off (the
    scripts create matches faster than a client may); its log in ``log_dir``. Started and
    stopped by PID (its own process group)."""

    def __init__(
        self,
        env: Mapping[str, str],
        log_dir: str | os.PathLike,
        workers: int = 2,
        threads: int = 48,
    ):
        self.env = {**os.environ, **env, "PYTHONPATH": str(ROOT), "ARENA_RATE_LIMITS_ENABLED": "0"}
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.workers, self.threads = workers, threads
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 180.0) -> ApiServer:
        """Start gunicorn and wait until ``/healthz`` answers (any status)."""
        import requests

        with open(self.log_dir / "gunicorn.log", "ab") as log_file:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "-c",
                    "python:api.gunicorn_config",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--worker-class",
                    "api.wire_errors.ProblemThreadWorker",
                    "--workers",
                    str(self.workers),
                    "--threads",
                    str(self.threads),
                    "api.app:create_app()",
                ],
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )

        def answers() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"gunicorn exited ({self.proc.returncode}); see {self.log_dir / 'gunicorn.log'}"
                )
            try:
                requests.get(self.url + "/healthz", timeout=2)
                return True
            except requests.RequestException:
                return False

        if not wait_until(answers, timeout_s, 0.2):
            raise RuntimeError("gunicorn did not answer")
        return self

    def stop(self) -> None:
        """SIGTERM the server's process group (graceful), SIGKILL after 30 s."""
        if self.proc is None:
            return
        WorkerPool.kill(self.proc, signal.SIGTERM)
        WorkerPool.kill(self.proc)
        self.proc = None


class Api:
    """A JSON client of an :class:`ApiServer` (``requests``, one keep-alive session)."""

    def __init__(self, base_url: str, timeout_s: float = 60.0):
        import requests

        self.base_url = base_url
        self.timeout_s = timeout_s
        self.session = requests.Session()

    def open(
        self,
        path: str,
        method: str = "GET",
        headers: Mapping[str, str] | None = None,
        json: Any = None,
    ):
        """One request; returns the ``requests.Response`` (any status)."""
        return self.session.request(
            method,
            self.base_url + path,
            headers=dict(headers or {}),
            json=json,
            timeout=self.timeout_s,
        )

    def create_match(
        self,
        game: str,
        seats: list,
        options: Mapping | None = None,
        turn_timeout_s: float | None = None,
    ) -> dict:
        """``POST /v1/matches``; the answer's JSON (``RuntimeError`` unless 201)."""
        body = {"game": game, "seats": seats, "options": dict(options or {})}
        if turn_timeout_s is not None:
            body["turn_timeout_s"] = turn_timeout_s
        answer = self.open("/v1/matches", "POST", json=body)
        if answer.status_code != 201:
            raise RuntimeError(f"create {game}: {answer.status_code} {answer.text[:300]}")
        return answer.json()

    def export(self, match_id: str) -> dict:
        """``GET /v1/matches/{id}/export`` (``RuntimeError`` unless 200)."""
        answer = self.open(f"/v1/matches/{match_id}/export")
        if answer.status_code != 200:
            raise RuntimeError(f"export {match_id}: {answer.status_code} {answer.text[:300]}")
        return answer.json()


#: A worker's log line for each turn-timeout job run (``service.usecases.turns``).
TIMEOUT_RUN = re.compile(
    r"turn timeout (?P<mid>\S+) seat \d+@\d+: (?P<status>\w+)"
    r"(?: (?P<late>-?[0-9.]+) s after its deadline)?"
)


def timeout_report(log_dir: str | os.PathLike) -> dict[str, Any]:
    """From the workers' logs in ``log_dir``: turn-timeout job runs by status, runs per
    timeout that acted, and the lateness of those that acted (seconds from the deadline
    to the decision): ``{"runs", "by_status", "acted", "runs_per_acted", "lateness_s"}``."""
    statuses: dict[str, int] = {}
    late: list[float] = []
    for path in Path(log_dir).glob("*.log"):
        for match in TIMEOUT_RUN.finditer(path.read_text(errors="replace")):
            statuses[match["status"]] = statuses.get(match["status"], 0) + 1
            if match["late"] is not None:
                late.append(float(match["late"]))
    runs = sum(statuses.values())
    acted = statuses.get("acted", 0)
    return {
        "runs": runs,
        "by_status": statuses,
        "acted": acted,
        "runs_per_acted": round(runs / acted, 3) if acted else None,
        "lateness_s": summary(late),
    }


def decision_report(engine: Any, events: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Fold a log and count its decisions: ``{"decisions", "duplicates"}``.

    A decision is a seat's answer to one continuous stretch of being pending: its key is
    ``(seat, version at which the seat last became pending)``. A command batch whose seat
    was not pending, or a second batch with the same key, is a duplicate (a turn job
    played twice on the same decision)."""
    state = None
    pending_since: dict[int, int] = {}
    seen: set[tuple[int, int]] = set()
    decisions = duplicates = 0
    version = 0
    for batch in batches(events):
        first = batch[0]
        if "command" in first:
            decisions += 1
            key = (first.get("actor"), pending_since.get(first.get("actor"), -1))
            if key[1] < 0 or key in seen:
                duplicates += 1
            seen.add(key)
        for event in batch:
            state = engine.evolve(state, to_event(event))
        version += len(batch)
        now_pending = set(engine.pending(state)) if engine.result(state) is None else set()
        acted = first.get("actor") if "command" in first else None
        for seat in list(pending_since):
            if seat not in now_pending or seat == acted:
                del pending_since[seat]
        for seat in now_pending:
            pending_since.setdefault(seat, version)
    return {"decisions": decisions, "duplicates": duplicates}


def event_times(events: Iterable[Mapping[str, Any]]) -> list[float]:
    """Unix times of a log's events (their ``at``)."""
    return [datetime.fromisoformat(e["at"]).timestamp() for e in events]


def resume_times(kills: Sequence[float], matches: Mapping[str, list[float]]) -> dict[str, Any]:
    """For each kill time and each match running then (an event before and after it), the
    seconds from the kill to the match's next event. Returns the per-(kill, match) values
    (``pairs``), per kill the worst one (``per_kill_worst``: how long until *every* running
    match played again) and the five slowest pairs (``slowest``: ``{"kill": index,
    "match", "wait_s"}``) to look into."""
    pairs: list[float] = []
    worst: list[float] = []
    detail: list[tuple[float, int, str]] = []
    for index, kill in enumerate(kills):
        waits = []
        for match_id, times in matches.items():
            if not times or times[0] >= kill or times[-1] <= kill:
                continue
            wait = min(t for t in times if t > kill) - kill
            waits.append(wait)
            detail.append((wait, index, match_id))
        pairs += waits
        if waits:
            worst.append(max(waits))
    slowest = [
        {"kill": i, "match": m, "wait_s": round(w, 3)}
        for w, i, m in sorted(detail, reverse=True)[:5]
    ]
    return {"pairs": pairs, "per_kill_worst": worst, "slowest": slowest}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100, nearest rank) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(round(q / 100 * len(ordered) + 0.5))))
    return ordered[rank - 1]


def summary(values: Sequence[float]) -> dict[str, float]:
    """``{"n", "p50", "p99", "max", "mean"}`` in seconds (3 decimals)."""
    return {
        "n": len(values),
        "p50": round(percentile(values, 50), 3),
        "p99": round(percentile(values, 99), 3),
        "max": round(max(values), 3) if values else 0.0,
        "mean": round(statistics.fmean(values), 3) if values else 0.0,
    }
