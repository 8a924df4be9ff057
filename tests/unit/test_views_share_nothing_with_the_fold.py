"""A view (and a legal-action list) shares no mutable object with the fold it was built
from. The fold changes its state in place (``evolve``), and the service gives a folded
state back to the fold cache — where another request folds the next events into it —
before the answer built from it is serialised (the ``Prefer: return=representation``
answer, an SSE page with ``views=true``): a list or dict of the state inside a view would
show a later state than the answer's version (probe finding: A.I.Pokalypse's ``current``
battle cards, one SSE ``seat_state`` in eight)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.engine import Setup, fold
from domain.games import registry
from tests.support.game_settings import setup_id, view_setups

#: (game, seats, options): every game's view set-ups (its own ``testing.py``)
SETUPS = view_setups()


def _containers(value: Any, seen: set[int] | None = None) -> Iterator[int]:
    """ids of every mutable container reachable from ``value`` (dicts, lists, sets,
    dataclass instances and their fields)."""
    seen = set() if seen is None else seen
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list, set, bytearray)) or dataclasses.is_dataclass(node):
            if id(node) in seen:
                continue
            seen.add(id(node))
            yield id(node)
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, set, frozenset)):
            stack.extend(node)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            stack.extend(getattr(node, f.name) for f in dataclasses.fields(node))
        elif hasattr(node, "__dict__") and not isinstance(node, type):
            stack.extend(vars(node).values())


@pytest.mark.parametrize("game,seats,options", SETUPS, ids=[setup_id(*s) for s in SETUPS])
def test_no_view_or_legal_action_holds_a_piece_of_the_state(game, seats, options):
    engine = registry()[game]
    try:
        checked = engine.validate_options(seats, options)
    except Exception as exc:  # a mode this game does not have under that name
        pytest.fail(f"{game} options {options}: {exc}")
    rng = random.Random(11)
    state = fold(engine, engine.new_match(Setup(seats, checked), rng))
    checks = 0
    for step in range(4000):
        if engine.result(state) is not None:
            break
        state_ids = set(_containers(state))
        for viewer in [None, *range(seats)]:
            shared = state_ids & set(_containers(engine.view(state, viewer)))
            assert not shared, f"{game} step {step}: the view for {viewer} holds the fold's objects"
            if viewer is not None:
                shared = state_ids & set(_containers(engine.legal_actions(state, viewer)))
                assert not shared, f"{game} step {step}: seat {viewer}'s legal actions"
        checks += 1
        seat = rng.choice(sorted(engine.pending(state)))
        command = engine.bots["random"].choose(state, seat, rng)
        for event in engine.decide(state, seat, command, rng):
            state = engine.evolve(state, event)
    assert checks > 10


def test_every_game_of_the_registry_is_checked():
    assert {game for game, _, _ in SETUPS} == set(registry())
