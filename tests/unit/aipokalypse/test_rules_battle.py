"""Phase 2: Battle, Battle Result, Sudden Death, elimination, A.I.Pokalypse, total strength."""

from __future__ import annotations

import pytest

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.battle import battle_card_count, fighter_for, strength
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


def _battle(state, cards_by_seat, seed=0, answers=None):
    """Stack the draw pile so each seat draws ``cards_by_seat[seat]`` and start the battle
    (effect decisions: ``answers`` in order, then the defaults)."""
    count = len(cards_by_seat[0])
    order = [c for seat_cards in cards_by_seat for c in seat_cards]
    for c in order:
        for pile in (state.draw, state.discard):
            if c in pile:
                pile.remove(c)
    state.draw = order + state.draw
    state, events = run_flow(state, flow.start_battle, seed=seed, answers=answers)
    assert [e.data["cards"] for e in events if e.type == "BattleStarted"][:1] == [count]
    return state, events


def finish_battle(state):
    """Let every pending seat take its timeout choice (pass / first placement) until the
    battle is over."""
    import random

    from domain.games.aipokalypse import ENGINE

    while state.phase == "battle" and pending(state):
        seat = min(pending(state))
        state, _ = act(state, seat, ENGINE.bots["idle"].choose(state, seat, random.Random(0)))
    return state


def _points(events):
    return [(e.data["winners"], e.data["strengths"]) for e in events if e.type == "PointScored"]


def test_battle_card_count_is_the_most_units_of_any_seat_and_special_agent_removes_one():
    state = table(2)
    for name in ("Sniper", "Heavy Tank", "Brute", "Veteran"):
        put(state, 0, one(name), 0)
    put(state, 1, ids("Sniper", 2)[1], 0)
    empty_slot(state, 1)
    assert battle_card_count(state) == 4
    put(state, 1, one("Special Agent"), 0)
    assert battle_card_count(state) == 3


def test_battle_card_fights_with_the_leftmost_active_unit_of_its_colour_rogues_fit_every_colour():
    state = table(2)
    put(state, 0, one("Heavy Tank"), 0)
    put(state, 0, ids("Sniper", 2)[0], 0)
    put(state, 0, ids("Sniper", 2)[1], 0)
    p = state.players[0]
    assert fighter_for(p, ids("Commander", 3)[0]) == (1, True)  # blue -> leftmost blue
    assert fighter_for(p, one("Drifter")) == (0, True)  # Rogue card -> leftmost unit
    p.slots[1].exhausted = True
    assert fighter_for(p, ids("Commander", 3)[0]) == (2, True)  # exhausted units do not fight
    rogue_state = table(2)
    put(rogue_state, 0, one("Desert Rat"), 0)
    assert fighter_for(rogue_state.players[0], one("Brute")) == (0, True)


def test_no_fitting_unit_only_the_card_value_counts_and_the_seat_chooses_where_it_goes():
    state = table(2)
    put(state, 0, one("Heavy Tank"), 5)
    empty_slot(state, 0)
    put(state, 1, one("Sniper"), 0)
    assert fighter_for(state.players[0], one("Commander")) == (None, False)
    state, events = _battle(state, [[ids("Commander", 3)[0]], [ids("Recruit", 3)[0]]])
    assert strength(state, 0) == 5  # Commander's card value only
    assert pending(state) == {0: "place_card"}
    assert legal_actions(state, 0) == [
        {"type": "place_card", "slot": 1},
        {"type": "place_card", "slot": 0},
    ]
    with pytest.raises(Exception) as err:
        act(state, 0, {"type": "place_card", "slot": 3})
    assert err.value.code == "invalid_placement"
    state, events = act(state, 0, {"type": "place_card", "slot": 0})  # on the active Heavy Tank
    assert [e.data for e in events if e.type == "BattleCardPlaced"] == [{"slot": 0}]
    assert _points(events)[0] == ([0, 1], {"0": 5, "1": 1 + 1 + 3})  # Sniper 1 + card 1 + 3


def test_points_highest_strength_scores_ties_score_for_all_and_units_are_exhausted():
    state = table(2)
    put(state, 0, ids("Sniper", 3)[0], SCALE.index(6))  # Sniper +3 when fighting
    put(state, 0, one("Heavy Tank"), SCALE.index(2))
    put(state, 1, ids("Commander", 3)[0], SCALE.index(9))
    put(state, 1, ids("Overclock")[0] if False else ids("Rare Metal", 3)[0], SCALE.index(4))
    cards0 = [ids("Veteran", 3)[0], ids("Goldfish", 3)[0]]  # blue 4, red 1
    cards1 = [ids("Veteran", 3)[1], ids("Bartender", 3)[0]]  # blue 4, red 1
    state, events = _battle(state, [cards0, cards1])
    # point 1: Sniper 6+3+4 = 13 vs Commander 9+4 = 13 -> tie, both score
    # point 2: Heavy Tank 2+2(battle)+1 = 5 vs Rare Metal 4+1 = 5 -> tie again
    assert _points(events) == [([0, 1], {"0": 13, "1": 13}), ([0, 1], {"0": 5, "1": 5})]
    ended = [e for e in events if e.type == "BattleEnded"][0]
    assert ended.data["damage"] == {"0": 1, "1": 1}  # all equal: each loses 1


