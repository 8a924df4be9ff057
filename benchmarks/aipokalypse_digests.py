"""A.I.Pokalypse behaviour digests: seeded bot matches through the domain, one digest per match,
to show that a refactoring (an import layering, the state's representation) changes nothing.

Usage: python benchmarks/aipokalypse_digests.py --write before.json [--matches 3]
       python benchmarks/aipokalypse_digests.py --check before.json

Every configuration (2-8 seats incl. the 5-8 Player Variant, Expert Variant, Force the Luck,
solo and co-op against each A.I.Toma difficulty, the bot levels tactician, random, idle and
toma_hunter) plays ``--matches`` matches seeded ``SHA-256("digest:<config>:<i>")``, the
lowest pending seat's bot choosing (as ``aipokalypse_sim.play_bot_match``). A match's digest
(SHA-256, 16 hex) covers: every event; after every event its redacted type and data for the
spectator and every seat; every 7th decision and at the end every viewer's ``view``, every
seat's ``legal_actions``, ``pending`` and ``result``. The state itself is not in that digest
(its layout may change), only what the engine shows; a snapshot must round-trip
(``load_state(dump_state(s))`` gives the same views and the same dump). ``"state"`` is a
second digest: the exact JSON text (key order included) of ``dump_state`` after every
decision, so a change of the in-memory representation that must keep the snapshot and
fold-cache format byte-identical is checked too. ``--check`` prints the metric: the
share of matches whose digests equal the recorded ones (target 1.0).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import _common  # noqa: F401  (import path)
from _common import report

from domain.engine import Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE

MAX_DECISIONS = 20_000

CONFIGS: list[tuple[str, list[str], dict[str, Any]]] = [
    ("plain2", ["tactician", "random"], {}),
    ("plain3", ["random", "tactician", "idle"], {}),
    ("plain4", ["tactician", "random", "random", "tactician"], {}),
    ("variant6", ["random", "tactician", "random", "random", "tactician", "random"], {}),
    ("variant8", ["random"] * 7 + ["tactician"], {}),
    ("expert4", ["tactician", "random", "tactician", "random"], {"expert": True}),
    ("luck3", ["random", "tactician", "random"], {"force_the_luck": True}),
    *[
        (f"solo-{d}", ["toma_hunter"], {"mode": "solo", "difficulty": d})
        for d in ("handy_man", "boss", "endboss", "untamed")
    ],
    *[
        (f"solo-random-{d}", ["random"], {"mode": "solo", "difficulty": d})
        for d in ("handy_man", "untamed")
    ],
    *[
        (f"coop-{d}", ["tactician", "random"], {"mode": "coop", "difficulty": d})
        for d in ("handy_man", "boss", "endboss", "untamed")
    ],
]


def _h(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def match_digest(name: str, bots: list[str], options: dict[str, Any], index: int) -> dict[str, Any]:
    """``{"digest", "state", "events", "decisions", "result"}`` of match ``index`` of configuration
    ``name`` (see module doc). Raises RuntimeError when the match does not finish, and
    AssertionError when a snapshot does not round-trip."""
    seed = hashlib.sha256(f"digest:{name}:{index}".encode()).digest()
    options = ENGINE.validate_options(len(bots), options)
    events = ENGINE.new_match(Setup(len(bots), options), derive_rng(seed, 0))
    state = fold(ENGINE, events)
    bot_rng = random.Random(seed)
    viewers: list[int | None] = [None, *range(len(bots))]
    parts: list[str] = [_h([e.to_dict() for e in events])]

    def shown() -> str:
        return _h(
            [
                [ENGINE.view(state, v), ENGINE.legal_actions(state, v) if v is not None else None]
                for v in viewers
            ]
            + [ENGINE.pending(state), ENGINE.result(state)]
        )

    def dumped() -> str:
        return hashlib.sha256(json.dumps(ENGINE.dump_state(state)).encode()).hexdigest()[:16]

    dumps: list[str] = [dumped()]
    decisions = 0
    while ENGINE.result(state) is None:
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"{name}:{index} did not finish in {MAX_DECISIONS} decisions")
        seat = min(ENGINE.pending(state))
        command = ENGINE.bots[bots[seat]].choose(state, seat, bot_rng)
        new = ENGINE.decide(state, seat, command, derive_rng(seed, len(events)))
        for event in new:
            state = ENGINE.evolve(state, event)
            parts.append(
                _h(
                    [event.to_dict()]
                    + [
                        [ENGINE.redact_type(event, v, state), ENGINE.redact(event, v, state)]
                        for v in viewers
                    ]
                )
            )
        events = events + new
        decisions += 1
        dumps.append(dumped())
        if decisions % 7 == 0:
            parts.append(shown())
    parts.append(shown())
    again = ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))))
    assert all(ENGINE.view(again, v) == ENGINE.view(state, v) for v in viewers), f"{name}:{index}"
    assert json.dumps(ENGINE.dump_state(again)) == json.dumps(ENGINE.dump_state(state)), (
        f"{name}:{index}"
    )
    return {
        "digest": _h(parts),
        "state": _h(dumps),
        "events": len(events),
        "decisions": decisions,
        "result": ENGINE.result(state),
    }


def digests(matches: int) -> dict[str, dict[str, Any]]:
    """``"<config>:<i>"`` -> :func:`match_digest` for every configuration and index."""
    return {
        f"{name}:{i}": match_digest(name, bots, options, i)
        for name, bots, options in CONFIGS
        for i in range(matches)
    }


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``; write or check the digests; print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", metavar="FILE")
    what.add_argument("--check", metavar="FILE")
    args = parser.parse_args(argv)
    if args.write:
        found = digests(args.matches)
        with open(args.write, "w", encoding="utf-8") as out:
            json.dump({"matches": args.matches, "digests": found}, out, indent=1, sort_keys=True)
        return report(
            "aipokalypse_digests",
            "matches_recorded",
            len(found),
            "matches",
            ">=",
            1,
            file=args.write,
            events=sum(d["events"] for d in found.values()),
        )
    with open(args.check, encoding="utf-8") as inp:
        recorded = json.load(inp)
    found = digests(recorded["matches"])
    differ = sorted(k for k in recorded["digests"] if recorded["digests"][k] != found.get(k))
    share = 1 - len(differ) / max(1, len(recorded["digests"]))
    return report(
        "aipokalypse_digests",
        "matches_identical",
        share,
        "share",
        ">=",
        1.0,
        file=args.check,
        matches=len(found),
        differ=differ,
        events=sum(d["events"] for d in found.values()),
    )


if __name__ == "__main__":
    main()
