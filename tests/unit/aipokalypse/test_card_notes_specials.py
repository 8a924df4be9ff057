"""Issue 9, A.I.Pokalypse item 10: the Special Units of "Special Units (Card Notes)"
(``shared/rules/aipokalypse-rulebook.txt``) driven one by one against their note, with the
note quoted and concrete values. Cards whose notes other tests already pin are named in
the module list of the report (test_exact_notes, test_named_cards, test_choices)."""

from __future__ import annotations

import copy
import random

import pytest

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.coop import meets_alternative_win
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
    take,
    types,
)
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _s(state, seat, slot):
    return SCALE[state.players[seat].slots[slot].pos]


def _colour(color, value, k=2, skip=()):
    return [
        c for c in CAT.basic if CAT[c].color == color and CAT[c].value == value and c not in skip
    ][:k]


# ------------------------------------------------------------------ Humans


def test_big_benji_steals_when_its_seat_wins_a_point_with_another_unit():
    """Big Benji: "When you win a point, you can choose a special unit from a neighboring
    player's pool, which you place in your pool." The Veteran (not Big Benji) wins the
    point: the neighbour's pool 1 -> 0 cards, Big Benji's seat's pool 0 -> 1 (before: only a
    point Big Benji itself won counted)."""
    state = table(2)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(10))
    put(state, 0, one("Big Benji"), 0)
    put(state, 1, ids("Sniper", 3)[0], 0)
    theirs = state.specials.pop(0)
    state.players[1].pool.append(theirs)
    after, events = _battle(
        state,
        [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]], [ids("Recruit", 3)[1], ids("Brute", 3)[0]]],
    )
    while after.phase == "battle" and pending(after):  # seat 0 may cash in point 2
        after, more = act(after, min(pending(after)), {"type": "pass"})
        events = events + more
    assert [w for w, _ in _points(events)] == [[0], [1]]  # Veteran wins, Big Benji loses
    assert [e.data["card"] for e in events if e.type == "PoolCardMoved"] == [theirs]
    assert theirs in after.players[0].pool and theirs not in after.players[1].pool


def test_bombad_general_counts_the_ammo_just_spent_on_itself():
    """Bombad General: "The strength-gain effect includes the ammo you just spent." One ammo
    on Bombad General: 1 -> 3 (the ammo's 1 and its own 1); one on the Veteran: Veteran
    1 -> 2 and Bombad General 3 -> 4."""
    state = table(2)
    general = put(state, 0, one("Bombad General"), 0)
    veteran = put(state, 0, ids("Veteran", 3)[0], 0)
    give_ammo(state, 0, 2)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": general})
    assert _s(state, 0, general) == 3
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": veteran})
    assert (_s(state, 0, general), _s(state, 0, veteran)) == (4, 2)


