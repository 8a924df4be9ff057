"""Bots: ``random`` and ``greedy`` pick legal commands from what their seat sees; greedy
maximises immediate VP (placement, copy, exchange) and drafts high-potential cards."""

from __future__ import annotations

import random
import time
from statistics import mean

from .test_flow_black import place_all, scenario_order
from .test_flow_support import E, given, play_match, state_of

HANDS = {0: ["031", "033"], 1: ["035", "037"], 2: ["039", "041"]}
GREEDY = E.bots["greedy"]


def test_bots_only_return_legal_actions_all_match_long():
    for seats, seed in ((3, 1), (6, 2)):
        state, events = play_match(seats, seed, bots=["greedy", "random"] * 3)
        assert E.result(state) is not None
    state = state_of(
        given(
            step="place", hands=HANDS, reserves={0: ["115", "117", "118"], 1: ["001"], 2: ["003"]}
        )
    )
    for bot in E.bots.values():
        for _ in range(10):
            assert bot.choose(state, 0, random.Random(_)) in E.legal_actions(state, 0)


def test_greedy_places_the_card_with_the_most_immediate_vp():
    state = state_of(
        given(
            step="place", hands=HANDS, reserves={0: ["115", "117", "118"], 1: ["001"], 2: ["003"]}
        )
    )
    choice = GREEDY.choose(state, 0, random.Random(0))
    assert choice["type"] == "place" and choice["card"] == "118"  # 3 VP > 2 VP > -2 VP


def test_greedy_drafts_the_card_with_the_best_potential():
    state = state_of(given(hands={0: ["115", "118", "117"], 1: ["035", "037"], 2: ["039", "041"]}))
    assert GREEDY.choose(state, 0, random.Random(0)) == {"type": "draft", "card": "118"}


def test_greedy_copies_the_target_worth_most():
    state = scenario_order()
    state.seats[2].tableau[(2, 2)] = "052"  # a second yellow target next door (0 VP here)
    state, _ = place_all(
        state, {0: ("057", (0, 1)), 1: ("107", (1, 1)), 2: ("105", (0, 2)), 3: ("103", (1, 1))}
    )
    assert sorted(a["card"] for a in E.legal_actions(state, 3)) == ["052", "057"]
    assert GREEDY.choose(state, 3, random.Random(0)) == {"type": "copy", "card": "057"}


def test_greedy_chooses_the_best_reserve_exchange():
    from .test_flow_black import scenario_115

    state = scenario_115()
    state, _ = place_all(state, {0: ("115", (0, 2)), 1: ("060", (1, 1)), 2: ("062", (1, 1))})
    choice = GREEDY.choose(state, 0, random.Random(0))
    # 056 at (1,1) sees the red 064 (2 VP); at (1,0) it sees no red card (0 VP).
    assert choice == {"type": "exchange_reserve", "cell": [1, 1], "card": "056"}


def test_greedy_does_not_peek_at_hidden_information():
    # Play to a mid-match draft step, then perturb everything seat 0 cannot see.
    from domain.engine import Setup, fold

    rng = random.Random(4)
    events = E.new_match(Setup(4, {"objectives": "random"}), rng)
    state = fold(E, events)
    while not (state.step == "draft" and state.turn == 3 and 0 in E.pending(state)):
        seat = min(E.pending(state))
        state = fold(
            E, E.decide(state, seat, E.bots["random"].choose(state, seat, rng), rng), state
        )
    before = GREEDY.choose(state, 0, random.Random(1))
    twisted = E.load_state(E.dump_state(state))
    twisted.deck.reverse()
    twisted.seats[1].hand, twisted.seats[2].hand = twisted.seats[2].hand, twisted.seats[1].hand
    twisted.seats[3].reserve = list(reversed(twisted.seats[3].reserve))
    assert E.view(twisted, 0) == E.view(state, 0)
    assert GREEDY.choose(twisted, 0, random.Random(1)) == before


def test_greedy_beats_random_on_average():
    greedy, rnd = [], []
    for seed in range(8):
        state, _ = play_match(4, seed, bots=["greedy", "random", "greedy", "random"])
        scores = E.result(state)["scores"]
        greedy += [scores[0], scores[2]]
        rnd += [scores[1], scores[3]]
    assert mean(greedy) > mean(rnd) + 10


def test_a_four_seat_greedy_match_is_fast():
    started = time.perf_counter()
    state, events = play_match(4, 77, bots="greedy")
    elapsed = time.perf_counter() - started
    assert E.result(state) is not None
    assert elapsed < 3.0, f"4-seat greedy match took {elapsed:.2f} s (target 1 s)"


def test_greedy_keeps_the_reserve_cards_it_can_score_best_around_its_ai_card():
    state = state_of(
        given(
            phase=2,
            turn=0,
            step="setup",
            dealt={
                0: ["115", "118", "117", "116"],
                1: ["052", "054", "056", "058"],
                2: ["060", "062", "064", "066"],
            },
        )
    )
    assert GREEDY.choose(state, 0, random.Random(0)) == {
        "type": "keep_reserve",
        "cards": ["117", "118"],
    }
