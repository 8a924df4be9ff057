"""The action path side by side with its ceiling: the project vs Flask + gunicorn + one XADD.

Usage: python benchmarks/bench_http.py [--redis-url redis://127.0.0.1:6379/14]
       [--games ai-100-human,aipokalypse,dead-apocalypse] [--modes humans,bots]
       [--runs 1] [--seconds 8] [--warmup-seconds 2] [--processes 4] [--threads-per-process 4]
       [--gunicorn-workers 5] [--threads 48] [--rq-workers 2] [--prefer-representation]
       [--wait-on decision|events] [--project-threads-per-process N]

Targets (issue 13, each a ratio from one run): server CPU per action <= 1.5x the ceiling's
CPU per request; actions/s >= 0.6x the ceiling's requests/s; p99 <= 2x the ceiling's p99.
The older absolute goal (issue 2, "Benchmarks": >= 500 accepted actions/s with p99 action latency <= 30 ms
at 16 concurrent clients) is reported beside them.

Two servers run at once on free loopback ports, with the same gunicorn settings (``gthread``,
``--gunicorn-workers`` x ``--threads``, keep-alive 30 s): the ceiling app
(``benchmarks/ceiling_app.py``: one Redis ``XADD`` per request) and the project
(``api.app:create_app()`` with ``--rq-workers`` RQ turn workers), both on ``--redis-url``
under a fresh key prefix that is deleted afterwards. Each measurement window runs the
ceiling, then the project, with the SAME load generator: ``--processes`` OS processes (not
bound by one GIL) of ``--threads-per-process`` client threads, each with its own keep-alive
connection.

- Ceiling: every client sends ``POST /ceiling`` in a loop.
- Project, mode ``humans``: 4-seat matches whose 4 seats are all human, each seat a client of
  its own, the seats of one match in different processes and on different connections (so
  different gunicorn workers serve one match, as real clients would: no sticky fold cache).
  A seat reads ``GET .../legal-actions`` and sends ``POST .../actions`` with a random legal
  command, its ``decision_id`` and an ``Idempotency-Key``; with nothing to do it long-polls
  (``--wait-on``): ``decision`` (default) ``GET .../legal-actions?wait=2``, answered once
  the seat itself has something to do — other seats' moves do not wake the client, as a
  real client playing a seat would wait —; ``events`` (the older client) ``GET
  .../events?wait=2``, answered on every new event, then ``GET .../legal-actions``. Seat 0
  creates each next match and hands the other seats their tokens.
- Project, mode ``bots``: 1 human seat + 3 bots of the game's default level (RQ workers play
  them); the moves counted are the human's accepted actions plus the bots' commands (the
  server's own ``bot_turns`` counter, read when the CPU window opens and closes), and the
  server CPU includes the RQ workers: what a bot move costs to enqueue and play.

An *action* is one accepted ``POST .../actions`` (or one bot command): today it takes two
requests (legal actions, then the post); with ``--prefer-representation`` the post asks for
``Prefer: return=representation`` and, when the answer carries the next ``legal_actions``,
the client skips the next GET.

Threads: both servers get ``--threads`` (default 48, as the Dockerfile, compose.yaml and
``arena serve`` run the project; at most ``threads - min(ARENA_RESERVED_THREADS, threads //
2)`` of them wait per worker, :mod:`api.waits`). A long-poll holds one gthread thread while it waits; in a
4-seat match up to 3 seats wait while one acts, so with 16 clients up to 12 requests are
held open. With 4 threads per worker (20 in all, unevenly spread over the 5 workers by
the kernel's accept) a worker whose threads all hold long-polls queues the next ``POST``
until one ends: measured for dead-apocalypse/humans, 4 threads: 9.4 moves/s, p99 2.05 s,
35 ms CPU per move; 8 threads: 97.8 moves/s, p99 223 ms, 6.5 ms CPU per move. The ceiling's
clients hold nothing open, so more threads change little for it; the same setting on both
sides stays the same-settings comparison.

Concurrency: by default the project gets as many clients as the ceiling (``--processes``
x ``--threads-per-process``). A ceiling client always has a request in flight; a seat
client spends part of its time waiting for the other seats (a game's turn structure), so
with equal clients the project may be latency-bound while the ceiling saturates the CPU.
``--project-threads-per-process`` gives the project more clients (more matches) with the
same load generator, so both sides can be driven to saturation; the report prints
``project_clients`` beside ``clients``. The throughput ratio is then moves/s against
requests/s, both at (or near) the server's capacity on this machine.

CPU is the kernel's accounting of the server processes (``/proc``, the gunicorn process
groups, RQ workers, the Redis server when local), not wall time. The machine is shared and
noisy: compare the ratios, which are measured within one run.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, ROOT, CpuMeter, bench_prefix, cleanup_prefix, report
from _http import Connection, HttpError

TARGET_ACTIONS_PER_S = 500
TARGET_ACTION_P99_MS = 30
#: issue 13's targets, as ratios project / ceiling measured in the same run
TARGET_CPU_RATIO = 1.5  # server CPU per action / ceiling's CPU per request, <=
TARGET_THROUGHPUT_RATIO = 0.6  # actions/s / ceiling's requests/s, >=
TARGET_P99_RATIO = 2.0  # action p99 / ceiling's request p99, <=

GAMES = ("ai-100-human", "aipokalypse", "dead-apocalypse")
BOT_LEVEL = {"ai-100-human": "greedy", "aipokalypse": "tactician", "dead-apocalypse": "cooperative"}
SEATS = 4
#: seconds a seat with nothing to do long-polls per request
LONG_POLL_S = 2
CTX = mp.get_context("fork")


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


# ----------------------------------------------------------------- servers


def gunicorn_command(port: int, workers: int, threads: int, app: str) -> list[str]:
    """The one gunicorn command line both servers use (same settings, other app)."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--backlog",
        "256",
        "--keep-alive",
        "30",
        "--log-level",
        "warning",
        app,
    ]


