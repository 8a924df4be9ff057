"""Rulebook variants for 2-4 players: the Expert Variant (drafting the health stack) and
"Force the Luck" (the Engineer Guild on the table for everyone)."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalMove, InvalidCommand, Setup, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.actions import legal_actions, pending
from tests.unit.aipokalypse.helpers import CAT, act, types


def _start(seats=2, **options):
    events = ENGINE.new_match(
        Setup(seats, ENGINE.validate_options(seats, options)), random.Random(3)
    )
    return fold(ENGINE, events), events


def test_options_are_validated_and_defaulted():
    assert ENGINE.validate_options(2, {}) == {
        "mode": "competitive",
        "expert": False,
        "health_order": "shuffled",
        "force_the_luck": False,
    }
    for bad in (
        {"expert": "yes"},
        {"health_order": "sorted"},
        {"force_the_luck": 1},
        {"draft": True},
    ):
        with pytest.raises(InvalidCommand):
            ENGINE.validate_options(2, bad)


def test_expert_draft_deals_7_and_passes_the_rest_to_the_left():
    state, events = _start(expert=True)
    assert state.phase == "draft" and [len(p.packet) for p in state.players] == [7, 7]
    assert [p.health for p in state.players] == [[], []]
    assert ENGINE.redact(events[0], 0)["packets"] == [state.players[0].packet, 7]
    assert pending(state) == {0: "draft_special", 1: "draft_special"}
    first, second = state.players[0].packet, state.players[1].packet
    pick0 = sorted(first)[0]
    state, ev = act(state, 0, {"type": "draft_special", "special": pick0})
    assert types(ev) == ["SpecialDrafted"] and ENGINE.redact(ev[0], 1) == {}
    assert pending(state) == {1: "draft_special"}  # packets pass when all picked
    with pytest.raises(IllegalMove):
        ENGINE.decide(state, 1, {"type": "draft_special", "special": pick0}, random.Random(0))
    state, ev = act(state, 1, {"type": "draft_special", "special": sorted(second)[0]})
    assert types(ev) == ["SpecialDrafted", "PacketsPassed"]
    assert sorted(state.players[1].packet) == sorted(set(first) - {pick0})  # seat 0 -> seat 1
    assert len(state.players[0].packet) == 6


def _draft_all(state):
    while state.phase == "draft" and all(k == "draft_special" for k in pending(state).values()):
        for seat in sorted(pending(state)):
            state, _ = act(state, seat, legal_actions(state, seat)[0])
    return state


def test_expert_draft_ends_with_6_health_points_and_the_last_cards_under_the_deck():
    state, _ = _start(expert=True)
    deck = list(state.specials)
    picked_packets = [set(p.packet) for p in state.players]
    state = _draft_all(state)
    assert state.phase == "faction"
    assert [len(p.health) for p in state.players] == [6, 6]
    leftovers = state.specials[len(deck) :]
    assert state.specials[: len(deck)] == deck and len(leftovers) == 2
    assert set().union(*picked_packets) == set(leftovers) | {
        c for p in state.players for c in p.health
    }


def test_a_shuffled_drafted_stack_stays_face_down_even_for_its_owner():
    state, _ = _start(expert=True)
    for _ in range(5):
        for seat in (0, 1):
            state, _ = act(state, seat, legal_actions(state, seat)[0])
    state, _ = act(state, 0, legal_actions(state, 0)[0])
    state, events = act(state, 1, legal_actions(state, 1)[0])
    formed = [e for e in events if e.type == "HealthStackFormed"]
    assert len(formed) == 2 and all(e.data["shuffled"] for e in formed)
    assert ENGINE.redact(formed[0], 0) == {"count": 6} == ENGINE.redact(formed[0], 1)


def test_chosen_health_order_is_the_players_own():
    state, _ = _start(expert=True, health_order="chosen")
    state = _draft_all(state)
    assert pending(state) == {0: "order_health", 1: "order_health"}
    drafted = list(state.players[0].drafted)
    wanted = list(reversed(drafted))
    with pytest.raises(IllegalMove) as err:
        ENGINE.decide(
            state, 0, {"type": "order_health", "cards": wanted[:5] + ["S99"]}, random.Random(0)
        )
    assert err.value.code == "not_your_stack"
    state, events = act(state, 0, {"type": "order_health", "cards": wanted})
    assert state.players[0].health == wanted and ENGINE.redact(events[0], 0) == {"cards": wanted}
    assert ENGINE.redact(events[0], 1) == {"count": 6}
    state, _ = act(state, 1, legal_actions(state, 1)[0])
    assert state.phase == "faction"


def test_force_the_luck_puts_the_engineer_guild_on_the_table_for_everyone():
    guild = next(c for c in CAT.faction if CAT[c].name == "Engineer Guild")
    state, _ = _start(force_the_luck=True)
    assert guild not in state.ammo_deck and all(guild not in p.offered for p in state.players)
    assert ENGINE.view(state, None)["table_factions"] == [guild]
    for seat in (0, 1):
        state, events = act(
            state,
            seat,
            {"type": "choose_faction", "faction": state.players[seat].offered[0]},
            defaults=False,
        )
    # round 1 round bonus: seat 0 may trash a hand card with the shared Engineer Guild
    assert state.choice["seat"] == 0 and state.choice["options"][-1] == "stop"
    trash = state.choice["options"][0]
    state, _ = act(state, 0, {"type": "choose", "option": trash}, defaults=False)
    assert state.choice["seat"] == 1  # then seat 1 decides
    assert state.phase == "faction"  # the whole command is still held
    state, events = act(state, 1, {"type": "choose", "option": "stop"})
    assert state.phase == "recruitment" and state.choice is None
    assert trash in state.discard and trash not in state.players[0].hand
    assert [len(p.hand) for p in state.players] == [6, 6]  # seat 0 trashed and drew 1
    drawn = [e for e in events if e.type == "CardsDrawn"]
    assert [e.seat for e in drawn] == [0]
