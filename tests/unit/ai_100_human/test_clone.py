"""Property tests of ``state.clone`` (copy what changes): on seeded random playouts of every
mode (solo, 2-player, 3-5 seats; some seats resign), ``decide`` gives the very events it
gives on a deep copy of the state, never changes the state it is given, and the copy it
folds into ends where folding the same events into a deep copy ends; the engine's
``copy_state`` (what an append folds into) is an exact, independent copy."""

from __future__ import annotations

import random

import pytest

from domain.engine import Setup, fold
from domain.games.ai_100_human import rules
from domain.games.ai_100_human.state import (
    MatchState,
    SeatState,
    _copy_json,
    clone,
    dump_state,
    load_state,
)
from tests.support import depth

from .test_flow_support import E


def deep_clone(state: MatchState) -> MatchState:
    """The former ``clone``: every field copied all the way down (the reference)."""
    seats = [
        SeatState(
            **{k: _copy_json(v) for k, v in s.__dict__.items() if k != "tableau"},
            tableau=dict(s.tableau),
        )
        for s in state.seats
    ]
    fields = {k: _copy_json(v) for k, v in state.__dict__.items()}
    fields.update(seats=seats, neutral=dict(state.neutral), grid=dict(state.grid))
    return MatchState(**fields)


def _everything(state: MatchState) -> str:
    """The whole state as text, ``resigned`` included (what a change anywhere shows)."""
    return repr(dump_state(state))


def _decide_with(clone_fn, state, seat, command, seed):
    original = rules.clone
    rules.clone = clone_fn
    try:
        return [e.to_dict() for e in E.decide(state, seat, command, random.Random(seed))]
    finally:
        rules.clone = original


@pytest.mark.parametrize(
    ("seats", "options"),
    [(1, {}), (2, {}), (3, {"objectives": "starter"}), (4, {}), (5, {"objectives": "random"})],
)
@pytest.mark.parametrize("seed", range(depth.examples(3)))
def test_decide_on_the_partial_copy_is_decide_on_a_deep_copy(seats, options, seed):
    rng = random.Random(f"clone:{seats}:{seed}")
    state = fold(E, E.new_match(Setup(seats, options), rng))
    steps = 0
    while E.result(state) is None and steps < 2000:
        pending = sorted(E.pending(state))
        seat = rng.choice(pending)
        if seats > 2 and rng.random() < 0.002 and seat not in E.resigned(state):
            command = {"type": "resign"}
        else:
            command = rng.choice(E.legal_actions(state, seat))
        before = _everything(state)
        step_seed = rng.getrandbits(64)
        got = _decide_with(clone, state, seat, command, step_seed)
        assert _everything(state) == before  # decide never changes its input
        assert got == _decide_with(deep_clone, state, seat, command, step_seed)
        assert _everything(state) == before
        # the copy decide folds into is independent of the state it came from
        copy = clone(state)
        deep = deep_clone(state)
        new_events = E.decide(state, seat, command, random.Random(step_seed))
        assert _everything(fold(E, new_events, copy)) == _everything(fold(E, new_events, deep))
        assert _everything(state) == before
        # the engine's copy_state hook (what an append folds into) is the whole state,
        # resigned seats included, and leaves the state it copied as it was
        exact = fold(E, new_events, E.copy_state(state))
        assert _everything(state) == before
        assert _everything(exact) == _everything(fold(E, new_events, load_state(dump_state(state))))
        state = fold(E, new_events, state)
        steps += 1
    assert E.result(state) is not None