def test_doc_exceeds_15_with_its_temporary_strength():
    """Doc.: "Doc can have over 15 strength due to its temporary strength." Doc. at 15 with
    a value-1 Human battle card: 15 + 4 + 1 = 20."""
    state = table(2)
    put(state, 0, one("Doc."), SCALE.index(15))
    put(state, 1, ids("Sniper", 3)[0], 0)
    _, events = _battle(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    assert _points(events)[0][1]["0"] == 20


def test_elder_commander_gives_4_only_to_a_human_and_places_a_red_slot_normally():
    """Elder Commander: "The unit that obtains 4 strength must also be a human. The new Red
    Slot is placed according to the normal rules." A Mech is no legal target; the Human
    target 1 -> 5. With 3 slots the Red Slot is a new (4th) slot."""
    state = table(2)
    human = put(state, 0, ids("Veteran", 3)[0], 0)
    mech = put(state, 0, ids("Heavy Tank", 3)[0], 0)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Elder Commander"))
    targets = {
        a.get("target")
        for a in legal_actions(state, 0)
        if a["type"] == "recruit" and a["card"] == one("Elder Commander") and a["slot"] == slot
    }
    assert human in targets and mech not in targets
    state, events = act(
        state, 0, {"type": "recruit", "card": one("Elder Commander"), "slot": slot, "target": human}
    )
    assert (_s(state, 0, human), _s(state, 0, mech)) == (5, 1)
    placed = [e.data for e in events if e.type == "RedSlotPlaced"]
    assert [(d["slot"], d["mode"]) for d in placed] == [(3, "new")]


def test_governor_triggers_the_leftmost_other_humans_recruit_effect_on_a_slot_only():
    """Governor: "You can never trigger effects from your hand." Round bonus: the Recruit on
    a slot (its recruit effect: 1 ammo) is triggered: ammo 0 -> 1; the Commander in the hand
    is not (the Veteran on a slot stays at 1)."""
    state = table(2)
    put(state, 0, one("Governor"), 0)
    put(state, 0, ids("Recruit", 3)[0], 0)
    veteran = put(state, 0, ids("Heavy Tank", 3)[0], 0)
    hand(state, 0, ids("Commander", 3)[0], *ids("Sniper", 3)[:5])
    after, _ = run_flow(state, flow.start_recruitment)
    assert len(after.players[0].ammo) == 1
    assert _s(after, 0, veteran) == 1


def test_governor_triggering_a_target_effect_lets_its_owner_choose_the_target():
    """Governor triggers "the recruit effect of your leftmost other Human": Elder Commander's
    "the target Human gains 4 strength; gain a Red Slot". The seat chooses the target among
    its Humans (Governor, the Veteran; the Mech is none): the Veteran 1 -> 5 (6 after its own
    round bonus) and a Red Slot
    (before: no target, so no strength at all)."""
    state = table(2, phase="battle")
    put(state, 0, one("Governor"), 0)
    put(state, 0, one("Elder Commander"), 0)
    put(state, 0, ids("Heavy Tank", 3)[0], 0)
    vet = put(state, 0, ids("Veteran", 3)[0], 0)
    hand(state, 0, *ids("Sniper", 3)[:3], *ids("Commander", 3)[:3])
    ctx = Ctx(copy.deepcopy(state), random.Random(0))
    with pytest.raises(NeedChoice) as need:
        flow.start_recruitment(ctx)
    assert need.value.seat == 0 and need.value.options == [0, vet]
    after, events = run_flow(state, flow.start_recruitment, answers=[vet])
    assert _s(after, 0, vet) == 6 and _s(after, 0, 0) == 1  # 1 + 4, + its own round bonus
    assert types(events).count("RedSlotPlaced") == 1


def test_neo_bonus_is_six_minus_its_health_and_it_wins_every_tie():
    """Neo: "Subtract the remaining cards in your health point stack from 6. This is the
    strength bonus Neo receives. You win any tie. This includes battle points, battle
    results, and even the total strength." Health 4: Neo (1) + 2 + card 1 = 4 ties the
    opponent's 4: Neo's seat alone scores; the battle result 1:0 costs seat 1 one point."""
    state = table(2)
    put(state, 0, one("Neo"), 0)
    state.specials[:0] = state.players[0].health[4:]
    del state.players[0].health[4:]
    put(state, 1, ids("Veteran", 3)[0], SCALE.index(3))
    _, events = _battle(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    assert _points(events)[0] == ([0], {"0": 4, "1": 4})
    assert [e.data["damage"] for e in events if e.type == "BattleEnded"] == [{"0": 0, "1": 1}]
    tied = table(2)
    put(tied, 0, one("Neo"), SCALE.index(5))
    put(tied, 1, ids("Veteran", 3)[0], SCALE.index(5))
    tied.players[0].health = tied.players[0].health[:2]  # fewer health points

    def end(ctx):
        flow.finish_by_strength(ctx, [0, 1], "apocalypse")

    after, events = run_flow(tied, end)
    assert after.result["winners"] == [0]  # total strength 5:5


def test_queen_of_elysium_without_a_pool_card_gains_no_health_and_gets_2_per_hacker_card():
    """Queen of Elysium: "If you have no Special Unit in your pool, you can't gain a health
    point. When you exchange your pool with the Hacker, you receive 2 strength for each card
    exchanged." No pool: health stays 4. Hacker renewing 2 pool cards: Queen 1 -> 5."""
    state = table(2)
    queen = put(state, 0, one("Queen of Elysium"), 0)
    state.players[0].health = state.players[0].health[:4]
    after, events = run_flow(state, flow.start_recruitment)
    assert len(after.players[0].health) == 4 and "HealthGained" not in types(events)
    state.players[0].pool = [state.specials.pop(0), state.specials.pop(0)]
    slot = empty_slot(state, 0)
    hand(state, 0, one("Hacker"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Hacker"), "slot": slot})
    assert _s(state, 0, queen) == 5


def test_seppuku_red_slot_goes_into_its_slot_or_by_the_normal_rules_from_the_hand():
    """Seppuku: "The Red Slot goes into the slot where Seppuku was. If you discard Seppuku
    from your hand, you get the slot according to normal rules." From slot 0 of 2: Red Slot
    replaces slot 0; from the hand: a new 3rd slot."""
    state = table(2)
    put(state, 0, one("Seppuku"), 0)
    put(state, 0, ids("Veteran", 3)[0], 0)
    after, events = act(copy.deepcopy(state), 0, {"type": "discard", "card": one("Seppuku")})
    assert [(e.data["slot"], e.data["mode"]) for e in events if e.type == "RedSlotPlaced"] == [
        (0, "replace")
    ]
    assert after.players[0].slots[0].red and len(after.players[0].slots) == 2
    take(state, one("Seppuku"))
    state.players[0].slots[0].unit = None
    hand(state, 0, one("Seppuku"))
    after, events = act(state, 0, {"type": "discard", "card": one("Seppuku")})
    assert [(e.data["slot"], e.data["mode"]) for e in events if e.type == "RedSlotPlaced"] == [
        (2, "new")
    ]


def test_walter_white_opens_a_seventh_slot_and_governor_cannot_execute_it_again():
    """Walter White: "You can open another slot to the right of your slots. To do this, you
    take a card from the draw pile. The effect cannot be executed twice by any effects."
    Recruited into the 6th slot: 7 slots, the new one from the top of the draw pile. A
    Governor's round bonus then skips it (still 7 slots) and triggers the Recruit: 1 ammo."""
    state = table(2)
    put(state, 0, one("Governor"), 0)
    for k in range(4):
        put(state, 0, ids("Heavy Tank", 3)[0] if k == 0 else ids("Brute", 3)[k - 1], 0)
    slot = empty_slot(state, 0)
    top = state.draw[0]
    hand(state, 0, one("Walter White"))
    state, events = act(state, 0, {"type": "recruit", "card": one("Walter White"), "slot": slot})
    assert len(state.players[0].slots) == 7 and state.players[0].slots[6].card == top
    state.players[0].slots[6].unit = take(state, ids("Recruit", 3)[0])
    hand(state, 0, *ids("Sniper", 3)[:3], *ids("Commander", 3)[:3])
    state.phase = "battle"
    after, events = run_flow(state, flow.start_recruitment)
    assert len(after.players[0].slots) == 7 and "SlotOpened" not in types(events)
    assert len(after.players[0].ammo) == 1


def test_xxx_correct_guess_puts_the_top_special_on_the_health_stack():
    """XxX: "If you have guessed the correct score, you draw a card from the main deck of
    Special Units and place it face down on top your health point stack." Guess 1 and score
    1: health 6 -> 7 with the deck's top card on top; guess 0: no card (health 6 -> 6)."""
    for guess, gained in ((1, True), (0, False)):
        state = table(2)
        put(state, 0, one("XxX"), SCALE.index(15))
        put(state, 1, ids("Sniper", 3)[0], 0)
        top = state.specials[0]
        after, events = _battle(
            state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]], answers=[guess]
        )
        health = after.players[0].health
        assert (len(health), health[0] == top) == ((7, True) if gained else (6, False))


# ------------------------------------------------------------------ Mechs


def test_back_up_reactivation_moves_a_scored_face_up_card_to_back_up():
    """Back.Up: "If the unit you reactivate already scored a point, the face up battle card
    is added to Back.Up.'s battle card." The Heavy Tank wins point 1; Back.Up fights point 2
    and reactivates it: both cards lie on Back.Up, the Tank is active, seat 0 keeps 2 points."""
    state = table(2)
    tank = put(state, 0, ids("Heavy Tank", 3)[0], SCALE.index(15))
    backup = put(state, 0, one("Back.Up"), SCALE.index(15))
    put(state, 1, ids("Sniper", 3)[0], 0)
    reds = _colour("red", 1, 2) + _colour("red", 2, 2)
    after, events = _battle(state, [[reds[0], reds[2]], [reds[1], reds[3]]])
    assert [e.data for e in events if e.type == "UnitReactivated"] == [{"slot": tank, "by": backup}]
    assert [w for w, _ in _points(events)] == [[0], [0]]
    assert [e.data["scores"] for e in events if e.type == "BattleEnded"] == [{"0": 2, "1": 0}]


def test_disc_jockey_counts_every_discarded_mech_with_or_without_a_discard_effect():
    """Disc Jockey: "Every discarded Mech counts, regardless of whether it has a discard
    effect or not." Heavy Tank (no discard effect) from the hand: 1 -> 2; Salvage Bot (one)
    from a slot: 2 -> 3; a Human (Recruit): stays 3."""
    state = table(2)
    dj = put(state, 0, one("Disc Jockey"), 0)
    put(state, 0, one("Salvage Bot"), 0)
    hand(state, 0, ids("Heavy Tank", 3)[0], ids("Recruit", 3)[0])
    state, _ = act(state, 0, {"type": "discard", "card": ids("Heavy Tank", 3)[0]})
    assert _s(state, 0, dj) == 2
    state, _ = act(state, 0, {"type": "discard", "card": one("Salvage Bot")})
    assert _s(state, 0, dj) == 3
    state, _ = act(state, 0, {"type": "discard", "card": ids("Recruit", 3)[0]})
    assert _s(state, 0, dj) == 3


def test_exe_suit_costs_every_opponent_one_health_point_and_can_start_sudden_death():
    """.Exe Suit: "This effect can end the game or trigger Sudden Death." Seat 1 with 1
    health point -> 0 (Sudden Death starts), seat 2 with 6 -> 5."""
    state = table(3)
    state.specials[:0] = state.players[1].health[1:]
    del state.players[1].health[1:]
    slot = empty_slot(state, 0)
    hand(state, 0, one(".Exe Suit"))
    state, _ = act(state, 0, {"type": "recruit", "card": one(".Exe Suit"), "slot": slot})
    assert [len(p.health) for p in state.players] == [6, 0, 5]
    assert state.sudden_death and not state.players[1].eliminated


def test_homo_deus_gains_twice_any_x_strength():
    """Homo Deus: "Whenever this unit is enhanced by "X strength," it's increased by twice
    the amount." One ammo (1 strength): 1 -> 3; Forge's round bonus (+1 to each Mech): the
    Heavy Tank 1 -> 2, Homo Deus 3 -> 5."""
    state = table(2)
    deus = put(state, 0, one("Homo Deus"), 0)
    put(state, 0, one("Forge"), 0)
    tank = put(state, 0, ids("Heavy Tank", 3)[0], 0)
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": deus})
    assert _s(state, 0, deus) == 3
    hand(state, 0, *ids("Sniper", 3)[:3], *ids("Commander", 3)[:3])
    state.phase = "battle"
    after, _ = run_flow(state, flow.start_recruitment)
    assert (_s(after, 0, deus), _s(after, 0, tank)) == (5, 2)


def test_trapperkeeper_opponent_decides_which_unit_it_discards():
    """Trapperkeeper: "Your opponents can decide for themselves which unit they want to
    discard (kill)." Seat 1 is asked (options weakest first) and gives up its 9-strength
    Sniper instead of the 2-strength one; no discard effect (its Salvage Bot gives no ammo)."""
    state = table(2)
    put(state, 0, one("Trapperkeeper"), 0)
    strong = put(state, 1, ids("Sniper", 3)[0], SCALE.index(9))
    put(state, 1, ids("Sniper", 3)[1], SCALE.index(2))
    ctx = Ctx(copy.deepcopy(state), random.Random(0))
    try:
        flow.start_battle(ctx)
        raise AssertionError("no decision")
    except Exception as need:  # NeedChoice
        assert need.seat == 1 and need.options == [1, 0]
    after, _ = run_flow(state, flow.start_battle, answers=[strong])
    assert after.players[1].slots[strong].unit is None
    assert after.players[1].slots[1].unit == ids("Sniper", 3)[1]


# ------------------------------------------------------------------ Mutants


def test_bookkeeper_trashes_as_often_as_wanted_without_discard_or_ammo_effects():
    """Bookkeeper: "You can execute the effect as many times as you want. The "discard"
    effect does neither trigger discard effects nor gain-ammo effects." Three trashed cards
    (Salvage Bot among them): Bookkeeper 1 -> 4, ammo stays 0, Disc Jockey stays 1."""
    state = table(2)
    book = put(state, 0, one("Bookkeeper"), 0)
    dj = put(state, 0, one("Disc Jockey"), 0)
    cards = [one("Salvage Bot"), ids("Recruit", 3)[0], ids("Veteran", 3)[0]]
    hand(state, 0, *cards, *ids("Sniper", 3)[:3])
    state.phase = "battle"
    after, _ = run_flow(state, flow.start_recruitment, answers=cards + ["stop"])
    assert (_s(after, 0, book), _s(after, 0, dj)) == (4, 1)
    assert after.players[0].ammo == [] and set(cards[1:]) <= set(after.discard)
    assert after.specials[-1] == one("Salvage Bot")  # a Special Unit: under its deck


def test_dealer_gains_2_when_its_reactivation_or_an_own_effect_exhausts_a_unit():
    """Dealer: "If an effect from one of your units results in another of your units being
    exhausted or reactivated, then it receives 2 strength. When Dealer fights with a
    matching combat card, it can reactivate another unit. Put the battle card of the
    reactivated unit to Dealer's battle card." Brute loses point 1; Dealer fights point 2,
    reactivates the Brute (cards move to Dealer): Dealer 3 -> 5."""
    state = table(2)
    brute = put(state, 0, ids("Brute", 3)[0], 0)
    dealer = put(state, 0, one("Dealer"), SCALE.index(3))
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], SCALE.index(15))
    y = _colour("yellow", 1, 4)
    after, events = _battle(state, [y[:2], y[2:4]])
    assert [e.data for e in events if e.type == "UnitReactivated"] == [
        {"slot": brute, "by": dealer}
    ]
    assert _s(after, 0, dealer) == 5


