"""Issue 5: the card notes that were approximate, now exact (``aipokalypse-rulebook.txt``,
"Special Units (Card Notes)" and "Factions"), each with a concrete before/after value."""

from __future__ import annotations

import copy
import random

import pytest

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.bots import BOTS
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.effects.resolve import origin_of, run
from domain.games.aipokalypse.spec import SCALE
from domain.games.aipokalypse.views import redact, redact_type, view
from tests.unit.aipokalypse.helpers import act, hand, ids, one, put, run_flow, table, take
from tests.unit.aipokalypse.test_rules_battle import _battle


def _strength(state, seat, slot):
    return SCALE[state.players[seat].slots[slot].pos]


# ------------------------------------------------------------------ C.H.R.O.M.E.


def test_chrome_discarded_makes_a_snipers_3_temporary_strength_permanent():
    """ "If a unit has 3 strength temporarily, you can discard C.H.R.O.M.E. permanently to
    that unit": Sniper (+3 temporary when it fights) goes from 1 to 4 strength."""
    state = table(2)
    chrome = put(state, 0, one("C.H.R.O.M.E."), SCALE.index(5))
    sniper = put(state, 0, ids("Sniper", 3)[0], 0)
    tank = put(state, 0, ids("Heavy Tank", 3)[0], 0)  # only +2 temporary: not offered
    held, _ = act(
        copy.deepcopy(state), 0, {"type": "discard", "card": one("C.H.R.O.M.E.")}, defaults=False
    )
    assert held.choice["options"] == [sniper, "skip"]
    done, _ = act(copy.deepcopy(state), 0, {"type": "discard", "card": one("C.H.R.O.M.E.")})
    assert _strength(state, 0, sniper) == 1 and _strength(done, 0, sniper) == 4
    assert _strength(done, 0, tank) == 1
    assert done.players[0].slots[chrome].unit is None
    skipped, _ = act(state, 0, {"type": "discard", "card": one("C.H.R.O.M.E.")}, answers=["skip"])
    assert _strength(skipped, 0, sniper) == 1


def test_chrome_double_damage_cannot_eliminate_when_that_battle_starts_sudden_death():
    """ "If the end of the battle triggered Sudden Death, the effect cannot cause a player to
    be eliminated": 1 health point left, doubled damage 2 -> 0 health, not eliminated."""
    state = table(2)
    put(state, 0, one("C.H.R.O.M.E."), SCALE.index(10))
    put(state, 1, one("Sniper"), 0)
    state.specials[:0] = state.players[1].health[1:]
    del state.players[1].health[1:]
    after, events = _battle(
        state, [[ids("Brute", 3)[0]], [ids("Recruit", 3)[0]]], answers=["double"]
    )
    assert [e.data["damage"] for e in events if e.type == "BattleEnded"] == [{"0": 0, "1": 2}]
    assert after.players[1].health == [] and not after.players[1].eliminated
    assert after.sudden_death and after.phase == "recruitment"


# ------------------------------------------------------------------ Fallout Boyz


def _fallout_table():
    state = table(2, factions=[one("Fallout Boyz"), None])
    recruit, veteran = ids("Recruit", 3)[0], ids("Veteran", 3)[0]
    hand(state, 0, recruit, veteran)
    return state, recruit, veteran


def test_fallout_boyz_is_no_round_bonus_but_its_faction_card_can_be_discarded():
    """ "... or even discard it": discarding the faction card resolves its discard effect
    (discard a hand card, draw 2): hand 2 -> 3 cards, faction gone under the ammo deck."""
    state, recruit, veteran = _fallout_table()
    fallout = one("Fallout Boyz")
    bonus, events = run_flow(copy.deepcopy(state), flow.start_recruitment)
    assert len(bonus.players[0].hand) == 6  # only the draw up to 6 (no 7th)
    assert {"type": "discard", "card": fallout} in legal_actions(state, 0)
    top_two = state.draw[:2]
    done, events = act(state, 0, {"type": "discard", "card": fallout}, answers=[veteran])
    assert done.players[0].faction is None and done.ammo_deck[-1] == fallout
    assert sorted(done.players[0].hand) == sorted([recruit] + top_two)
    assert veteran in done.discard
    gone = [e for e in events if e.type == "FactionDiscarded"]
    assert gone[-1].data == {"card": fallout, "hidden": True}


