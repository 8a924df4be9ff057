"""Solo / Cooperative Mode — the A.I.Toma's health points, its pool and the action symbols of
the revealed Special Units ("A.I.Toma Health Points and Game End", "Special Units & Pool of
A.I.Toma", "A.I.Toma Action Effects"), and the end of a solo match."""

from __future__ import annotations

from domain.games.aipokalypse import battle, flow, toma_pool
from domain.games.aipokalypse.cards import ACTION_SYMBOLS
from domain.games.aipokalypse.state import strength_of
from tests.unit.aipokalypse.helpers import CAT, hand, one, put, run_flow, take, types
from tests.unit.aipokalypse.toma_helpers import (
    basic,
    current,
    flow_ctx,
    special_with,
    toma,
    toma_table,
)

B3, B1, B2, B4 = basic("blue", 3)[0], basic("blue", 1)[0], basic("blue", 2)[0], basic("blue", 4)[0]
R1, R2, R3 = basic("red", 1)[0], basic("red", 2)[0], basic("red", 3)[0]
Y1, Y2, Y4 = basic("yellow", 1)[0], basic("yellow", 2)[0], basic("yellow", 4)[0]
ROGUE, ALIEN = basic("purple", 3)[0], basic("green", 5)[0]


def test_every_special_unit_carries_one_or_two_action_symbols():
    for cid in CAT.special:
        symbols = CAT[cid].action_symbols
        assert 1 <= len(symbols) <= 2 and set(symbols) <= set(ACTION_SYMBOLS), cid
    assert {s for c in CAT.special for s in CAT[c].action_symbols} == set(ACTION_SYMBOLS)


def _lose(state, n=1):
    ctx = flow_ctx(state)
    flow.apply_damage(ctx, {state.toma.seat: n})
    return ctx


def test_revealed_health_points_go_to_the_pool_left_to_right_each_resolved_before_the_next():
    first, second = special_with(("ammo",)), special_with(("move",))
    state = toma_table(piles=[[B3, B1], [B4]], toma_health=[first, second])
    ctx = _lose(state, 2)
    assert types(ctx.events) == ["HealthLost", "AmmoGained", "HealthLost", "TomaCardMoved"]
    assert toma(ctx.state).pool == [first, second] and len(toma(ctx.state).health) == 4


def test_ammo_gain_symbol_gives_the_toma_one_ammo():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("ammo",))])
    ctx = _lose(state)
    assert len(toma(ctx.state).ammo) == 1


def test_move_symbol_moves_the_top_card_of_the_leftmost_multi_card_unit_to_the_next_fitting_unit():
    state = toma_table(piles=[[B3, B1, B2], [Y2], [B4]], toma_health=[special_with(("move",))])
    ctx = _lose(state)
    assert [s.pile for s in toma(ctx.state).slots] == [[B3, B1], [Y2], [B4, B2]]


def test_every_move_symbol_further_left_moves_once_more():
    state = toma_table(
        piles=[[B3, B1, B2], [Y2], [B4]], toma_health=[special_with(("move",), skip=1)]
    )
    toma(state).pool = [special_with(("move",))]  # one move symbol already revealed
    ctx = _lose(state)
    assert [s.pile for s in toma(ctx.state).slots] == [[B3], [Y2], [B4, B2, B1]]


def test_without_a_fitting_unit_the_card_is_taken_from_the_next_unit():
    state = toma_table(piles=[[R2, R1], [Y2, Y1], [Y4]], toma_health=[special_with(("move",))])
    ctx = _lose(state)
    assert [s.pile for s in toma(ctx.state).slots] == [[R2, R1], [Y2], [Y4, Y1]]


def test_health_symbol_costs_every_player_a_health_point_and_draws_per_draw_symbol_to_its_left():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("health",))])
    toma(state).pool = [
        special_with(("draw",)),
        special_with(("draw", "passive")),
    ]  # 2 draw symbols
    top = list(state.players[0].health[:1])
    ctx = _lose(state)
    lost = [e for e in ctx.events if e.type == "HealthLost" and e.seat == 0]
    assert lost[0].data["cards"] == top and len(ctx.state.players[0].health) == 5
    assert len(ctx.state.players[0].hand) == 2


def test_health_symbol_cannot_kill_when_sudden_death_began_at_the_end_of_the_same_battle():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("health",))])
    state.players[0].pool += state.players[0].health
    state.players[0].health = []  # emptied by this battle's damage
    ctx = _lose(state)
    assert not ctx.state.players[0].eliminated and ctx.state.phase != "ended"
    assert "SuddenDeathStarted" in types(ctx.events)


