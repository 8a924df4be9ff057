"""Game Setup and each step of the Turn Sequence, with concrete cards."""

from __future__ import annotations

import random
from collections import Counter

from domain.engine import Setup, fold
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.cards import catalogue

from .support import act, of, table, total_damage, types


def setup(seats=1, options=None, seed=3):
    events = E.new_match(
        Setup(seats, E.validate_options(seats, options or {})), random.Random(seed)
    )
    return events, fold(E, events)


def test_setup_deals_personal_decks_of_10_and_hands_of_5():
    events, state = setup(seats=2)
    shuffles = of(events, "DeckShuffled")
    assert len(shuffles) == 2
    for s in shuffles:
        assert Counter(c.split("#")[0] for c in s["order"]) == {
            "survivor": 7,
            "base-camp": 1,
            "weapons-cache": 1,
            "medicine-cabinet": 1,
        }
    for seat in state.seats:
        assert len(seat.hand) == 5 and len(seat.deck) == 5


def test_setup_puts_the_cdc_in_the_bottom_10_and_shuffles_events_with_zombies():
    for seed in range(20):
        events, _ = setup(seed=seed)
        order = of(events, "ZombieStackFormed")[0]["order"]
        assert len(order) == len(catalogue().stack_instances("zombie"))
        assert order.index("cdc#1") >= len(order) - 11
        assert any(c.startswith("night-hunt") for c in order)


def test_easier_game_removes_every_event():
    events, _ = setup(options={"difficulty": "easier"})
    order = of(events, "ZombieStackFormed")[0]["order"]
    assert not [c for c in order if catalogue().of(c).kind == "event"]


def test_first_turn_refills_both_rows_to_five():
    events, state = setup()
    assert types(events).count("ResourceRevealed") == 5
    assert all(z is not None and catalogue().of(z).kind == "zombie" for z in state.zombie_row)
    assert all(r is not None for r in state.resource_row)
    assert state.turn == 1 and E.pending(state) == {state.first_seat: "turn"}


def test_zombie_row_refill_sets_events_aside_and_their_faction_attacks():
    state = table(
        zombie_row=[None, "shambler#1", "bloater#1", None, "sprinter#1"],
        zombie_stack=[
            "night-hunt#1",
            "pack-hunter#1",
            "horde-surge#1",
            "rotting-walker#1",
            "brute#1",
        ],
        hands={0: []},
        decks={0: [f"survivor#s0.{k}" for k in range(1, 8)]},
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "EventRevealed") == [
        {"card": "night-hunt#1", "faction": "Runner"},
        {"card": "horde-surge#1", "faction": "Walker"},
    ]
    assert state.zombie_row == [
        "pack-hunter#1",
        "shambler#1",
        "bloater#1",
        "rotting-walker#1",
        "sprinter#1",
    ]
    # Walkers (shambler, rotting walker) and Runners (pack hunter, sprinter) attack; the Bloater does not.
    assert state.attackers == [0, 1, 3, 4]
    # Pack Hunter: "When it attacks: the active player gains an Infection".
    assert of(events, "InfectionGained") == [{"seat": 0, "card": "infection#1"}]
    assert state.events_aside == ["night-hunt#1", "horde-surge#1"]


def test_cdc_replaces_the_resource_of_its_column_and_the_zombie_place_is_refilled():
    state = table(
        zombie_row=["shambler#1", None, "crawler#1", "sprinter#1", "ghoul#1"],
        zombie_stack=["cdc#1", "brute#1"],
        hands={0: []},
        decks={0: [f"survivor#s0.{k}" for k in range(1, 6)]},
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "CdcRevealed") == [{"column": 1, "card": "cdc#1", "ditched": "soldier#1"}]
    assert state.resource_row[1] == "cdc#1" and state.zombie_row[1] == "brute#1"
    assert "soldier#1" in state.ditch


