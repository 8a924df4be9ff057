"""Game Setup and Phase 1: Recruitment, with values from the rulebook."""

from __future__ import annotations

import random

import pytest

from domain.engine import Setup, fold
from domain.games.aipokalypse import ENGINE, flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import (
    CAT,
    act,
    empty_slot,
    give_ammo,
    hand,
    ids,
    one,
    put,
    run_flow,
    table,
    types,
)


def test_setup_deals_2_factions_6_health_points_and_6_cards():
    events = ENGINE.new_match(Setup(4, {}), random.Random(7))
    state = fold(ENGINE, events)
    assert [len(p.offered) for p in state.players] == [2, 2, 2, 2]
    assert [len(p.health) for p in state.players] == [6, 6, 6, 6]
    assert [len(p.hand) for p in state.players] == [6, 6, 6, 6]
    assert len(state.draw) == 102 - 24 and len(state.specials) == 64 - 24
    assert len(state.ammo_deck) == 30 - 8
    assert pending(state) == {
        0: "choose_faction",
        1: "choose_faction",
        2: "choose_faction",
        3: "choose_faction",
    }


def test_kept_faction_returns_the_other_under_the_ammo_deck_and_round_1_starts_without_drawing():
    state = fold(ENGINE, ENGINE.new_match(Setup(2, {}), random.Random(3)))
    offered0 = state.players[0].offered
    state, _ = act(state, 0, {"type": "choose_faction", "faction": offered0[0]})
    assert state.ammo_deck[-1] == offered0[1]
    assert state.phase == "faction"
    state, events = act(
        state, 1, {"type": "choose_faction", "faction": state.players[1].offered[1]}
    )
    assert "FactionsRevealed" in types(events)
    assert state.phase == "recruitment" and state.round == 1
    assert all(len(p.hand) >= 6 for p in state.players)
    assert pending(state) == {0: "recruit", 1: "recruit"}


def test_recruitment_draws_up_to_6_cards_from_round_2():
    state = table(2, round_=1)
    hand(state, 0, *ids("Sniper", 2))
    state, events = run_flow(state, flow.start_recruitment)
    assert state.round == 2
    assert len(state.players[0].hand) == 6 and len(state.players[1].hand) == 6


def test_open_slot_at_most_6_slots_and_recruit_at_strength_1():
    state = table(2)
    cards = [c for c in CAT.basic if CAT[c].name in ("Sniper", "Heavy Tank", "Commander")][:8]
    hand(state, 0, *cards)
    for cid in cards[:6]:
        state, _ = act(state, 0, {"type": "open_slot", "card": cid})
    assert len(state.players[0].slots) == 6
    with pytest.raises(Exception) as err:
        act(state, 0, {"type": "open_slot", "card": cards[6]})
    assert err.value.code == "slots_full"
    state, _ = act(state, 0, {"type": "recruit", "card": cards[6], "slot": 0})
    assert SCALE[state.players[0].slots[0].pos] == 1
    with pytest.raises(Exception) as err:
        act(state, 0, {"type": "recruit", "card": cards[7], "slot": 0})
    assert err.value.code == "slot_occupied"


def test_strength_scale_moves_by_positions_9_plus_3_is_15():
    """Improving Units: "a unit could gain 6 strength ... if you were only to improve it by 3 (9-10-12-15)"."""
    state = table(2)
    tank = put(state, 0, one("Heavy Tank"), SCALE.index(9))
    slot = empty_slot(state, 0)
    hand(state, 0, one("Overclock"))
    state, _ = act(
        state, 0, {"type": "recruit", "card": one("Overclock"), "slot": slot, "target": tank}
    )
    assert SCALE[state.players[0].slots[tank].pos] == 15


def test_ammo_spent_in_recruitment_is_plus_1_and_goes_back_on_top_of_the_ammo_deck():
    state = table(2)
    slot = put(state, 0, one("Heavy Tank"), SCALE.index(10))
    give_ammo(state, 0, 1)
    spent = state.players[0].ammo[0]
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": slot})
    assert SCALE[state.players[0].slots[slot].pos] == 12
    assert state.ammo_deck[0] == spent and state.players[0].ammo == []


def test_ammo_storage_is_capped_at_6():
    state = table(2)
    give_ammo(state, 0, 5)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Arsenal"))  # Recruit: take 3 ammo
    state, _ = act(state, 0, {"type": "recruit", "card": one("Arsenal"), "slot": slot})
    assert len(state.players[0].ammo) == 6


def test_discard_effect_resolves_from_hand_in_recruitment():
    state = table(2)
    hand(state, 0, one("Salvage Bot"))  # Discard: take 2 ammo
    state, events = act(state, 0, {"type": "discard", "card": one("Salvage Bot")})
    assert len(state.players[0].ammo) == 2
    assert one("Salvage Bot") in state.specials[-1:]  # Special Units go under their deck