def test_ghost_twin_reactivates_another_exhausted_unit_when_it_wins_a_point():
    """Ghost Twin: "When Ghost Twin wins a point, you can reactivate another unit that has
    already been exhausted. Put the battle card of the reactivated unit to Ghost Twin's
    battle card." Brute loses point 1, Ghost Twin wins point 2 and the Brute is active
    again with no card above it; when Ghost Twin loses nothing is reactivated."""
    state = table(2)
    brute = put(state, 0, ids("Brute", 3)[0], 0)
    twin = put(state, 0, one("Ghost Twin"), SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(10))
    put(state, 1, ids("Hive Mind", 3)[1], SCALE.index(2))
    y = _colour("yellow", 1, 4)
    _, events = _battle(state, [y[:2], y[2:4]])
    assert [w for w, _ in _points(events)] == [[1], [0]]
    assert [e.data for e in events if e.type == "UnitReactivated"] == [{"slot": brute, "by": twin}]


def test_hells_angel_draws_beyond_six_no_hand_limit_in_recruitment():
    """Hells Angel, Merowinger & Organ Grinder: "During the Recruitment Phase, there is no
    card hand limit." Hells Angel after the draw up to 6: 8 cards; Merowinger: 7 cards and
    1 ammo; Organ Grinder recruited with 6 in hand: 5 + 3 = 8."""
    for name, cards, ammo in (("Hells Angel", 8, 0), ("Merowinger", 7, 1)):
        state = table(2, phase="battle")
        put(state, 0, one(name), 0)
        after, _ = run_flow(state, flow.start_recruitment)
        assert (len(after.players[0].hand), len(after.players[0].ammo)) == (cards, ammo)
    state = table(2)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Organ Grinder"), *ids("Sniper", 3)[:3], *ids("Commander", 3)[:2])
    state, _ = act(state, 0, {"type": "recruit", "card": one("Organ Grinder"), "slot": slot})
    assert len(state.players[0].hand) == 8


