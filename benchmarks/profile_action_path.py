"""Where the server CPU of one move goes: a single-process replay of bench_http's request mix.

Usage: python benchmarks/profile_action_path.py [--redis-url redis://127.0.0.1:6379/14]
       [--game ai-100-human] [--moves 400] [--top 25]
       [--wait-on decision|post --matches 10 --seed S [--before main --swap FILES]]

The project's WSGI app (``api.app:create_app()``, the same as under gunicorn, rate limits
off as in ``bench_http.py``) is driven in this process through Flask's test client by the
4 human seats of successive matches, round robin, as ``bench_http.py --prefer-representation``
plays them: ``POST .../actions`` with ``Prefer: return=representation``, a ``decision_id``
and an ``Idempotency-Key``, the next legal actions taken from the answer, and ``GET
.../legal-actions`` only when a seat has nothing in hand. The long-polls' waiting is left out
(it is blocked time, not CPU; its per-wake cost is one meta read). The replay runs under
cProfile; the report gives the CPU per move and its split by where the time is spent
(own time of each function, grouped by package: Flask/werkzeug, redis-py, json, marshmallow,
the game's domain code, the service, the API layer), plus the top functions.

The split is of one process with no concurrency: what a request costs, not how requests
queue. Under the benchmark's load the same code runs in 5 gunicorn workers.

``--wait-on decision|post`` plays ``--matches`` whole matches instead, each seat in its own
thread with the long-polls included: a seat with nothing in hand asks ``GET
.../legal-actions?wait=30`` (``decision``) or sends its moves as ``POST .../actions?wait=30``
(``post``), as ``peer/run.py --arena-wait-on`` does; match ``i``'s seed (normally secret
and random) is derived from ``--seed`` and ``i``, and each seat picks among its legal
actions with its own ``random.Random("<seed>:<i>:<seat>")``. The CPU per move is then
that of the whole process (every thread; a held wait blocks in ``XREAD BLOCK`` at no CPU;
cProfile sees the main thread only, so give ``--plain``).

``--before REF`` (with ``--wait-on``) is the A/B of a lever, in this process: the classes
of the ``--swap`` files play with REF's methods in one arm ("before") and this tree's in
the other ("after"), match by match: ``--matches`` pairs, both matches of a pair dealt
from the same seed, the arm that goes first alternating pair by pair (a warm-up pair
first). The report gives each arm's CPU per move, the ratio after / before of the totals
and the median and quartiles of the pairs' ratios, and each arm's Redis round trips per
move (every client of the process: a command or a pipeline).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, bench_prefix, cleanup_prefix

HERE = os.path.dirname(os.path.abspath(__file__))

#: (group name, substring of the code's file path), first match wins
GROUPS = (
    ("flask/werkzeug", "/flask/"),
    ("flask/werkzeug", "/werkzeug/"),
    ("redis-py", "/redis/"),
    ("marshmallow", "/marshmallow/"),
    ("json", "/json/"),
    ("orjson", "orjson"),
    ("fastjsonschema", "fastjsonschema"),
    ("domain/games", "/domain/games/"),
    ("domain", "/domain/"),
    ("service", "/service/"),
    ("api", "/api/"),
    ("socket/io", "socket"),
    ("hashlib/builtins", "~"),
)


#: (stage name, file path ending, function name): cumulative time of these functions
STAGES = (
    ("wsgi_app (all server work of a request)", "flask/app.py", "wsgi_app"),
    ("view POST .../actions", "api/matches.py", "act"),
    ("view GET .../legal-actions", "api/matches.py", "legal_actions"),
    ("after_request http_cache.finish (ETag, 304)", "api/http_cache.py", "finish"),
    ("require_seat (token check)", "api/auth.py", "require_seat"),
    ("command_body (parse + validate)", "api/schemas.py", "command_body"),
    ("jsonify (answer encoding)", "flask/json/__init__.py", "jsonify"),
    ("Act.act", "service/usecases/act.py", "act"),
    ("Act._append_batch", "service/usecases/act.py", "_append_batch"),
    ("seat_representation (Prefer)", "service/usecases/reads.py", "seat_representation"),
    ("Reads.legal_actions", "service/usecases/reads.py", "legal_actions"),
    ("MatchContext.head (read + fold)", "service/usecases/context.py", "head"),
    ("EventStore.append (script call)", "service/store/event_store.py", "append"),
    ("redis execute_command", "redis/client.py", "execute_command"),
    ("redis pipeline execute", "redis/client.py", "execute"),
    ("engine decide", "rules.py", "decide"),
    ("engine legal_actions", "actions.py", "legal_actions"),
    ("engine view", "views.py", "view"),
    ("engine redact", "views.py", "redact"),
    ("redact_envelopes", "service/log/envelopes.py", "redact_envelopes"),
    ("build_envelopes", "service/log/envelopes.py", "build_envelopes"),
    ("head_fields", "service/usecases/context.py", "head_fields"),
    ("AfterAppend.writes", "service/usecases/after_append.py", "writes"),
    ("decision_id (digest)", "service/usecases/decisions.py", "decision_id"),
    ("json.dumps", "json/__init__.py", "dumps"),
    ("json.loads", "json/__init__.py", "loads"),
)


def group_of(filename: str) -> str:
    """The :data:`GROUPS` name of a profiled function's file (``other`` when none)."""
    for name, needle in GROUPS:
        if needle in filename:
            return name
    return "other"