def test_fallout_boyz_discard_effect_is_triggered_by_destiny_and_the_faction_stays():
    """ "You can also trigger the discard effect of this card with other card effects":
    Destiny's round bonus (leftmost unit with a discard effect, faction last) finds no unit
    with one and triggers Fallout Boyz: discard 1, draw 2; the faction stays."""
    state, recruit, veteran = _fallout_table()
    put(state, 0, one("Destiny"), 0)
    hand(state, 0, *ids("Sniper", 3)[:2], *ids("Heavy Tank", 3)[:2])  # already 6 cards: no draw
    after, events = run_flow(state, flow.start_recruitment, answers=[veteran])
    assert after.players[0].faction == one("Fallout Boyz")
    assert veteran in after.discard and len(after.players[0].hand) == 7


# ------------------------------------------------------------------ Outfitter Q


def test_outfitter_q_takes_from_the_opponents_hands_and_only_the_two_seats_see_the_card():
    """A card from each opponent's hand, the owner keeps one (the Brute, value 5) and the
    other (Recruit, value 1) is discarded: hands 1/1 -> 0/0, owner's hand 0 -> 1."""
    state = table(3)
    put(state, 0, one("Outfitter Q"), 0)
    for seat in (1, 2):
        put(state, seat, ids("Veteran", 3)[seat], 0)
    low, high = ids("Recruit", 3)[0], ids("Brute", 3)[0]
    hand(state, 1, low)
    hand(state, 2, high)
    after, events = run_flow(state, flow.start_battle)  # default: the highest value
    assert high in after.players[0].hand and low in after.discard
    taken = [e for e in events if e.type == "HandCardTaken"]
    assert [e.data for e in taken] == [
        {"card": low, "from_seat": 1},
        {"card": high, "from_seat": 2},
    ]
    assert redact(taken[0], 2) == {"from_seat": 1} and redact(taken[0], None) == {"from_seat": 1}
    assert redact(taken[0], 1)["card"] == low and redact(taken[0], 0)["card"] == low
    assert redact_type(taken[0], 2) == "HandCardTaken"


def test_outfitter_q_draws_a_card_when_the_opponents_have_no_hand_cards():
    state = table(2)
    put(state, 0, one("Outfitter Q"), 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    top = state.draw[0]
    after, events = run_flow(state, flow.start_battle)
    kinds = [e.type for e in events]
    prep = events[: kinds.index("BattleStarted")]
    assert [(e.type, e.seat, e.data["cards"]) for e in prep if e.type == "CardsDrawn"] == [
        ("CardsDrawn", 0, [top])
    ]
    assert "HandCardTaken" not in kinds and top in after.players[0].hand


def test_outfitter_q_waits_for_the_other_players_preparation_effects():
    """Seat 1's Trapperkeeper (a later seat) resolves first: seat 0 must give up its only
    unit, Outfitter Q, which then takes nothing — seat 1 keeps its hand card."""
    state = table(2)
    put(state, 0, one("Outfitter Q"), 0)
    put(state, 1, one("Trapperkeeper"), 0)
    card = ids("Brute", 3)[0]
    hand(state, 1, card)
    after, events = run_flow(state, flow.start_battle)
    kinds = [e.type for e in events]
    assert "HandCardTaken" not in kinds and one("Outfitter Q") in after.specials
    assert card in after.players[1].hand


# ------------------------------------------------------------------ Eagle Eye


def test_eagle_eye_counts_temporary_effects_for_the_colour_and_the_unit():
    """ "Temporary effects must be taken into account": seat 1's Sniper has 2 strength +3
    temporary = 5, its Veteran 4 and its Brute (yellow) 4. Blue is now the strongest colour
    (without temporary effects it was yellow), and the weakest blue unit with temporary
    effects is the Veteran (without them: the Sniper)."""
    state = table(2)
    put(state, 0, one("Eagle Eye"), 0)
    sniper = put(state, 1, ids("Sniper", 3)[0], SCALE.index(2))
    veteran = put(state, 1, ids("Veteran", 3)[0], SCALE.index(4))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(4))
    ctx = Ctx(copy.deepcopy(state), random.Random(0))
    with pytest.raises(NeedChoice) as need:
        flow.start_battle(ctx)
    assert need.value.options[0] == "blue"
    ctx = Ctx(copy.deepcopy(state), random.Random(0), ["blue"])
    with pytest.raises(NeedChoice) as need:
        flow.start_battle(ctx)
    assert need.value.seat == 1 and need.value.options == [veteran, sniper]
    after, events = run_flow(state, flow.start_battle)
    exhausted = [e.data["slot"] for e in events if e.type == "UnitExhausted" and e.seat == 1]
    assert exhausted[:1] == [veteran]