def test_invader_gains_the_temporary_strength_of_its_units_capped_at_15():
    """Invader: "Add up all strength that your units with temporary effects provide and give
    it to Invader as permanent strength. It cannot receive more than 15 strength." Sniper
    (+3) and Heavy Tank (+2): Invader 1 -> 6; from 12: 15."""
    for start, expected in ((0, 6), (SCALE.index(12), 15)):
        state = table(2)
        inv = put(state, 0, one("Invader"), start)
        put(state, 0, ids("Sniper", 3)[0], 0)
        put(state, 0, ids("Heavy Tank", 3)[0], 0)
        put(state, 1, ids("Veteran", 3)[0], 0)
        after, _ = run_flow(state, flow.start_battle)
        assert _s(after, 0, inv) == expected


def test_invader_win_condition_counts_rogues_only_as_purple():
    """Invader: "For Invader's win condition, Rogues count only as purple, even though they
    can fight with all colors." Invader + 4 Mutants: won; Invader + 3 Mutants + a Drifter
    (Rogue): not won."""
    state = table(2)
    put(state, 0, one("Invader"), 0)
    for k in range(3):
        put(state, 0, ids("Brute", 3)[k], 0)
    last = put(state, 0, ids("Hive Mind", 3)[0], 0)
    assert meets_alternative_win(state.players[0])
    state.players[0].slots[last].unit = take(state, one("Drifter"))
    assert not meets_alternative_win(state.players[0])