def _spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_healthy(port: int, procs: list[subprocess.Popen], limit_s: float = 60) -> None:
    """Wait until ``GET /healthz`` answers on ``port``.

    Raises:
        RuntimeError: no answer within ``limit_s`` seconds (the processes are stopped)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            probe = Connection("127.0.0.1", port, timeout_s=2)
            if probe.call("GET", "/healthz") is not None:
                probe.close()
                return
        except (OSError, HttpError, ValueError):
            pass
        time.sleep(0.1)
    stop(procs)
    raise RuntimeError(f"nothing answered /healthz on port {port} within {limit_s} s")


def start_servers(
    redis_url: str, prefix: str, workers: int, threads: int, rq_workers: int
) -> dict[str, Any]:
    """Start the ceiling app, the project (gunicorn) and its RQ workers; wait for both."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "ARENA_KEY_PREFIX": prefix,
        "PYTHONPATH": os.pathsep.join([ROOT, os.path.join(ROOT, "benchmarks")]),
    }
    env.pop("RQ_REDIS_URL", None)
    # The load generator is 16 clients on one address: the per-client abuse limits (issue 12
    # item 6) would answer most of its requests 429, and the ceiling has none. Off, as the
    # ceiling; their own cost is measured by benchmarks/bench_rate_limits.py.
    env.update({"ARENA_RATE_LIMITS_ENABLED": "0", "ARENA_MAX_BOT_MATCHES_PER_CLIENT": "100000"})
    ceiling_port, project_port = free_port(), free_port()
    ceiling = _spawn(
        gunicorn_command(ceiling_port, workers, threads, "ceiling_app:create_app()"), env
    )
    project = _spawn(gunicorn_command(project_port, workers, threads, "api.app:create_app()"), env)
    rq = [
        _spawn([sys.executable, "-m", "workers.runner", "--name", f"{prefix}-w{i}"], env)
        for i in range(rq_workers)
    ]
    procs = [ceiling, project, *rq]
    wait_healthy(ceiling_port, procs)
    wait_healthy(project_port, procs)
    return {
        "procs": procs,
        "ceiling": ceiling,
        "project": project,
        "rq": rq,
        "redis_url": redis_url,
        "prefix": prefix,
        "ceiling_port": ceiling_port,
        "project_port": project_port,
    }


def stop(procs: list[subprocess.Popen]) -> None:
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


def bot_turns(servers: dict[str, Any]) -> int:
    """The project's ``bot_turns`` counter now (commands its bots appended, summed over
    the counter shards: the server's own count, read at the CPU window's start and end)."""
    import redis

    from service.store.keys import Keys
    from service.store.metrics import Metrics

    conn = redis.Redis.from_url(servers["redis_url"], decode_responses=True)
    return Metrics(conn, Keys(servers["prefix"])).totals().get("bot_turns", 0)


