"""How long one match-analysis slice (one RQ job) holds its worker: the longest slice's wall
clock and CPU time, and the CPU of all slices, over a window of a finished match's turns.

Usage: python benchmarks/bench_analysis_slices.py [--games ai-100-human,aipokalypse]
                                                  [--budget 512] [--from-turn 10]
                                                  [--turns 4] [--seed 1] [--logs DIR]

For each game a 2-seat match is played on an embedded service (in-process fakeredis, no
worker: each seat's command is the game's cheap bot's choice, ``greedy`` / ``tactician`` /
``cooperative``, sent as the seat's own) and its export written to ``--logs``
(``DIR/<game>.json``; an export there already is used instead of a new match: a match's
shuffles and the analysis's seed, its head hash, differ from one service to the next, so
two runs compare on the same exports). The export's analysis is requested (an upload) at
``--budget`` rollouts per decision, and the slices are run one after the other in this
process, as a worker runs the jobs (``MatchService.run_analysis`` with each queued job's arguments),
from turn ``--from-turn`` (written into the record's ``next`` first) until ``--turns``
turns are analysed. Each slice is timed by the wall clock (``time.perf_counter``) and by
the CPU time of this thread (``time.thread_time``): the CPU is what the slice costs the
worker, the wall clock how long bot turns queued behind it wait (on a busy machine it is
the larger).

``digest`` (SHA-256 of the window's decision entries, canonical JSON) names the values the
window computed: a change that only moves the slice boundaries must leave it alone. The
script uses only the service's public use cases, so the revision before a change runs it
too (extract it with ``git archive`` and run this file from there) for a before/after
comparison on the same machine state.

Target (issue 23, slices): the longest slice holds its worker at most 1.5 s of wall clock
(``SLICE_SECONDS`` = 1 s, plus the rollout under way and the slice's own reading and
folding of the log) at the server's cap of 512 rollouts per decision.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import tempfile
import time
import uuid
from pathlib import Path

import _common  # noqa: F401  (import path)
from _common import report

#: the bot whose choices the seats send, by game
LEVEL = {"ai-100-human": "greedy", "aipokalypse": "tactician", "dead-apocalypse": "cooperative"}
#: ... for a game not listed
DEFAULT_LEVEL = "random"


def finished_match(service, game: str, seed: int) -> str:
    """The id of a finished 2-seat match of ``game`` whose seats sent the :data:`LEVEL` bot's
    choices (``random.Random(seed)`` picks the seat to act and seeds each choice)."""
    mid = service.create_match(game, [{"kind": "human"}, {"kind": "human"}], {})["match_id"]
    rng = random.Random(seed)
    for _ in range(20000):
        record = service._record(mid)
        if record.finished:
            return mid
        loaded = service._load(mid)
        seat = rng.choice(sorted(loaded.engine.pending(loaded.state)))
        bot = loaded.engine.bots[LEVEL.get(game, DEFAULT_LEVEL)]
        service.act(mid, seat, bot.choose(loaded.state, seat, random.Random(rng.getrandbits(32))))
    raise RuntimeError(f"{game}: the match did not finish")


def run_window(service, log_doc: dict, budget: int, first: int, turns: int) -> dict:
    """Analyse turns ``first`` .. ``first + turns`` of the export ``log_doc`` slice by
    slice; the slices' ``{"wall_s", "cpu_s"}`` lists and the window's decisions."""
    answer, _ = service.request_log_analysis(log_doc, budget)
    aid = answer["analysis_id"]
    store, queue = service._analyses.store, service.scheduler.analysis_queue
    queue.empty()
    store.update(aid, next=first)
    jobs: list[tuple] = [(first,)]
    walls, cpus = [], []
    while jobs:
        args = jobs.pop()
        wall, cpu = time.perf_counter(), time.thread_time()
        status = service.run_analysis(aid, *args)["status"]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
        record = store.get(aid) or {}
        if status != "running" or record.get("next", 0) >= first + turns:
            break
        for job in queue.jobs:
            queue.remove(job)
            jobs.append(tuple(job.args[1:]))
    from service.usecases.analysis import turns_of

    log_turns = turns_of(log_doc)[1]
    end = log_turns[first + turns].version if first + turns < len(log_turns) else 1 << 62
    record = store.get(aid) or {}
    decisions = record.get("partial") or (record.get("result") or {}).get("decisions", [])
    window = [d for d in decisions if d["version"] < end]  # a slice may run past the window
    return {"wall_s": walls, "cpu_s": cpus, "decisions": window}


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, play and analyse each game's window, print the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="ai-100-human,aipokalypse")
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--from-turn", type=int, default=10)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", default="", help="directory of the exports (kept, reused)")
    args = parser.parse_args(argv)

    from service.bootstrap import build_service
    from service.config import Config

    service = build_service(
        Config(key_prefix=f"bench-slices-{uuid.uuid4().hex[:8]}", max_bot_matches_per_client=0)
    )
    rows = {}
    scratch = tempfile.TemporaryDirectory(prefix="bench-slices-")  # without --logs
    for game in [g for g in args.games.split(",") if g]:
        path = Path(args.logs or scratch.name) / f"{game}.json"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(service.export(finished_match(service, game, args.seed))))
        run = run_window(
            service, json.loads(path.read_text()), args.budget, args.from_turn, args.turns
        )
        text = json.dumps(run["decisions"], sort_keys=True, separators=(",", ":"))
        rows[game] = {
            "slices": len(run["wall_s"]),
            "longest_wall_s": round(max(run["wall_s"]), 3),
            "longest_cpu_s": round(max(run["cpu_s"]), 3),
            "total_cpu_s": round(sum(run["cpu_s"]), 3),
            "total_wall_s": round(sum(run["wall_s"]), 3),
            "decisions": len(run["decisions"]),
            "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
        }
    scratch.cleanup()
    longest = max(row["longest_wall_s"] for row in rows.values())
    return report(
        "bench_analysis_slices",
        "longest_slice_wall_s",
        longest,
        "s",
        "<=",
        1.5,
        budget=args.budget,
        from_turn=args.from_turn,
        turns=args.turns,
        seed=args.seed,
        games=rows,
    )


if __name__ == "__main__":
    main()