def test_riddickules_preparation_ammo_makes_each_opponent_exhaust_a_unit_of_its_choice():
    """Riddickules: "The effect is only triggered when it explicitly involves a gain-ammo
    effect ... Your opponents can choose which unit to exhaust." Its preparation takes 1
    ammo (a gain-ammo effect in the Battle Phase): seat 1 exhausts the unit it picks (its
    strong Sniper here), ammo 0 -> 1. A Recruitment Phase ammo gain (Recruit) exhausts
    nothing."""
    state = table(2)
    put(state, 0, one("Riddickules"), 0)
    weak = put(state, 1, ids("Sniper", 3)[0], 0)
    strong = put(state, 1, ids("Sniper", 3)[1], SCALE.index(9))
    held = Ctx(copy.deepcopy(state), random.Random(0))
    try:
        flow.start_battle(held)
        raise AssertionError("no decision")
    except Exception as need:
        assert need.seat == 1 and need.options == [weak, strong]
    after, events = run_flow(copy.deepcopy(state), flow.start_battle, answers=[strong])
    assert [(e.seat, e.data["slot"]) for e in events if e.type == "UnitExhausted"] == [(1, strong)]
    assert len(after.players[0].ammo) == 1
    slot = empty_slot(state, 0)
    hand(state, 0, ids("Recruit", 3)[0])
    state, events = act(state, 0, {"type": "recruit", "card": ids("Recruit", 3)[0], "slot": slot})
    assert "UnitExhausted" not in types(events) and len(state.players[0].ammo) == 1