# ------------------------------------------------------------------ Kollektah


def _kollektah_table():
    state = table(2, factions=[one("Kollektah"), None])
    put(state, 0, one("Big Benji"), 0)
    a, b, c = (state.specials.pop(0) for _ in range(3))
    state.players[0].pool = [a, b, c]
    stored = ids("Brute", 3)[0]
    take(state, stored)
    state.players[0].tucked = {a: [stored]}
    return state, a, b, c, stored


def test_kollektah_owner_picks_the_pool_card_the_stored_cards_move_under():
    """ "If you discard or lose a Special Unit in your pool, you can swap the cards to
    another unit": Big Benji cashes pool card A; the stored Brute goes under C (the
    player's pick) instead of B (the former fixed rule: the first remaining pool card)."""
    state, a, b, c, stored = _kollektah_table()
    held, _ = act(copy.deepcopy(state), 0, {"type": "cash_pool", "card": a}, defaults=False)
    assert held.choice["seat"] == 0 and held.choice["options"] == [b, c]
    picked, events = act(copy.deepcopy(state), 0, {"type": "cash_pool", "card": a}, answers=[c])
    assert picked.players[0].tucked == {c: [stored]} and picked.players[0].pool == [b, c]
    assert [e.data for e in events if e.type == "CardsRetucked"] == [
        {"card": a, "under": c, "hidden": True}
    ]
    default, _ = act(state, 0, {"type": "cash_pool", "card": a})
    assert default.players[0].tucked == {b: [stored]}


def test_kollektah_victim_of_a_steal_picks_too_and_a_last_pool_card_loses_them():
    """A neighbour's Big Benji steals pool card A of the Kollektah seat: that seat (not the
    thief) decides; with A as the only pool card the stored card is lost (discard pile)."""
    state, a, b, c, stored = _kollektah_table()
    state.phase = "battle"
    ctx = Ctx(copy.deepcopy(state), random.Random(0), [a])  # seat 1 steals A
    with pytest.raises(NeedChoice) as need:
        run(ctx, 1, [{"op": "steal_pool"}], origin_of(one("Big Benji")))
    assert need.value.seat == 0 and need.value.options == [b, c]
    state.players[0].pool = [a]
    ctx = Ctx(state, random.Random(0), [a])
    run(ctx, 1, [{"op": "steal_pool"}], origin_of(one("Big Benji")))
    assert ctx.state.players[1].pool == [a] and stored in ctx.state.discard
    assert ctx.state.players[0].tucked == {}


# ------------------------------------------------------------------ Megaton


