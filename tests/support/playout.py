"""A bot playout through the domain only, checking the engine contract at every decision
(the property tests of a game's modes share it)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection
from typing import Any

from domain.engine import Event, Setup, fold


def checked_playout(
    engine: Any,
    seats: int,
    seed: int,
    greedy_seats: Collection[int],
    zones: Callable[[Any], list[str]],
    *,
    max_decisions: int,
    every_legal_accepted: bool = False,
    options: dict | None = None,
    strong: str = "greedy",
    conserved: bool = False,
    one_at_a_time: bool = False,
) -> tuple[Any, list[Event]]:
    """Play one match of ``engine`` with ``options`` (default: the defaults) from
    ``Random(seed)``: a pending seat drawn at random decides with the ``strong`` bot level
    (seats in ``greedy_seats``) or the ``random`` one, until the match has a result.

    At every decision it asserts that a running match has a pending seat, the bot's
    command is one of ``legal_actions``, a snapshot restored from JSON dumps the same and
    decides exactly like the live state, the events are JSON, and no card is in two places
    (``zones(state)`` lists every card where it lies); with ``conserved`` also that no
    card appears or vanishes (the zones hold the same cards as at set-up); with
    ``every_legal_accepted`` that another random legal action is accepted; with
    ``one_at_a_time`` that exactly one seat is pending at a time. Fails after
    ``max_decisions`` decisions. At the end, folding every event from scratch gives the
    live state.

    Returns ``(final state, every event from set-up on)``.
    """
    rng = random.Random(seed)
    events = engine.new_match(
        Setup(seats, engine.validate_options(seats, dict(options or {}))), rng
    )
    live = fold(engine, events)
    expected = sorted(zones(live))
    assert len(expected) == len(set(expected)), "a card is in two places at set-up"
    decisions = 0
    while engine.result(live) is None:
        pending = engine.pending(live)
        assert pending, "a running match always has a seat to act"
        assert not one_at_a_time or len(pending) == 1, "one seat decides at a time"
        seat = rng.choice(sorted(pending))
        level = strong if seat in greedy_seats else "random"
        command = engine.bots[level].choose(live, seat, rng)
        assert command in engine.legal_actions(live, seat)
        # A snapshot restored from JSON decides exactly like the live state.
        restored = engine.load_state(json.loads(json.dumps(engine.dump_state(live))))
        assert engine.dump_state(restored) == engine.dump_state(live)
        state_seed = rng.getrandbits(64)
        new = engine.decide(live, seat, command, random.Random(state_seed))
        assert new == engine.decide(restored, seat, command, random.Random(state_seed))
        if every_legal_accepted:
            other = rng.choice(engine.legal_actions(live, seat))
            assert engine.decide(live, seat, other, random.Random(0))
        for event in new:
            live = engine.evolve(live, event)
            json.dumps(event.to_dict())  # events are JSON
        events += new
        decisions += 1
        cards = zones(live)
        assert len(cards) == len(set(cards)), "a card is in two places"
        if conserved:
            assert sorted(cards) == expected, "a card appeared, vanished or was duplicated"
        assert decisions < max_decisions
    assert engine.dump_state(fold(engine, events)) == engine.dump_state(live)
    return live, events