# ------------------------------------------------------------------ Rogues


def test_alias_blanc_takes_the_top_discard_and_ammo_only_when_nobody_has_any():
    """Alias Blanc: "You receive one ammo from the supply if no player has ammo." Top of the
    discard pile (a Brute) to the hand; nobody has ammo: 0 -> 1; when seat 1 has 1 ammo:
    0 -> 0."""
    for other_ammo, expected in ((0, 1), (1, 0)):
        state = table(2)
        brute = take(state, ids("Brute", 3)[0])
        state.discard += [take(state, ids("Recruit", 3)[0]), brute]
        give_ammo(state, 1, other_ammo)
        slot = empty_slot(state, 0)
        hand(state, 0, one("Alias Blanc"))
        state, _ = act(state, 0, {"type": "recruit", "card": one("Alias Blanc"), "slot": slot})
        assert state.players[0].hand == [brute] and len(state.players[0].ammo) == expected


def test_black_noise_sends_ailien_cards_to_the_leftmost_unit_whatever_its_colour():
    """Black Noise: "As all your units can now fight with A.I.Liens, always fight with the
    unit farthest to the left." A.I.Lien Alpha (5) fights with the leftmost unit, a Heavy
    Tank (3, +2 its own battle effect), +3: 13."""
    state = table(2)
    put(state, 0, ids("Heavy Tank", 3)[0], SCALE.index(3))
    put(state, 0, one("Black Noise"), 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    _, events = _battle(
        state,
        [
            [one("A.I.Lien Alpha"), ids("Recruit", 3)[0]],
            [ids("Recruit", 3)[1], ids("Recruit", 3)[2]],
        ],
    )
    revealed = [e.data for e in events if e.type == "BattleCardRevealed" and e.seat == 0]
    assert revealed[0]["slot"] == 0 and _points(events)[0][1]["0"] == 13


def test_destiny_triggers_a_units_discard_effect_and_the_unit_stays():
    """Destiny: "Only effects of units you control apply. You don't have to discard the
    units for this effect." Salvage Bot's discard effect (2 ammo): ammo 0 -> 2, the Salvage
    Bot stays on its slot; a Salvage Bot in the hand is not used."""
    state = table(2, phase="battle")
    put(state, 0, one("Destiny"), 0)
    put(state, 0, ids("Veteran", 3)[0], 0)
    bot = put(state, 0, one("Salvage Bot"), 0)
    after, _ = run_flow(state, flow.start_recruitment)
    assert len(after.players[0].ammo) == 2 and after.players[0].slots[bot].unit == one(
        "Salvage Bot"
    )
    none = table(2, phase="battle")
    put(none, 0, one("Destiny"), 0)
    hand(none, 0, one("Salvage Bot"))
    after, _ = run_flow(none, flow.start_recruitment)
    assert after.players[0].ammo == []


def test_lillith_doubles_red_slot_bonuses_only():
    """Lillith: "The ability refers only to bonuses of Red Slots and not on other units with
    Red Slot effects." A Red Slot's ammo symbol at 3: 2 ammo; Module's Red Slot effect gives
    still one Red Slot."""
    state = table(2)
    put(state, 0, one("Lillith"), 0)
    red = next(
        s
        for s in state.specials
        if CAT[s].red_slot.get(3) == "ammo" and CAT[s].red_slot.get(2) is None
    )
    slot = put(state, 0, ids("Veteran", 3)[0], SCALE.index(2), red=red)
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": slot})
    assert len(state.players[0].ammo) == 2
    hand(state, 0, one("Module"), ids("Recruit", 3)[0], ids("Sniper", 3)[0])
    state, events = act(state, 0, {"type": "discard", "card": one("Module")})
    assert types(events).count("RedSlotPlaced") == 1


def test_oracle_adds_1_per_unit_with_a_discard_effect_to_the_point_that_triggers_it():
    """Oracle: "You don't have to discard the units for this effect. The added strength is
    already added to the point that triggers this effect." Salvage Bot and Seppuku on
    slots: Oracle (1) + 2 + card 1 = 4 in the first point it fights; both units stay."""
    state = table(2)
    put(state, 0, one("Oracle"), 0)
    put(state, 0, one("Salvage Bot"), 0)
    put(state, 0, one("Seppuku"), 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    after, events = _battle(
        state,
        [
            [one("Drifter"), ids("Recruit", 3)[0], ids("Recruit", 3)[1]],
            [ids("Sniper", 3)[0], ids("Sniper", 3)[1], ids("Sniper", 3)[2]],
        ],
    )
    assert _points(events)[0][1]["0"] == 1 + 2 + 4


def test_scammer_goes_to_a_neighbours_pool_and_takes_one_from_it():
    """Scammer: "You can place Scammer in the pool of one of your neighboring opponents and
    take a Special Unit from that pool." Discarded from the hand: Scammer in seat 1's pool,
    seat 1's pool card in seat 0's."""
    state = table(2)
    theirs = state.specials.pop(0)
    state.players[1].pool = [theirs]
    hand(state, 0, one("Scammer"))
    state, _ = act(state, 0, {"type": "discard", "card": one("Scammer")})
    assert state.players[0].pool == [theirs] and state.players[1].pool == [one("Scammer")]


def test_stalker_second_faction_keeps_the_6_ammo_limit_and_loses_start_effects():
    """Stalker: "Faction effects that would be executed at the start of the game can no
    longer be used. Despite having multiple factions, you can still store a maximum of 6
    ammo." Gaining Sky Harbor (Start: 3 ammo) gives no ammo; with 6 ammo a Recruit gives
    none (still 6)."""
    state = table(2)
    sky = one("Sky Harbor")
    take(state, sky)
    state.ammo_deck.insert(0, sky)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Stalker"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Stalker"), "slot": slot})
    assert state.players[0].extra_factions == [sky] and state.players[0].ammo == []
    give_ammo(state, 0, 6)
    slot = empty_slot(state, 0)
    hand(state, 0, ids("Recruit", 3)[0])
    state, _ = act(state, 0, {"type": "recruit", "card": ids("Recruit", 3)[0], "slot": slot})
    assert len(state.players[0].ammo) == 6


