"""Concrete before/after values for cards whose notes the rulebook prints."""

from __future__ import annotations

import copy

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions
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
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _strengths(state, seat=0):
    return [SCALE[s.pos] if s.unit else 0 for s in state.players[seat].slots]


def test_desert_rat_swaps_positions_strengths_stay_with_the_units():
    state = table(2)
    tank = one("Heavy Tank")
    put(state, 0, tank, SCALE.index(6))
    slot = empty_slot(state, 0)
    hand(state, 0, one("Desert Rat"))
    state, _ = act(
        state, 0, {"type": "recruit", "card": one("Desert Rat"), "slot": slot, "target": 0}
    )
    slots = state.players[0].slots
    assert (slots[0].unit, SCALE[slots[0].pos]) == (one("Desert Rat"), 1)
    assert (slots[1].unit, SCALE[slots[1].pos]) == (tank, 6)


def test_chain_reactor_swaps_strength_not_places_and_never_on_red_slots():
    state = table(2)
    put(state, 0, one("Heavy Tank"), SCALE.index(8))
    red = state.specials[3]
    put(state, 0, one("Brute"), SCALE.index(9), red=red)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Chain Reactor"))
    targets = [
        a.get("target")
        for a in legal_actions(state, 0)
        if a["type"] == "recruit" and a["card"] == one("Chain Reactor") and a["slot"] == slot
    ]
    assert targets == [0]  # the Red Slot unit is no target
    state, _ = act(
        state, 0, {"type": "recruit", "card": one("Chain Reactor"), "slot": slot, "target": 0}
    )
    assert _strengths(state) == [1, 9, 8]


def test_homo_deus_gains_twice_x_strength():
    state = table(2)
    slot = put(state, 0, one("Homo Deus"), SCALE.index(2))
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": slot})
    assert _strengths(state) == [4]


def test_medic_brings_a_pool_special_into_its_slot_with_its_strength():
    state = table(2)
    slot = put(state, 0, one("Medic"), SCALE.index(7))
    special = state.specials[0]
    state.players[0].pool.append(state.specials.pop(0))
    state, _ = act(state, 0, {"type": "discard", "card": one("Medic")})
    s = state.players[0].slots[slot]
    assert (s.unit, SCALE[s.pos]) == (special, 7)


