"""Where the server CPU of one move goes: a single-process replay of bench_http's request mix.

Usage: python benchmarks/profile_action_path.py [--redis-url redis://127.0.0.1:6379/14]
       [--game ai-100-human] [--moves 400] [--top 25]

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
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import time
import uuid
from typing import Any

import _common  # noqa: F401  (import path)
from _common import DEFAULT_BENCH_REDIS_URL, bench_prefix, cleanup_prefix

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
    args = parser.parse_args(argv)
    prefix = bench_prefix("profile")
    os.environ.update(
        {"REDIS_URL": args.redis_url, "ARENA_KEY_PREFIX": prefix, "ARENA_RATE_LIMITS_ENABLED": "0"}
    )
    from api.app import create_app

    client = Spread([create_app().test_client() for _ in range(args.workers)], random.Random(5))
    try:
        play(client, args.game, 20, random.Random(1), args.seats)  # warm-up: imports, caches
        profiler = cProfile.Profile(time.process_time)
        cpu0 = time.process_time()
        if not args.plain:
            profiler.enable()
        counts = play(client, args.game, args.moves, random.Random(2), args.seats)
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