def test_triple_carries_the_summed_strength_to_the_special_unit_in_the_leftmost_freed_slot():
    state = table(2)
    v = ids("Veteran", 3)
    put(state, 0, one("Heavy Tank"), 0)
    a = put(state, 0, v[0], SCALE.index(3))
    b = put(state, 0, v[1], SCALE.index(5))
    hand(state, 0, v[2])
    special = state.specials[0]
    state.players[0].pool.append(state.specials.pop(0))
    state, events = act(
        state, 0, {"type": "triple", "cards": sorted(v), "source": "pool", "special": special}
    )
    slots = state.players[0].slots
    assert slots[a].unit == special and SCALE[slots[a].pos] == 8  # 3 + 5
    assert slots[b].unit is None
    assert set(v) <= set(state.discard)
    assert "CardDiscarded" not in types(events)  # a Triple is not "discarding"


def test_triple_is_not_discarding_module_discard_effects_do_not_trigger():
    state = table(2)
    modules = ids("Module", 3)
    hand(state, 0, *modules, *ids("Sniper", 2))
    state.players[0].pool.append(state.specials.pop(0))
    special = state.players[0].pool[0]
    state, events = act(
        state, 0, {"type": "triple", "cards": sorted(modules), "source": "pool", "special": special}
    )
    assert "RedSlotPlaced" not in types(events)
    assert special in state.players[0].hand  # all three came from the hand
    assert len(state.players[0].hand) == 3


def test_a_special_unit_from_the_hand_may_be_played_as_a_red_slot():
    """Special Units and Triples: "If all cards for the Triple came from your hand, you take the
    Special Unit into your hand. You may play it like any other unit or as a Red Slot (see Red
    Slots)." Red Slots: "have not yet 6 slots, place the Red Slot as a new slot. If you already
    have 6 slots, replace any empty slot with the Red Slot." (ruling R-SLOT-CARD contradicted it)"""
    state = table(2)
    v = ids("Veteran", 3)
    hand(state, 0, *v)
    put(state, 0, one("Heavy Tank"), 3)
    special = state.specials[0]
    state.players[0].pool.append(state.specials.pop(0))
    state, _ = act(
        state, 0, {"type": "triple", "cards": sorted(v), "source": "pool", "special": special}
    )
    assert special in state.players[0].hand
    assert {"type": "open_slot", "card": special} in legal_actions(state, 0)
    specials_before = list(state.specials)
    state, events = act(state, 0, {"type": "open_slot", "card": special})
    slots = state.players[0].slots
    assert len(slots) == 2 and slots[1].red and slots[1].card == special and slots[1].unit is None
    assert special not in state.players[0].hand and state.specials == specials_before
    assert [e.data["mode"] for e in events if e.type == "RedSlotPlaced"] == ["new"]
    full = table(2)  # 6 slots: it replaces the empty one
    for name in ("Sniper", "Heavy Tank", "Commander", "Veteran", "Brute"):
        put(full, 0, ids(name, 3)[-1], 4)
    empty_slot(full, 0)
    special = full.specials.pop(0)
    full.players[0].hand.append(special)
    assert {"type": "open_slot", "card": special} in legal_actions(full, 0)
    full, _ = act(full, 0, {"type": "open_slot", "card": special})
    assert full.players[0].slots[5].red and full.players[0].slots[5].card == special
    assert len(full.players[0].slots) == 6


def test_triple_from_the_health_stack_offers_2_and_returns_the_other_under_the_stack():
    state = table(2)
    v = ids("Veteran", 3)
    hand(state, 0, *v)
    top2 = state.players[0].health[:2]
    state, _ = act(state, 0, {"type": "triple", "cards": sorted(v), "source": "health"})
    assert state.players[0].offer == top2
    assert pending(state)[0] == "choose_special"
    assert legal_actions(state, 0) == [{"type": "choose_special", "special": c} for c in top2]
    state, _ = act(state, 0, {"type": "choose_special", "special": top2[1]})
    assert top2[1] in state.players[0].hand
    assert state.players[0].health[-1] == top2[0] and len(state.players[0].health) == 5


def test_w4tchm3n_triples_a_pair_with_one_ammo_and_berserker_with_3_ammo():
    state = table(2, factions=[one("W4TCHM3N"), None])
    pair = ids("Veteran", 2)
    hand(state, 0, *pair)
    give_ammo(state, 0, 1)
    state, _ = act(
        state, 0, {"type": "triple", "cards": sorted(pair), "source": "health", "pay": "pair_ammo"}
    )
    assert state.players[0].ammo == [] and len(state.players[0].offer) == 2
    state2 = table(2)
    put(state2, 0, one("Berserker"))
    give_ammo(state2, 0, 3)
    state2, _ = act(state2, 0, {"type": "triple", "cards": [], "source": "health", "pay": "ammo"})
    assert state2.players[0].ammo == [] and len(state2.players[0].offer) == 2