def test_hacker_renews_the_pool_from_the_main_deck():
    state = table(2)
    old = [state.specials.pop(0), state.specials.pop(0)]
    state.players[0].pool.extend(old)
    expected = state.specials[:2]
    slot = empty_slot(state, 0)
    hand(state, 0, one("Hacker"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Hacker"), "slot": slot})
    assert state.players[0].pool == expected and state.specials[-2:] == old


def test_finisher_and_patient_zero_react_only_to_discard_effects():
    state = table(2)
    put(state, 0, one("Finisher"), 0)
    put(state, 0, one("Patient Zero"), 0)
    hand(state, 0, one("Sniper"), one("Salvage Bot"))
    s1, _ = act(state, 0, {"type": "discard", "card": one("Sniper")})  # no discard effect
    assert _strengths(s1) == [1, 1] and len(s1.players[0].hand) == 1
    s2, _ = act(state, 0, {"type": "discard", "card": one("Salvage Bot")})
    assert _strengths(s2) == [2, 1] and len(s2.players[0].hand) == 2  # +1 strength, +1 card


def test_outsider_is_not_cumulative():
    state = table(2)
    a, b = ids("Outsider", 2)
    slot = put(state, 0, a, 0)
    put(state, 0, b, 0)
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": slot})
    assert len(state.players[0].hand) == 1


def test_goldfish_gives_one_red_slot_per_triple():
    state = table(2)
    fish = ids("Goldfish", 3)
    hand(state, 0, *fish)
    state.players[0].pool.append(state.specials.pop(0))
    state, events = act(
        state,
        0,
        {
            "type": "triple",
            "cards": sorted(fish),
            "source": "pool",
            "special": state.players[0].pool[0],
        },
    )
    assert types(events).count("RedSlotPlaced") == 1


def test_module_discards_two_more_cards_for_a_red_slot():
    state = table(2)
    hand(state, 0, one("Module"), ids("Recruit", 3)[0], ids("Sniper", 3)[0], ids("Sniper", 3)[1])
    state, events = act(state, 0, {"type": "discard", "card": one("Module")})
    assert types(events).count("CardDiscarded") == 3 and types(events).count("RedSlotPlaced") == 1
    assert ids("Recruit", 3)[0] in state.discard  # the lowest card value goes first
    s2 = table(2)
    hand(s2, 0, one("Module"), ids("Recruit", 3)[0])
    s2, events = act(s2, 0, {"type": "discard", "card": one("Module")})
    assert "RedSlotPlaced" not in types(events)


def test_disintegrator_bonus_only_for_its_own_ammo_dreadator_for_any_unit():
    state = table(2)
    d = put(state, 0, one("Disintegrator"), 0)
    o = put(state, 0, one("Heavy Tank"), 0)
    give_ammo(state, 0, 2)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": d})
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": o})
    assert _strengths(state) == [3, 2]
    s2 = table(2)
    put(s2, 0, one("Dreadator"), 0)
    o = put(s2, 0, one("Heavy Tank"), 0)
    give_ammo(s2, 0, 1)
    s2, _ = act(s2, 0, {"type": "spend_ammo", "slot": o})
    assert _strengths(s2) == [1, 3]


def test_elysium_stores_8_ammo_and_gains_ammo_per_lost_health_point():
    state = table(2, factions=[one("Elysium"), None])
    give_ammo(state, 0, 5)

    def go(ctx):
        flow.apply_damage(ctx, {0: 2})

    state, _ = run_flow(state, go)
    assert len(state.players[0].ammo) == 7 and len(state.players[0].health) == 4


def test_erit_lux_stores_two_cards_that_return_after_drawing_six():
    state = table(2, factions=[one("Erit Lux"), None])
    keep = [ids("Commander", 3)[0], ids("Sniper", 3)[0]]
    hand(state, 0, *keep, ids("Recruit", 3)[0])
    state, _ = act(state, 0, {"type": "ready"})
    assert sorted(state.players[0].stash) == sorted(keep)
    state.phase = "battle"
    state, _ = run_flow(state, flow.start_recruitment)
    assert len(state.players[0].hand) == 8 and not state.players[0].stash


def test_vault_afk_only_discards_and_ends_recruitment_in_round_1():
    state = table(2, round_=1, factions=[one("Vault A.F.K."), None])
    empty_slot(state, 0)
    hand(state, 0, ids("Sniper", 3)[0])
    kinds = {a["type"] for a in legal_actions(state, 0)}
    assert kinds == {"discard", "ready"}


def test_prof_boom_kills_the_strongest_trapperkeeper_the_weakest():
    state = table(2)
    put(state, 1, ids("Sniper", 3)[0], SCALE.index(9))
    put(state, 1, ids("Sniper", 3)[1], SCALE.index(2))
    slot = empty_slot(state, 0)
    hand(state, 0, one("Prof. Boom"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Prof. Boom"), "slot": slot})
    assert _strengths(state, 1) == [0, 2]


def test_lich_queen_reactivates_an_exhausted_mutant_and_takes_its_battle_card():
    state = table(2)
    put(state, 0, one("Brute"), SCALE.index(4))
    put(state, 0, one("Lich Queen"), SCALE.index(4))
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], SCALE.index(15))
    y = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 3]
    state, events = _battle(state, [y[:2], y[2:4]])
    reacts = [e for e in events if e.type == "UnitReactivated"]
    assert reacts and reacts[0].data == {"slot": 0, "by": 1}
    # point 1 Brute (4+3) loses; point 2 Lich Queen fights (4+2+3) and reactivates Brute
    assert [s for _, s in _points(events)][1]["0"] == 9


def test_lich_queen_may_leave_the_exhausted_mutant_exhausted():
    state = table(2)
    put(state, 0, one("Brute"), SCALE.index(4))
    put(state, 0, one("Lich Queen"), SCALE.index(4))
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], SCALE.index(15))
    y = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 3]
    state, events = _battle(state, [y[:2], y[2:4]], answers=["skip"])
    assert not [e for e in events if e.type == "UnitReactivated"]