def redis_server_pid(redis_url: str) -> int | None:
    """The Redis server's pid when it runs on this machine (loopback URL), else None."""
    import redis

    conn = redis.Redis.from_url(redis_url)
    host = conn.connection_pool.connection_kwargs.get("host", "")
    if host not in ("127.0.0.1", "localhost", "::1"):
        return None
    pid = int(conn.info("server").get("process_id", 0))
    return pid if pid and os.path.exists(f"/proc/{pid}") else None


# ----------------------------------------------------------------- load generator


class Window:
    """The shared clock of one measurement: requests before ``counting_from`` warm up and
    are not counted; nothing starts after ``deadline`` — a value shared by every process,
    which the measuring process extends until ``--min-moves`` moves were counted (``moves``,
    shared too), so a loaded machine yields a longer window, never an empty one."""

    def __init__(self, counting_from: float, deadline: Any, moves: Any):
        self.counting_from, self.deadline, self.moves = counting_from, deadline, moves

    def open(self) -> bool:
        return time.time() < self.deadline.value

    def counting(self) -> bool:
        return self.counting_from <= time.time() < self.deadline.value

    def moved(self) -> None:
        """Count one move of the window."""
        with self.moves.get_lock():
            self.moves.value += 1


class Tally:
    """What one client thread measured (merged per process, then over processes)."""

    def __init__(self):
        self.requests: list[float] = []  # counted request latencies, seconds
        self.actions: list[float] = []  # counted accepted POST .../actions latencies
        self.errors: dict[str, int] = {}
        self.matches = 0

    def merge(self, other: Tally) -> None:
        self.requests += other.requests
        self.actions += other.actions
        for code, count in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + count
        self.matches += other.matches


class Client:
    """One connection; ``call`` records the latency of every request in the window."""

    def __init__(self, port: int, window: Window, tally: Tally):
        self.http = Connection("127.0.0.1", port)
        self.window, self.tally = window, tally

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[Any, float, bool]:
        counted = self.window.counting()
        started = time.perf_counter()
        try:
            return self.http.call(method, path, token, body, headers), started, counted
        finally:
            if counted:
                self.tally.requests.append(time.perf_counter() - started)

    def waited_s(self) -> float:
        """Seconds the last answer says it waited (``Server-Timing: wait;dur=<ms>``, a
        ``POST .../actions?wait=``), 0 when it did not wait."""
        timing = getattr(self.http, "last_headers", {}).get("server-timing", "")
        for metric in timing.split(","):
            name, _, params = metric.strip().partition(";")
            if name == "wait" and params.startswith("dur="):
                return float(params[4:]) / 1000
        return 0.0


def ceiling_client(port: int, window: Window, tally: Tally, seed: int) -> None:
    """``POST /ceiling`` in a loop until the window closes."""
    client = Client(port, window, tally)
    body = {"type": "bench", "seed": seed}
    while window.open():
        _, started, counted = client.call("POST", "/ceiling", body=body)
        if counted:
            tally.actions.append(time.perf_counter() - started)
            window.moved()


