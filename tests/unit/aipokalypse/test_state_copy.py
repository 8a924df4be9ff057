"""``state.dump_state`` / ``load_state`` / ``clone`` of the typed state: the dump is plain
JSON (a JSON round trip leaves it unchanged), load gives it back, ``clone`` (the copy every
``decide`` makes) equals ``load_state(dump_state(s))`` and shares nothing with its source; on
states of random matches of 2-8 seats and of solo matches (the A.I.Toma's optional keys).
The JSON copy of the records kept as dicts (``json_copy``) is exactly a JSON round trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.engine import Event, Setup, fold
from domain.games.aipokalypse import ENGINE as E
from domain.games.aipokalypse.state import clone, dump_state, json_copy, load_state


def _check(state):
    data = dump_state(state)
    text = json.dumps(data)
    assert json.loads(text) == data
    back = load_state(json.loads(text))
    assert json.dumps(dump_state(back)) == text  # byte-identical, key order included
    copy = clone(state)
    assert copy == state and json.dumps(dump_state(copy)) == text
    assert copy is not state and copy.players[0] is not state.players[0]
    assert copy.players[0].hand is not state.players[0].hand
    if state.players[0].slots:
        assert copy.players[0].slots[0] is not state.players[0].slots[0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_dump_load_and_clone_agree_on_match_states(seats, seed):
    rng = random.Random(seed)
    options = {"mode": "solo", "difficulty": "boss"} if seats == 1 else {}
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, options)), rng))
    for _ in range(60):
        if E.result(state) is not None:
            break
        _check(state)
        seat = min(E.pending(state))
        state = fold(
            E, E.decide(state, seat, E.bots["random"].choose(state, seat, rng), rng), state
        )


def test_the_optional_keys_keep_the_order_they_appeared_in():
    rng = random.Random(3)
    state = fold(E, E.new_match(Setup(3, E.validate_options(3, {})), rng))
    state = E.evolve(state, Event("SeatResigned", {"seat": 1}, 1))
    assert list(dump_state(state))[-1] == "resigned" and "table_public" not in dump_state(state)
    state.set_table_public({"discard": [], "draw": 0, "specials": 0, "ammo_deck": 0})
    assert list(dump_state(state))[-2:] == ["resigned", "table_public"]
    assert list(dump_state(load_state(dump_state(state))))[-2:] == ["resigned", "table_public"]
    assert list(dump_state(clone(state)))[-2:] == ["resigned", "table_public"]


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(max_size=3)
        | st.floats(allow_nan=False),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=2) | st.integers(0, 3), inner, max_size=3)
        ),
        max_leaves=12,
    )
)
def test_json_copy_is_a_json_round_trip_for_any_json_like_value(value):
    assert json_copy({"v": value}) == json.loads(json.dumps({"v": value}))


def test_json_copy_refuses_what_json_refuses():
    with pytest.raises(TypeError):
        json_copy({"v": {1, 2}})