def test_the_scream_never_fights_and_weakens_fighting_opponents():
    state = table(2)
    put(state, 0, one("The Scream"), SCALE.index(15))
    put(state, 0, ids("Brute", 3)[0], SCALE.index(2))
    put(state, 1, ids("Brute", 3)[1], SCALE.index(6))
    empty_slot(state, 1)
    y = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1]
    state, events = _battle(state, [y[:2], y[2:4]])
    first = _points(events)[0][1]
    assert first == {"0": 3, "1": 5}  # Brute 2+1; opponent 6+1-2


def test_nanobots_take_ailien_battle_cards():
    state = table(2)
    put(state, 0, one("Sniper"), 0)
    put(state, 0, one("Nanobots"), SCALE.index(3))
    put(state, 1, one("Veteran"), 0)
    state, events = _battle(
        state,
        [
            [one("A.I.Lien Alpha"), ids("Sniper", 3)[1]],
            [ids("Veteran", 3)[1], ids("Veteran", 3)[2]],
        ],
    )
    revealed = [e for e in events if e.type == "BattleCardRevealed" and e.seat == 0]
    assert revealed[0].data["slot"] == 1
    assert _points(events)[0][1]["0"] == 3 + 5 + 2


def test_queen_of_elysium_puts_the_first_pool_card_back_on_the_health_stack():
    state = table(2)
    put(state, 0, one("Queen of Elysium"), 0)
    pool_card = state.specials.pop(0)
    state.players[0].pool.append(pool_card)
    state.players[0].health = state.players[0].health[:4]
    state, _ = run_flow(state, flow.start_recruitment)
    assert state.players[0].health[0] == pool_card and len(state.players[0].health) == 5


def test_big_benji_takes_a_pool_card_of_the_left_neighbour_when_it_wins_a_point():
    state = table(2)
    put(state, 0, one("Big Benji"), SCALE.index(10))
    put(state, 1, ids("Sniper", 3)[0], 0)
    theirs = state.specials.pop(0)
    state.players[1].pool.append(theirs)
    state, events = _battle(state, [[ids("Veteran", 3)[0]], [ids("Veteran", 3)[1]]])
    moved = [e.data for e in events if e.type == "PoolCardMoved"]
    assert moved == [{"card": theirs, "from_seat": 1, "to_seat": 0, "from_where": "pool"}]
    # nothing is cashed by itself: the owner discards pool cards for ammo when it wants
    assert state.phase == "recruitment" and theirs in state.players[0].pool
    assert state.players[0].ammo == []
    assert {"type": "cash_pool", "card": theirs} in legal_actions(state, 0)
    assert not any(a["type"] == "cash_pool" for a in legal_actions(state, 1))
    state, _ = act(state, 0, {"type": "cash_pool", "card": theirs})
    assert state.players[0].pool == [] and len(state.players[0].ammo) == 1
    assert state.specials[-1] == theirs  # under the Special deck


def test_rare_metal_takes_the_strength_of_the_unit_it_replaces():
    state = table(2)
    target = put(state, 0, one("Doc."), SCALE.index(8))
    slot = empty_slot(state, 0)
    hand(state, 0, one("Rare Metal"))
    state, _ = act(
        state, 0, {"type": "recruit", "card": one("Rare Metal"), "slot": slot, "target": target}
    )
    assert _strengths(state) == [0, 8] and state.specials[-1] == one(
        "Doc."
    )  # the Special goes under its deck


def test_perfection_attaches_every_mech_and_adds_their_strengths():
    state = table(2)
    put(state, 0, one("Heavy Tank"), SCALE.index(4))
    put(state, 0, one("Sniper"), SCALE.index(3))
    put(state, 0, one("Goldfish"), SCALE.index(5))
    slot = empty_slot(state, 0)
    hand(state, 0, one("P3RF3C7ION"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("P3RF3C7ION"), "slot": slot})
    s = state.players[0].slots
    assert sorted(s[slot].attached) == sorted([one("Heavy Tank"), one("Goldfish")])
    assert _strengths(state) == [0, 3, 0, 10]  # 1 + 4 + 5