def test_empty_zombie_stack_is_reformed_from_defeated_zombies_in_the_ditch_pile():
    state = table(
        zombie_row=[None, "shambler#2", "crawler#1", "sprinter#1", "ghoul#1"],
        zombie_stack=[],
        ditch=["shambler#1", "soldier#3"],
        hands={0: []},
        decks={0: ["survivor#s0.1"] * 0},
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "ZombieStackReformed") == [{"stack": "zombie", "order": ["shambler#1"]}]
    assert state.zombie_row[0] == "shambler#1" and state.ditch == ["soldier#3"] + state.ditch[1:]


def test_occupy_turns_the_human_sideways_then_it_stands_up_and_attacks_next_turn():
    state = table(
        hands={0: ["soldier#2", "survivor#s0.1"]},
        decks={0: [f"survivor#s0.{k}" for k in range(2, 8)]},
    )
    state.seats[0].locations = [{"card": "base-camp#s0.1", "occupants": []}]
    events, state = act(
        state, 0, {"type": "occupy", "card": "soldier#2", "location": "base-camp#s0.1"}
    )
    assert types(events) == ["HumanOccupied"] and total_damage(state) == 0
    assert state.seats[0].locations[0]["occupants"] == [{"card": "soldier#2", "upright": False}]
    events, state = act(state, 0, {"type": "end_turn"})
    assert "HumansStoodUp" in types(events)
    assert state.seats[0].locations[0]["occupants"] == [{"card": "soldier#2", "upright": True}]
    # The occupant's types/factions are ignored: the damage comes from the Location.
    assert [(d["source"], d["kind"], d["amount"]) for d in state.damage] == [
        ("base-camp#s0.1", "location", 3)
    ]


def test_occupancy_limits_the_humans_beneath_a_location():
    state = table(hands={0: ["soldier#2", "survivor#s0.1"]})
    state.seats[0].locations = [
        {"card": "gun-shop#1", "occupants": [{"card": "soldier#1", "upright": True}]}
    ]
    assert not [a for a in E.legal_actions(state, 0) if a["type"] == "occupy"]


def test_undefeated_attacker_ditches_its_column_resource_and_the_stack_top_then_refills():
    state = table(
        attackers=[3],
        hands={0: []},
        decks={0: [f"survivor#s0.{k}" for k in range(1, 8)]},
        resource_stack=["scout#1", "scout#2", "scout#3", "radio#2"],
    )
    state.defeated = 1  # no "turn without kills" Ditch
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "ResourceRowDitched") == [{"column": 3, "card": "nurse#1"}]
    assert of(events, "ResourceStackDitched") == [{"cards": ["scout#1"]}]
    assert of(events, "ResourceRevealed")[0] == {"column": 3, "card": "scout#2"}


def test_harder_rule_ditches_half_the_hp_rounded_up():
    state = table(
        attackers=[0],
        zombie_row=["feral-runner#1", None, None, None, None],
        zombie_stack=["shambler#1", "shambler#2", "crawler#1", "crawler#2"],
        options={"attack_ditch_half_hp": True},
        hands={0: []},
        resource_stack=[f"scout#{k}" for k in range(1, 4)] + [f"radio#{k}" for k in range(1, 4)],
    )
    state.defeated = 1
    events, _ = act(state, 0, {"type": "end_turn"})
    hp = catalogue().of("feral-runner#1").hp
    assert len(of(events, "ResourceStackDitched")) == -(-hp // 2)


def test_undefeated_attacker_never_ditches_the_cdc():
    state = table(
        attackers=[1],
        resource_row=["shotgun#1", "cdc#1", "radio#1", "nurse#1", "machete#1"],
        hands={0: []},
    )
    state.defeated = 1
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "ResourceRowDitched") == [] and state.resource_row[1] == "cdc#1"