def test_health_symbol_kills_a_player_with_no_health_left_in_a_running_sudden_death():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("health",))])
    state.players[0].pool += state.players[0].health
    state.players[0].health = []
    state.sudden_death = True
    ctx = _lose(state)
    assert ctx.state.players[0].eliminated
    assert ctx.state.result["outcome"] == "lost" and ctx.state.result["winners"] == []


def test_draw_symbol_places_the_drawn_card_on_the_leftmost_fitting_unit_ignoring_ailien():
    state = toma_table(
        piles=[[B3], [R2]], toma_health=[special_with(("draw",))], draw=[ALIEN, R3, B4]
    )
    ctx = _lose(state)
    assert [s.pile for s in toma(ctx.state).slots] == [[B3], [R2, R3]]
    assert ALIEN in ctx.state.discard and ctx.state.draw == [B4]


def test_draw_symbol_opens_a_slot_for_a_card_no_unit_fits():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("draw",))], draw=[Y2, B4])
    ctx = _lose(state)
    assert [s.pile for s in toma(ctx.state).slots] == [[B3], [Y2]]


def test_discard_symbol_makes_every_player_discard_at_the_start_of_the_next_recruitment():
    state = toma_table(piles=[[B3]], toma_health=[special_with(("discard",))])
    toma(state).pool = [special_with(("discard",), skip=1)]  # one more discard symbol to the left
    ctx = _lose(state)
    assert ctx.state.toma.discard_due == 2
    state = ctx.state
    painkiller = one("Painkiller")  # a discard effect: must not resolve
    hand(state, 0, painkiller, *basic("blue", 5, 3), basic("red", 4)[0])
    state, events = run_flow(state, flow.start_recruitment)
    discarded = [e.data["card"] for e in events if e.type == "CardDiscarded"]
    assert len(discarded) == 2 and discarded[0] == painkiller  # default: lowest card value
    assert len(state.players[0].hand) == 4 and state.toma.discard_due == 0
    drawn = [e for e in events if e.type == "CardsDrawn" and e.seat == 0]
    assert sum(len(e.data["cards"]) for e in drawn) == 1  # 5 in hand: drew 1 (no Painkiller draw)


def test_discard_symbol_needs_six_hand_cards_at_the_start_of_the_recruitment():
    # "As soon as you have 6 cards in your hand at the beginning of the Recruitment Phase":
    # with the draw and discard piles empty the hand stays at 5 and nothing is discarded
    state = toma_table(piles=[[B3]], toma_health=[special_with(("discard",))], draw=[])
    ctx = _lose(state)
    state = ctx.state
    state.discard = []
    hand(state, 0, *basic("blue", 5, 3), *basic("red", 4, 2))
    state, events = run_flow(state, flow.start_recruitment)
    assert not [e for e in events if e.type == "CardDiscarded"]
    assert len(state.players[0].hand) == 5 and state.toma.discard_due == 0


def test_passive_symbol_on_the_last_revealed_unit_boosts_its_colour():
    red_passive = special_with(("passive",), color="red")
    state = toma_table(piles=[[R2], [B3], [ROGUE]])
    t = toma(state)
    t.pool = [special_with(("draw", "passive")), red_passive]  # 2 passive symbols, last is red
    assert [toma_pool.passive_bonus(t, i) for i in range(3)] == [2, 0, 2]  # red and the Rogue unit
    t.pool = [red_passive, special_with(("ammo",))]  # not on the last one: inactive
    assert [toma_pool.passive_bonus(t, i) for i in range(3)] == [0, 0, 0]


def test_a_rogue_passive_boosts_units_containing_a_rogue():
    rogue_passive = special_with(("passive",), color="purple")
    state = toma_table(piles=[[B3, ROGUE], [R2]])
    toma(state).pool = [rogue_passive]
    assert [toma_pool.passive_bonus(toma(state), i) for i in range(2)] == [1, 0]


def test_the_passive_bonus_counts_in_battle():
    state = toma_table(piles=[[R2]])
    toma(state).pool = [special_with(("passive",), color="red")]
    current(state, 1, R3, 0, True)
    assert battle.strength(state, 1) == 2 + 3 + 1


