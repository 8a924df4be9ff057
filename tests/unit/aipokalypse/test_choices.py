"""Effect decisions are the choosing seat's own (pending ``choose`` + legal actions + command):
the held command, its hidden options, the timeout default, the deterministic continuation,
and the card notes that let a player (or an opponent) choose."""

from __future__ import annotations

import copy
import random

import pytest

from domain.engine import IllegalMove, NotYourTurn
from domain.games.aipokalypse import ENGINE, flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.spec import SCALE
from domain.games.aipokalypse.state import public_board
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
    take,
    types,
)
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _strengths(state, seat=0):
    return [SCALE[s.pos] if s.unit else 0 for s in state.players[seat].slots]


def _module_table():
    state = table(2)
    recruit, sniper_a, sniper_b = ids("Recruit", 3)[0], *ids("Sniper", 3)[:2]
    hand(state, 0, one("Module"), recruit, sniper_a, sniper_b)
    return state, recruit, sniper_a, sniper_b


def test_module_holds_its_command_until_the_owner_chooses_and_everyone_else_waits():
    state, recruit, sniper_a, sniper_b = _module_table()
    cmd = {"type": "discard", "card": one("Module")}
    held, events = act(state, 0, cmd, defaults=False)
    assert types(events) == ["ChoiceRequested"]  # nothing else happened yet
    assert held.players[0].hand == state.players[0].hand
    assert held.choice["kind"] == "discard"
    assert held.choice["options"] == [recruit, sniper_a, sniper_b, "stop"]  # lowest value first
    assert pending(held) == {0: "choose"}
    assert legal_actions(held, 1) == []
    with pytest.raises(NotYourTurn):
        ENGINE.decide(held, 1, {"type": "ready"}, random.Random(0))
    with pytest.raises(IllegalMove) as err:
        ENGINE.decide(held, 0, {"type": "ready"}, random.Random(0))
    assert err.value.code == "choice_pending"
    with pytest.raises(IllegalMove) as err:
        ENGINE.decide(held, 0, {"type": "choose", "option": "S01"}, random.Random(0))
    assert err.value.code == "invalid_choice"

    chosen, _ = act(state, 0, cmd, answers=[sniper_a, sniper_b])
    assert chosen.players[0].hand == [recruit]
    assert [s.red for s in chosen.players[0].slots] == [True]  # "if you do"
    assert chosen.choice is None and pending(chosen) == {0: "recruit", 1: "recruit"}

    stopped, _ = act(state, 0, cmd, answers=["stop"])
    assert sorted(stopped.players[0].hand) == sorted([recruit, sniper_a, sniper_b])
    assert stopped.players[0].slots == []


def test_no_choose_without_an_open_decision():
    state, *_ = _module_table()
    with pytest.raises(IllegalMove) as err:
        ENGINE.decide(state, 0, {"type": "choose", "option": "stop"}, random.Random(0))
    assert err.value.code == "no_choice"


def test_the_options_and_the_held_command_are_shown_only_to_the_chooser():
    state, recruit, *_ = _module_table()
    held, events = act(state, 0, {"type": "discard", "card": one("Module")}, defaults=False)
    request = events[-1]
    assert ENGINE.redact(request, 1) == {"hidden": True}
    assert (
        ENGINE.redact_type(request, 1) == ENGINE.redact_type(request, None) == "RecruitmentMoveMade"
    )
    own = ENGINE.redact(request, 0)
    assert set(own) == {"kind", "prompt", "options", "decline"} and own["options"][0] == recruit
    assert own["decline"] == "stop" == ENGINE.view(held, 0)["choice"]["decline"]  # Module "may"
    assert ENGINE.view(held, 1)["choice"] == {"seat": 0}
    assert ENGINE.view(held, None)["choice"] == {"seat": 0}
    assert ENGINE.view(held, 0)["choice"]["options"] == held.choice["options"]
    assert recruit not in str(ENGINE.view(held, 1))