# ------------------------------------------------------------------ designed Special Units
# (no card note: the card text of ``cards/special_units.json``, ``source: designed``)


@pytest.mark.parametrize(
    "name,target,gain",
    [("Sergeant", "Veteran", 2), ("Overclock", "Heavy Tank", 3), ("Mutagen", "Brute", 3)],
)
def test_designed_recruit_target_units_give_their_colour_strength(name, target, gain):
    """ "Recruit: the target Human gains 2" / "the target Mech gains 3" / "the target
    Mutant gains 3": the target 1 -> 1 + gain."""
    state = table(2)
    t = put(state, 0, ids(target, 3)[0], 0)
    slot = empty_slot(state, 0)
    hand(state, 0, one(name))
    state, _ = act(state, 0, {"type": "recruit", "card": one(name), "slot": slot, "target": t})
    assert _s(state, 0, t) == 1 + gain


def test_designed_arsenal_takes_3_ammo_on_recruit():
    """Arsenal "Recruit: take 3 ammo": 0 -> 3."""
    state = table(2)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Arsenal"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Arsenal"), "slot": slot})
    assert len(state.players[0].ammo) == 3


def test_designed_round_bonus_special_units_follow_their_card_text():
    """Quartermaster "take 2 ammo" (0 -> 2); Assembly Line "draw 1 card" (7 cards); Forge
    "each of your Mechs gains 1" and Swarm Queen "each of your Mutants gains 1" (Heavy Tank
    1 -> 2, the opponent's Brute stays 1); Regenerator "this unit gains 2" (a Mutant too:
    1 -> 4)."""
    state = table(2, phase="battle")
    put(state, 0, one("Quartermaster"), 0)
    put(state, 0, one("Assembly Line"), 0)
    put(state, 0, one("Forge"), 0)
    put(state, 0, one("Swarm Queen"), 0)
    regen = put(state, 0, one("Regenerator"), 0)
    tank = put(state, 0, ids("Heavy Tank", 3)[0], 0)
    brute = put(state, 1, ids("Brute", 3)[0], 0)  # the opponent's Mutant: not "your"
    after, _ = run_flow(state, flow.start_recruitment)
    me = after.players[0]
    assert len(me.ammo) == 2 and len(me.hand) == 7
    assert (_s(after, 0, tank), _s(after, 0, regen), _s(after, 1, brute)) == (
        2,
        4,
        1,
    )  # Regenerator: +2, +1 Mutant
    assert _s(after, 0, 2) == 2 and _s(after, 0, 3) == 2  # Forge (Mech), Swarm Queen (Mutant)