def test_red_slot_new_then_replace_empty_then_under_the_weakest_unit():
    state = table(2)
    put(state, 0, one("Heavy Tank"), 3)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Seppuku"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Seppuku"), "slot": slot})
    state, events = act(
        state, 0, {"type": "discard", "card": one("Seppuku")}
    )  # Red Slot in its slot
    assert state.players[0].slots[slot].red
    s2 = table(2)
    for name in ("Sniper", "Heavy Tank", "Commander", "Veteran", "Brute"):
        put(s2, 0, ids(name, 3)[-1], 4)
    empty_slot(s2, 0)
    hand(s2, 0, ids("Module", 3)[0], *ids("Sniper", 2))
    s2, _ = act(
        s2, 0, {"type": "discard", "card": ids("Module", 3)[0]}
    )  # 6 slots: replaces the empty one
    assert s2.players[0].slots[5].red and len(s2.players[0].slots) == 6
    s3 = table(2)
    for k, name in enumerate(
        ("Sniper", "Heavy Tank", "Commander", "Veteran", "Brute", "Hive Mind")
    ):
        put(s3, 0, ids(name, 3)[-1], 4 if k != 2 else 1)
    hand(s3, 0, ids("Module", 3)[0], *ids("Sniper", 2))
    s3, _ = act(s3, 0, {"type": "discard", "card": ids("Module", 3)[0]})
    assert s3.players[0].slots[2].red and s3.players[0].slots[2].unit == ids("Commander", 3)[-1]


def test_red_slot_bonus_on_reaching_a_symbol_and_exchange_at_15():
    state = table(2)
    red = next(s for s in state.specials if CAT[s].red_slot.get(3) == "ammo")
    slot = put(state, 0, one("Heavy Tank"), SCALE.index(2), red=red)
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": slot})  # 2 -> 3: ammo symbol
    assert len(state.players[0].ammo) == 1
    s2 = table(2)
    red2 = s2.specials[5]
    slot = put(s2, 0, one("Heavy Tank"), SCALE.index(12), red=red2)
    give_ammo(s2, 0, 1)
    hand_before = len(s2.players[0].hand)
    s2, events = act(s2, 0, {"type": "spend_ammo", "slot": slot})  # 12 -> 15
    sl = s2.players[0].slots[slot]
    assert not sl.red and SCALE[sl.pos] == 15 and sl.unit == one("Heavy Tank")
    assert "RedSlotExchanged" in types(events)
    assert len(s2.players[0].hand) == hand_before + 1 and red2 == s2.specials[-1]


def test_round_bonus_runs_left_to_right_with_the_faction_last():
    state = table(2, factions=[one("Rust Nomads"), None])
    put(state, 0, one("Veteran"), 0)  # +1 strength
    put(state, 0, one("Drifter"), 0)  # draw 1
    hand(state, 0, *ids("Sniper", 3), *ids("Heavy Tank", 3))
    state, events = run_flow(state, flow.start_recruitment)
    mine = [
        e.type
        for e in events
        if e.seat == 0 and e.type in ("StrengthChanged", "CardsDrawn", "AmmoGained")
    ]
    assert mine == ["StrengthChanged", "CardsDrawn", "AmmoGained"]


def test_ailien_cannot_be_recruited_before_sudden_death():
    state = table(2)
    slot = empty_slot(state, 0)
    alien = one("A.I.Lien Alpha")
    hand(state, 0, alien)
    assert not any(
        a.get("card") == alien and a["type"] == "recruit" for a in legal_actions(state, 0)
    )
    with pytest.raises(Exception) as err:
        act(state, 0, {"type": "recruit", "card": alien, "slot": slot})
    assert err.value.code == "ailien_locked"
    state.sudden_death = True
    state, _ = act(state, 0, {"type": "recruit", "card": alien, "slot": slot})
    assert state.players[0].slots[slot].unit == alien


@pytest.mark.parametrize(
    "cmd,code",
    [
        ({"type": "fly"}, "unknown_action"),
        ({"type": "recruit", "card": 3, "slot": 0}, "invalid_command"),
        ({"type": "recruit", "card": "B001"}, "invalid_command"),
        ({"type": "pass"}, "wrong_phase"),
        ({"type": "recruit", "card": "B001", "slot": 0}, "card_not_in_hand"),
    ],
)
def test_malformed_or_illegal_commands_raise_stable_codes(cmd, code):
    state = table(2)
    with pytest.raises(Exception) as err:
        ENGINE.decide(state, 0, cmd, random.Random(0))
    assert err.value.code == code


def test_ready_seat_is_not_pending_and_gets_not_your_turn():
    state = table(2)
    state, events = act(state, 0, {"type": "ready"})
    assert 0 not in pending(state)
    with pytest.raises(Exception) as err:
        act(state, 0, {"type": "ready"})
    assert err.value.code == "not_your_turn"


def test_every_legal_action_is_accepted():
    state = table(2)
    put(state, 0, one("Heavy Tank"), 2)
    empty_slot(state, 0)
    hand(state, 0, one("Overclock"), *ids("Veteran", 3), one("Salvage Bot"))
    give_ammo(state, 0, 2)
    state.players[0].pool.append(state.specials.pop(0))
    for cmd in legal_actions(state, 0):
        act(state, 0, cmd)
