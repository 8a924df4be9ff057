"""The peer benchmark (issue 21): this server and boardgame.io, side by side in one run, on
the same trivial game — Duel (``examples/duel``: two seats, one simultaneous hidden play per
trick), written a second time for boardgame.io in ``benchmarks/peer/bgio/duel.js`` with the
same rules, views and checks.

Usage (from the repository root; Node.js and npm on the PATH):
    python benchmarks/peer/run.py [--rounds 3] [--seats 16,64] [--seconds 10]
        [--warmup-seconds 3] [--memory-matches 100]
        [--systems arena,bgio-memory,bgio-flatfile,ceiling]

What runs (each started here, stopped afterwards):

- **arena**: the production topology: gunicorn with the shipped configuration
  (``api/gunicorn_config.py``: 2 ``gthread`` workers x 48 threads) serving ``api.app``
  with ``ARENA_GAME_PACKAGES=examples``, on a Redis server started here with AOF
  ``appendfsync everysec`` (durable to the second, as recommended for production).
  Per-client rate limits are off for the load generator (one address, many clients), as
  in ``bench_http.py``.
- **ceiling**: the stack's floor, ``bench_http.py``'s ceiling app (Flask answering a
  ``POST`` after exactly one Redis ``XADD``) on gunicorn with this server's worker model
  (2 ``gthread`` workers x 48 threads), on the same Redis, driven by as many clients as
  there are seats, each with one request in flight: its "move" is one bare request. Its
  CPU per request against boardgame.io's CPU per move (``ceiling_request_cpu/...``) is
  what the fixed stack costs before any game, log or contract work; this server's ratio
  to it is reported as to the other systems.
- **bgio-memory** / **bgio-flatfile**: boardgame.io 0.50.2 (``bgio/package-lock.json``)
  ``Server`` with its ``InMemory`` storage, and with its ``FlatFile`` storage in a
  temporary folder.

The load generators follow the same rules for both: each seat is its own client on its own
connection; a seat plays as soon as it may (a random card of its hand; both seats of a
trick at the same time); when a match ends its seats start the next. This server is driven
over HTTP by ``bench_http.py``'s seat clients: ``POST .../actions?wait=`` with ``Prefer:
return=representation``, answered once the seat has its next decision (a long-poll on the
move itself: one request per move, the HTTP counterpart of the state boardgame.io pushes;
``--arena-wait-on decision``, the rule of the runs before 2026-12-04: the ``POST`` answered
at once and a ``GET .../legal-actions?wait=`` long-poll when the seat has nothing to do,
about two requests per move, 1-34% more CPU per move in 4 alternating pairs);
boardgame.io by its own client over its socket.io transport (``bgio/loadgen.js``;
a move boardgame.io drops because it was sent at an older state is sent again, the latency
counting from the first send). A move counts when the server accepted it; its latency is
from the first send to the answer (this server) or to the state without the card
(boardgame.io).

Reported per system and seat count, min/median/max over the rounds (the systems' order
alternates from round to round): server CPU per accepted move (the server's processes, and
for this server the Redis server's too, from the kernel's accounting in ``/proc``), moves
per second, p50/p99 move latency, and memory per live match (Redis ``used_memory`` plus the
gunicorn processes' resident memory for this server, the Node process's resident memory for
boardgame.io, each after ``--memory-matches`` matches with one trick played, minus before);
then the ratios of this server to each boardgame.io storage and issue 21's targets: CPU per
move <= FlatFile's and <= 3x in-memory's, p99 <= FlatFile's, memory per live match no worse
than the reference recorded in ``REFERENCE_MEMORY_KB``.

Before the first round every system gets one discarded window (caches and connection
pools fill; gunicorn's workers load the games before they accept, ``api.runtime.warm``).
The machine is shared and noisy: compare the ratios, measured within one run; the report
also gives the whole machine's busy cores during each window.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(BENCH))

import _common  # noqa: E402,F401  (import path)
import bench_http  # noqa: E402
from _common import ROOT as _ROOT  # noqa: E402
from _common import CpuMeter, report  # noqa: E402
from _http import Connection  # noqa: E402

ROOT = Path(_ROOT)
BGIO = HERE / "bgio"
#: issue 21: "memory per live match no worse than today" — today's figure for this server
#: (5.8 KB of Redis + ~25 KB of fold cache, the issue's measurement), in KB
REFERENCE_MEMORY_KB = 31.0
SYSTEMS = ("arena", "bgio-memory", "bgio-flatfile", "ceiling")
GAME = "duel"


def _free_port() -> int:
    return bench_http.free_port()


def _wait_line(proc: subprocess.Popen, word: str, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if word in line:
            return
        if not line and proc.poll() is not None:
            break
    raise RuntimeError(f"{proc.args!r} did not print {word!r}")


def read_report(out: str, what: str) -> dict[str, Any]:
    """The JSON object on the last line of a load generator's stdout ``out`` (``loadgen.js``
    prints one line, which holds every move's latency and can be megabytes long).

    Raises ``RuntimeError`` naming ``what`` and the line's length when the line is not
    whole JSON (a generator that exited before its line was written out, as one did when
    it called ``process.exit()`` with 64 KiB in the pipe)."""
    lines = out.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (IndexError, ValueError) as error:
        size = len(lines[-1]) if lines else 0
        raise RuntimeError(f"{what}: no whole JSON report line ({size} chars): {error}") from error


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    """A Redis server on a free port with AOF ``appendfsync everysec`` in ``folder``."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 30
    import redis

    while time.monotonic() < deadline:
        try:
            redis.Redis.from_url(url).ping()
            return proc, url
        except redis.RedisError:
            time.sleep(0.1)
    raise RuntimeError("redis-server did not start")