class Spread:
    """Send each request to one of several apps picked at random, as gunicorn's workers
    share a match's requests (each app has its own service and fold cache)."""

    def __init__(self, clients: list[Any], rng: random.Random):
        self.clients, self.rng = clients, rng

    def post(self, *args: Any, **kwargs: Any) -> Any:
        return self.rng.choice(self.clients).post(*args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.rng.choice(self.clients).get(*args, **kwargs)


def play(client: Any, game: str, moves: int, rng: random.Random, seats: int = 4) -> dict[str, int]:
    """Play ``moves`` accepted moves of ``seats``-human matches of ``game``; request counts."""
    counts = {"post": 0, "get_legal": 0, "create": 0, "moves": 0}
    prefer = {"Prefer": "return=representation"}
    while counts["moves"] < moves:
        created = client.post(
            "/v1/matches", json={"game": game, "seats": [{"kind": "human"}] * seats, "options": {}}
        ).get_json()
        counts["create"] += 1
        match = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        legal: dict[int, Any] = {}
        idle_round = 0
        while counts["moves"] < moves and idle_round < 2:
            acted = False
            for seat, token in tokens.items():
                auth = {"Authorization": f"Bearer {token}"}
                if not legal.get(seat, {}).get("actions"):
                    legal[seat] = client.get(
                        f"/v1/matches/{match}/legal-actions", headers=auth
                    ).get_json()
                    counts["get_legal"] += 1
                if not legal[seat]["actions"]:
                    continue
                command = dict(rng.choice(legal[seat]["actions"]))
                if legal[seat].get("decision_id") is not None:
                    command["decision_id"] = legal[seat]["decision_id"]
                else:
                    command["expected_version"] = legal[seat]["version"]
                answer = client.post(
                    f"/v1/matches/{match}/actions",
                    json=command,
                    headers={**auth, **prefer, "Idempotency-Key": uuid.uuid4().hex},
                )
                counts["post"] += 1
                body = answer.get_json()
                legal[seat] = body.get("legal_actions") or {} if answer.status_code == 200 else {}
                if answer.status_code == 200:
                    counts["moves"] += 1
                    acted = True
            idle_round = 0 if acted else idle_round + 1
    return counts


class SeededSecrets:
    """Stands in for :mod:`secrets` in ``service.usecases.create_join``: match seeds from
    ``SHA-256("<seed>:<n>")`` for the ``n``-th match created, so both arms of an A/B deal
    the same matches (a benchmark's stand-in only: a served match's seed stays secret)."""

    def __init__(self, seed: str):
        self.seed, self.created = seed, 0

    def token_bytes(self, n: int) -> bytes:
        self.created += 1
        return hashlib.sha256(f"{self.seed}:{self.created}".encode()).digest()[:n]


def _seat(
    client: Any,
    match: str,
    seat: int,
    token: str,
    rng: random.Random,
    post_wait: bool,
    counts: dict[str, int],
    lock: threading.Lock,
) -> None:
    """One seat's client until its match ended (:func:`play_waiting`)."""
    auth = {"Authorization": f"Bearer {token}"}
    prefer = {"Prefer": "return=representation"}
    seen: dict[str, int] = {}
    legal = client.get(f"/v1/matches/{match}/legal-actions", headers=auth).get_json()
    seen["get_legal"] = 1
    while legal.get("status", "running") == "running":
        if not legal.get("actions"):
            legal = client.get(
                f"/v1/matches/{match}/legal-actions?wait=30", headers=auth
            ).get_json()
            seen["get_legal_wait"] = seen.get("get_legal_wait", 0) + 1
            continue
        command = dict(rng.choice(legal["actions"]))
        if legal.get("decision_id") is not None:
            command["decision_id"] = legal["decision_id"]
        else:
            command["expected_version"] = legal["version"]
        seen["post"] = seen.get("post", 0) + 1
        answer = client.post(
            f"/v1/matches/{match}/actions" + ("?wait=30" if post_wait else ""),
            json=command,
            # not uuid4: its urandom call is client CPU the process would count
            headers={**auth, **prefer, "Idempotency-Key": f"{match}-{seat}-{seen['post']}"},
        )
        body = answer.get_json() if answer.status_code == 200 else {}
        seen["moves"] = seen.get("moves", 0) + (answer.status_code == 200)
        legal = body.get("legal_actions") or {}
        if body.get("status", "running") != "running":
            break
        if not legal:  # a refused command or an answer without one: ask again
            legal = client.get(f"/v1/matches/{match}/legal-actions", headers=auth).get_json()
            seen["get_legal"] += 1
    with lock:
        for key, value in seen.items():
            counts[key] = counts.get(key, 0) + value


def play_waiting(
    apps: list[Any], game: str, matches: int, seed: str, seats: int, wait_on: str
) -> dict[str, int]:
    """Play ``matches`` whole ``seats``-human matches of ``game``, one after another, each
    seat in its own thread on its own test client of an app picked round robin (see the
    module docstring); request and move counts."""
    counts = {"create": 0, "moves": 0}
    lock = threading.Lock()
    for i in range(matches):
        created = (
            apps[i % len(apps)]
            .test_client()
            .post(
                "/v1/matches",
                json={"game": game, "seats": [{"kind": "human"}] * seats, "options": {}},
            )
            .get_json()
        )
        counts["create"] += 1
        threads = [
            threading.Thread(
                target=_seat,
                args=(
                    apps[(i + s["seat"]) % len(apps)].test_client(),
                    created["match_id"],
                    s["seat"],
                    s["token"],
                    random.Random(f"{seed}:{i}:{s['seat']}"),
                    wait_on == "post",
                    counts,
                    lock,
                ),
            )
            for s in created["seats"]
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return counts


class Swap:
    """The ``before`` arm of an A/B in this process: the classes of git revision ``ref``'s
    version of ``files`` (module paths such as ``service/usecases/reads.py``), loaded beside
    this tree's, lend their methods to this tree's classes of the same name while the arm
    plays (:meth:`arm`). Only methods are swapped: a lever whose change lies in module-level
    functions that other modules call is not measured this way."""

    def __init__(self, ref: str, files: list[str]):
        import importlib
        import types

        self.methods: dict[str, list[tuple[type, dict[str, Any]]]] = {"before": [], "after": []}
        for path in files:
            name = path.removesuffix(".py").replace("/", ".")
            ours = importlib.import_module(name)
            source = subprocess.run(
                ["git", "-C", os.path.dirname(HERE), "show", f"{ref}:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            theirs = types.ModuleType(f"_before_{ref}_{name}".replace(".", "_"))
            sys.modules[theirs.__name__] = theirs  # dataclasses look their module up
            exec(compile(source, f"{ref}:{path}", "exec"), theirs.__dict__)
            for cls_name, cls in vars(ours).items():
                old = getattr(theirs, cls_name, None)
                if isinstance(cls, type) and cls.__module__ == name and isinstance(old, type):
                    for arm, owner in (("before", old), ("after", cls)):
                        funcs = {k: v for k, v in vars(owner).items() if callable(v)}
                        self.methods[arm].append((cls, funcs))

    def arm(self, arm: str) -> None:
        """Give the classes the methods of ``arm`` (``before``: ``ref``'s; ``after``: ours)."""
        for cls, funcs in self.methods[arm]:
            for key, func in funcs.items():
                setattr(cls, key, func)


class RoundTrips:
    """Redis round trips of the process (every client: a command sent on its own, or a
    pipeline's execution), counted per arm."""

    def __init__(self) -> None:
        import redis

        self.counts: dict[str, int] = {}
        self.arm = ""
        lock = threading.Lock()
        command, execute = redis.Redis.execute_command, redis.client.Pipeline.execute

        def count() -> None:
            with lock:
                self.counts[self.arm] = self.counts.get(self.arm, 0) + 1

        def counted_command(client, *args, **kwargs):
            count()
            return command(client, *args, **kwargs)

        def counted_execute(pipe, *args, **kwargs):
            count()
            return execute(pipe, *args, **kwargs)

        redis.Redis.execute_command = counted_command
        redis.client.Pipeline.execute = counted_execute


def ab(args: argparse.Namespace, apps: list[Any]) -> dict:
    """``--before``: pairs of matches dealt from the same seed, one per arm, the order of
    the arms alternating pair by pair (before first in even pairs); prints and returns the
    JSON report."""
    import service.usecases.create_join as create_join

    swap = Swap(args.before, [f for f in args.swap.split(",") if f])
    trips = RoundTrips()
    cpu = {"before": 0.0, "after": 0.0}
    moves = {"before": 0, "after": 0}
    ratios = []
    for pair in range(-1, args.matches):  # pair -1: a warm-up of both arms, not counted
        seed = f"{args.seed}:{pair}"
        per_move = {}
        for arm in ("before", "after") if pair % 2 == 0 else ("after", "before"):
            swap.arm(arm)
            create_join.secrets = SeededSecrets(seed)
            trips.arm = arm if pair >= 0 else ""
            cpu0 = time.process_time()
            counts = play_waiting(apps, args.game, 1, seed, args.seats, args.wait_on)
            used = time.process_time() - cpu0
            per_move[arm] = used / counts["moves"]
            if pair >= 0:
                cpu[arm] += used
                moves[arm] += counts["moves"]
        if pair >= 0:
            ratios.append(per_move["after"] / per_move["before"])
    swap.arm("after")
    body = {
        "benchmark": "profile_action_path",
        "ab": True,
        "before": args.before,
        "swapped": sorted({cls.__qualname__ for cls, _funcs in swap.methods["after"]}),
        "game": args.game,
        "seats": args.seats,
        "wait_on": args.wait_on,
        "matches_per_arm": args.matches,
        "moves": moves,
        "cpu_ms_per_move": {arm: round(1000 * cpu[arm] / moves[arm], 3) for arm in cpu},
        "ratio_after_before_total": round(
            (cpu["after"] / moves["after"]) / (cpu["before"] / moves["before"]), 3
        ),
        "ratio_after_before_pairs": {
            "median": round(statistics.median(ratios), 3),
            "quartiles": [round(q, 3) for q in statistics.quantiles(ratios, n=4)],
        },
        "redis_round_trips_per_move": {
            arm: round(trips.counts.get(arm, 0) / moves[arm], 3) for arm in moves
        },
    }
    print(json.dumps(body))
    return body


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, replay, print the JSON report (CPU per move, groups, top functions)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=DEFAULT_BENCH_REDIS_URL)
    parser.add_argument("--game", default="ai-100-human")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--seats",
        type=int,
        default=4,
        help="human seats per match (Duel, the peer benchmark's game: 2)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="apps (each its own service and fold cache) the requests are "
        "spread over at random, as over gunicorn's worker processes",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="no profiler: CPU per move and per request only (cProfile "
        "inflates call-heavy code such as deep copies several times)",
    )
    parser.add_argument(
        "--callees", default="", help="comma list of function names whose callees to print (stderr)"
    )
    parser.add_argument(
        "--wait-on",
        choices=("none", "decision", "post"),
        default="none",
        help="none: the round-robin replay of --moves moves; decision / post: --matches whole "
        "matches, a thread per seat, with GET .../legal-actions?wait= or POST .../actions?wait=",
    )
    parser.add_argument("--matches", type=int, default=10, help="matches played (--wait-on)")
    parser.add_argument(
        "--seed", default="profile", help="match seeds and seat choices (--wait-on)"
    )
    parser.add_argument(
        "--before", default="", help="A/B (with --wait-on): git revision of the other arm"
    )
    parser.add_argument(
        "--swap",
        default="service/usecases/reads.py,service/upkeep/compaction.py,"
        "service/store/compact_store.py",
        help="A/B: comma list of the files whose classes take --before's methods",
    )
    args = parser.parse_args(argv)
    if args.before and args.wait_on == "none":
        parser.error("--before plays whole matches: give --wait-on decision or post")
    prefix = bench_prefix("profile")
    os.environ.update(
        {"REDIS_URL": args.redis_url, "ARENA_KEY_PREFIX": prefix, "ARENA_RATE_LIMITS_ENABLED": "0"}
    )
    import service.usecases.create_join as create_join
    from api.app import create_app

    apps = [create_app() for _ in range(args.workers)]
    client = Spread([app.test_client() for app in apps], random.Random(5))

    def run(warm_up: bool) -> dict[str, int]:
        if args.wait_on == "none":
            moves = 20 if warm_up else args.moves
            return play(client, args.game, moves, random.Random(1 if warm_up else 2), args.seats)
        seed = f"warm-up:{args.seed}" if warm_up else args.seed
        create_join.secrets = SeededSecrets(seed)
        matches = 1 if warm_up else args.matches
        return play_waiting(apps, args.game, matches, seed, args.seats, args.wait_on)

    if args.before:
        try:
            return ab(args, apps)
        finally:
            cleanup_prefix(args.redis_url, prefix)
    try:
        run(warm_up=True)  # imports, caches
        profiler = cProfile.Profile(time.process_time)
        cpu0 = time.process_time()
        if not args.plain:
            profiler.enable()
        counts = run(warm_up=False)
        profiler.disable()
        cpu = time.process_time() - cpu0
    finally:
        cleanup_prefix(args.redis_url, prefix)
    if args.plain:
        body = {
            "benchmark": "profile_action_path",
            "profiled": False,
            "game": args.game,
            "workers": args.workers,
            "wait_on": args.wait_on,
            "cpu_ms_per_move": round(1000 * cpu / counts["moves"], 3),
            "counts": counts,
        }
        print(json.dumps(body))
        return body
    stats = pstats.Stats(profiler, stream=sys.stderr)
    for name in filter(None, args.callees.split(",")):
        stats.sort_stats("cumulative").print_callees(name)
    groups: dict[str, float] = {}
    rows = []
    for (filename, line, name), (_cc, _nc, tottime, cumtime, _callers) in stats.stats.items():
        groups[group_of(filename)] = groups.get(group_of(filename), 0.0) + tottime
        rows.append((tottime, cumtime, f"{os.path.basename(filename)}:{line}:{name}"))
    stages = {}
    for label, path_end, fn in STAGES:
        cum = sum(
            v[3]
            for (filename, _line, name), v in stats.stats.items()
            if name == fn and filename.endswith(path_end)
        )
        stages[label] = round(1000 * cum / counts["moves"], 3)
    total = sum(groups.values()) or 1e-9
    moves = counts["moves"]
    rows.sort(reverse=True)
    body = dict(
        benchmark="profile_action_path",
        cpu_ms_per_move=round(1000 * cpu / moves, 3),
        game=args.game,
        counts=counts,
        requests_per_move=round(
            (counts["post"] + counts["get_legal"] + counts["create"]) / moves, 2
        ),
        stages_cum_ms_per_move=stages,
        groups_ms_per_move={
            k: round(1000 * v / moves, 3) for k, v in sorted(groups.items(), key=lambda kv: -kv[1])
        },
        groups_share={
            k: round(v / total, 3) for k, v in sorted(groups.items(), key=lambda kv: -kv[1])
        },
        top_own_time_ms_per_move=[
            {"fn": fn, "own": round(1000 * t / moves, 3), "cum": round(1000 * c / moves, 3)}
            for t, c, fn in rows[: args.top]
        ],
    )
    print(json.dumps(body))
    return body


if __name__ == "__main__":
    main()
