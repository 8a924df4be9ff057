"""The rulebook's "Good to Know" list, preparation order, exhaustion by effects, attaching."""

from __future__ import annotations

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.battle import fighter_for
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import (
    act,
    empty_slot,
    hand,
    ids,
    one,
    put,
    run_flow,
    table,
    types,
)
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def test_all_units_and_slots_exhausted_the_battle_card_value_still_counts():
    state = table(2)
    put(state, 0, ids("Sniper", 3)[0], SCALE.index(15))
    put(state, 1, ids("Sniper", 3)[1], 0)
    put(state, 1, ids("Commander", 3)[0], 0)
    state, events = _battle(
        state,
        [
            [ids("Veteran", 3)[0], ids("Veteran", 3)[1]],
            [ids("Recruit", 3)[0], ids("Recruit", 3)[1]],
        ],
    )
    # point 2: seat 0's only unit is exhausted -> Veteran's value 4 alone; seat 1 Commander 1 + 1
    assert _points(events)[1] == ([0], {"0": 4, "1": 2})
    beside = [e for e in events if e.type == "PointScored"]
    assert beside and state.phase == "recruitment"


def test_discards_outside_the_recruitment_phase_do_not_trigger_discard_effects():
    state = table(3)
    put(state, 0, one("Outfitter Q"), 0)  # preparation: a card from each hand, keep 1
    put(state, 0, one("Finisher"), 0)  # reacts to discard effects
    put(state, 1, one("Sniper"), 0)
    put(state, 2, ids("Sniper", 3)[1], 0)
    hand(state, 1, ids("Painkiller", 3)[0])  # discard effect would draw 2
    hand(state, 2, ids("Brute", 3)[0])  # kept (higher card value)
    state, events = _battle(
        state,
        [
            [ids("Veteran", 3)[0], ids("Veteran", 3)[1]],
            [ids("Recruit", 3)[0], ids("Recruit", 3)[1]],
            [ids("Commander", 3)[0], ids("Commander", 3)[1]],
        ],
    )
    assert "CardDiscarded" in types(events)
    # the three battle stacks only: no Painkiller draw (Outfitter Q kept the Brute)
    assert types(events).count("CardsDrawn") == 3
    assert ids("Brute", 3)[0] in state.players[0].hand
    assert ids("Painkiller", 3)[0] in state.discard


def test_preparation_effects_left_to_right_faction_last():
    state = table(2, factions=[one("Neon Saints"), None])  # faction: +1 temp to every unit
    put(state, 0, one("Invader"), 0)  # converts temp strength into strength
    put(state, 0, one("Outfitter Q"), 0)
    put(state, 1, one("Sniper"), 0)
    state, events = run_flow(state, flow.start_battle)
    before = events[: types(events).index("BattleStarted")]
    prep = [
        e.type
        for e in before
        if e.seat == 0 and e.type in ("StrengthChanged", "CardsDrawn", "TempAdded")
    ]
    # Invader (slot 0) ran before the faction gave temporary strength: it converted nothing;
    # Outfitter Q (slot 1) waits for the other seats, then runs before its faction's two
    # TempAdded (seat 1 has no hand cards: it draws a card).
    assert prep == ["CardsDrawn", "TempAdded", "TempAdded"]


def test_unit_exhausted_by_an_effect_gets_a_face_down_card_and_cannot_fight():
    state = table(2)
    put(state, 0, one("Eagle Eye"), 0)
    put(state, 1, ids("Sniper", 3)[0], SCALE.index(9))
    put(state, 1, ids("Sniper", 3)[1], SCALE.index(2))
    top = state.draw[0]
    # Eagle Eye declares blue; seat 1 has two blue units and exhausts the strong one (slot 0)
    state, events = run_flow(state, flow.start_battle, answers=["blue", 0])
    exhausted = [e for e in events if e.type == "UnitExhausted"]
    assert exhausted[0].seat == 1 and dict(exhausted[0].data) == {"slot": 0, "card": top}
    revealed = [e for e in events if e.type == "BattleCardRevealed" and e.seat == 1]
    assert revealed[0].data["slot"] != 0


def test_mechatron_attaches_the_highest_hand_card_and_gains_2():
    state = table(2)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Mechatron"), ids("Recruit", 3)[0], ids("Commander", 3)[0])
    state, _ = act(state, 0, {"type": "recruit", "card": one("Mechatron"), "slot": slot})
    s = state.players[0].slots[slot]
    assert s.attached == [ids("Commander", 3)[0]] and SCALE[s.pos] == 3


def test_walter_white_opens_a_seventh_slot():
    state = table(2)
    for name in ("Sniper", "Heavy Tank", "Commander", "Veteran", "Brute"):
        put(state, 0, ids(name, 3)[-1], 0)
    slot = empty_slot(state, 0)
    hand(state, 0, one("Walter White"))
    state, _ = act(state, 0, {"type": "recruit", "card": one("Walter White"), "slot": slot})
    assert len(state.players[0].slots) == 7


def test_rogue_unit_takes_a_card_of_any_colour_when_leftmost():
    state = table(2)
    put(state, 0, one("Desert Rat"), 0)
    put(state, 0, one("Heavy Tank"), 0)
    assert fighter_for(state.players[0], ids("Bartender", 3)[0]) == (0, True)


def test_timeout_policy_passes_reactions_and_ends_recruitment():
    import random

    from domain.games.aipokalypse import ENGINE
    from domain.games.aipokalypse.actions import legal_actions
    from tests.unit.aipokalypse.helpers import give_ammo

    assert ENGINE.timeout_bot == "idle"
    state = table(2)
    hand(state, 0, ids("Sniper", 3)[0])
    assert ENGINE.bots["idle"].choose(state, 0, random.Random(0)) == {"type": "ready"}
    put(state, 0, ids("Commander", 3)[0], SCALE.index(5))
    put(state, 1, ids("Commander", 3)[1], SCALE.index(4))
    give_ammo(state, 1, 3)  # 5 + 1 + 3 x 2 = 12 >= 6 + 5 = 11
    state, _ = _battle(state, [[ids("Sniper", 3)[1]], [ids("Recruit", 3)[0]]])
    assert {"type": "pass"} in legal_actions(state, 1)
    assert ENGINE.bots["idle"].choose(state, 1, random.Random(0)) == {"type": "pass"}