def test_a_turn_timeout_declines_an_optional_effect_and_takes_the_first_option_of_a_forced_one():
    """Issue 17: Module's "you may discard 2 more cards" is declined ("stop": nothing
    discarded), Painkiller's forced discard ("then discard one") takes the first option (the
    lowest card value). Before, the timeout discarded the first card for Module too."""
    state, recruit, *_ = _module_table()
    held, _ = act(state, 0, {"type": "discard", "card": one("Module")}, defaults=False)
    assert held.choice["options"][0] == recruit
    assert ENGINE.bots["idle"].choose(held, 0, random.Random(1)) == {
        "type": "choose",
        "option": "stop",
    }
    assert ENGINE.bots["random"].choose(held, 0, random.Random(1))["type"] == "choose"
    state = table(2)
    hand(state, 0, ids("Painkiller", 3)[0], ids("Recruit", 3)[0])
    held, _ = act(state, 0, {"type": "discard", "card": ids("Painkiller", 3)[0]}, defaults=False)
    assert held.choice["decline"] is None and "stop" not in held.choice["options"]
    assert ENGINE.bots["idle"].choose(held, 0, random.Random(1)) == {
        "type": "choose",
        "option": held.choice["options"][0],
    }


def test_the_answer_continues_the_effect_with_the_same_randomness():
    state = table(2, draw=[])
    state.discard = ids("Veteran", 3) + ids("Brute", 3)[:2]  # the reshuffle is random
    hand(state, 0, ids("Painkiller", 3)[0], ids("Recruit", 3)[0])
    cmd = {"type": "discard", "card": ids("Painkiller", 3)[0]}
    held, _ = act(state, 0, cmd, seed=5, defaults=False)
    offered = set(held.choice["options"]) - {ids("Recruit", 3)[0]}
    assert len(offered) == 2  # the two cards it draws
    pick = sorted(offered - {ids("Painkiller", 3)[0]})[0]  # (it may draw itself back)
    done, events = act(held, 0, {"type": "choose", "option": pick}, seed=99)
    assert types(events)[:2] == ["ChoiceMade", "CardDiscarded"]
    drawn = [e.data["cards"] for e in events if e.type == "CardsDrawn"]
    assert set(sum(drawn, [])) == offered  # same reshuffle, same draw
    assert pick in done.discard and pick not in done.players[0].hand


def test_trapperkeeper_lets_each_opponent_choose_the_unit_it_loses():
    state = table(2)
    put(state, 0, one("Trapperkeeper"), 0)
    weak = put(state, 1, ids("Veteran", 3)[0], SCALE.index(2))
    strong = put(state, 1, ids("Brute", 3)[0], SCALE.index(9))
    state, _ = act(state, 1, {"type": "ready"})
    held, _ = act(state, 0, {"type": "ready"}, defaults=False)  # seat 0's ready starts the battle
    assert held.choice["seat"] == 1 and held.choice["actor"] == 0
    assert held.choice["options"] == [weak, strong]  # weakest first (the default)
    assert pending(held) == {1: "choose"}
    done, _ = act(held, 1, {"type": "choose", "option": strong})
    assert ids("Brute", 3)[0] in done.discard
    assert done.players[1].slots[weak].unit == ids("Veteran", 3)[0]