class SeatClient:
    """Plays one seat of successive matches of ``game`` over its own connection."""

    def __init__(
        self,
        port: int,
        window: Window,
        tally: Tally,
        seed: int,
        game: str,
        prefer: bool,
        wait_on: str = "decision",
    ):
        self.client = Client(port, window, tally)
        self.window, self.tally, self.game, self.prefer = window, tally, game, prefer
        self.wait_on = wait_on
        self.rng = random.Random(seed)

    def create(self, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
        created, _, _ = self.client.call(
            "POST", "/v1/matches", body={"game": self.game, "seats": seats, "options": {}}
        )
        tokens = [
            s["token"] for s in sorted(created["seats"], key=lambda s: s["seat"]) if s.get("token")
        ]
        return created["match_id"], tokens

    def play(self, match_id: str, token: str) -> None:
        """Act whenever the seat has a legal action, long-poll otherwise, until the match
        finishes (a ``POST`` answer's representation saying so ends it at once; otherwise a
        ``GET`` of the match once a long-poll comes back empty) or the window closes.
        ``wait_on`` ``decision``: the long-poll is ``GET .../legal-actions?wait=2``,
        answered once THIS seat has something to do;
        ``events``: ``GET .../events?wait=2``, answered on every new event (any seat's
        move), then ``GET .../legal-actions``."""
        base = f"/v1/matches/{match_id}"
        legal: dict[str, Any] | None = None
        seen = 0
        headers_prefer = {"Prefer": "return=representation"} if self.prefer else {}
        # ``post``: the POST itself waits for the seat's next decision (``?wait=``, with the
        # representation), so a seat sends one request per move of its own
        post_wait = f"?wait={LONG_POLL_S}" if self.prefer and self.wait_on == "post" else ""
        while self.window.open():
            if legal is None:
                legal, _, _ = self.client.call("GET", f"{base}/legal-actions", token)
            if legal["actions"]:
                command = dict(self.rng.choice(legal["actions"]))
                if legal.get("decision_id") is not None:  # fails only if OUR decision moved
                    command["decision_id"] = legal["decision_id"]
                else:
                    command["expected_version"] = legal["version"]
                try:
                    answer, started, counted = self.client.call(
                        "POST",
                        f"{base}/actions{post_wait}",
                        token,
                        command,
                        {"Idempotency-Key": uuid.uuid4().hex, **headers_prefer},
                    )
                except HttpError as exc:
                    self.tally.errors[exc.code] = self.tally.errors.get(exc.code, 0) + 1
                    legal = None
                    continue
                if counted:  # a move's latency ends when it is accepted, not after a wait
                    self.tally.actions.append(
                        time.perf_counter() - started - self.client.waited_s()
                    )
                    self.window.moved()
                if isinstance(answer, dict) and answer.get("status") not in (None, "running"):
                    # the representation says the match ended: no request asks it again
                    self.tally.matches += 1
                    return
                nxt = answer.get("legal_actions") if isinstance(answer, dict) else None
                legal = nxt if isinstance(nxt, dict) and "actions" in nxt else None
                continue
            if self.wait_on in ("decision", "post"):
                legal, _, _ = self.client.call(
                    "GET", f"{base}/legal-actions?wait={LONG_POLL_S}", token
                )
                idle = not legal["actions"]
            else:
                page, _, counted = self.client.call(
                    "GET",
                    f"{base}/events?after={max(seen, legal['version'])}&wait={LONG_POLL_S}",
                    token,
                )
                for event in page["events"]:
                    seen = max(seen, event["version"])
                legal, idle = None, not page["events"]
            if idle:
                match, _, _ = self.client.call("GET", base, token)
                if match["status"] != "running":
                    self.tally.matches += 1
                    return


def seat_thread(
    port: int,
    window: Window,
    tally: Tally,
    seed: int,
    game: str,
    mode: str,
    prefer: bool,
    wait_on: str,
    seat: int,
    inbox: Any,
    outboxes: list[Any],
) -> None:
    """Seat ``seat`` of a match group. Seat 0 creates each match (4 humans in mode
    ``humans``; 1 human + 3 bots in ``bots``) and posts the other seats their tokens;
    the others wait for theirs in ``inbox``."""
    player = SeatClient(port, window, tally, seed, game, prefer, wait_on)
    try:
        while window.open():
            if seat == 0:
                seats = (
                    [{"kind": "human"}] * SEATS
                    if mode == "humans"
                    else [{"kind": "human"}]
                    + [{"kind": "bot", "bot": BOT_LEVEL[game]}] * (SEATS - 1)
                )
                match_id, tokens = player.create(seats)
                for index, box in enumerate(outboxes, start=1):
                    box.put((match_id, tokens[index]))
                player.play(match_id, tokens[0])
            else:
                try:
                    match_id, token = inbox.get(timeout=0.5)
                except queue.Empty:
                    continue
                player.play(match_id, token)
    except (OSError, HttpError, ValueError, KeyError) as exc:
        code = exc.code if isinstance(exc, HttpError) else type(exc).__name__
        tally.errors[f"client:{code}"] = tally.errors.get(f"client:{code}", 0) + 1


def load_process(
    kind: str, port: int, window: Window, specs: list[dict[str, Any]], results: Any
) -> None:
    """One load-generator process: one thread per spec; puts its merged :class:`Tally`
    (as plain data) and its own CPU seconds on ``results``."""
    win = window
    tallies = [Tally() for _ in specs]
    threads = []
    for spec, tally in zip(specs, tallies, strict=True):
        if kind == "ceiling":
            target, args = ceiling_client, (port, win, tally, spec["seed"])
        else:
            target = seat_thread
            args = (
                port,
                win,
                tally,
                spec["seed"],
                spec["game"],
                spec["mode"],
                spec["prefer"],
                spec["wait_on"],
                spec["seat"],
                spec["inbox"],
                spec["outboxes"],
            )
        threads.append(threading.Thread(target=target, args=args, daemon=True))
    cpu0 = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, win.deadline.value - time.time()) + 60)
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    results.put(
        {
            "requests": total.requests,
            "actions": total.actions,
            "errors": total.errors,
            "matches": total.matches,
            "cpu_s": time.process_time() - cpu0,
        }
    )


