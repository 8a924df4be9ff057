"""Cooperative Mode against the A.I.Toma (rulebook "Cooperative Mode"): doubled A.I.Toma, summed
team strength, total strength above double, one more battle phase after an alternative win,
the partner's pool and the ammo gift once per game."""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalMove
from domain.games.aipokalypse import ENGINE, battle, coop, flow
from domain.games.aipokalypse.effects.choices import neighbours, opponents
from domain.games.aipokalypse.effects.resolve import run
from tests.unit.aipokalypse.helpers import CAT, act, empty_slot, give_ammo, hand, one, put, types
from tests.unit.aipokalypse.toma_helpers import (
    basic,
    current,
    flow_ctx,
    special_with,
    toma,
    toma_table,
)

B3, B1, B4, B5 = basic("blue", 3)[0], basic("blue", 1)[0], basic("blue", 4)[0], basic("blue", 5)[0]


def _coop_point(pos0, pos1, toma_card=B4):
    state = toma_table(2, "coop", piles=[[B3, B1]])
    for seat, pos in ((0, pos0), (1, pos1)):
        slot = put(state, seat, basic("blue", 2, 1, seat)[0], pos)
        current(state, seat, basic("blue", 5, 1, seat)[0], slot, True)
    current(state, 2, toma_card, 0, True)
    return state


def test_the_toma_strength_is_doubled_and_the_partners_add_theirs():
    # A.I.Toma: pile 3 + 1 and card 4 = 8, doubled 16; partners (6 + 5) + (1 + 5) = 17 > 16
    state = _coop_point(5, 0)
    assert battle.strengths(state) == {0: 11, 1: 6, 2: 16}
    ctx = flow_ctx(state)
    battle.resolve_point(ctx)
    assert [e.data["winners"] for e in ctx.events if e.type == "PointScored"] == [[0, 1]]
    assert [ctx.state.players[s].score for s in (0, 1, 2)] == [1, 1, 0]


def test_a_team_total_equal_to_the_doubled_toma_loses_the_point():
    state = _coop_point(4, 0)  # (5 + 5) + (1 + 5) = 16 = 16
    ctx = flow_ctx(state)
    battle.resolve_point(ctx)
    assert [e.data["winners"] for e in ctx.events if e.type == "PointScored"] == [[2]]


def test_the_toma_ammo_is_doubled_too():
    state = _coop_point(5, 1)  # 11 + 7 = 18 against 16
    toma(state).ammo = [state.ammo_deck.pop(0)]
    ctx = flow_ctx(state)
    assert battle.toma_react(ctx)  # 8 + 1 = 9, doubled 18: its tie
    assert battle.strength(ctx.state, 2) == 18


def test_either_partner_may_react_for_the_team():
    state = _coop_point(4, 0)  # 16 against 16: the team is behind
    give_ammo(state, 1, 1)
    assert battle.reactions(state, 1) == [{"type": "react_ammo", "count": 1}, {"type": "pass"}]
    assert battle.reactions(state, 0) == []  # no hand card, no ammo


def test_battle_damage_hits_both_partners():
    state = toma_table(2, "coop", piles=[[B3]])
    state.players[0].score = state.players[1].score = 1
    toma(state).score = 3
    assert flow.battle_damage(state) == {0: 2, 1: 2, 2: 0}
    toma(state).score = 0
    assert flow.battle_damage(state) == {0: 0, 1: 0, 2: 1}


@pytest.mark.parametrize("pos,outcome", [(8, "lost"), (9, "won")])
def test_total_strength_must_be_more_than_double_the_toma(pos, outcome):
    # A.I.Toma 5 + 5 = 10; partners 10 + 10 = 20 (not more than 20) or 12 + 10 = 22
    state = toma_table(2, "coop", piles=[[B5, basic("blue", 5, 1, 1)[0]]], phase="recruitment")
    put(state, 0, one("Recruit"), 9 if pos == 8 else 10)  # 10 or 12
    put(state, 1, basic("blue", 1, 1, 1)[0], 9)  # 10
    state.apocalypse = True
    for p in state.players[:2]:
        p.ready = True
    ctx = flow_ctx(state)
    flow.finish_by_strength(ctx, [0, 1], "aipokalypse", with_hand=True)
    assert ctx.state.result["outcome"] == outcome
    assert ctx.state.result["toma"]["strength"] == 10