def test_megaton_boom_uses_only_the_loaded_cards():
    """ "You can no longer access the cards except for Megaton's Boom effect": Brute (5) and
    Veteran (4) loaded when seat 0 ends Recruitment leave its hand (2 -> 0 cards); the Boom
    blasts 9: seat 1 loses its 9-strength unit, its 12-strength unit is out of reach."""
    state = table(2, factions=[one("Megaton"), None])
    put(state, 0, ids("Commander", 3)[0], SCALE.index(15))
    strong = put(state, 1, ids("Sniper", 3)[0], SCALE.index(12))
    middle = put(state, 1, ids("Sniper", 3)[1], SCALE.index(9))
    weak = put(state, 1, ids("Sniper", 3)[2], SCALE.index(3))
    brute, veteran = ids("Brute", 3)[0], ids("Veteran", 3)[0]
    hand(state, 0, brute, veteran)
    state.players[1].ready = True
    loaded, events = act(copy.deepcopy(state), 0, {"type": "ready"}, answers=[brute, veteran])
    assert loaded.players[0].megaton == [brute, veteran]
    assert brute not in loaded.players[0].hand and veteran not in loaded.players[0].hand
    assert "MegatonBoom" not in [e.type for e in events]  # default: wait
    assert loaded.players[1].slots[middle].unit == ids("Sniper", 3)[1]
    assert (
        view(loaded, 1)["seats"][0]["megaton_count"] == 2
        and "megaton" not in view(loaded, 1)["seats"][0]
    )
    boom, events = act(state, 0, {"type": "ready"}, answers=[brute, veteran, "boom"])
    assert [e.data["blast"] for e in events if e.type == "MegatonBoom"] == [9]
    slots = boom.players[1].slots
    assert slots[middle].unit is None
    assert slots[strong].unit == ids("Sniper", 3)[0] and slots[weak].unit == ids("Sniper", 3)[2]
    assert boom.players[0].megaton == [] and brute in boom.discard and veteran in boom.discard


def test_megaton_without_loaded_cards_has_no_boom():
    state = table(2, factions=[one("Megaton"), None])
    put(state, 0, ids("Commander", 3)[0], 0)
    put(state, 1, ids("Sniper", 3)[0], 0)
    state.players[0].health = state.players[0].health[:1]  # formerly: Boom at <= 3
    after, events = run_flow(state, flow.start_battle)
    assert "MegatonBoom" not in [e.type for e in events]
    assert after.players[1].slots[0].unit == ids("Sniper", 3)[0]


# ------------------------------------------------------------------ Big Benji


def test_big_benji_cashes_while_a_drawn_special_unit_waits_to_be_chosen():
    """ "You can do this at any time": also while the seat chooses one of the two Special
    Units drawn from its health stack — ammo 0 -> 1, pool 1 -> 0, the offer stays open."""
    state = table(2)
    put(state, 0, one("Big Benji"), 0)
    pool = state.specials.pop(0)
    state.players[0].pool = [pool]
    offer = state.players[0].health[:2]
    del state.players[0].health[:2]
    state.players[0].offer = offer
    state.players[0].offer_ctx = {"source": "health", "pos": 0, "slot": None}
    assert pending(state)[0] == "choose_special"
    assert legal_actions(state, 0) == (
        [{"type": "choose_special", "special": c} for c in offer]
        + [{"type": "cash_pool", "card": pool}]
    )
    after, _ = act(state, 0, {"type": "cash_pool", "card": pool})
    assert len(after.players[0].ammo) == 1 and after.players[0].pool == []
    assert after.players[0].offer == offer and pending(after)[0] == "choose_special"


def test_tactician_bot_still_picks_a_special_unit_when_big_benji_could_cash():
    state = table(2)
    put(state, 0, one("Big Benji"), 0)
    state.players[0].pool = [state.specials.pop(0)]
    offer = state.players[0].health[:2]
    del state.players[0].health[:2]
    state.players[0].offer = offer
    state.players[0].offer_ctx = {"source": "health", "pos": 0, "slot": None}
    cmd = BOTS["tactician"].choose(state, 0, random.Random(0))
    assert cmd["type"] == "choose_special" and cmd["special"] in offer