def start_arena(redis_url: str, extra: Sequence[str] = ()) -> tuple[subprocess.Popen, int]:
    """gunicorn with the shipped configuration serving this server (Duel registered);
    ``extra``: more gunicorn arguments, which override the configuration's (an A/B of a
    worker class: ``["-k", "gevent"]``)."""
    port = _free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "ARENA_GAME_PACKAGES": "examples",
        "ARENA_RATE_LIMITS_ENABLED": "0",
        "ARENA_MAX_BOT_MATCHES_PER_CLIENT": "100000",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "api" / "gunicorn_config.py"),
            "--bind",
            f"127.0.0.1:{port}",
            *extra,
            "api.app:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    bench_http.wait_healthy(port, [proc])
    return proc, port


def start_ceiling(redis_url: str) -> tuple[subprocess.Popen, int]:
    """``bench_http.py``'s ceiling app (``benchmarks/ceiling_app.py``: Flask answering each
    ``POST /ceiling`` after exactly one Redis ``XADD``) on gunicorn with this server's worker
    model (2 ``gthread`` workers x 48 threads, keep-alive), on this server's Redis: what one
    request costs on the fixed stack before any game, log or contract work."""
    port = _free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "ARENA_KEY_PREFIX": "peer-ceiling",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(BENCH)]),
    }
    proc = bench_http._spawn(
        bench_http.gunicorn_command(port, 2, 48, "ceiling_app:create_app()"), env
    )
    bench_http.wait_healthy(port, [proc])
    return proc, port


