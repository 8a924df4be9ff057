"""Play one all-bot match through the domain only (no Redis, no HTTP).

Used by ``arena simulate`` and the benchmarks. The loop is the decider contract of
``domain/engine.py`` run by hand: ``new_match`` with ``derive_rng(seed, 0)``, then, while
``result`` is ``None``, the lowest pending seat's bot picks a command from what it may see
and ``decide`` (with ``derive_rng(seed, version)``, ``version`` = events so far) produces the
events that ``evolve`` folds. Simultaneous steps (several pending seats) are resolved one
seat at a time in seat order, exactly as separate HTTP commands would be.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.engine import Engine, Event, Setup, build_bot, derive_rng, fold
from service.log.codec import bot_rng  # the service's bot-turn RNG, re-exported here


@dataclass(frozen=True, slots=True)
class BotMatch:
    """A finished bot match.

    Attributes:
        events: every event in stream order (``len(events)`` is the final version).
        state: the folded final state.
        result: ``engine.result(state)`` (``{"scores", "ranking", "winners"}``).
        decisions: number of commands decided.
        seconds: wall-clock time of the whole match (set-up, bots, decide, fold).
    """

    events: list[Event]
    state: Any
    result: dict[str, Any]
    decisions: int
    seconds: float


def match_seed(base: str | int | None, index: int) -> bytes:
    """The 32-byte secret seed of match ``index`` of a run seeded with ``base``.

    ``None`` draws a fresh random seed; otherwise ``SHA-256("<base>:<index>")`` so the
    same ``--seed`` replays the same matches.
    """
    if base is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"{base}:{index}".encode()).digest()


def play_bot_match(
    engine: Engine,
    bots: Sequence[str],
    seed: bytes,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    decision_cpu: dict[str, list[float]] | None = None,
) -> BotMatch:
    """Play a match where seat ``i`` is driven by the bot of level ``bots[i]``, configured
    by ``bot_options[level]`` when given (:func:`domain.engine.build_bot`; one bot per level).

    ``decision_cpu``: when given, the CPU seconds (``time.process_time``) of every bot
    ``choose`` are appended to ``decision_cpu[level]`` (the list is created when missing);
    ``benchmarks/tournament.py`` reports their percentiles.

    Raises:
        KeyError: an unknown bot level.
        domain.engine.InvalidBotOptions: options a level does not take.
        ValueError: ``bot_options`` for a level no seat plays.
        domain.engine.InvalidCommand: bad options for this seat count.
        domain.engine.RuleError: a bot chose an illegal command (a bot defect).
        RuntimeError: the match stalls (no pending seat and no result) or exceeds
            ``max_decisions`` commands.
    """
    unused = set(bot_options or {}) - set(bots)
    if unused:
        raise ValueError(f"bot options for level(s) no seat plays: {sorted(unused)}")
    built = {
        level: build_bot(engine, level, (bot_options or {}).get(level))
        for level in dict.fromkeys(bots)
    }
    policies = [built[level] for level in bots]
    started = time.perf_counter()
    normalised = engine.validate_options(len(bots), dict(options or {}))
    events = list(engine.new_match(Setup(seats=len(bots), options=normalised), derive_rng(seed, 0)))
    state = fold(engine, events)
    decisions = 0
    while (result := engine.result(state)) is None:
        pending = engine.pending(state)
        if not pending:
            raise RuntimeError(f"match stalled at version {len(events)}: nobody is pending")
        if decisions >= max_decisions:
            raise RuntimeError(f"match exceeded {max_decisions} decisions")
        seat = min(pending)
        version = len(events)
        if decision_cpu is None:
            command = policies[seat].choose(state, seat, bot_rng(seed, version, seat))
        else:
            cpu = time.process_time()
            command = policies[seat].choose(state, seat, bot_rng(seed, version, seat))
            decision_cpu.setdefault(bots[seat], []).append(time.process_time() - cpu)
        produced = engine.decide(state, seat, command, derive_rng(seed, version))
        state = fold(engine, produced, state)
        events.extend(produced)
        decisions += 1
    return BotMatch(
        events=events,
        state=state,
        result=result,
        decisions=decisions,
        seconds=time.perf_counter() - started,
    )
