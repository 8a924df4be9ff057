"""Solo / Cooperative Mode — the A.I.Toma's set-up and its Battle Phase (rulebook "Game Setup:
A.I.Toma", "A.I.Toma Battle Phase"), each rule with concrete values."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from domain.engine import InvalidCommand, Setup, fold
from domain.games.aipokalypse import ENGINE, battle, flow
from domain.games.aipokalypse import toma as toma_mod
from domain.games.aipokalypse.actions import pending
from domain.games.aipokalypse.effects.resolve import run
from domain.games.aipokalypse.spec import DIFFICULTIES
from domain.games.aipokalypse.state import new_toma_slot, public_board, strength_of
from tests.unit.aipokalypse.helpers import CAT, act, empty_slot, hand, one, put, run_flow, take
from tests.unit.aipokalypse.toma_helpers import (
    basic,
    current,
    flow_ctx,
    special_with,
    toma,
    toma_table,
)

B3, B1, R2, Y4 = basic("blue", 3)[0], basic("blue", 1)[0], basic("red", 2)[0], basic("yellow", 4)[0]
ROGUE = basic("purple", 3)[0]
ALIEN = basic("green", 5)[0]


def test_setup_stacks_same_colours_opens_slots_for_others_and_ignores_ailien():
    # blue 3, blue 1 (same colour: onto it), red 2 (new slot), A.I.Lien (ignored, draw anew),
    # Rogue (any colour: onto the leftmost unit), yellow 4 (new slot): Endboss = 5 cards
    piles, ignored, taken = toma_mod.setup([B3, B1, R2, ALIEN, ROGUE, Y4, basic("red", 1)[0]], 5)
    assert piles == [[B3, B1, ROGUE], [R2], [Y4]]
    assert ignored == [ALIEN] and taken == 6


def test_setup_a_rogue_first_takes_every_colour():
    piles, _, _ = toma_mod.setup([ROGUE, R2, B3], 3)
    assert piles == [[ROGUE, R2, B3]]


@pytest.mark.parametrize("difficulty,cards", sorted(DIFFICULTIES.items()))
def test_difficulty_sets_the_number_of_starting_cards(difficulty, cards):
    options = ENGINE.validate_options(1, {"difficulty": difficulty})
    assert options == {
        "mode": "solo",
        "difficulty": difficulty,
        "expert": False,
        "health_order": "shuffled",
        "force_the_luck": False,
    }
    events = ENGINE.new_match(Setup(1, options), random.Random(4))
    state = fold(ENGINE, events)
    t = toma(state)
    assert sum(len(s.pile) for s in t.slots) == cards  # Handy-Man 1, Boss 3, Endboss 5, Untamed 7
    assert len(t.health) == 6 and t.hand == [] and t.faction is None
    data = events[0].data
    assert ENGINE.redact(events[0], 0)["toma"]["health"] == 6  # the stack stays face down
    assert data["toma"]["health"] == t.health
    every = (
        data["draw"]
        + [c for p in data["toma"]["piles"] for c in p]
        + data["toma"]["ignored"]
        + data["hands"][0]
    )
    assert sorted(every) == sorted(CAT.basic)
    assert state.discard == data["toma"]["ignored"]


def test_solo_and_coop_options_are_checked():
    assert ENGINE.validate_options(2, {"mode": "coop"})["difficulty"] == "boss"
    for seats, bad in (
        (1, {"mode": "competitive"}),
        (2, {"mode": "solo"}),
        (3, {"mode": "coop"}),
        (2, {"difficulty": "boss"}),
        (1, {"difficulty": "easy"}),
        (1, {"mode": 3}),
    ):
        with pytest.raises(InvalidCommand):
            ENGINE.validate_options(seats, bad)


def test_the_toma_never_recruits_and_is_never_pending():
    events = ENGINE.new_match(Setup(1, ENGINE.validate_options(1, {})), random.Random(2))
    state = fold(ENGINE, events)
    assert pending(state) == {0: "choose_faction"}
    state.players[0].faction = state.players[0].offered[0]
    state, _ = run_flow(state, flow.factions_chosen)
    assert state.phase == "recruitment" and pending(state) == {0: "recruit"}
    assert toma(state).ready and toma(state).hand == []


def _point_table(toma_pile, toma_card, human_pos, human_card, mode="solo"):
    state = toma_table(1 if mode == "solo" else 2, mode, piles=[toma_pile])
    unit = (
        one("Recruit")
        if CAT[human_card].color == "blue"
        else basic(CAT[human_card].color, 2, 1, 1)[0]
    )
    slot = put(state, 0, unit, human_pos)
    current(state, 0, human_card, slot, True)
    current(state, 1 if mode == "solo" else 2, toma_card, 0, True)
    return state


def test_toma_unit_strength_is_the_sum_of_its_card_values():
    # pile blue 3 + blue 1 = 4; battle card blue 4 -> 8
    state = _point_table([B3, B1], basic("blue", 4)[0], 0, basic("blue", 5)[0])
    assert strength_of(toma(state).slots[0]) == 4
    assert battle.strength(state, 1) == 8


def test_a_tie_in_battle_strength_is_won_by_the_toma():
    # Toma: 4 (pile) + 4 = 8; human: unit at 3 (scale index 2) + card 5 = 8
    state = _point_table([B3, B1], basic("blue", 4)[0], 2, basic("blue", 5)[0])
    assert battle.strengths(state) == {0: 8, 1: 8}
    ctx = flow_ctx(state)
    battle.resolve_point(ctx)
    scored = [e for e in ctx.events if e.type == "PointScored"]
    assert scored[0].data["winners"] == [1]
    assert ctx.state.players[0].score == 0 and toma(ctx.state).score == 1


def test_a_human_reacts_while_its_side_loses_the_point_a_tie_included():
    # 8 against 8: the human loses the tie, so it may react; +2 ammo (10) wins
    state = _point_table([B3, B1], basic("blue", 4)[0], 2, basic("blue", 5)[0])
    state.players[0].ammo = [state.ammo_deck.pop(0)]
    assert battle.reactions(state, 0) == [{"type": "react_ammo", "count": 1}, {"type": "pass"}]
    state = _point_table([B3, B1], basic("blue", 4)[0], 3, basic("blue", 5)[0])  # 9 > 8: winning
    state.players[0].ammo = [state.ammo_deck.pop(0)]
    assert battle.reactions(state, 0) == []


def test_a_reaction_may_bring_the_human_level_with_the_toma_then_ammo_wins_the_point():
    # "You can only play cards that would increase your battle strength so that you have the
    # (tied) highest strength": Toma 4 + 4 = 8; human unit 3 + blue 1 = 4. Blue 5 from hand
    # makes 3 + 5 = 8, level (tied highest) but still the Toma's point; 2 ammo make 8 too,
    # 3 ammo 10. After the blue 5 the human is still behind and 1 ammo (10) wins the point.
    b5, b1 = basic("blue", 5)[0], basic("blue", 1)[0]
    state = _point_table([B3, B1], basic("blue", 4)[0], 2, b1)
    hand(state, 0, b5, basic("blue", 2, 1, 1)[0])  # blue 2 (3 + 2 = 5): not level
    state.players[0].ammo = [state.ammo_deck.pop(0) for _ in range(3)]
    assert battle.strengths(state) == {0: 4, 1: 8}
    assert battle.reactions(state, 0) == [
        {"type": "react_card", "card": b5},
        {"type": "react_ammo", "count": 2},
        {"type": "react_ammo", "count": 3},
        {"type": "pass"},
    ]
    state, _ = act(state, 0, {"type": "react_card", "card": b5})
    assert battle.strengths(state) == {0: 8, 1: 8}
    assert {"type": "react_ammo", "count": 1} in battle.reactions(state, 0)
    state, events = act(state, 0, {"type": "react_ammo", "count": 1})
    scored = [e.data for e in events if e.type == "PointScored"]
    assert scored[0]["strengths"] == {"0": 10, "1": 8} and scored[0]["winners"] == [0]


def test_a_card_that_does_not_increase_the_battle_strength_is_no_reaction():
    # Level at 8 against 8: a blue 5 again would leave 8 (no increase), so only ammo is offered
    state = _point_table([B3, B1], basic("blue", 4)[0], 2, basic("blue", 5)[0])
    hand(state, 0, basic("blue", 5, 1, 1)[0])
    assert battle.reactions(state, 0) == []


def test_neo_wins_a_tie_against_the_toma():
    state = _point_table([B3, B1], basic("blue", 4)[0], 2, basic("blue", 5)[0])
    put(state, 0, one("Neo"), 0)  # "You win any tie"
    assert battle.strengths(state) == {0: 8, 1: 8}
    ctx = flow_ctx(state)
    battle.resolve_point(ctx)
    assert [e for e in ctx.events if e.type == "PointScored"][0].data["winners"] == [0]


def _reveal(state, card):
    """The A.I.Toma reveals ``card`` (its only battle card)."""
    take(state, card)
    toma(state).stack = [card]
    ctx = flow_ctx(state)
    battle.reveal_point(ctx)
    return ctx


def test_a_card_without_an_active_unit_opens_a_new_slot_and_becomes_its_unit_after_the_battle():
    state = toma_table(piles=[[B3]])
    ctx = _reveal(state, R2)
    assert [e.type for e in ctx.events] == ["TomaSlotOpened", "BattleCardRevealed"]
    t = toma(ctx.state)
    assert len(t.slots) == 2 and t.current.slot == 1 and not t.current.fights
    assert battle.strength(ctx.state, 1) == 2  # the card value alone
    battle.resolve_point(ctx)
    ctx.emit("BattleCleared", None)
    assert toma(ctx.state).slots[1].pile == [R2] and toma(ctx.state).slots[1].unit == R2


def test_with_six_units_none_fitting_the_card_lies_beside_them_and_is_discarded_after_battle():
    piles = [[c] for c in basic("blue", 1, 3) + basic("blue", 2, 3)]
    state = toma_table(piles=piles)
    ctx = _reveal(state, R2)
    assert toma(ctx.state).current.slot is None and battle.strength(ctx.state, 1) == 2
    battle.resolve_point(ctx)
    ctx.emit("BattleCleared", None)
    assert R2 in ctx.state.discard and all(len(s.pile) == 1 for s in toma(ctx.state).slots)


def test_battle_cards_stay_with_their_unit_and_the_unit_grows():
    state = toma_table(piles=[[B3], [R2]])
    ctx = _reveal(state, basic("red", 4)[0])
    assert toma(ctx.state).current.slot == 1  # the red unit
    battle.resolve_point(ctx)
    ctx.emit("BattleCleared", None)
    assert toma(ctx.state).slots[1].pile == [R2, basic("red", 4)[0]]
    assert strength_of(toma(ctx.state).slots[1]) == 6


def test_rogue_cards_and_rogue_units_fit_every_colour_for_the_toma():
    state = toma_table(piles=[[B3], [ROGUE]])
    assert toma_mod.fighter(toma(state), basic("purple", 4)[0]) == (
        0,
        True,
        False,
    )  # Rogue card: leftmost
    assert toma_mod.fighter(toma(state), R2) == (1, True, False)  # red: the Rogue unit
    toma(state).slots[0].exhausted = True
    assert toma_mod.fighter(toma(state), basic("blue", 4)[0]) == (1, True, False)


def test_ailien_fights_with_the_first_unit_and_is_discarded_after_the_battle():
    state = toma_table(piles=[[R2], [B3]])
    ctx = _reveal(state, ALIEN)
    assert toma(ctx.state).current.slot == 0 and battle.strength(ctx.state, 1) == 2 + 5
    battle.resolve_point(ctx)
    ctx.emit("BattleCleared", None)
    assert ALIEN in ctx.state.discard and toma(ctx.state).slots[0].pile == [R2]


def test_after_an_ailien_was_recruited_in_sudden_death_ailien_stay_with_the_toma():
    state = toma_table(piles=[[R2]], phase="recruitment")
    state.sudden_death = True
    alien2 = basic("green", 6)[0]
    empty_slot(state, 0)
    hand(state, 0, alien2)
    state, _ = act(state, 0, {"type": "recruit", "card": alien2, "slot": 0})
    assert state.toma.ailien_stays
    state.phase = "battle"
    ctx = _reveal(state, ALIEN)
    battle.resolve_point(ctx)
    ctx.emit("BattleCleared", None)
    assert toma(ctx.state).slots[0].pile == [R2, ALIEN]


def test_the_toma_spends_the_fewest_ammo_that_win_the_point():
    # Toma 4 + 4 = 8 against 11: no ammo-gain symbol revealed -> 1 strength per ammo; 3 ammo -> 11 (tie: its)
    state = _point_table([B3, B1], basic("blue", 4)[0], 5, basic("blue", 5)[0])  # human 6 + 5 = 11
    toma(state).ammo = [state.ammo_deck.pop(0) for _ in range(4)]
    ctx = flow_ctx(state)
    assert battle.toma_react(ctx)
    spent = [e for e in ctx.events if e.type == "AmmoSpent"]
    assert spent[0].data["count"] == 3 and battle.strength(ctx.state, 1) == 11
    assert len(toma(ctx.state).ammo) == 1


def test_ammo_gain_symbols_set_the_strength_of_the_toma_ammo():
    state = _point_table([B3, B1], basic("blue", 4)[0], 5, basic("blue", 5)[0])  # 8 against 11
    toma(state).pool = [special_with(("ammo",)), special_with(("move", "ammo"))]  # 2 symbols
    toma(state).ammo = [state.ammo_deck.pop(0) for _ in range(4)]
    ctx = flow_ctx(state)
    assert battle.toma_react(ctx)
    assert [e.data["count"] for e in ctx.events if e.type == "AmmoSpent"] == [2]  # 8 + 2 x 2 = 12
    assert battle.strength(ctx.state, 1) == 12


def test_the_toma_keeps_its_ammo_when_it_cannot_win():
    state = _point_table([B3, B1], basic("blue", 4)[0], 9, basic("blue", 5)[0])  # 10 + 5 = 15
    toma(state).ammo = [state.ammo_deck.pop(0) for _ in range(2)]  # 8 + 2 = 10
    assert not battle.toma_react(flow_ctx(state))


def test_an_opponent_effect_kills_the_toma_weakest_unit_from_the_right():
    # Trapperkeeper: "Your opponents can decide for themselves which unit they want to discard"
    state = toma_table(
        piles=[
            [basic("blue", 5)[0]],
            [R2],
            [basic("yellow", 2)[0], basic("yellow", 1)[0]],
            [basic("red", 1)[0], basic("red", 2, 1, 1)[0]],
        ]
    )
    ctx = flow_ctx(state)
    trapper = next(c for c in CAT.special if CAT[c].name == "Trapperkeeper")
    kill = [op for op in CAT[trapper].has("kill")]
    run(ctx, 0, kill, {"card": trapper, "slot": None, "target": None, "pos": None})
    t = toma(ctx.state)
    # strengths 5, 2, 3, 3: the weakest is slot 1 (2)
    assert [s.unit is None for s in t.slots] == [False, True, False, False]
    state = toma_table(
        piles=[
            [basic("blue", 5)[0]],
            [basic("yellow", 2)[0], basic("yellow", 1)[0]],
            [basic("red", 1)[0], basic("red", 2, 1, 1)[0]],
        ]
    )
    ctx = flow_ctx(state)
    run(ctx, 0, kill, {"card": trapper, "slot": None, "target": None, "pos": None})
    t = toma(ctx.state)
    assert [s.unit is None for s in t.slots] == [False, False, True]  # 3 and 3: from the right
    assert {basic("red", 1)[0], basic("red", 2, 1, 1)[0]} <= set(ctx.state.discard)
    assert ctx.state.choice is None and not any(e.type == "ChoiceRequested" for e in ctx.events)


def test_the_toma_draws_battle_cards_like_any_player():
    state = toma_table(piles=[[B3]], phase="recruitment")
    for _ in range(3):
        put(state, 0, basic("red", 1, 1, _)[0])
    state.players[0].ready = True
    state, events = run_flow(state, flow.start_battle)
    started = next(e for e in events if e.type == "BattleStarted")
    assert started.data["cards"] == 3  # the most units: the human's 3
    drawn = [e for e in events if e.type == "CardsDrawn" and e.seat == 1]
    assert sum(len(e.data["cards"]) for e in drawn) == 3


def test_the_toma_cards_have_no_effects_only_colour_and_value():
    sniper = one("Sniper")  # "Battle: +3 temporary strength while fighting"
    state = toma_table(piles=[[sniper]])
    current(state, 1, basic("blue", 1)[0], 0, True)
    assert battle.strength(state, 1) == CAT[sniper].value + 1  # 5 + 1, no +3
    from domain.games.aipokalypse.effects import modifiers

    assert list(modifiers.sources(toma(state))) == []


def test_during_recruitment_everybody_sees_the_toma_board_as_the_battle_left_it():
    # The battle happens in the open: the card the A.I.Toma kept on its unit (blue 3 + blue 1
    # + blue 4 = 8), the slot a red 2 opened and the health point it lost are on the board
    # every viewer sees in the next Recruitment Phase, not the board of the last reveal.
    from domain.engine import Event

    state = toma_table(piles=[[B3, B1]])
    state.players[0].slots = []
    ctx = flow_ctx(state)
    ctx.emit(
        "BoardsRevealed",
        None,
        boards={"0": public_board(ctx.players[0]), "1": public_board(toma(ctx.state))},
    )
    state = ctx.state
    toma(state).slots[0].battle = [[take(state, basic("blue", 4)[0]), True]]
    take(state, R2)
    toma(state).slots.append(
        replace(toma(state).slots[0], pile=[], unit=None, battle=[[R2, False]])
    )
    lost = toma(state).health[0]
    state = ENGINE.evolve(state, Event("HealthLost", {"cards": [lost]}, 1))
    state = ENGINE.evolve(state, Event("BattleCleared", {}, None))
    state = ENGINE.evolve(state, Event("RecruitmentStarted", {"round": 3}, None))
    for viewer in (0, None):
        seen = ENGINE.view(state, viewer)["toma"]
        assert [s["strength"] for s in seen["slots"]] == [8, 2]
        assert seen["health_count"] == 5 and seen["pool"] == [lost]


def test_a_card_drawn_for_an_exhausted_toma_unit_is_placed_as_in_the_setup():
    """A.I.Toma Battle Phase: "All battle cards remain with the respective unit and are placed on
    the unit as in A.I.Toma's setup"; Game Setup: A.I.Toma: "If a card has a different color, place
    it to the right (the A.I.Toma opens a new slot). Place cards of the same color on existing
    units". A yellow card drawn face down for the red unit an effect exhausted opens a new slot
    to the right (before: the red pile became red, yellow); a card that fought stays with its
    unit, a slot opened in the battle keeps its card as unit; a blue card drawn for the
    exhausted red unit goes onto the blue unit."""
    state = toma_table(piles=[[R2], [B3]])
    red4, yellow2, blue1 = basic("red", 4)[0], basic("yellow", 2)[0], B1
    for c in (red4, yellow2, blue1):
        take(state, c)
    slots = toma(state).slots
    slots[0].battle = [[yellow2, False]]  # exhausted by an effect
    slots[1].battle = [[blue1, True]]  # fought and won
    slots.append(new_toma_slot([]))  # opened this battle: red 4 fought alone
    slots[2].battle = [[red4, False]]
    ctx = flow_ctx(state)
    ctx.emit("BattleCleared", None)
    piles = [s.pile for s in toma(ctx.state).slots]
    assert piles == [[R2], [B3, blue1], [red4], [yellow2]]
    again = toma_table(piles=[[R2], [B3]])
    for c in (red4, blue1):
        take(again, c)
    toma(again).slots[0].battle = [[blue1, False]]  # a blue card on the red unit
    ctx = flow_ctx(again)
    ctx.emit("BattleCleared", None)
    assert [s.pile for s in toma(ctx.state).slots] == [[R2], [B3, blue1]]
    assert [s.unit for s in toma(ctx.state).slots] == [R2, B3]