def test_prof_boom_owner_aims_at_a_slot_of_the_last_revealed_board():
    state = table(2)
    small = put(state, 1, ids("Veteran", 3)[0], 0)
    big = put(state, 1, ids("Brute", 3)[0], SCALE.index(8))
    state.players[1].public = public_board(state.players[1])  # what seat 0 has seen
    hidden = put(state, 1, ids("Sniper", 3)[0], SCALE.index(15))  # recruited since: unseen
    slot = empty_slot(state, 0)
    hand(state, 0, one("Prof. Boom"))
    cmd = {"type": "recruit", "card": one("Prof. Boom"), "slot": slot}
    held, _ = act(state, 0, cmd, defaults=False)
    assert held.choice["seat"] == 0 and held.choice["options"] == [big, small]
    done, events = act(state, 0, cmd, answers=[small])
    assert done.players[1].slots[small].unit is None
    assert done.players[1].slots[hidden].unit == ids("Sniper", 3)[0]
    kill = next(e for e in events if e.type == "CardDiscarded" and e.seat == 1)
    assert ENGINE.redact(kill, 0) == {"hidden": True}  # seat 0 does not learn what it hit


def test_eagle_eye_declares_a_colour_and_only_that_colour_can_be_exhausted():
    state = table(2)
    put(state, 0, one("Eagle Eye"), 0)
    blue = put(state, 1, ids("Veteran", 3)[0], SCALE.index(3))
    yellow = put(state, 1, ids("Brute", 3)[0], SCALE.index(9))
    blue_b = put(state, 1, ids("Recruit", 3)[0], 0)
    state.players[1].ready = True
    held, _ = act(state, 0, {"type": "ready"}, defaults=False)
    assert held.choice["kind"] == "colour" and held.choice["options"][0] == "yellow"
    second, _ = act(held, 0, {"type": "choose", "option": "blue"}, defaults=False)
    assert second.choice["seat"] == 1 and second.choice["options"] == [blue_b, blue]
    assert yellow not in second.choice["options"]
    done, events = act(second, 1, {"type": "choose", "option": blue})
    assert [e.data["slot"] for e in events if e.type == "UnitExhausted"][:1] == [blue]


def test_journalist_exhausts_as_many_other_humans_as_its_owner_wants():
    def setup():
        state = table(2)
        put(state, 0, ids("Journalist", 3)[0], SCALE.index(3))
        put(state, 0, ids("Veteran", 3)[0], SCALE.index(4))
        put(state, 0, ids("Commander", 3)[0], SCALE.index(2))
        put(state, 1, ids("Brute", 3)[0], SCALE.index(15))
        return state

    cards = [ids("Recruit", 3), ids("Hive Mind", 3)]  # 3 units: 3 battle cards
    _, both = _battle(setup(), cards, answers=[1, 2])
    assert [e.data["n"] for e in both if e.type == "FightBonus"] == [4, 2]
    assert _points(both)[0][1]["0"] == 1 + (3 + 1) + 4 + 2  # then it gains 1 strength
    _, none = _battle(setup(), cards, answers=["stop", "stop"])  # points 1 and 2
    assert not [e for e in none if e.type == "FightBonus"]
    _, default = _battle(setup(), cards)  # default: one, the rightmost
    assert [e.data["n"] for e in default if e.type == "FightBonus"] == [2]


def test_big_benji_cashes_pool_cards_in_a_reaction_window_and_then_reacts_with_the_ammo():
    state = table(2)
    put(state, 0, one("Big Benji"), 0)
    put(state, 1, ids("Brute", 3)[0], 0)
    pool = state.specials.pop(0)
    state.players[0].pool.append(pool)
    give_ammo(state, 0, 1)
    cards = [[ids("Recruit", 3)[0]], [ids("Hive Mind", 3)[0]]]  # 1+1 against 1+5
    state, _ = _battle(state, cards)
    assert pending(state) == {0: "react"}  # 1 ammo alone is not enough
    assert legal_actions(state, 0) == [{"type": "cash_pool", "card": pool}, {"type": "pass"}]
    state, events = act(state, 0, {"type": "cash_pool", "card": pool})
    assert types(events) == ["CardDiscarded", "AmmoGained"]
    assert len(state.players[0].ammo) == 2 and state.specials[-1] == pool
    assert legal_actions(state, 0) == [{"type": "react_ammo", "count": 2}, {"type": "pass"}]


