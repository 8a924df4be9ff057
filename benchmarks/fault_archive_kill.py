"""Fault script: SIGKILL the archive mover mid-batch, again and again, until every match
moved; nothing may be lost or duplicated (issue 12 item 5).

``--matches`` finished ai-100-human matches (two greedy bots, played in this process) are
compacted on the real Redis (``--redis-url``, a fresh key prefix, deleted afterwards) with
the archive at ``--archive-url`` (a PostgreSQL database; the script's rows are deleted
afterwards). Then a mover subprocess (``--mover``: ``MatchService.archive_due`` one match
at a time until none is due) is started and killed with SIGKILL a random ``--kill-after``
seconds after it is ready (its service built: the start-up of a Python process is not the
moving, and on a busy machine it alone can outlast the whole range), over and over (the
first run is gated: killed after moving exactly one match, so at least one kill lands
mid-batch on a fast machine too), until the compacted set is empty; the run after
``--max-kills`` random kills (or the last of ``max_runs``) is never killed. Checks: every match is
archived exactly once, has no key left in Redis, reads
back (export equal to the one before the move, verified), and the lobby lists each once.

Prints one JSON object: ``value`` = matches lost (target 0), with kills, kills that landed
mid-batch, runs and the checks.

Usage: ``python benchmarks/fault_archive_kill.py --archive-url postgresql://... [--matches 20]
[--redis-url redis://127.0.0.1:6379/14] [--kill-after 0.8 2.5] [--max-kills 200] [--seed 1]``
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import DEFAULT_BENCH_REDIS_URL, bench_prefix, cleanup_prefix, report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _play(service, seats: int = 2) -> str:
    created = service.create_match("ai-100-human", [{"kind": "bot", "bot": "greedy"}] * seats, {})
    mid = created["match_id"]
    for _ in range(10_000):
        view = service.match_view(mid, None)
        if view["status"] != "running":
            return mid
        service.run_bot_turn(mid, view["version"])
    raise RuntimeError(f"match {mid} did not finish")


GATE_ENV = "ARENA_FAULT_MOVER_GATE"
READY_ENV = "ARENA_FAULT_MOVER_READY"


def mover() -> int:
    """The subprocess: move due matches one at a time until none is due. With the
    environment variable ``ARENA_FAULT_MOVER_READY`` naming a Redis list, it first pushes
    one item there once its service is built (the driver times its kill from then). With
    ``ARENA_FAULT_MOVER_GATE`` naming a Redis list, each move first takes one token from it
    (``BLPOP``, 60 s), so the driver decides when it may go on."""
    from service.bootstrap import build_service

    service = build_service()
    ready = os.environ.get(READY_ENV)
    if ready:
        service.redis.rpush(ready, "ready")
    gate = os.environ.get(GATE_ENV)
    while True:
        if gate and service.redis.blpop([gate], timeout=60) is None:
            return 1
        if not service.archive_due(1):
            return 0


def _gated_kill(service, env: dict[str, str], gate: str, timeout_s: float = 300.0) -> int:
    """A kill that lands mid-batch whatever the machine's speed: a gated mover moves one
    match (one token), and is SIGKILLed while it waits for the next. The rows archived."""
    import time

    rows_before = service.ctx.archive.count()
    proc = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.fault_archive_kill", "--mover"],
        cwd=ROOT,
        env={**env, GATE_ENV: gate},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        service.redis.rpush(gate, "go")
        deadline = time.monotonic() + timeout_s
        while service.ctx.archive.count() == rows_before or service.redis.llen(gate):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the gated mover did not move its one match")
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        service.redis.delete(gate)
    return service.ctx.archive.count() - rows_before


def _wait_ready(service, proc: subprocess.Popen, ready: str, timeout_s: float = 300.0) -> bool:
    """Wait until the mover ``proc`` pushed to the list ``ready`` (True) or exited
    (False); RuntimeError after ``timeout_s`` seconds."""
    import time

    deadline = time.monotonic() + timeout_s
    while service.redis.blpop([ready], timeout=0.2) is None:
        if proc.poll() is not None:
            return False
        if time.monotonic() > deadline:
            raise RuntimeError("the mover did not start")
    return True


def run_archive_kill(
    redis_url: str,
    archive_url: str,
    matches: int = 20,
    kill_after: tuple[float, float] = (0.8, 2.5),
    seed: int = 1,
    max_runs: int = 200,
    max_kills: int = 200,
) -> dict[str, Any]:
    """Run the scenario (module docstring); returns the figures. ``kill_after``: the range
    of a kill's instant in seconds after the mover is ready; ``max_kills``: random kills at
    most, after which the next run moves the rest."""
    from service.bootstrap import build_service
    from service.config import Config

    rng = random.Random(seed)
    prefix = bench_prefix("archkill")
    config = Config(
        redis_url=redis_url,
        key_prefix=prefix,
        archive_url=archive_url,
        archive_after_s=1e-6,
        archive_batch=matches,
    )
    service = build_service(config)
    service.scheduler = None  # bots are played in this process: enqueue nothing
    service.ctx.scheduler = None
    env = {**os.environ, **config.to_env(), "PYTHONPATH": str(ROOT)}
    try:
        ids = [_play(service) for _ in range(matches)]
        exports = {mid: service.export(mid) for mid in ids}
        kills = mid_batch = mid_move = runs = 0  # (a kill may be both, or neither: before a move)
        gated = int(matches > 1)
        if gated:  # one kill certainly mid-batch, then kills at random instants
            runs, kills, mid_batch = 1, 1, 1
            _gated_kill(service, env, f"{prefix}:fault-gate")
        ready = f"{prefix}:fault-ready"
        while service.stores.compacted.count() and runs < max_runs:
            runs += 1
            before = service.stores.compacted.count()
            rows_before = service.ctx.archive.count()
            service.redis.delete(ready)
            proc = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.fault_archive_kill", "--mover"],
                cwd=ROOT,
                env={**env, READY_ENV: ready},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            last = runs >= max_runs - 1 or kills - gated >= max_kills
            try:
                try:
                    started = _wait_ready(service, proc, ready)
                except RuntimeError:
                    proc.kill()
                    proc.wait()
                    raise
                if not started:
                    raise RuntimeError(f"the mover exited at start-up ({proc.returncode})")
                proc.wait(timeout=None if last else rng.uniform(*kill_after))
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                kills += 1
                after = service.stores.compacted.count()
                mid_batch += 0 < after < before  # some of the batch moved, not all
                # this run copied a row whose Redis keys it did not delete
                mid_move += service.ctx.archive.count() - rows_before > before - after
        service.redis.delete(ready)
        archived = service.ctx.archive.count()
        left = [
            mid for mid in ids if any(service.redis.exists(k) for k in service.keys.match_keys(mid))
        ]
        service.folds.clear()
        reads_equal = sum(service.export(mid) == exports[mid] for mid in ids)
        verified = sum(bool(service.verify(service.export(mid))["valid"]) for mid in ids)
        listed = [
            i["match_id"] for i in service.list_matches(status="finished", limit=100)["items"]
        ]
        return {
            "matches": matches,
            "archived": archived,
            "runs": runs,
            "kills": kills,
            "kills_mid_batch": mid_batch,
            "kills_between_copy_and_delete": mid_move,
            "keys_left_in_redis": left,
            "reads_equal": reads_equal,
            "verified": verified,
            "listed_once": sum(listed.count(mid) == 1 for mid in ids),
            "lost": matches - min(archived, reads_equal),
        }
    finally:
        try:
            conn = service.ctx.archive._conn()
            conn.execute("DELETE FROM arena_archive WHERE prefix = %s", (prefix,))
            service.ctx.archive.close()
        finally:
            cleanup_prefix(redis_url, prefix)


def main(argv: list[str] | None = None) -> Any:
    """Parse ``argv``; ``--mover`` runs the subprocess, else the scenario (prints JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mover", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--archive-url")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--kill-after", type=float, nargs=2, default=(0.8, 2.5))
    parser.add_argument(
        "--max-kills",
        type=int,
        default=200,
        help="random kills at most; the run after them is not killed",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.mover:
        return mover()
    if not args.archive_url:
        parser.error("--archive-url is required")
    figures = run_archive_kill(
        args.redis_url,
        args.archive_url,
        args.matches,
        tuple(args.kill_after),
        args.seed,
        max_kills=args.max_kills,
    )
    return report(
        "fault_archive_kill", "matches_lost", figures["lost"], "matches", "<=", 0, **figures
    )


if __name__ == "__main__":
    result = main()
    if isinstance(result, int):
        sys.exit(result)
