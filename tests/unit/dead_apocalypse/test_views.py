"""Hidden information: hands private, deck and stack order hidden from everyone."""

from __future__ import annotations

import json
import random

from domain.engine import Setup, fold
from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table


def test_views_show_own_hand_only_and_never_an_order():
    events = E.new_match(Setup(3, E.validate_options(3, {})), random.Random(5))
    state = fold(E, events)
    for viewer in (0, 1, 2, None):
        v = E.view(state, viewer)
        text = json.dumps(v)
        for seat in range(3):
            hand = state.seats[seat].hand
            if seat == viewer:
                assert v["seats"][seat]["hand"] == hand
            else:
                assert "hand" not in v["seats"][seat] and v["seats"][seat]["hand_count"] == 5
            for card in state.seats[seat].deck:
                assert card not in text
        for card in state.resource_stack + state.zombie_stack:
            assert card not in text


def test_redacted_setup_events_carry_counts_only():
    events = E.new_match(Setup(2, E.validate_options(2, {})), random.Random(6))
    state = fold(E, events)
    for viewer in (0, 1, None):
        for e in events:
            data = E.redact(e, viewer, state)
            if e.type in ("DeckShuffled", "ZombieStackFormed", "ResourceStackFormed"):
                assert "order" not in data and data["count"] > 0
            if e.type == "CardsDrawn":
                if viewer == e.data["seat"]:
                    assert data["cards"] == e.data["cards"]
                else:
                    assert "cards" not in data and data["count"] == 5


def test_a_reshuffle_is_redacted_even_for_its_owner():
    state = table(hands={0: ["scout#1"]}, decks={0: []}, discards={0: ["soldier#2", "radio#2"]})
    events, _ = act(state, 0, {"type": "play", "card": "scout#1"})
    shuffle = next(e for e in events if e.type == "DeckShuffled")
    assert E.redact(shuffle, 0) == {"seat": 0, "reason": "reshuffle", "count": 2}


def test_public_table_is_visible_to_spectators():
    state = table(seats=2, attackers=[1])
    v = E.view(state, None)
    assert v["zombie_row"][1]["attacking"] is True and v["zombie_row"][0]["hp"] == 1
    assert v["resource_row"][0]["title"] == "Shotgun" and v["resource_stack_count"] == 8
    assert v["pending"] == {"0": "turn"}


def test_a_view_copies_the_open_prompt_and_the_pool_deeply():
    """A reward prompt's ``queue`` and a conditional pool entry's ``cond`` are lists/dicts
    inside the state: the view must not hand them out (a client editing its view would
    edit the fold)."""
    state = table(seats=3)
    state.prompt = {"kind": "reward", "seat": 1, "column": 1, "queue": [2], "taken": False}
    state.damage = [
        {
            "seat": 0,
            "source": "machete#2",
            "title": "Machete",
            "kind": "equipment",
            "faction": "Armory",
            "amount": 2,
            "ally": False,
            "spent": 0,
            "cond": {"op": "damage_if", "amount": 1, "match": {"faction": "Armory"}},
        }
    ]
    v = E.view(state, None)
    assert v["prompt"] == state.prompt and v["prompt"]["queue"] is not state.prompt["queue"]
    assert v["damage"][0]["cond"] is not state.damage[0]["cond"]