def test_the_toma_wins_when_the_player_is_eliminated_and_loses_when_it_is():
    state = toma_table(piles=[[B3]])
    toma(state).pool += toma(state).health
    toma(state).health = []
    state.sudden_death = True
    ctx = _lose(state)
    assert toma(ctx.state).eliminated
    assert ctx.state.result == {
        "reason": "elimination",
        "winners": [0],
        "ranking": [{"seat": 0, "score": 0, "rank": 1}],
        "scores": [0],
        "outcome": "won",
        "toma": {"strength": 3, "health": 0, "eliminated": True},
    }


def test_dying_with_the_toma_goes_to_total_strength():
    for human_pos, outcome in ((4, "won"), (1, "lost")):  # 5 > 3; 2 < 3
        state = toma_table(piles=[[B3]])
        put(state, 0, one("Recruit"), human_pos)
        for p in (state.players[0], toma(state)):
            p.pool += p.health
            p.health = []
        state.sudden_death = True
        ctx = flow_ctx(state)
        flow.apply_damage(ctx, {0: 1, 1: 1})
        assert ctx.state.result["outcome"] == outcome


def test_the_aipokalypse_against_the_toma_is_won_by_total_strength_ties_go_to_the_toma():
    for human_pos, outcome in (
        (2, "lost"),
        (4, "won"),
        (3, "lost"),
    ):  # 3 < 4, 5 > 4, 4 = 4 (6 health each)
        state = toma_table(piles=[[B1, B3]], phase="recruitment")  # A.I.Toma: 1 + 3 = 4
        put(state, 0, one("Recruit"), human_pos)
        state.apocalypse = True
        ctx = flow_ctx(state)
        flow.seat_ready(ctx, 0)
        assert ctx.state.result["reason"] == "aipokalypse"
        assert ctx.state.result["outcome"] == outcome
    state = toma_table(piles=[[B1, B3]], phase="recruitment")
    put(state, 0, one("Recruit"), 3)  # 4 = 4: more health points win
    toma(state).pool += toma(state).health[:2]
    del toma(state).health[:2]
    state.apocalypse = True
    ctx = flow_ctx(state)
    flow.seat_ready(ctx, 0)
    assert ctx.state.result["outcome"] == "won"


def test_a_solo_alternative_win_ends_the_match_at_once():
    state = toma_table(piles=[[B3]])
    put(state, 0, one("Invader"), 0)
    for k in range(4):
        put(state, 0, basic("yellow", 1 + k % 3, 1, k // 3)[0], 0)
    ctx = flow_ctx(state)
    assert flow.check_alternative_win(ctx)
    assert ctx.state.result["outcome"] == "won" and ctx.state.result["reason"] == "alternative_win"


def test_battle_result_between_the_sides():
    state = toma_table(piles=[[B3]])
    state.players[0].score, toma(state).score = 1, 3
    assert flow.battle_damage(state) == {0: 2, 1: 0}
    state.players[0].score = 3
    assert flow.battle_damage(state) == {0: 1, 1: 1}  # equal: everybody loses one
    state.players[0].score = 4
    assert flow.battle_damage(state) == {0: 0, 1: 1}
    assert strength_of(toma(state).slots[0]) == 3


def test_scammer_works_with_the_toma_and_lands_at_the_right_end_of_its_pool():
    # Scammer: "You can place Scammer in the pool of one of your neighboring opponents and take a
    # Special Unit from that pool. This also works with A.I.Toma."
    from tests.unit.aipokalypse.helpers import act

    first, last = special_with(("ammo",)), special_with(("draw", "passive"))
    state = toma_table(piles=[[B3]], phase="recruitment")
    toma(state).pool = [take(state, first), take(state, last)]
    scammer = one("Scammer")
    hand(state, 0, scammer)
    state, events = act(state, 0, {"type": "discard", "card": scammer}, answers=[last])
    assert toma(state).pool == [first, scammer] and last in state.players[0].pool
    assert toma_pool.passive_bonus(toma(state), 0) == 0  # the last card is now Scammer


def test_outfitter_q_draws_a_card_against_the_toma():
    # Outfitter Q: "If your opponents have no hand cards, you can draw a card (also against A.I.Toma)."
    state = toma_table(piles=[[B3]])
    outfitter = one("Outfitter Q")
    ctx = flow_ctx(state)
    from domain.games.aipokalypse.effects.resolve import run

    run(
        ctx,
        0,
        CAT[outfitter].ops("preparation"),
        {"card": outfitter, "slot": None, "target": None, "pos": None},
    )
    assert types(ctx.events) == ["CardsDrawn"] and len(ctx.state.players[0].hand) == 1