def run_load(
    kind: str,
    port: int,
    window: Window,
    processes: int,
    threads: int,
    game: str | None = None,
    mode: str = "humans",
    prefer: bool = False,
    wait_on: str = "decision",
) -> dict[str, Any]:
    """Drive one server with ``processes`` x ``threads`` clients until ``window`` closes;
    the merged tally of its counted part."""
    ctx = CTX
    clients = processes * threads
    per_process: list[list[dict[str, Any]]] = [[] for _ in range(processes)]
    if kind == "ceiling":
        for index in range(clients):
            per_process[index % processes].append({"seed": index})
    else:
        group_size = SEATS if mode == "humans" else 1
        for group in range(max(1, clients // group_size)):
            boxes = [ctx.Queue() for _ in range(group_size - 1)]
            for seat in range(group_size):
                index = group * group_size + seat
                per_process[index % processes].append(
                    {
                        "seed": index,
                        "game": game,
                        "mode": mode,
                        "prefer": prefer,
                        "wait_on": wait_on,
                        "seat": seat,
                        "inbox": boxes[seat - 1] if seat else None,
                        "outboxes": boxes if seat == 0 else [],
                    }
                )
    results = ctx.Queue()
    workers = [
        ctx.Process(target=load_process, args=(kind, port, window, specs, results))
        for specs in per_process
        if specs
    ]
    for worker in workers:
        worker.start()
    outcome: dict[str, Any] = {
        "requests": [],
        "actions": [],
        "errors": {},
        "matches": 0,
        "client_cpu_s": 0.0,
    }
    for _ in workers:
        part = results.get(timeout=max(0.0, window.deadline.value - time.time()) + 180)
        outcome["requests"] += part["requests"]
        outcome["actions"] += part["actions"]
        for code, count in part["errors"].items():
            outcome["errors"][code] = outcome["errors"].get(code, 0) + count
        outcome["matches"] += part["matches"]
        outcome["client_cpu_s"] += part["cpu_s"]
    for worker in workers:
        worker.join(30)
    return outcome


# ----------------------------------------------------------------- one measurement


#: discarded project windows at most before the counted ones (:func:`warm_up`)
WARMUP_WINDOWS = 6


def warm_up(
    servers: dict[str, Any],
    redis_pid: int | None,
    args: argparse.Namespace,
    games: list[str],
    modes: list[str],
) -> None:
    """Discarded windows before the counted ones: one of the ceiling, then project windows
    of each game until two in a row agree on the moves per second within 25% (at most
    :data:`WARMUP_WINDOWS`). Each gunicorn worker loads the games on its first requests
    (compiling their JSON Schemas: seconds of CPU per worker, tens of seconds for 5 workers
    on a busy 2-core machine); without this the first counted window measured that loading
    (AI: 100% Human humans: 65-200 ms of CPU per move instead of ~10)."""
    measure(servers, redis_pid, "ceiling", args)
    for game in games:
        last = None
        for _ in range(WARMUP_WINDOWS):
            rate = measure(servers, redis_pid, "project", args, game, modes[0])["moves_per_s"]
            print(f"warm-up {game}: {rate:.1f} moves/s", file=sys.stderr, flush=True)
            if last and rate and abs(rate - last) <= 0.25 * max(rate, last):
                break
            last = rate


def measure(
    servers: dict[str, Any],
    redis_pid: int | None,
    kind: str,
    args: argparse.Namespace,
    game: str | None = None,
    mode: str = "humans",
) -> dict[str, Any]:
    """Run one window against the ceiling or the project; figures of the counted window."""
    if kind == "ceiling":
        groups = {"server": {servers["ceiling"].pid}}
        port = servers["ceiling_port"]
    else:
        groups = {"server": {servers["project"].pid}, "rq": {p.pid for p in servers["rq"]}}
        port = servers["project_port"]
    meter = CpuMeter(groups=groups, pids={"redis": {redis_pid} if redis_pid else set()})
    box: dict[str, Any] = {}
    first = time.time() + 0.5 + 0.05 * args.processes + args.warmup_seconds
    deadline, moved = CTX.Value("d", first + args.seconds), CTX.Value("i", 0)
    window = Window(first, deadline, moved)
    per_process = (
        args.threads_per_process
        if kind == "ceiling"
        else (args.project_threads_per_process or args.threads_per_process)
    )
    runner = threading.Thread(
        target=lambda: box.update(
            run_load(
                kind,
                port,
                window,
                args.processes,
                per_process,
                game,
                mode,
                args.prefer_representation,
                args.wait_on,
            )
        )
    )
    runner.start()
    # The CPU window opens and closes with the counted window of the clients; it is
    # extended (up to --max-seconds) while fewer than --min-moves moves were counted.
    time.sleep(max(0.0, first - time.time()))
    bots_before = bot_turns(servers) if kind == "project" else 0
    meter.start()
    while True:
        time.sleep(max(0.0, deadline.value - 0.3 - time.time()))
        now = time.time()
        if moved.value >= args.min_moves or now - first >= args.max_seconds:
            break
        with deadline.get_lock():
            deadline.value = now + 1.0
    time.sleep(max(0.0, deadline.value - time.time()))
    cpu = meter.stop()
    bot_moves = bot_turns(servers) - bots_before if kind == "project" else 0
    runner.join()
    length = max(deadline.value - first, 1e-9)
    moves = len(box["actions"]) + (bot_moves if mode == "bots" else 0)
    server_cpu = (cpu.get("server") or 0.0) + (cpu.get("rq") or 0.0 if mode == "bots" else 0.0)
    return {
        "moves": moves,
        "human_actions": len(box["actions"]),
        "bot_moves": bot_moves,
        "requests": len(box["requests"]),
        "moves_per_s": moves / length,
        "requests_per_s": len(box["requests"]) / length,
        "window_s": length,
        "p50_ms": percentile(box["actions"], 0.5) * 1000,
        "p99_ms": percentile(box["actions"], 0.99) * 1000,
        "server_cpu_ms_per_move": 1000 * server_cpu / moves if moves else None,
        "redis_cpu_ms_per_move": 1000 * (cpu.get("redis") or 0.0) / moves
        if moves and redis_pid
        else None,
        "client_cpu_s": box["client_cpu_s"],
        "matches_finished": box["matches"],
        "errors": box["errors"],
        "machine_busy_cores": cpu.get("machine_busy_cores"),
    }


def ratios(project: dict[str, Any], ceiling: dict[str, Any]) -> dict[str, float | None]:
    """issue 13's three ratios of a project measurement to the ceiling's of the same run."""

    def ratio(a: float | None, b: float | None) -> float | None:
        return round(a / b, 3) if a is not None and b else None

    return {
        "cpu": ratio(project["server_cpu_ms_per_move"], ceiling["server_cpu_ms_per_move"]),
        "throughput": ratio(project["moves_per_s"], ceiling["moves_per_s"]),
        "p99": ratio(project["p99_ms"], ceiling["p99_ms"]),
    }


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


def _spread(values: list[float | None]) -> dict[str, float] | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    return {"min": min(known), "median": round(statistics.median(known), 3), "max": max(known)}


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, run every (game, mode) against the ceiling, print the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--modes", default="humans,bots")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=8.0, help="counted window per measurement")
    parser.add_argument("--warmup-seconds", type=float, default=2.0)
    parser.add_argument(
        "--min-moves",
        type=int,
        default=20,
        help="extend a window until this many moves were counted",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=120.0, help="longest counted window (with --min-moves)"
    )
    parser.add_argument("--processes", type=int, default=4, help="load-generator processes")
    parser.add_argument("--threads-per-process", type=int, default=4)
    parser.add_argument(
        "--project-threads-per-process",
        type=int,
        default=0,
        help="the project's client threads per load process (0: as the "
        "ceiling's); see 'Concurrency' in the module docstring",
    )
    parser.add_argument("--gunicorn-workers", type=int, default=5)
    parser.add_argument(
        "--threads",
        type=int,
        default=48,
        help="threads per gthread worker (both servers; 48 as the Dockerfile, compose and "
        "arena serve: see 'Threads' in the module docstring)",
    )
    parser.add_argument("--rq-workers", type=int, default=2)
    parser.add_argument(
        "--wait-on",
        choices=("decision", "events", "post"),
        default="decision",
        help="a seat with nothing to do long-polls GET .../legal-actions?wait= "
        "(decision: woken by its own decision only) or GET .../events?wait= "
        "(events: woken by every move, then GET .../legal-actions); post: with "
        "--prefer-representation the POST .../actions?wait= itself waits for the seat's "
        "next decision (one request per move), else as decision",
    )
    parser.add_argument(
        "--prefer-representation",
        action="store_true",
        help="ask POST .../actions for the next legal actions (one request per move)",
    )
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    modes = [m for m in args.modes.split(",") if m]
    prefix = bench_prefix("http")
    cleanup_prefix(args.redis_url, prefix)
    servers = start_servers(
        args.redis_url, prefix, args.gunicorn_workers, args.threads, args.rq_workers
    )
    redis_pid = redis_server_pid(args.redis_url)
    rows: list[dict[str, Any]] = []
    try:
        warm_up(servers, redis_pid, args, games, modes)
        for run in range(args.runs):
            for game in games:
                for mode in modes:
                    ceiling = measure(servers, redis_pid, "ceiling", args)
                    project = measure(servers, redis_pid, "project", args, game, mode)
                    rows.append(
                        {
                            "run": run,
                            "game": game,
                            "mode": mode,
                            "ratios": ratios(project, ceiling),
                            "project": _rounded(project),
                            "ceiling": _rounded(ceiling),
                        }
                    )
    finally:
        stop(servers["procs"])
        cleanup_prefix(args.redis_url, prefix)
    summary = {}
    for game in games:
        for mode in modes:
            mine = [r for r in rows if r["game"] == game and r["mode"] == mode]
            summary[f"{game}/{mode}"] = {
                name: _spread([r["ratios"][name] for r in mine])
                for name in ("cpu", "throughput", "p99")
            }
    humans = [r for r in rows if r["mode"] == "humans"] or rows
    worst_cpu = max((r["ratios"]["cpu"] or 0.0) for r in humans)
    worst_throughput = min((r["ratios"]["throughput"] or 0.0) for r in humans)
    worst_p99 = max((r["ratios"]["p99"] or 0.0) for r in humans)
    best_rate = max(r["project"]["moves_per_s"] for r in humans)
    worst_action_p99 = max(r["project"]["p99_ms"] for r in humans)
    return report(
        "bench_http",
        "server_cpu_per_action_vs_ceiling",
        worst_cpu,
        "ratio",
        "<=",
        TARGET_CPU_RATIO,
        throughput_ratio={
            "value": worst_throughput,
            "op": ">=",
            "target": TARGET_THROUGHPUT_RATIO,
            "meets_target": worst_throughput >= TARGET_THROUGHPUT_RATIO,
        },
        p99_ratio={
            "value": worst_p99,
            "op": "<=",
            "target": TARGET_P99_RATIO,
            "meets_target": 0 < worst_p99 <= TARGET_P99_RATIO,
        },
        absolute={
            "actions_per_s": round(best_rate, 2),
            "target_actions_per_s": TARGET_ACTIONS_PER_S,
            "action_p99_ms": round(worst_action_p99, 2),
            "target_action_p99_ms": TARGET_ACTION_P99_MS,
        },
        summary=summary,
        rows=rows,
        settings={
            "gunicorn_workers": args.gunicorn_workers,
            "threads": args.threads,
            "worker_class": "gthread",
            "load_processes": args.processes,
            "clients": args.processes * args.threads_per_process,
            "project_clients": args.processes
            * (args.project_threads_per_process or args.threads_per_process),
            "rq_workers": args.rq_workers,
            "seconds": args.seconds,
            "prefer_representation": args.prefer_representation,
            "wait_on": args.wait_on,
            "machine_cores": os.cpu_count(),
        },
    )


if __name__ == "__main__":
    main()