def test_designed_discard_special_units_follow_their_card_text():
    """Field Hospital "Discard: gain a health point (pool to health stack)" (4 -> 5);
    Salvage Bot "Discard: take 2 ammo" (0 -> 2); Hydra "Discard: draw 2 cards" (0 -> 2)."""
    state = table(2)
    state.players[0].health = state.players[0].health[:4]
    pool = state.specials.pop(0)
    state.players[0].pool = [pool]
    hand(state, 0, one("Field Hospital"), one("Salvage Bot"), one("Hydra"))
    state, _ = act(state, 0, {"type": "discard", "card": one("Field Hospital")})
    assert len(state.players[0].health) == 5 and state.players[0].health[0] == pool
    state, _ = act(state, 0, {"type": "discard", "card": one("Salvage Bot")})
    assert len(state.players[0].ammo) == 2
    state, _ = act(state, 0, {"type": "discard", "card": one("Hydra")})
    assert len(state.players[0].hand) == 2


@pytest.mark.parametrize(
    "name,unit,colour_card,bonus",
    [
        ("Shield Wall", "Veteran", "Recruit", 1),
        ("Drone Swarm", "Module", "Goldfish", 1),
        ("Blob", "Brute", "Zombie", 1),
        ("Siege Engine", None, "Goldfish", 3),
        ("Acid Spitter", None, "Zombie", 2),
    ],
)
def test_designed_battle_special_units_follow_their_card_text(name, unit, colour_card, bonus):
    """ "Battle: each of your Humans/Mechs/Mutants has +1 temporary strength" (another unit
    of that colour fights: its strength + card 1 + 1) and "+3 / +2 temporary strength while
    fighting" (the card itself fights at 1: 1 + 1 + bonus)."""
    state = table(2)
    if unit:
        put(state, 0, ids(unit, 3)[0], SCALE.index(3))
        put(state, 0, one(name), 0)
        base = 3
    else:
        put(state, 0, one(name), 0)
        base = 1
    put(state, 1, ids("Veteran", 3)[1], 0)
    card = ids(colour_card, 3)
    _, events = _battle(
        state,
        [
            [card[0]] * 1 + ([card[1]] if unit else []),
            [ids("Recruit", 3)[1]] + ([ids("Recruit", 3)[2]] if unit else []),
        ],
    )
    assert _points(events)[0][1]["0"] == base + 1 + bonus