def start_bgio(storage: str, folder: Path) -> tuple[subprocess.Popen, int]:
    """boardgame.io's server with ``storage`` ``memory`` or ``flatfile`` (in ``folder``)."""
    port = _free_port()
    proc = subprocess.Popen(
        ["node", "server.js", str(port), storage, str(folder)],
        cwd=BGIO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    _wait_line(proc, "ready")
    return proc, port


def running_bgio(
    bgio: dict[str, tuple[subprocess.Popen, int]],
    system: str,
    work: Path,
    procs: list[subprocess.Popen],
    restarts: dict[str, int],
) -> tuple[subprocess.Popen, int]:
    """``system``'s boardgame.io server, started again (in a fresh folder, counted in
    ``restarts``) when it has exited: the FlatFile server once died mid-run at 64 seats
    (every request then ``fetch failed``) and its memory measurement ended the whole run."""
    proc, port = bgio[system]
    if proc.poll() is None:
        return proc, port
    restarts[system] = restarts.get(system, 0) + 1
    print(
        f"{system}: its server exited with status {proc.returncode}; started again",
        file=sys.stderr,
        flush=True,
    )
    folder = work / f"{system}-restart-{restarts[system]}"
    folder.mkdir()
    bgio[system] = start_bgio(system.removeprefix("bgio-"), folder)
    procs.append(bgio[system][0])
    return bgio[system]


def stop_all(procs: list[subprocess.Popen]) -> None:
    """SIGTERM each process group, SIGKILL after 10 s."""
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


def _rss_kb(pgid: int) -> int:
    """Resident memory (KB) of every process in process group ``pgid``."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                raw = handle.read()
            if int(raw[raw.rfind(")") + 2 :].split()[2]) != pgid:
                continue
            with open(f"/proc/{name}/status", encoding="ascii") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total


def percentile(values: list[float], q: float) -> float:
    return bench_http.percentile(values, q)


# ------------------------------------------------------------------ one window


def measure_arena(ctx: dict[str, Any], seats: int, args: argparse.Namespace) -> dict[str, Any]:
    """One counted window of ``seats`` seats (``seats // 2`` matches at once) on this server."""
    bench_http.SEATS = 2  # the seat clients' match size (forked below)
    row = _python_window(
        ctx["arena"].pid,
        ctx["redis"].pid,
        seats,
        args,
        lambda window, processes: bench_http.run_load(
            "project",
            ctx["arena_port"],
            window,
            processes,
            seats // processes,
            GAME,
            "humans",
            True,
            args.arena_wait_on,
        ),
    )
    # each seat client counts the end of its match: two per Duel match
    row["matches_finished"] = row.pop("matches") // bench_http.SEATS
    return row


def measure_ceiling(ctx: dict[str, Any], seats: int, args: argparse.Namespace) -> dict[str, Any]:
    """One counted window of the ceiling app (:func:`start_ceiling`) driven by ``seats``
    clients, each with one request in flight at a time (``bench_http.py``'s ceiling
    clients, the same processes as :func:`measure_arena`'s): its "move" is one request,
    its server CPU the gunicorn processes' and the Redis server's."""
    row = _python_window(
        ctx["ceiling"].pid,
        ctx["redis"].pid,
        seats,
        args,
        lambda window, processes: bench_http.run_load(
            "ceiling", ctx["ceiling_port"], window, processes, seats // processes
        ),
    )
    del row["matches"]
    return row


def _python_window(
    server_pgid: int,
    redis_pid: int,
    seats: int,
    args: argparse.Namespace,
    load: Any,
) -> dict[str, Any]:
    """One counted window of ``bench_http.py``'s load generator (``min(4, seats // 8)``
    processes): ``load(window, processes)`` drives the server and returns its tally; the
    server's CPU is process group ``server_pgid``'s plus the Redis server's (``redis_pid``).
    A row of the report (``moves``: accepted moves or answered requests; ``matches``: the
    tally's count, as its clients count them)."""
    meter = CpuMeter(groups={"server": {server_pgid}}, pids={"redis": {redis_pid}})
    processes = min(4, max(1, seats // 8))
    first = time.time() + 0.5 + 0.05 * processes + args.warmup_seconds
    deadline, moved = bench_http.CTX.Value("d", first + args.seconds), bench_http.CTX.Value("i", 0)
    window = bench_http.Window(first, deadline, moved)
    box: dict[str, Any] = {}
    import threading

    runner = threading.Thread(target=lambda: box.update(load(window, processes)))
    runner.start()
    time.sleep(max(0.0, first - time.time()))
    meter.start()
    time.sleep(max(0.0, deadline.value - time.time()))
    cpu = meter.stop()
    runner.join()
    moves = len(box["actions"])
    server_cpu = (cpu.get("server") or 0.0) + (cpu.get("redis") or 0.0)
    return {
        "moves": moves,
        "moves_per_s": moves / args.seconds,
        "p50_ms": percentile(box["actions"], 0.5) * 1000,
        "p99_ms": percentile(box["actions"], 0.99) * 1000,
        "server_cpu_ms_per_move": 1000 * server_cpu / moves if moves else None,
        "redis_cpu_ms_per_move": 1000 * (cpu.get("redis") or 0.0) / moves if moves else None,
        "matches": box["matches"],
        "errors": box["errors"],
        "machine_busy_cores": cpu.get("machine_busy_cores"),
    }


def measure_bgio(
    proc: subprocess.Popen, port: int, seats: int, args: argparse.Namespace
) -> dict[str, Any]:
    """One counted window of ``seats`` seats on a boardgame.io server (``loadgen.js``
    processes, each a share of the matches)."""
    return measure_node("loadgen.js", port, seats, args, {"server": {proc.pid}}, {})


def _bgio_window(
    bgio: dict[str, tuple[subprocess.Popen, int]],
    system: str,
    work: Path,
    procs: list[subprocess.Popen],
    restarts: dict[str, int],
    seats: int,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """:func:`measure_bgio` of ``system``'s server (started again when it exited), once
    more when a load generator of the window ended without its report (it happened once
    in a FlatFile window of session 15, after 11 good windows; the cause, the generator's
    stderr, goes to this script's stderr): a run is not lost to one crashed client."""
    try:
        return measure_bgio(*running_bgio(bgio, system, work, procs, restarts), seats, args)
    except RuntimeError as error:
        print(f"{system}: window lost ({error}); measured again", file=sys.stderr, flush=True)
        restarts[f"{system}-window"] = restarts.get(f"{system}-window", 0) + 1
        return measure_bgio(*running_bgio(bgio, system, work, procs, restarts), seats, args)


def measure_arena_node(ctx: dict[str, Any], seats: int, args: argparse.Namespace) -> dict[str, Any]:
    """One counted window of ``seats`` seats on this server driven by Node clients
    (``bgio/arena_loadgen.js``: the rules of ``bench_http.py``'s seat clients with
    ``--arena-wait-on post``, in boardgame.io's load generator's runtime); the Redis
    server's CPU counts as the server's."""
    return measure_node(
        "arena_loadgen.js",
        ctx["arena_port"],
        seats,
        args,
        {"server": {ctx["arena"].pid}},
        {"redis": {ctx["redis"].pid}},
    )


def measure_node(
    script: str,
    port: int,
    seats: int,
    args: argparse.Namespace,
    groups: dict[str, set[int]],
    pids: dict[str, set[int]],
) -> dict[str, Any]:
    """One counted window of ``seats`` seats (``seats // 2`` matches at once) played by
    ``script`` (a Node load generator in ``bgio/``; ``min(4, seats // 8)`` processes, each
    a share of the matches) against the server on ``port``; ``groups`` / ``pids``: the
    server's processes for :class:`CpuMeter` (every ``pids`` entry counts as the server's
    CPU too). ``client_cpu_ms_per_move``: the load generators' own CPU."""
    processes = min(4, max(1, seats // 8))
    pairs = seats // 2
    first = time.time() + 1.0 + args.warmup_seconds
    deadline = first + args.seconds
    gens = []
    for index in range(processes):
        share = pairs // processes + (1 if index < pairs % processes else 0)
        config = {
            "port": port,
            "pairs": share,
            "countingFrom": first,
            "deadline": deadline,
            "seed": 1 + index,
        }
        gens.append(
            subprocess.Popen(
                ["node", script, json.dumps(config)],
                cwd=BGIO,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    meter = CpuMeter(groups=groups, pids=pids)
    time.sleep(max(0.0, first - time.time()))
    meter.start()
    time.sleep(max(0.0, deadline - time.time()))
    cpu = meter.stop()
    latencies: list[float] = []
    moves, matches, resent, resyncs, client_cpu, errors = 0, 0, 0, 0, 0.0, {}
    for gen in gens:
        out, err = gen.communicate(timeout=120)
        what = f"{script} on port {port} (exit {gen.returncode}; stderr: {err.strip()[-600:]!r})"
        part = read_report(out, what)
        latencies += part["latencies_ms"]
        moves += part["moves"]
        matches += part["matches"]
        resent += part.get("resent", 0)
        resyncs += part.get("resyncs", 0)
        client_cpu += part.get("cpu_s", 0.0)
        for code, count in part["errors"].items():
            errors[code] = errors.get(code, 0) + count
    server_cpu = sum(cpu.get(name) or 0.0 for name in (*groups, *pids))
    row: dict[str, Any] = {
        "moves": moves,
        "moves_per_s": moves / args.seconds,
        "p50_ms": percentile(latencies, 0.5),
        "p99_ms": percentile(latencies, 0.99),
        "server_cpu_ms_per_move": 1000 * server_cpu / moves if moves else None,
    }
    if pids:
        row["redis_cpu_ms_per_move"] = (
            1000 * sum(cpu.get(name) or 0.0 for name in pids) / moves if moves else None
        )
    row.update(
        {
            "client_cpu_ms_per_move": 1000 * client_cpu / moves if moves else None,
            "matches_finished": matches,
            "resent_moves": resent,
            "reconnects": resyncs,
            "errors": errors,
            "machine_busy_cores": cpu.get("machine_busy_cores"),
        }
    )
    return row


# ------------------------------------------------------------------ memory


def memory_arena(ctx: dict[str, Any], matches: int) -> float:
    """KB per live match on this server: ``matches`` Duel matches created, one trick
    played in each; Redis ``used_memory`` and the gunicorn processes' RSS, after minus before."""
    import redis

    conn = redis.Redis.from_url(ctx["redis_url"])
    client = Connection("127.0.0.1", ctx["arena_port"])
    # warm both workers' code paths before the first sample
    for _ in range(4):
        client.call("POST", "/v1/matches", body={"game": GAME, "seats": [{"kind": "human"}] * 2})
    before = conn.info("memory")["used_memory"] / 1024 + _rss_kb(ctx["arena"].pid)
    for _ in range(matches):
        created = client.call(
            "POST", "/v1/matches", body={"game": GAME, "seats": [{"kind": "human"}] * 2}
        )
        base = f"/v1/matches/{created['match_id']}"
        for seat in sorted(created["seats"], key=lambda s: s["seat"]):
            legal = client.call("GET", f"{base}/legal-actions", seat["token"])
            command = dict(legal["actions"][0], decision_id=legal["decision_id"])
            client.call("POST", f"{base}/actions", seat["token"], command)
            client.call("GET", base, seat["token"])  # a read, as a client would (fold cache)
    after = conn.info("memory")["used_memory"] / 1024 + _rss_kb(ctx["arena"].pid)
    client.close()
    return (after - before) / matches


#: the memory step's bound on one boardgame.io server (s): a stalled server ends it early
MEMORY_BUDGET_S = 120


def memory_bgio(proc: subprocess.Popen, port: int, matches: int) -> float | None:
    """KB per live match on a boardgame.io server: the Node process's RSS after minus
    before up to ``matches`` matches created, joined and one trick played (``loadgen.js``
    mode ``memory``), within ``MEMORY_BUDGET_S``; divided by the matches actually created
    (None when none was)."""
    warm = {"port": port, "memory": 4, "budgetS": 30}
    subprocess.run(
        ["node", "loadgen.js", json.dumps(warm)],
        cwd=BGIO,
        check=True,
        capture_output=True,
        timeout=60,
    )
    before = _rss_kb(proc.pid)
    config = {"port": port, "memory": matches, "budgetS": MEMORY_BUDGET_S}
    done = subprocess.run(
        ["node", "loadgen.js", json.dumps(config)],
        cwd=BGIO,
        check=True,
        capture_output=True,
        text=True,
        timeout=MEMORY_BUDGET_S + 60,
    )
    outcome = read_report(done.stdout, "loadgen.js memory mode")
    created = outcome["matches"]
    if created < matches or outcome["trick_played"] < created:
        print(
            f"memory: {created} of {matches} matches created within {MEMORY_BUDGET_S} s, "
            f"{created - outcome['trick_played']} of them without their first trick",
            file=sys.stderr,
        )
    return (_rss_kb(proc.pid) - before) / created if created else None


# ------------------------------------------------------------------ report


def _spread(values: list[float | None]) -> dict[str, float] | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    return {
        "min": round(min(known), 3),
        "median": round(statistics.median(known), 3),
        "max": round(max(known), 3),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the rounds and print the JSON report (``_common.report``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seats", default="16,64")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup-seconds", type=float, default=3.0)
    parser.add_argument(
        "--memory-matches",
        type=int,
        default=100,
        help="matches of the memory step per system (0: no memory step, no memory ratio)",
    )
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument(
        "--arena-wait-on",
        choices=("decision", "post"),
        default="post",
        help="this server's seats: post (default since 2026-12-04): POST .../actions?wait= "
        "with Prefer: return=representation, answered once the seat has its next decision "
        "(about one request per move); decision (the rule of the runs before): the POST "
        ".../actions answers at once and a seat with nothing to do long-polls GET "
        ".../legal-actions?wait= (about two requests per move). 4 alternating pairs on "
        "2026-12-04, CPU per move post / decision: 0.93-0.99 at 16 seats, 0.66-0.97 at 64",
    )
    parser.add_argument(
        "--arena-client",
        choices=("python", "node"),
        default="python",
        help="this server's seat clients: python (bench_http.py's threads, 4 processes) "
        "or node (bgio/arena_loadgen.js: the same rules in boardgame.io's load generator's "
        "runtime; --arena-wait-on post only)",
    )
    parser.add_argument(
        "--arena-gunicorn-arg",
        action="append",
        default=[],
        help="one more gunicorn argument for this server (repeatable; overrides "
        "api/gunicorn_config.py, e.g. --arena-gunicorn-arg=-k --arena-gunicorn-arg=gevent)",
    )
    args = parser.parse_args(argv)
    seat_counts = [int(s) for s in args.seats.split(",") if s]
    systems = [s for s in args.systems.split(",") if s]
    if not (BGIO / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=BGIO,
            check=True,
            stdout=sys.stderr,
        )  # stdout is the JSON report's
    work = Path(tempfile.mkdtemp(prefix="arena-peer-"))
    procs: list[subprocess.Popen] = []
    rows: list[dict[str, Any]] = []
    memory: dict[str, float] = {}
    restarts: dict[str, int] = {}
    try:
        ctx: dict[str, Any] = {}
        if "arena" in systems or "ceiling" in systems:
            (work / "redis").mkdir()
            ctx["redis"], ctx["redis_url"] = start_redis(work / "redis")
            procs.append(ctx["redis"])
        if "arena" in systems:
            ctx["arena"], ctx["arena_port"] = start_arena(ctx["redis_url"], args.arena_gunicorn_arg)
            procs.append(ctx["arena"])
        if "ceiling" in systems:
            ctx["ceiling"], ctx["ceiling_port"] = start_ceiling(ctx["redis_url"])
            procs.append(ctx["ceiling"])
        bgio: dict[str, tuple[subprocess.Popen, int]] = {}
        for system in systems:
            if system.startswith("bgio-"):
                folder = work / system
                folder.mkdir()
                bgio[system] = start_bgio(system.removeprefix("bgio-"), folder)
                procs.append(bgio[system][0])
        # One discarded window per system first: gunicorn's workers load the games and
        # warm their caches on their first requests (seconds), Node compiles its hot paths.
        arena_window = measure_arena_node if args.arena_client == "node" else measure_arena
        for system in systems:
            if system == "arena":
                arena_window(ctx, seat_counts[0], args)
            elif system == "ceiling":
                measure_ceiling(ctx, seat_counts[0], args)
            else:
                measure_bgio(
                    *running_bgio(bgio, system, work, procs, restarts), seat_counts[0], args
                )
        for round_no in range(args.rounds):
            order = systems if round_no % 2 == 0 else list(reversed(systems))
            for seats in seat_counts:
                for system in order:
                    if system == "arena":
                        figures = arena_window(ctx, seats, args)
                    elif system == "ceiling":
                        figures = measure_ceiling(ctx, seats, args)
                    else:
                        figures = _bgio_window(bgio, system, work, procs, restarts, seats, args)
                    rows.append(
                        {
                            "round": round_no,
                            "system": system,
                            "seats": seats,
                            **{
                                k: round(v, 3) if isinstance(v, float) else v
                                for k, v in figures.items()
                            },
                        }
                    )
                    print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        for system in [s for s in systems if s != "ceiling"] if args.memory_matches > 0 else ():
            per_match = (
                memory_arena(ctx, args.memory_matches)
                if system == "arena"
                else memory_bgio(
                    *running_bgio(bgio, system, work, procs, restarts), args.memory_matches
                )
            )
            if per_match is not None:
                memory[system] = round(per_match, 2)
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)
    summary: dict[str, Any] = {}
    for seats in seat_counts:
        for system in systems:
            mine = [r for r in rows if r["system"] == system and r["seats"] == seats]
            summary[f"{system}/{seats}"] = {
                k: _spread([r[k] for r in mine])
                for k in ("server_cpu_ms_per_move", "moves_per_s", "p50_ms", "p99_ms")
            }
    ratios: dict[str, Any] = {}
    if "arena" in systems:
        for seats in seat_counts:
            for round_no in range(args.rounds):
                mine = {
                    r["system"]: r for r in rows if r["round"] == round_no and r["seats"] == seats
                }
                for peer in systems:
                    if peer == "arena":
                        continue
                    for metric in ("server_cpu_ms_per_move", "p99_ms", "moves_per_s"):
                        a, b = mine["arena"].get(metric), mine[peer].get(metric)
                        ratios.setdefault(f"{metric}/{peer}/{seats}", []).append(
                            round(a / b, 3) if a and b else None
                        )
    if "ceiling" in systems:
        # the stack's floor: one bare request of the fixed stack (gunicorn + Flask + one
        # Redis command) against a whole move of each boardgame.io storage
        for seats in seat_counts:
            for round_no in range(args.rounds):
                mine = {
                    r["system"]: r for r in rows if r["round"] == round_no and r["seats"] == seats
                }
                for peer in (s for s in systems if s.startswith("bgio-")):
                    a = mine["ceiling"].get("server_cpu_ms_per_move")
                    b = mine[peer].get("server_cpu_ms_per_move")
                    ratios.setdefault(f"ceiling_request_cpu/{peer}_move/{seats}", []).append(
                        round(a / b, 3) if a and b else None
                    )
    ratios = {k: _spread(v) for k, v in ratios.items()}
    worst_cpu_flatfile = max(
        (
            v["max"]
            for k, v in ratios.items()
            if v and k.startswith("server_cpu_ms_per_move/bgio-flatfile")
        ),
        default=0.0,
    )
    targets = {
        "cpu_vs_flatfile_<=1": worst_cpu_flatfile,
        "cpu_vs_memory_<=3": max(
            (
                v["max"]
                for k, v in ratios.items()
                if v and k.startswith("server_cpu_ms_per_move/bgio-memory")
            ),
            default=0.0,
        ),
        "p99_vs_flatfile_<=1": max(
            (v["max"] for k, v in ratios.items() if v and k.startswith("p99_ms/bgio-flatfile")),
            default=0.0,
        ),
        "memory_kb_per_match_<=reference": memory.get("arena"),
        # not a target: the fixed stack's bare request against boardgame.io in-memory's
        # whole move (the "ceiling" system), the floor under cpu_vs_memory
        "stack_floor_ceiling_request_vs_memory_move": max(
            (
                v["max"]
                for k, v in ratios.items()
                if v and k.startswith("ceiling_request_cpu/bgio-memory")
            ),
            default=None,
        ),
        "memory_reference_kb": REFERENCE_MEMORY_KB,
    }
    return report(
        "peer",
        "server_cpu_per_move_vs_bgio_flatfile",
        worst_cpu_flatfile,
        "ratio",
        "<=",
        1.0,
        targets=targets,
        ratios=ratios,
        summary=summary,
        memory_kb_per_live_match=memory,
        server_restarts=restarts,
        rows=rows,
        settings={
            "rounds": args.rounds,
            "seats": seat_counts,
            "seconds": args.seconds,
            "machine_cores": os.cpu_count(),
        },
    )


if __name__ == "__main__":
    main()