def test_big_benji_steals_from_either_neighbour_of_its_choice():
    state = table(3)
    put(state, 0, one("Big Benji"), SCALE.index(10))
    put(state, 1, ids("Veteran", 3)[0], 0)
    put(state, 2, ids("Veteran", 3)[1], 0)
    left, right = state.specials.pop(0), state.specials.pop(0)
    state.players[1].pool.append(left)
    state.players[2].pool.append(right)
    cards = [[ids("Commander", 3)[0]], [ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]]
    state, events = _battle(state, cards, answers=[right])
    moved = [e.data for e in events if e.type == "PoolCardMoved"]
    assert moved == [{"card": right, "from_seat": 2, "to_seat": 0, "from_where": "pool"}]


def test_desert_rats_ammo_stays_on_the_unit_until_the_battle_is_over():
    rats = one("Desert Rats")
    state = table(2, factions=[rats, None])
    put(state, 0, ids("Brute", 3)[0], 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    give_ammo(state, 0, 2)
    state.draw = [ids("Brute", 3)[1], ids("Recruit", 3)[0]] + state.draw  # battle cards
    spent = state.players[0].ammo[-1]
    top_before = state.ammo_deck[0]
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": 0})
    slot = state.players[0].slots[0]
    assert slot.ammo_cards == [spent] and slot.ammo_temp == 2 and SCALE[slot.pos] == 2
    assert state.ammo_deck[0] == top_before  # not back on the deck yet
    assert ENGINE.view(state, 0)["seats"][0]["slots"][0]["ammo_on"] == 1
    state, _ = act(state, 1, {"type": "ready"})
    state, events = act(state, 0, {"type": "ready"})
    assert _points(events)[0][1] == {"0": 2 + 2 + 5, "1": 1 + 1}  # +2 from the ammo on it
    assert "BattleCleared" in types(events)
    assert state.ammo_deck[0] == spent  # "Discard the ammo after the battle"
    assert state.players[0].slots[0].ammo_cards == []


def _xxx_battle(guess):
    state = table(2)
    put(state, 0, one("XxX"), SCALE.index(15))
    put(state, 1, ids("Veteran", 3)[0], 0)
    top = state.specials[0]
    state, events = _battle(
        state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]], answers=[guess]
    )
    return state, events, top


def test_xxx_gains_a_health_point_only_for_the_right_score_guess():
    state, events, top = _xxx_battle(1)  # XxX (15+1) wins the only point
    guessed = next(e for e in events if e.type == "ScoreGuessed")
    assert guessed.data == {"guess": 1} and ENGINE.redact(guessed, 1) == {}
    assert state.players[0].health[0] == top and len(state.players[0].health) == 7
    state, _, top = _xxx_battle(0)
    assert len(state.players[0].health) == 6


def test_prayers_of_elex_searches_any_special_unit_then_shuffles_the_deck():
    elex = one("Prayers of Elex")
    state = table(2, factions=[elex, None])
    cards = ids("Veteran", 3) + ids("Brute", 3)
    hand(state, 0, *cards)
    wanted = sorted(state.specials)[5]
    state, events = run_flow(
        state, flow.start_recruitment, answers=["pray", cards[3], cards[4], cards[5], wanted]
    )
    assert wanted in state.players[0].hand
    assert all(c in state.discard for c in cards[3:])
    shuffled = next(e for e in events if e.type == "SpecialsShuffled")
    assert ENGINE.redact(shuffled, 0) == {"count": len(state.specials)}
    skipped, _ = run_flow(table(2, factions=[elex, None]), flow.start_recruitment, answers=["skip"])
    assert "SpecialsShuffled" not in types(_)


def test_zombie_may_discard_itself():
    state = table(2)
    slot = empty_slot(state, 0)
    zombie = ids("Zombie", 3)[0]
    hand(state, 0, zombie, ids("Recruit", 3)[0])
    state, _ = act(state, 0, {"type": "recruit", "card": zombie, "slot": slot}, answers=[zombie])
    assert state.players[0].slots[slot].unit is None and zombie in state.discard
    assert ids("Recruit", 3)[0] in state.players[0].hand