def test_damage_is_the_difference_to_the_best_score_and_health_goes_to_the_pool():
    state = table(2)
    put(state, 0, ids("Commander", 3)[0], SCALE.index(10))
    put(state, 0, ids("Commander", 3)[1], SCALE.index(10))
    put(state, 1, ids("Veteran", 3)[0], 0)
    put(state, 1, ids("Veteran", 3)[1], 0)
    top2 = state.players[1].health[:2]
    state, events = _battle(
        state, [ids("Sniper", 3)[:2], [ids("Sniper", 3)[2], ids("Journalist", 3)[0]]]
    )
    assert [w for w, _ in _points(events)] == [[0], [0]]
    assert state.players[1].pool == top2 and len(state.players[1].health) == 4
    assert len(state.players[0].health) == 6
    assert state.phase == "recruitment" and state.round == 3


@pytest.mark.parametrize(
    "scores,damage",
    [
        ((3, 3, 1), {0: 0, 1: 0, 2: 2}),  # shared best score: the leaders lose nothing
        ((2, 2, 2), {0: 1, 1: 1, 2: 1}),  # all equal: each loses one
        ((3, 1, 0), {0: 0, 1: 2, 2: 3}),
        ((1, 1, 1, 0), {0: 0, 1: 0, 2: 0, 3: 1}),
    ],
)
def test_battle_result_only_all_equal_scores_cost_everyone_one(scores, damage):
    """Battle Result: "all players lose health points in an amount equal to the difference
    between their score and the score of the player with the most points. If all players have
    the same score, each player loses one health point." Scores 3, 3, 1 give 0, 0, 2 (not 1, 1, 2)."""
    state = table(len(scores), phase="battle")
    for seat, score in enumerate(scores):
        state.players[seat].score = score
    assert flow.battle_damage(state) == damage


def test_neo_wins_the_all_equal_battle_result_but_a_shared_best_score_costs_nobody():
    """Neo: "You win any tie. This includes battle points, battle results ..." — all scores equal:
    the others lose one, Neo none; a shared best score already costs the leaders nothing
    ("the difference between their score and the score of the player with the most points")."""
    state = table(3, phase="battle")
    put(state, 0, one("Neo"), SCALE.index(4))
    for seat in range(3):
        state.players[seat].score = 2
    assert flow.battle_damage(state) == {0: 0, 1: 1, 2: 1}
    state.players[2].score = 0
    assert flow.battle_damage(state) == {0: 0, 1: 0, 2: 2}


def test_reaction_window_only_reactions_that_make_you_tied_highest():
    state = table(2)
    put(state, 0, ids("Commander", 3)[0], SCALE.index(5))
    put(state, 1, ids("Commander", 3)[1], SCALE.index(2))
    hand(state, 1, ids("Berserker", 3)[0], ids("Veteran", 3)[2])  # blue 1, blue 4
    give_ammo(state, 1, 1)
    state, events = _battle(state, [[ids("Sniper", 3)[0]], [ids("Recruit", 3)[0]]])
    # seat 0: 5 + 5 = 10; seat 1: 2 + 1 = 3
    assert _points(events)[0][0] == [0]  # nobody can reach 10: no reaction window
    assert state.phase == "recruitment"
    state2 = table(2)
    put(state2, 0, ids("Commander", 3)[0], SCALE.index(5))
    put(state2, 1, ids("Commander", 3)[1], SCALE.index(6))
    hand(state2, 1, ids("Berserker", 3)[0], ids("Veteran", 3)[2])
    give_ammo(state2, 1, 2)
    state2, _ = _battle(state2, [[ids("Sniper", 3)[0]], [ids("Recruit", 3)[0]]])
    # seat 0: 10; seat 1: 6 + 1 = 7 -> Veteran (4) makes 10, 2 ammo make 11, 1 ammo only 9
    assert pending(state2) == {1: "react"}
    assert legal_actions(state2, 1) == [
        {"type": "react_card", "card": ids("Veteran", 3)[2]},
        {"type": "react_ammo", "count": 2},
        {"type": "pass"},
    ]
    with pytest.raises(Exception) as err:
        act(state2, 1, {"type": "react_ammo", "count": 1})
    assert err.value.code == "reaction_not_allowed"
    with pytest.raises(Exception) as err:  # held, but it does not reach 10
        act(state2, 1, {"type": "react_card", "card": ids("Berserker", 3)[0]})
    assert err.value.code == "reaction_not_allowed"
    # a card seat 1 does not hold: the same answer for the opponent's card and no card
    answers = set()
    for card in (ids("Commander", 3)[0], "ZZZ-999"):
        with pytest.raises(Exception) as err:
            act(state2, 1, {"type": "react_card", "card": card})
        assert err.value.code == "card_not_in_hand"
        answers.add(str(err.value).replace(card, "X"))
    assert len(answers) == 1
    after, events = act(state2, 1, {"type": "react_card", "card": ids("Veteran", 3)[2]})
    assert _points(events)[0] == ([0, 1], {"0": 10, "1": 10})
    passed, events = act(state2, 1, {"type": "pass"})
    assert _points(events)[0][0] == [0]