def test_linear_collider_splits_its_strength_among_mechs_as_its_owner_chooses():
    state = table(2)
    tank = put(state, 0, one("Heavy Tank"), SCALE.index(2))
    mod = put(state, 0, one("Module"), 0)
    put(state, 0, one("Linear Collider"), SCALE.index(5))
    cmd = {"type": "discard", "card": one("Linear Collider")}
    held, _ = act(state, 0, cmd, defaults=False)
    assert held.choice["kind"] == "split" and held.choice["options"] == [5, 4, 3, 2, 1, 0]
    split, _ = act(state, 0, cmd, answers=[3])  # "one Mech 3, another Mech 2"
    assert [_strengths(split)[tank], _strengths(split)[mod]] == [5, 3]
    default, _ = act(state, 0, cmd)  # default: all to the leftmost Mech
    assert [_strengths(default)[tank], _strengths(default)[mod]] == [7, 1]


def test_bartender_triggers_the_discard_effect_of_another_mech_without_discarding_it():
    state = table(2)
    put(state, 0, one("Salvage Bot"), 0)
    hand(state, 0, one("Bartender"))
    state, _ = act(state, 0, {"type": "discard", "card": one("Bartender")})
    assert len(state.players[0].ammo) == 2 and state.players[0].slots[0].unit == one("Salvage Bot")


def test_postman_wins_the_point_with_a_low_battle_card():
    state = table(2)
    put(state, 0, one("Postman"), 0)
    put(state, 1, one("Hive Mind"), SCALE.index(15))
    low = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1][:2]
    state, events = _battle(state, [[low[0]], [low[1]]])
    assert _points(events)[0] == ([0], {"0": 2, "1": 16})


def test_murderer_sacrifices_a_human_to_win_a_lost_point():
    state = table(2)
    put(state, 0, one("Murderer"), 0)
    put(state, 0, one("Veteran"), 0)
    put(state, 1, one("Sniper"), SCALE.index(15))
    state, events = _battle(
        state,
        [
            [ids("Recruit", 3)[0], ids("Recruit", 3)[1]],
            [ids("Recruit", 3)[2], ids("Commander", 3)[0]],
        ],
        answers=[1],
    )
    assert _points(events)[0][0] == [0]  # the owner chose the Veteran (slot 1)
    assert one("Veteran") in state.discard


def test_chrome_doubles_the_damage_when_its_seat_alone_wins():
    state = table(2)
    put(state, 0, one("C.H.R.O.M.E."), SCALE.index(10))
    put(state, 1, one("Sniper"), 0)
    cards = [[ids("Brute", 3)[0]], [ids("Recruit", 3)[0]]]
    doubled, events = _battle(copy.deepcopy(state), cards, answers=["double"])
    assert [e.data["damage"] for e in events if e.type == "BattleEnded"] == [{"0": 0, "1": 2}]
    assert len(doubled.players[1].health) == 4 and one("C.H.R.O.M.E.") in doubled.specials
    kept, events = _battle(state, cards)  # default: keep C.H.R.O.M.E.
    assert [e.data["damage"] for e in events if e.type == "BattleEnded"] == [{"0": 0, "1": 1}]
    assert kept.players[0].slots[0].unit == one("C.H.R.O.M.E.")


def test_stalker_gains_a_second_faction_from_the_ammo_deck():
    state = table(2)
    top = state.ammo_deck[0]
    slot = empty_slot(state, 0)
    hand(state, 0, one("Stalker"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Stalker"), "slot": slot})
    assert state.players[0].extra_factions == [top]


def test_roko_searches_the_draw_pile_for_an_ailien():
    state = table(2)
    alien = one("A.I.Lien Beta")
    state.draw = ids("Sniper", 3) + [alien] + state.draw
    slot = empty_slot(state, 0)
    hand(state, 0, one("Roko's Basilisk"))
    state, events = act(state, 0, {"type": "recruit", "card": one("Roko's Basilisk"), "slot": slot})
    assert alien in state.players[0].hand and set(ids("Sniper", 3)) <= set(state.discard)