def test_turn_without_kills_ditches_one_card_per_player():
    state = table(
        seats=3, resource_stack=[f"scout#{k}" for k in range(1, 4)] + ["radio#2", "radio#3"]
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert [e["cards"] for e in of(events, "ResourceStackDitched")] == [
        ["scout#1"],
        ["scout#2"],
        ["scout#3"],
    ]
    assert state.active == 1  # play passes to the left


def test_harder_no_kill_rule_ditches_two_or_three_per_player():
    state = table(
        seats=2,
        options={"no_kill_ditch": 3},
        resource_stack=[f"scout#{k}" for k in range(1, 4)]
        + [f"radio#{k}" for k in range(1, 4)]
        + ["soldier#2"],
    )
    events, _ = act(state, 0, {"type": "end_turn"})
    assert len(of(events, "ResourceStackDitched")) == 6


def test_easy_game_ditches_nothing():
    state = table(attackers=[0], options={"difficulty": "easy"}, hands={0: []})
    events, _ = act(state, 0, {"type": "end_turn"})
    assert not of(events, "ResourceStackDitched") and not of(events, "ResourceRowDitched")


def test_end_of_turn_discards_hand_and_played_cards_keeps_locations_and_draws_five():
    state = table(
        hands={0: ["survivor#s0.1", "infection#1", "base-camp#s0.1"]},
        decks={0: ["survivor#s0.2", "survivor#s0.3"]},
        discards={0: ["radio#2", "soldier#2", "scout#1"]},
    )
    _, state = act(state, 0, {"type": "play", "card": "survivor#s0.1"})
    _, state = act(state, 0, {"type": "play", "card": "base-camp#s0.1"})
    state.defeated = 1
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "TurnEnded")[0]["discarded"] == ["survivor#s0.1"]  # the Infection stays
    me = state.seats[0]
    assert (
        len(me.hand) == 1 + 5
        and me.hand[0] == "infection#1"
        and me.played == []
        and me.discard == []
    )
    assert me.locations == [{"card": "base-camp#s0.1", "occupants": []}]
    assert "base-camp#s0.1" not in me.hand + me.deck  # cards in play are not reshuffled


def test_events_set_aside_go_to_the_ditch_pile_at_the_end_of_the_turn():
    state = table(events_aside=["stampede#1"], hands={0: []})
    state.defeated = 1
    events, state = act(state, 0, {"type": "end_turn"})
    assert (
        of(events, "EventsDitched") == [{"cards": ["stampede#1"]}] and "stampede#1" in state.ditch
    )


def test_the_game_is_lost_when_the_resource_stack_is_needed_and_empty():
    state = table(seats=2, resource_stack=["scout#1"])
    events, state = act(state, 0, {"type": "end_turn"})
    assert types(events)[-1] == "MatchEnded"
    assert E.result(state) == {
        "outcome": "lost",
        "reason": "resource_stack_empty",
        "scores": [0, 0],
        "ranking": [{"seat": 0, "score": 0, "rank": 1}, {"seat": 1, "score": 0, "rank": 1}],
        "winners": [],
    }
    assert E.pending(state) == {}


def test_easiest_game_reforms_the_resource_stack_without_zombies():
    state = table(
        resource_row=[None, "soldier#1", "radio#1", "nurse#1", "machete#1"],
        resource_stack=[],
        options={"difficulty": "easiest"},
        ditch=["shambler#3", "soldier#3", "radio#3"],
        hands={0: []},
    )
    state.defeated = 1
    events, state = act(state, 0, {"type": "end_turn"})
    reform = of(events, "ResourceStackReformed")[0]
    assert sorted(reform["order"]) == ["radio#3", "soldier#3"]
    assert E.result(state) is None and state.ditch[0] == "shambler#3"


def test_turn_limit_ends_a_stalled_match_as_a_loss():
    state = table(options={"difficulty": "easy", "turn_limit": 20}, hands={0: []})
    state.turn = 20
    events, state = act(state, 0, {"type": "end_turn"})
    assert E.result(state)["reason"] == "turn_limit" and "TurnStarted" not in types(events)
