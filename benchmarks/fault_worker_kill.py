"""Fault script: SIGKILL ``arena worker`` processes at random while matches of all three games
play, restart them, and measure how fast every bot turn and turn timeout resumes.

The production topology: a private ``redis-server`` (AOF on) holds the store and the queue,
gunicorn serves the API as the Dockerfile runs it (matches are created and exported over
HTTP), and ``--workers`` separate ``arena worker`` processes play ``--matches`` matches
(bot-only matches of every game, and timed matches whose human seat is played by turn
timeouts through the scheduler, ``--turn-timeout`` s: the API's minimum is 1). Every ``--kill-every``
seconds (uniformly random in the range) a random worker's process group gets SIGKILL —
before, during or after a job, holding the scheduler lock or not — and a new worker starts.

Prints one JSON object: ``value`` is the p99 over kills of the time until every match that
was running at the kill played its next event (target <= 10 s; a running match always
awaits a worker here: a bot turn or a turn timeout), with the same figure per (kill, match)
pair, all matches finished and verified, and duplicate decisions (folded from each log: a
seat answering one pending decision twice; must be 0). As a reference measured in the same
run, the same figures from as many random instants (``reference_*``: what the queue of 40
matches costs anyway), the five slowest (kill, match) resumes and the load average.

Usage: ``python benchmarks/fault_worker_kill.py [--matches 40] [--workers 3]
[--kill-every 2 5] [--timeout 900] [--seed 1] [--turn-timeout 1]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import report  # noqa: E402
from benchmarks._faults import (  # noqa: E402
    Api,
    ApiServer,
    PrivateRedis,
    WorkerPool,
    decision_report,
    event_times,
    resume_times,
    summary,
    timeout_report,
)

#: (game, seats) of the bot-only matches, cycled; cheap-to-strong bot levels mixed.
BOT_MATCHES = [
    ("ai-100-human", ["random", "greedy"]),
    ("aipokalypse", ["random", "tactician"]),
    ("dead-apocalypse", ["random", "cooperative"]),
]
#: Timed matches: a human seat (played by its turn timeout) and a bot.
TIMED_MATCHES = [
    ("dead-apocalypse", "cooperative"),
    ("ai-100-human", "random"),
    ("aipokalypse", "random"),
]


def _seats(kinds: list[str]) -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": level} for level in kinds]


def run_worker_kill(
    matches: int = 40,
    workers: int = 3,
    kill_every: tuple[float, float] = (2.0, 5.0),
    timeout_s: float = 900.0,
    seed: int = 1,
    timed_every: int = 8,
    turn_timeout_s: float = 1.0,
    max_kills: int | None = None,
    reconcile_s: float = 2.0,
    lease_s: float = 3.0,
    work_dir: str | None = None,
) -> dict[str, Any]:
    """Run the scenario (module docstring); returns the figures (see :func:`main`)."""
    from service.bootstrap import build_service
    from service.config import Config

    rng = random.Random(seed)
    tmp = Path(work_dir or tempfile.mkdtemp(prefix="arena-fault-kill-"))
    server = PrivateRedis(tmp / "redis").start()
    config = Config(
        redis_url=server.url(0),
        key_prefix="fault",
        reconcile_s=reconcile_s,
        worker_lease_s=lease_s,
        heartbeat_file=str(tmp / "heartbeat"),
        max_bot_matches_per_client=0,
    )
    pool = WorkerPool(config.to_env(), tmp / "logs")
    api_server = ApiServer(config.to_env(), tmp / "api")
    service = build_service(config)  # the observer: reads match status straight from Redis
    kills: list[float] = []
    load_start = [round(x, 2) for x in os.getloadavg()]
    loads: list[float] = []
    started = time.monotonic()
    started_unix = time.time()
    try:
        api = Api(api_server.start().url)
        for _ in range(workers):
            pool.start()
        ids: dict[str, str] = {}
        for n in range(matches):
            if timed_every and n % timed_every == timed_every - 1:
                game, bot = TIMED_MATCHES[(n // timed_every) % len(TIMED_MATCHES)]
                created = api.create_match(
                    game, [{"kind": "human"}, *_seats([bot])], {}, turn_timeout_s=turn_timeout_s
                )
            else:
                game, levels = BOT_MATCHES[n % len(BOT_MATCHES)]
                created = api.create_match(game, _seats(levels), {})
            ids[created["match_id"]] = game

        def running() -> list[str]:
            return [mid for mid in ids if service.match_view(mid, None)["status"] != "finished"]

        deadline = time.monotonic() + timeout_s
        next_kill = time.monotonic() + rng.uniform(*kill_every)
        while running() and time.monotonic() < deadline:
            if time.monotonic() >= next_kill and (max_kills is None or len(kills) < max_kills):
                victim = rng.choice(pool.alive())
                kills.append(time.time())
                pool.kill(victim)
                pool.start()
                next_kill = time.monotonic() + rng.uniform(*kill_every)
            loads.append(os.getloadavg()[0])
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        unfinished = running()
        survivors = len(pool.alive())
        stops = [pool.terminate(proc) for proc in pool.alive()]  # idle now: SIGTERM
        stop_times = [t for t, _ in stops if t is not None]
        finished, verified, decisions, duplicates = 0, 0, 0, 0
        times: dict[str, list[float]] = {}
        per_game: dict[str, int] = {}
        for mid, game in ids.items():
            log = api.export(mid)
            times[mid] = event_times(log["events"])
            if mid in unfinished:
                continue
            finished += 1
            per_game[game] = per_game.get(game, 0) + 1
            verified += bool(service.verify(log)["valid"])
            counts = decision_report(service.engines[game], log["events"])
            decisions += counts["decisions"]
            duplicates += counts["duplicates"]
        resumed = resume_times(kills, times)
        # Reference from the same run: the same figure from as many instants drawn at
        # random over the stretch with kills (not aligned with any kill): the waits any
        # running match sees anyway with 40 matches queued on the workers.
        instants = sorted(rng.uniform(kills[0], kills[-1]) for _ in kills) if kills else []
        reference = resume_times(instants, times)
        return {
            "matches": matches,
            "finished": finished,
            "verified": verified,
            "unfinished": unfinished,
            "finished_per_game": per_game,
            "decisions": decisions,
            "duplicate_decisions": duplicates,
            "workers": workers,
            "kills": len(kills),
            "worker_processes_started": pool.started,
            "workers_alive_at_end": survivors,
            "elapsed_s": round(elapsed, 1),
            "resume_per_kill_s": summary(resumed["per_kill_worst"]),
            "resume_per_match_s": summary(resumed["pairs"]),
            "reference_wait_at_random_instants_s": summary(reference["per_kill_worst"]),
            "reference_wait_per_match_at_random_instants_s": summary(reference["pairs"]),
            "slowest_resumes": [
                dict(
                    item,
                    game=ids[item["match"]],
                    kill_at_s=round(kills[item["kill"]] - started_unix, 1),
                )
                for item in resumed["slowest"]
            ],
            "load_average_1_5_15": {
                "start": load_start,
                "end": [round(x, 2) for x in os.getloadavg()],
            },
            "load_average_1min_highest": round(max(loads, default=0.0), 2),
            "turn_timeouts": timeout_report(tmp / "logs"),
            "sigterm_exit_s": summary(stop_times),
            "sigterm_exit_statuses": [status for _, status in stops],
            "topology": "gunicorn (2 x 48 gthread) + redis-server + separate arena worker processes",
            "settings": {
                "reconcile_s": reconcile_s,
                "worker_lease_s": lease_s,
                "kill_every_s": list(kill_every),
                "turn_timeout_s": turn_timeout_s,
                "seed": seed,
            },
        }
    finally:
        pool.stop()
        api_server.stop()
        server.stop()


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); prints the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--kill-every", type=float, nargs=2, default=(2.0, 5.0), metavar=("MIN_S", "MAX_S")
    )
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reconcile-s", type=float, default=2.0)
    parser.add_argument("--lease-s", type=float, default=3.0)
    parser.add_argument("--turn-timeout", type=float, default=1.0)
    parser.add_argument(
        "--timed-every",
        type=int,
        default=8,
        help="every Nth match is a timed one (human seat + bot)",
    )
    args = parser.parse_args(argv)
    figures = run_worker_kill(
        args.matches,
        args.workers,
        tuple(args.kill_every),
        args.timeout,
        args.seed,
        timed_every=args.timed_every,
        turn_timeout_s=args.turn_timeout,
        reconcile_s=args.reconcile_s,
        lease_s=args.lease_s,
    )
    ok = (
        figures["finished"] == figures["matches"] == figures["verified"]
        and figures["duplicate_decisions"] == 0
        and all(status == 0 for status in figures["sigterm_exit_statuses"])
    )
    report(
        "fault_worker_kill",
        "resume_p99_per_kill",
        figures["resume_per_kill_s"]["p99"],
        "s",
        "<=",
        10.0,
        all_finished_verified_no_duplicates=ok,
        **figures,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