def test_an_alternative_win_needs_one_more_battle_phase_survived_by_both():
    state = toma_table(2, "coop", piles=[[B3]])
    put(state, 0, one("Invader"), 0)
    for k in range(4):
        put(state, 0, basic("yellow", 1 + k % 3, 1, k // 3)[0], 0)
    ctx = flow_ctx(state)
    assert not flow.check_alternative_win(ctx)
    assert types(ctx.events) == ["AlternativeWinPending"] and ctx.state.result is None
    assert not coop.alternative_win_due(ctx)  # the same battle does not count
    ctx.state.round += 1
    assert coop.alternative_win_due(ctx)
    assert ctx.state.result["outcome"] == "won" and ctx.state.result["reason"] == "alternative_win"


def test_a_partner_eliminated_loses_the_game_for_the_team():
    state = toma_table(2, "coop", piles=[[B3]])
    state.players[1].pool += state.players[1].health
    state.players[1].health = []
    state.sudden_death = True
    ctx = flow_ctx(state)
    flow.apply_damage(ctx, {1: 1})
    assert ctx.state.result["outcome"] == "lost" and ctx.state.result["winners"] == []


def _partner_table():
    state = toma_table(2, "coop", piles=[[B3]], phase="recruitment")
    triple = basic("red", 2, 3)
    hand(state, 0, *triple)
    special = state.players[1].health.pop(0)
    state.players[1].pool.append(special)
    return state, triple, special


def test_once_per_game_a_partner_recruits_from_the_other_partners_pool_as_first_move():
    state, triple, special = _partner_table()
    cmd = {"type": "triple", "cards": sorted(triple), "source": "partner", "special": special}
    assert cmd in ENGINE.legal_actions(state, 0)
    new, events = act(state, 0, cmd)
    assert special in new.players[0].hand and special not in new.players[1].pool
    assert "partner_pool" in new.players[0].used and new.players[0].moved
    assert types(events)[-1] == "FirstMoveMade"
    new.players[1].pool.append(new.players[1].health.pop(0))
    new.players[0].moved = False
    assert not [
        a for a in ENGINE.legal_actions(new, 0) if a.get("source") == "partner"
    ]  # once per game


def test_the_partner_pool_is_closed_after_another_first_move():
    state, triple, special = _partner_table()
    state, _ = act(state, 0, {"type": "open_slot", "card": sorted(triple)[0]})
    assert state.players[0].moved
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("source") == "partner"]
    with pytest.raises(IllegalMove):
        ENGINE.decide(
            state,
            0,
            {"type": "triple", "cards": sorted(triple), "source": "partner", "special": special},
            random.Random(0),
        )


def test_once_per_game_one_partner_gives_one_ammo_to_the_other():
    state = toma_table(2, "coop", piles=[[B3]], phase="recruitment")
    give_ammo(state, 0, 2)
    give_ammo(state, 1, 2)
    assert {"type": "give_ammo"} in ENGINE.legal_actions(state, 0)
    state, events = act(state, 0, {"type": "give_ammo"})
    assert [len(state.players[s].ammo) for s in (0, 1)] == [1, 3]
    assert (
        ENGINE.redact(events[0], 1) == {"to": 1, "count": 1}
        and ENGINE.redact_type(events[0], 1) == "AmmoGiven"
    )
    assert ENGINE.redact(events[0], None) == {"hidden": True}
    for seat in (0, 1):  # once per game for the team
        assert {"type": "give_ammo"} not in ENGINE.legal_actions(state, seat)
    with pytest.raises(IllegalMove) as err:
        ENGINE.decide(state, 1, {"type": "give_ammo"}, random.Random(0))
    assert err.value.code == "cannot_give_ammo"


def test_no_gift_outside_coop_or_to_a_full_partner():
    state = toma_table(1, "solo", piles=[[B3]], phase="recruitment")
    give_ammo(state, 0, 2)
    assert {"type": "give_ammo"} not in ENGINE.legal_actions(state, 0)
    state = toma_table(2, "coop", piles=[[B3]], phase="recruitment")
    give_ammo(state, 0, 1)
    give_ammo(state, 1, 6)
    assert {"type": "give_ammo"} not in ENGINE.legal_actions(state, 0)


def test_the_partner_is_a_neighbour_but_not_an_opponent():
    state = toma_table(2, "coop", piles=[[B3]], toma_health=[special_with(("ammo",))])
    ctx = flow_ctx(state)
    assert opponents(ctx, 0) == [2] and opponents(ctx, 2) == [0, 1]
    assert neighbours(ctx, 0) == [1, 2] and neighbours(ctx, 0, opponents_only=True) == [2]
    exe = one(".Exe Suit")
    run(ctx, 0, CAT[exe].ops("recruit"), {"card": exe, "slot": None, "target": None, "pos": None})
    lost = {e.seat for e in ctx.events if e.type == "HealthLost"}
    assert lost == {2}  # .Exe Suit hits the A.I.Toma only


def test_the_scream_weakens_the_toma_not_the_partner():
    state = _coop_point(5, 0)
    empty_slot(state, 1)
    put(state, 1, one("The Scream"), 0)
    strengths = battle.strengths(state)
    assert strengths[0] == 11 and strengths[2] < 16
