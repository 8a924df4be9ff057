"""Finished matches of every game and mode, exported, for the verifiers' tests.

:func:`make_exports` plays each :data:`CASES` entry through a :class:`MatchService` on
in-process fakeredis (no worker threads: bot seats are played with ``run_bot_turn``, human
seats with a bot's choice sent as the seat's own command, cause ``player``) and returns the
exports. Cases cover every game and mode, open seats joined, a timed match, a resignation,
an abandonment and a fork. ``python -m tests.support.exports DIR`` writes them as
``DIR/<case>.json`` (how ``tests/fixtures/log_v1`` was made on the main branch of
2026-12-01, before ``apocalypse-arena/log@2``).
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

#: the strongest cheap bot level per game (plays human seats too, sent as their commands)
LEVEL = {"ai-100-human": "greedy", "aipokalypse": "tactician", "dead-apocalypse": "cooperative"}

#: case name -> create arguments; ``script`` names extra steps (join, resign, abandon, fork)
CASES: dict[str, dict[str, Any]] = {
    "ai-100-human-solo": {"game": "ai-100-human", "seats": ["bot"], "options": {}},
    "ai-100-human-2p-open-timed": {
        "game": "ai-100-human",
        "seats": ["human", "open"],
        "options": {"objectives": "starter"},
        "turn_timeout_s": 300,
        "script": ["join"],
    },
    "ai-100-human-4p-resign": {
        "game": "ai-100-human",
        "seats": ["human", "bot", "bot", "bot"],
        "options": {},
        "script": ["resign"],
    },
    "ai-100-human-fork": {
        "game": "ai-100-human",
        "seats": ["bot", "human"],
        "options": {},
        "script": ["fork"],
    },
    "aipokalypse-solo": {
        "game": "aipokalypse",
        "seats": ["bot"],
        "options": {"mode": "solo", "difficulty": "handy_man"},
    },
    "aipokalypse-coop": {
        "game": "aipokalypse",
        "seats": ["bot", "human"],
        "options": {"mode": "coop"},
    },
    "aipokalypse-2p-expert": {
        "game": "aipokalypse",
        "seats": ["human", "bot"],
        "options": {"expert": True, "health_order": "chosen", "force_the_luck": True},
    },
    "aipokalypse-8p": {"game": "aipokalypse", "seats": ["bot"] * 8, "options": {}},
    "dead-apocalypse-coop": {
        "game": "dead-apocalypse",
        "seats": ["bot", "human"],
        "options": {"turn_limit": 20},
    },
    "dead-apocalypse-competitive": {
        "game": "dead-apocalypse",
        "seats": ["bot", "bot", "bot"],
        "options": {"competitive": True, "turn_limit": 20, "difficulty": "easy"},
    },
    "dead-apocalypse-abandoned": {
        "game": "dead-apocalypse",
        "seats": ["human", "bot"],
        "options": {"turn_limit": 20},
        "script": ["abandon"],
    },
    "aipokalypse-abandoned": {
        "game": "aipokalypse",
        "seats": ["human", "human"],
        "options": {},
        "script": ["abandon"],
    },
}


def new_service():
    """A MatchService on a private in-process fakeredis with the installed games."""
    from service.bootstrap import build_service
    from service.config import Config

    return build_service(
        Config(key_prefix=f"exports-{uuid.uuid4().hex[:8]}", max_bot_matches_per_client=0)
    )


def _seat(kind: str, game: str) -> dict[str, Any]:
    return {"kind": "bot", "bot": LEVEL[game]} if kind == "bot" else {"kind": kind}


def play(
    service, match_id: str, rng: random.Random, max_steps: int = 20000, stop_at: int | None = None
) -> None:
    """Play ``match_id`` until it has a result (or its version reaches ``stop_at``)."""
    for _ in range(max_steps):
        record = service._record(match_id)
        if record.finished or (stop_at is not None and record.version >= stop_at):
            return
        loaded = service._load(match_id)
        engine = loaded.engine
        pending = sorted(engine.pending(loaded.state))
        resigned = engine.resigned(loaded.state)
        seat = rng.choice(pending)
        if record.is_bot(seat) or seat in resigned:
            service.run_bot_turn(match_id, record.version, seat)
            continue
        bot = engine.bots[LEVEL[record.game]]
        command = bot.choose(loaded.state, seat, random.Random(rng.getrandbits(32)))
        service.act(match_id, seat, command)
    raise AssertionError(f"{match_id} did not finish in {max_steps} steps")


def make_export(service, name: str, case: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """Play case ``name`` to the end and return its export (the fork's for ``fork``)."""
    rng = random.Random(f"{name}:{seed}")
    game, script = case["game"], case.get("script", [])
    seats = [_seat(k, game) for k in case["seats"]]
    if seats[0]["kind"] == "human":
        seats[0]["name"] = "ann é😀"
    created = service.create_match(game, seats, dict(case["options"]), case.get("turn_timeout_s"))
    mid = created["match_id"]
    if "join" in script:
        service.join(mid, 1, "bob")
    if "resign" in script:
        play(service, mid, rng, stop_at=service._record(mid).version + 6)
        service.resign(mid, 0)
    if "abandon" in script:
        play(service, mid, rng, stop_at=service._record(mid).version + 4)
        clock = service.ctx.clock
        service.ctx.clock = lambda: clock() + timedelta(days=2)  # idle past the limit
        try:
            assert service.abandon(mid)
        finally:
            service.ctx.clock = clock
    play(service, mid, rng)
    if "fork" in script:
        log = service.export(mid)
        boundary = next(
            e["version"] - 1 for e in log["events"][len(log["events"]) // 2 :] if "command" in e
        )
        fork = service.fork(mid, boundary)["match_id"]
        play(service, fork, rng)
        return service.export(fork)
    return service.export(mid)


def make_exports(names: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Case name -> export of a finished match of that case (see :data:`CASES`)."""
    service = new_service()
    return {name: make_export(service, name, CASES[name]) for name in (names or CASES)}


def main(argv: list[str]) -> int:
    """Write every case's export to ``argv[0]/<case>.json``."""
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, doc in make_exports(argv[1:] or None).items():
        (out / f"{name}.json").write_text(
            json.dumps(doc, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(name, len(doc["events"]), "events")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