def test_erit_lux_stores_the_hand_cards_its_owner_picks():
    state = table(2, factions=[one("Erit Lux"), None])
    low, high = ids("Recruit", 3)[0], ids("Brute", 3)[0]
    hand(state, 0, low, high)
    state, _ = act(state, 0, {"type": "ready"}, answers=[low, "stop"])
    assert state.players[0].stash == [low] and state.players[0].hand == [high]


def test_vault_afk_recruits_a_special_unit_for_free_in_round_2():
    state = table(2, round_=1, factions=[one("Vault A.F.K."), None])
    pool = state.specials.pop(0)
    state.players[0].pool.append(pool)
    from_pool, _ = run_flow(copy.deepcopy(state), flow.start_recruitment, answers=[pool])
    assert pool in from_pool.players[0].hand
    from_health, _ = run_flow(state, flow.start_recruitment, answers=["health"])
    offer = from_health.players[0].offer
    assert (
        len(offer) == 2
        and [a["type"] for a in legal_actions(from_health, 0)] == ["choose_special"] * 2
    )


def test_outfitter_q_keeps_the_taken_card_its_owner_chooses():
    state = table(3)
    put(state, 0, one("Outfitter Q"), 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    put(state, 2, ids("Veteran", 3)[1], 0)
    low, high = ids("Recruit", 3)[0], ids("Brute", 3)[0]
    hand(state, 1, low)
    hand(state, 2, high)
    state, events = run_flow(state, flow.start_battle, answers=[low])
    assert low in state.players[0].hand and high in state.discard
    assert [(e.data["from_seat"], e.data["card"]) for e in events if e.type == "HandCardTaken"] == [
        (1, low),
        (2, high),
    ]


def test_deer_makes_granted_temporary_strength_permanent_and_discards_the_granting_units():
    state = table(2)
    sniper = put(state, 0, ids("Sniper", 3)[0], 0)  # +3 to itself while fighting
    wall = put(state, 0, one("Shield Wall"), 0)  # +1 to each Human
    slot = empty_slot(state, 0)
    hand(state, 0, ids("D.E.E.R.", 3)[0])
    state, _ = act(state, 0, {"type": "recruit", "card": ids("D.E.E.R.", 3)[0], "slot": slot})
    assert _strengths(state)[sniper] == 1 + 3 + 1
    assert state.players[0].slots[wall].unit is None and one("Shield Wall") in state.specials


def test_black_noise_sends_ailien_cards_to_the_leftmost_active_unit():
    state = table(2)
    state.sudden_death = True
    left = put(state, 0, ids("Veteran", 3)[0], SCALE.index(5))
    put(state, 0, ids("Nanobots", 3)[0], 0)
    put(state, 0, one("Black Noise"), 0)
    put(state, 1, ids("Brute", 3)[0], 0)
    alpha = ids("A.I.Lien Alpha", 2)[0]
    state, events = _battle(state, [[alpha] + ids("Recruit", 3)[:2], ids("Hive Mind", 3)])
    revealed = next(e for e in events if e.type == "BattleCardRevealed" and e.seat == 0)
    assert revealed.data["slot"] == left
    assert _points(events)[0][1]["0"] == 5 + 5 + 3


def test_scammer_joins_the_pool_of_the_neighbour_it_takes_from():
    state = table(3)
    right = state.specials.pop(0)
    state.players[2].pool.append(right)
    put(state, 0, one("Scammer"), 0)
    state, _ = act(state, 0, {"type": "discard", "card": one("Scammer")})
    assert right in state.players[0].pool and one("Scammer") in state.players[2].pool


def test_queen_of_elysium_gains_2_strength_per_card_the_hacker_exchanges():
    state = table(2)
    put(state, 0, one("Queen of Elysium"), 0)
    state.players[0].pool.extend([state.specials.pop(0), state.specials.pop(0)])
    slot = empty_slot(state, 0)
    hand(state, 0, ids("Hacker", 3)[0])
    cmd = {"type": "recruit", "card": ids("Hacker", 3)[0], "slot": slot}
    renewed, _ = act(state, 0, cmd, answers=["renew"])
    assert _strengths(renewed)[0] == 1 + 4
    kept, _ = act(state, 0, cmd, answers=["keep"])
    assert _strengths(kept)[0] == 1 and kept.players[0].pool == state.players[0].pool


def test_illusionists_let_a_weaker_unit_lose_the_point_instead():
    state = table(2, factions=[one("Illusionists"), None])
    strong = put(state, 0, ids("Brute", 3)[0], SCALE.index(10))
    weak = put(state, 0, ids("Veteran", 3)[0], 0)
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], 0)
    decoy = ids("Recruit", 3)[0]
    hand(state, 0, decoy)
    state, _ = _battle(
        state, [ids("Brute", 3)[1:3], [ids("Hive Mind", 3)[2], ids("Commander", 3)[0]]]
    )
    assert pending(state) == {0: "react"}
    assert {"type": "react_card", "card": decoy} in legal_actions(state, 0)  # 1+1 cannot win
    state, events = act(state, 0, {"type": "react_card", "card": decoy})
    assert next(e for e in events if e.type == "BattleCardReplaced").data["slot"] == weak
    assert next(e for e in events if e.type == "PointScored").data["winners"] == [1]
    fought = [e for e in events if e.type == "BattleCardRevealed" and e.seat == 0]
    assert fought and fought[0].data["slot"] == strong  # the strong unit fights later


