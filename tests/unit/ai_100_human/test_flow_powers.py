"""AI card powers and the end of the game (rulebook "AI Cards Details" AI-2, AI-5, AI-6;
F "AI card scoring"; "End of the Game": ties share the victory; rulings R-POWERS, R-AI2)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove
from domain.games.ai_100_human.flow import result_of
from domain.games.ai_100_human.scoring import score_ai_card, score_effect, score_objective
from domain.games.ai_100_human.tableau import FRAME

from .test_flow_support import E, given, of_type, run, state_of, types, vp, when

HANDS = {
    0: ["031", "033", "035", "037"],
    1: ["039", "041", "043", "045"],
    2: ["047", "049", "050", "051"],
}


def test_ai5_exchanges_two_cards_once_per_game_keeping_adjacency():
    state = state_of(
        given(
            ai=["AI-5", "AI-3", "AI-1"],
            hands=HANDS,
            tableaux={0: {(1, 1): "001", (1, 3): "003", (0, 3): "005"}},
        )
    )
    legal = [a for a in E.legal_actions(state, 0) if a["type"] == "use_ai5"]
    cells = [sorted(map(tuple, a["cells"])) for a in legal]
    assert [(1, 1), (1, 3)] in cells  # two development cards
    assert [(0, 2), (1, 1)] in cells  # a card and an empty cell
    assert [(0, 0), (1, 1)] not in cells  # 001 would be cut off
    assert not any((1, 2) in c for c in cells)  # never the AI card
    with pytest.raises(IllegalMove):
        when(state, 0, {"type": "use_ai5", "cells": [[1, 2], [1, 1]]})
    state, out = run(state, [(0, {"type": "use_ai5", "cells": [[1, 1], [1, 3]]})])
    assert types(out) == ["AIPowerUsed"] and vp(out) == []  # no VP
    assert state.seats[0].tableau == {(1, 1): "003", (1, 3): "001", (0, 3): "005", (1, 2): "AI-5"}
    assert E.pending(state)[0] == "draft"
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "use_ai5", "cells": [[1, 1], [1, 3]]})
    assert err.value.code == "power_used"
    state, _ = run(state, [(s, {"type": "draft", "card": HANDS[s][0]}) for s in range(3)])
    assert E.pending(state)[0] == "place"
    assert not any(a["type"] == "use_ai5" for a in E.legal_actions(state, 0))


def test_ai5_is_also_offered_in_the_place_step():
    state = state_of(
        given(
            ai=["AI-5", "AI-3", "AI-1"],
            step="place",
            hands=HANDS,
            tableaux={0: {(1, 1): "001"}},
            reserves={0: ["003"], 1: ["005"], 2: ["007"]},
        )
    )
    kinds = {a["type"] for a in E.legal_actions(state, 0)}
    assert kinds == {"place", "use_ai5"}


PLAIN = [f"{i:03d}" for i in range(1, 99) if i not in (31, 33, 35, 37)]


def final_turn(ai, reserves, scores=None, exclude=(2, 4)):
    """Phase 2, turn 7, place step: every tableau full but ``exclude``; 3 seats."""
    free = [p for p in FRAME if p not in ((1, 2), exclude)]
    pool = [c for c in PLAIN if c not in {x for r in reserves.values() for x in r}]
    tableaux = {s: dict(zip(free, pool[13 * s : 13 * s + 13], strict=False)) for s in range(3)}
    return state_of(
        given(
            seats=3,
            ai=ai,
            phase=2,
            turn=7,
            step="place",
            tableaux=tableaux,
            reserves=reserves,
            scores=scores,
            objectives=("Omega-3", "Omega-4"),
        )
    )


def test_ai2_keeps_the_reserve_and_places_one_card_outside_the_frame_at_the_end():
    reserves = {0: ["052", "056", "058"], 1: ["060"], 2: ["062"]}
    state = final_turn(["AI-2", "AI-3", "AI-1"], reserves)
    state, out = run(
        state,
        [
            (0, {"type": "place", "card": "052", "cell": [2, 4]}),
            (1, {"type": "place", "card": "060", "cell": [2, 4]}),
            (2, {"type": "place", "card": "062", "cell": [2, 4]}),
        ],
    )
    discard = of_type(out, "ReservesDiscarded")[0].data
    assert discard == {"counts": [0, 0, 0], "kept_by": [0]}
    assert state.seats[0].reserve == ["056", "058"]
    objective = [v for v in vp(out) if v[1] == "Omega-4"]
    assert objective == [
        (s, "Omega-4", score_objective("Omega-4", state.seats[s].tableau)) for s in range(3)
    ]
    assert out[-1].type == "StepStarted" and out[-1].data["step"] == "extra"
    assert E.pending(state) == {0: "place_extra"}
    legal = E.legal_actions(state, 0)
    cells = {tuple(a["cell"]) for a in legal}
    assert cells == {(-1, c) for c in range(5)} | {(3, c) for c in range(5)} | {
        (r, -1) for r in range(3)
    } | {(r, 5) for r in range(3)}  # the frame is full
    state, out = run(state, [(0, {"type": "place_extra", "card": "058", "cell": [-1, 2]})])
    assert types(out) == ["ExtraCardPlaced", "VPScored"] + ["VPScored"] * 3 + ["MatchEnded"]
    extra = of_type(out, "VPScored")[0].data
    assert extra["card"] == "058" and extra["via"] == "AI-2"
    assert extra["vp"] == score_effect("058", state.seats[0].tableau, (-1, 2))
    ai = [v for v in vp(out) if v[1] and v[1].startswith("AI-")]
    assert ai == [
        (s, state.seats[s].ai_card, score_ai_card(state.seats[s].ai_card, state.seats[s].tableau))
        for s in range(3)
    ]
    assert ai[0][2] == 0  # AI-2 itself scores nothing
    assert len(state.seats[0].tableau) == 16
    assert E.result(state) is not None and E.pending(state) == {}


def test_without_ai2_the_game_ends_after_the_phase_2_objective_with_ai_scoring():
    reserves = {0: ["052"], 1: ["060"], 2: ["062"]}
    state = final_turn(["AI-3", "AI-11", "AI-1"], reserves)
    state, out = run(
        state, [(s, {"type": "place", "card": reserves[s][0], "cell": [2, 4]}) for s in range(3)]
    )
    reasons = [e.data["reason"] for e in of_type(out, "VPScored")]
    assert reasons == ["card"] * 3 + ["objective"] * 3 + ["ai_card"] * 3
    assert types(out)[-1] == "MatchEnded"
    ai = of_type(out, "VPScored")[-3:]
    assert [e.data["vp"] for e in ai] == [
        score_ai_card(state.seats[s].ai_card, state.seats[s].tableau) for s in range(3)
    ]


def test_card_returned_by_115_on_the_last_turn_cannot_be_the_ai2_card():
    reserves = {0: ["115", "056"], 1: ["060"], 2: ["062"]}
    state = final_turn(["AI-2", "AI-3", "AI-1"], reserves)
    returned = state.seats[0].tableau[(0, 0)]
    state, _ = run(
        state,
        [
            (0, {"type": "place", "card": "115", "cell": [2, 4]}),
            (1, {"type": "place", "card": "060", "cell": [2, 4]}),
            (2, {"type": "place", "card": "062", "cell": [2, 4]}),
        ],
    )
    assert E.pending(state) == {0: "exchange_reserve"}
    state, _ = run(state, [(0, {"type": "exchange_reserve", "cell": [0, 0], "card": "056"})])
    assert state.seats[0].reserve == [returned] and state.seats[0].locked == returned
    # The only reserve card is locked: no AI-2 placement, the match ends.
    assert E.result(state) is not None


def test_ties_share_the_victory():
    assert result_of([10, 12, 12]) == {
        "scores": [10, 12, 12],
        "ranking": [
            {"seat": 1, "score": 12, "rank": 1},
            {"seat": 2, "score": 12, "rank": 1},
            {"seat": 0, "score": 10, "rank": 3},
        ],
        "winners": [1, 2],
    }
    assert result_of([5, 5, 5])["winners"] == [0, 1, 2]


def test_a_tie_at_the_end_of_a_match_has_several_winners():
    reserves = {0: ["052"], 1: ["060"], 2: ["062"]}
    ai = ["AI-3", "AI-11", "AI-1"]
    probe, out = run(
        final_turn(ai, reserves),
        [(s, {"type": "place", "card": reserves[s][0], "cell": [2, 4]}) for s in range(3)],
    )
    gains = [probe.seats[s].score for s in range(3)]
    state, out = run(
        final_turn(ai, reserves, scores={s: 100 - gains[s] for s in range(3)}),
        [(s, {"type": "place", "card": reserves[s][0], "cell": [2, 4]}) for s in range(3)],
    )
    assert of_type(out, "MatchEnded")[0].data["winners"] == [0, 1, 2]
    assert E.result(state)["scores"] == [100, 100, 100]