def test_droid_army_refunds_ammo_of_a_mech_that_lost():
    state = table(2, factions=[one("Droid Army"), None])
    put(state, 0, one("Goldfish"), SCALE.index(5))
    put(state, 1, ids("Heavy Tank", 3)[0], SCALE.index(5))
    give_ammo(state, 0, 2)
    hand(state, 1, ids("Rare Metal", 3)[0])  # red 4
    state, _ = _battle(state, [[ids("Bartender", 3)[0]], [ids("Bartender", 3)[1]]])
    # seat 0: 5 + 1 = 6; seat 1: 5 + 2 (Heavy Tank) + 1 = 8 -> seat 0 spends 2 ammo (10)
    state, _ = act(state, 0, {"type": "react_ammo", "count": 2})
    assert state.players[0].ammo == [] and pending(state) == {1: "react"}
    state, events = act(
        state, 1, {"type": "react_card", "card": ids("Rare Metal", 3)[0]}
    )  # 5+2+4 = 11
    assert _points(events)[0] == ([1], {"0": 10, "1": 11})
    assert len(state.players[0].ammo) == 1  # the Mech lost: 1 ammo back


def test_sudden_death_nullifies_remaining_damage_then_eliminates():
    state = table(2)
    put(state, 0, ids("Commander", 3)[0], SCALE.index(10))
    put(state, 0, ids("Commander", 3)[1], SCALE.index(10))
    put(state, 1, ids("Veteran", 3)[0], 0)
    state.players[1].health = state.players[1].health[:1]
    state, events = _battle(
        state, [ids("Sniper", 3)[:2], [ids("Sniper", 3)[2], ids("Journalist", 3)[0]]]
    )
    assert "SuddenDeathStarted" in types(events)
    assert not state.players[1].eliminated and state.players[1].health == []
    assert state.result is None
    state.phase = "recruitment"
    ctx_state, events = run_flow(state, flow.apply_damage, {1: 1})
    assert ctx_state.players[1].eliminated
    assert ctx_state.result["winners"] == [0] and ctx_state.result["reason"] == "elimination"


def test_last_players_eliminated_together_highest_total_strength_wins():
    state = table(3)
    state.sudden_death = True
    for p in state.players:
        p.health = []
    state.players[2].eliminated = True
    put(state, 0, one("Sniper"), SCALE.index(5))
    put(state, 1, one("Heavy Tank"), SCALE.index(7))
    state, events = run_flow(state, flow.apply_damage, {0: 1, 1: 1})
    assert state.result["winners"] == [1] and state.result["ranking"][0] == {
        "seat": 1,
        "score": state.result["scores"][1],
        "rank": 1,
    }


def test_total_strength_tie_goes_to_more_health_points():
    state = table(2)
    put(state, 0, one("Sniper"), SCALE.index(8))
    put(state, 1, one("Heavy Tank"), SCALE.index(8))
    state.players[0].health = state.players[0].health[:2]
    state, _ = run_flow(state, flow.finish_by_strength, [0, 1], "aipokalypse")
    assert state.result["winners"] == [1]


def test_ailien_round_bonus_in_sudden_death_triggers_the_aipokalypse_and_hand_ailien_counts():
    state = table(2)
    state.sudden_death = True
    put(state, 0, one("A.I.Lien Alpha"), 0)  # strength 1
    put(state, 1, one("Heavy Tank"), SCALE.index(6))  # strength 6
    hand(state, 0, one("A.I.Lien Gamma"))  # value 7 in hand
    state.round = 4
    state, events = run_flow(state, flow.start_recruitment)
    assert "AIPokalypseTriggered" in types(events) and state.result is None
    state, _ = act(state, 1, {"type": "ready"})
    assert state.result is None
    state, events = act(state, 0, {"type": "ready"})
    assert state.result["reason"] == "aipokalypse"
    assert state.result["scores"] == [1 + 7, 6]  # A.I.Lien Gamma in hand counts
    assert state.result["winners"] == [0]


def test_invader_alternative_win_with_5_units_of_one_colour():
    state = table(2)
    put(state, 0, one("Invader"), 0)
    for cid in ids("Brute", 3) + ids("Hive Mind", 1):
        put(state, 0, cid, 0)
    put(state, 1, ids("Sniper", 3)[0], SCALE.index(15))
    yellow = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1][:5]
    blue = ids("Recruit", 3) + ids("Berserker", 2)
    state, events = _battle(state, [yellow, blue])
    state = finish_battle(state)
    assert state.result["reason"] == "alternative_win" and state.result["winners"] == [0]


def test_neo_wins_ties_in_battle_points():
    state = table(2)
    put(state, 0, one("Neo"), SCALE.index(4))  # +0 with 6 health
    put(state, 1, ids("Commander", 3)[0], SCALE.index(4))
    state, events = _battle(state, [[ids("Veteran", 3)[0]], [ids("Veteran", 3)[1]]])
    assert _points(events)[0][0] == [0]
