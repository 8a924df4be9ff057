"""Drafting turns: draft, pass, place, reveal (rulebook "2 Phases Overview" B, C, D, E)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.games.ai_100_human.scoring import score_effect, score_objective

from .test_flow_support import E, given, of_type, play_match, run, state_of, types, vp, when

HANDS = {0: ["001", "003", "005"], 1: ["007", "009", "011"], 2: ["013", "015", "017"]}
RESERVES = {0: ["019", "021"], 1: ["023", "025"], 2: ["027", "029"]}


def test_draft_moves_a_hand_card_into_the_reserve_and_waits_for_everyone():
    state = state_of(given(hands=HANDS, reserves=RESERVES))
    state, out = run(state, [(0, {"type": "draft", "card": "003"})])
    assert [(e.type, e.seat, dict(e.data)) for e in out] == [
        ("CardDrafted", 0, {"card": "003", "forced": False})
    ]
    assert state.seats[0].hand == ["001", "005"]
    assert state.seats[0].reserve == ["019", "021", "003"]
    assert E.pending(state) == {1: "draft", 2: "draft"}
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "draft", "card": "001"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(Exception) as err:
        when(state, 1, {"type": "draft", "card": "001"})
    assert err.value.code == "card_not_in_hand"


@pytest.mark.parametrize(
    "phase, direction, receives_from",
    [
        (1, "left", {0: 2, 1: 0, 2: 1}),  # Phase 1: seat s passes to s + 1
        (2, "right", {0: 1, 1: 2, 2: 0}),  # Phase 2: seat s passes to s - 1
    ],
)
def test_hands_pass_left_in_phase_1_and_right_in_phase_2(phase, direction, receives_from):
    state = state_of(given(phase=phase, hands=HANDS, reserves=RESERVES))
    picks = {0: "001", 1: "007", 2: "013"}
    state, out = run(state, [(s, {"type": "draft", "card": c}) for s, c in picks.items()])
    assert types(out) == ["CardDrafted"] * 3 + ["HandsPassed", "StepStarted"]
    assert out[3].data == {"direction": direction}
    assert out[4].data == {"phase": phase, "turn": 1, "step": "place"}
    for seat, source in receives_from.items():
        assert state.seats[seat].hand == [c for c in HANDS[source] if c != picks[source]]
    assert E.pending(state) == {0: "place", 1: "place", 2: "place"}


def test_placement_is_hidden_until_all_chose_then_revealed_and_scored():
    state = state_of(given(step="place", reserves=RESERVES))
    cells = E.legal_actions(state, 0)
    assert {tuple(a["cell"]) for a in cells} == {(0, 2), (1, 1), (1, 3), (2, 2)}
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "place", "card": "019", "cell": [0, 0]})
    assert err.value.code == "cell_not_available"
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "place", "card": "023", "cell": [1, 1]})
    assert err.value.code == "card_not_in_reserve"
    state, out = run(
        state,
        [
            (0, {"type": "place", "card": "019", "cell": [1, 1]}),
            (1, {"type": "place", "card": "025", "cell": [0, 2]}),
        ],
    )
    assert types(out) == ["PlacementChosen", "PlacementChosen"]
    assert state.seats[0].tableau.get((1, 1)) is None  # face down until the reveal
    state, out = run(state, [(2, {"type": "place", "card": "027", "cell": [1, 3]})])
    reveal = of_type(out, "PlacementsRevealed")[0].data["placements"]
    assert reveal == [
        {"seat": 0, "card": "019", "cell": [1, 1]},
        {"seat": 1, "card": "025", "cell": [0, 2]},
        {"seat": 2, "card": "027", "cell": [1, 3]},
    ]
    expected = [
        (s, c, score_effect(c, state.seats[s].tableau, p))
        for s, c, p in ((0, "019", (1, 1)), (1, "025", (0, 2)), (2, "027", (1, 3)))
    ]
    assert vp(out) == expected
    assert types(out)[-1] == "StepStarted" and out[-1].data["turn"] == 2
    assert [s.reserve for s in state.seats] == [["021"], ["023"], ["029"]]


def test_ai8_allows_diagonal_placement():
    state = state_of(given(step="place", ai=["AI-8", "AI-3", "AI-1"], reserves=RESERVES))
    assert {tuple(a["cell"]) for a in E.legal_actions(state, 0) if a["type"] == "place"} == {
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 1),
        (1, 3),
        (2, 1),
        (2, 2),
        (2, 3),
    }
    assert len({tuple(a["cell"]) for a in E.legal_actions(state, 1)}) == 4


def test_a_full_phase_has_7_turns_and_the_last_card_goes_to_the_reserve_by_itself():
    state, events = play_match(4, seed=3, bots="random")
    drafts = [e.data for e in of_type(events, "StepStarted") if e.data["step"] == "draft"]
    assert [(d["phase"], d["turn"]) for d in drafts] == [
        (p, t) for p in (1, 2) for t in range(1, 8)
    ]
    assert len(of_type(events, "PlacementsRevealed")) == 14
    assert len(of_type(events, "HandsPassed")) == 12  # turns 1-6 of each phase
    directions = [e.data["direction"] for e in of_type(events, "HandsPassed")]
    assert directions == ["left"] * 6 + ["right"] * 6
    forced = [e for e in of_type(events, "CardDrafted") if e.data["forced"]]
    assert len(forced) == 8  # turn 7, 4 seats, 2 phases
    assert all(len(s.tableau) == 15 for s in state.seats)  # 14 development cards + AI card
    discards = of_type(events, "ReservesDiscarded")
    assert len(discards) == 2
    # Each reserve: 2 kept + 7 drafted - 7 placed (+ cards drawn by 117/118 or AI-6).
    assert all(n >= 2 for n in discards[0].data["counts"])


def test_phase_objective_is_scored_for_every_seat_after_the_7th_turn():
    seen = {}

    def spy(event, state):
        if event.type == "VPScored" and event.data["reason"] == "objective":
            seen.setdefault(state.phase, []).append(
                (
                    event.seat,
                    event.data["vp"],
                    score_objective(event.data["objective"], state.seats[event.seat].tableau),
                )
            )

    state, events = play_match(3, seed=8, bots="greedy", on_event=spy)
    assert sorted(seen) == [1, 2]
    for rows in seen.values():
        assert [r[0] for r in rows] == [0, 1, 2]
        assert all(r[1] == r[2] for r in rows)
    objectives = [
        e.data["objective"]
        for e in events
        if e.type == "VPScored" and e.data["reason"] == "objective"
    ]
    assert objectives == [state.objectives["1"]] * 3 + [state.objectives["2"]] * 3


def test_phase_2_starts_with_a_new_shuffled_deck_and_4_cards_each():
    state, events = play_match(5, seed=4)
    phase2 = [i for i, e in enumerate(events) if e.type == "PhaseStarted" and e.data["phase"] == 2][
        0
    ]
    assert (
        types(events[phase2 : phase2 + 7]) == ["PhaseStarted", "DeckShuffled"] + ["CardsDealt"] * 5
    )
    from domain.games.ai_100_human.cards import catalogue

    assert sorted(events[phase2 + 1].data["order"]) == catalogue().phase_deck(2)
    assert all(len(e.data["cards"]) == 4 for e in events[phase2 + 2 : phase2 + 7])


def test_scores_are_the_sum_of_vp_events():
    state, events = play_match(6, seed=12, bots="greedy")
    total = Counter()
    for e in of_type(events, "VPScored"):
        total[e.seat] += e.data["vp"]
    assert [state.seats[s].score for s in range(6)] == [total[s] for s in range(6)]
    assert E.result(state)["scores"] == [total[s] for s in range(6)]
