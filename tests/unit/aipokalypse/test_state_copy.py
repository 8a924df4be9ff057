"""``state.dump_state`` (the copy every ``decide`` makes) is exactly a JSON round trip:
on states of random matches of 2-8 seats, and on values a round trip changes (tuples,
non-string keys) or refuses."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domain.engine import Setup, fold
from domain.games.aipokalypse import ENGINE as E
from domain.games.aipokalypse.state import dump_state


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 8), seed=st.integers(0, 2 ** 32 - 1))
def test_dump_state_equals_a_json_round_trip_on_match_states(seats, seed):
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, {})), rng))
    for _ in range(60):
        if E.result(state) is not None:
            break
        copy = dump_state(state)
        assert copy == json.loads(json.dumps(state))
        assert copy is not state and copy["players"][0] is not state["players"][0]
        seat = min(E.pending(state))
        state = fold(E, E.decide(state, seat, E.bots["random"].choose(state, seat, rng), rng),
                     state)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3)
                    | st.floats(allow_nan=False),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=2) | st.integers(0, 3), inner, max_size=3),
                    max_leaves=12))
def test_dump_state_is_a_json_round_trip_for_any_json_like_value(value):
    assert dump_state({"v": value}) == json.loads(json.dumps({"v": value}))


def test_dump_state_refuses_what_json_refuses():
    with pytest.raises(TypeError):
        dump_state({"v": {1, 2}})