def test_illusionists_only_offer_decoys_of_another_colour_for_a_weaker_unit():
    state = table(2)  # no Illusionists
    put(state, 0, ids("Brute", 3)[0], SCALE.index(10))
    put(state, 0, ids("Veteran", 3)[0], 0)
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], 0)
    hand(state, 0, ids("Recruit", 3)[0])
    state, events = _battle(
        state, [ids("Brute", 3)[1:3], [ids("Hive Mind", 3)[2], ids("Commander", 3)[0]]]
    )
    assert state.phase == "recruitment" and "BattleCardReplaced" not in types(events)
    assert ids("Recruit", 3)[0] in state.players[0].hand  # no window was opened


def test_kollektah_keeps_cards_under_a_pool_unit_until_it_is_recruited():
    state = table(2, factions=[one("Kollektah"), None])
    put(state, 0, ids("Brute", 3)[0], 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    pool = state.specials.pop(0)
    state.players[0].pool.append(pool)
    keep = ids("Sniper", 3)[0]
    hand(state, 0, keep)
    state, events = _battle(state, [[ids("Brute", 3)[1]], [ids("Recruit", 3)[0]]], answers=[keep])
    tucked = next(e for e in events if e.type == "CardTucked")
    assert tucked.data == {"card": keep, "under": pool} and ENGINE.redact(tucked, 1) == {
        "under": pool
    }
    me = state.players[0]
    assert me.tucked == {pool: [keep]} and keep not in me.hand
    assert ENGINE.view(state, 0)["seats"][0]["tucked"] == {pool: [keep]}
    assert keep not in str(ENGINE.view(state, 1))
    trio = ids("Recruit", 3)[1:3] + [ids("Recruit", 3)[0]]
    for c in trio:
        if c not in me.hand:
            hand(state, 0, c)
    state.players[0].hand = [c for c in state.players[0].hand if c in trio]
    state, _ = act(
        state, 0, {"type": "triple", "cards": sorted(trio), "source": "pool", "special": pool}
    )
    assert keep in state.players[0].hand and state.players[0].tucked == {}


def test_megagneto_exchanges_a_basic_unit_keeping_its_strength():
    state = table(2, factions=[one("Megagneto"), None])
    slot = put(state, 0, ids("Veteran", 3)[0], SCALE.index(7))
    pay, new = ids("Recruit", 3)[0], ids("Brute", 3)[0]
    hand(state, 0, pay, new)
    cmd = {"type": "exchange_unit", "card": pay, "slot": slot, "unit": new}
    assert cmd in legal_actions(state, 0)
    assert not any(a["type"] == "exchange_unit" for a in legal_actions(table(2), 0))
    state, events = act(state, 0, cmd)
    assert types(events)[-1] == "UnitExchanged"
    me = state.players[0]
    assert me.slots[slot].unit == new and SCALE[me.slots[slot].pos] == 7
    assert me.hand == [ids("Veteran", 3)[0]] and pay in state.discard
    assert me.ammo == []  # no recruit effect (Brute would gain 2, Recruit 1 ammo)


def test_venus_colony_keeps_its_ailien_for_every_battle():
    from domain.games.aipokalypse.effects.resolve import origin_of, run

    venus = one("Venus Colony")
    state = table(2, factions=[venus, None])
    alpha = ids("A.I.Lien Alpha", 2)[0]
    milled = ids("Recruit", 3)[2]
    state.draw = [milled, alpha] + state.draw
    state, events = run_flow(
        state, lambda ctx: run(ctx, 0, CAT[venus].ops("start"), origin_of(venus))
    )
    assert types(events) == ["CardsMilled", "ColonyLoaded"]
    assert state.players[0].colony == alpha and milled in state.discard
    assert ENGINE.view(state, 1)["seats"][0]["colony"] == alpha  # it lies face up
    assert not any(
        a.get("card") == alpha for a in legal_actions(state, 0)
    )  # not before Sudden Death
    state.sudden_death = True
    slot = empty_slot(state, 0)
    cmd = {"type": "recruit", "card": alpha, "slot": slot}
    assert cmd in legal_actions(state, 0)  # "play it for A.I.Pokalypse"
    state, _ = act(state, 0, cmd)
    assert state.players[0].slots[slot].unit == alpha and state.players[0].colony is None
    assert ENGINE.view(state, 1)["seats"][0]["colony"] == alpha  # private until the reveal


def test_venus_colony_ailien_returns_after_the_battle_it_fought_in():
    venus = one("Venus Colony")
    state = table(2, factions=[venus, None])
    alpha = ids("A.I.Lien Alpha", 2)[0]
    state.players[0].colony = state.players[0].colony_seen = take(state, alpha)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(7))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(7))
    state, _ = _battle(state, [[ids("Recruit", 3)[0]], [ids("Hive Mind", 3)[0]]])  # 7+1 vs 7+5
    assert legal_actions(state, 0) == [{"type": "react_card", "card": alpha}, {"type": "pass"}]
    state, events = act(state, 0, {"type": "react_card", "card": alpha})  # 7+5 = 12: tied
    assert next(e for e in events if e.type == "PointScored").data["winners"] == [0, 1]
    assert "BattleCleared" in types(events)
    assert state.players[0].colony == alpha and alpha not in state.discard
    assert not state.players[0].colony_out


def test_dealer_gains_2_strength_when_the_journalist_exhausts_another_unit():
    state = table(2)
    put(state, 0, ids("Journalist", 3)[0], SCALE.index(3))
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(4))
    dealer = put(state, 0, one("Dealer"), SCALE.index(5))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(15))
    cards = [ids("Recruit", 3), ids("Hive Mind", 3)]
    state, events = _battle(state, cards, answers=[1, "skip"])
    changed = [e.data for e in events if e.type == "StrengthChanged" and e.data["slot"] == dealer]
    assert changed and changed[0]["pos"] == SCALE.index(5) + 2
