"""2-player mode ("2-Player Mode"; rulings R-DUO-GRID, R-DUO-DISCARD, R-DUO-DRAW,
R-DUO-PASS): set-up with the neutral grid, the draft / discard / draw / place / pass turn,
and the neutral grid as each seat's second neighbour for black cards."""

from __future__ import annotations

import random

import pytest

from domain.engine import Setup
from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.spec import mode_for

from .test_flow_support import E, of_type, run, state_of, types, vp, when
from .test_mode_support import given_duo

# A neutral grid of Phase 1 cards: five cards numbered 5 (003 red, 075 red, 083 purple,
# 043 green, 057 yellow) and the only blue card 059 (blue 2: "In your tableau, 1 VP per
# card of the color you have the most of").
NEUTRAL = {(0, 0): "003", (1, 0): "075", (2, 0): "083", (0, 1): "043", (1, 1): "057", (2, 1): "059"}


def test_seat_count_selects_the_mode():
    assert [mode_for(n) for n in range(1, 7)] == ["solo", "duo"] + ["standard"] * 4
    assert (E.min_seats, E.max_seats) == (1, 6)
    with pytest.raises(Exception) as err:
        E.validate_options(0, {})
    assert err.value.code == "invalid_command"
    with pytest.raises(ValueError):
        mode_for(7)


def test_setup_reveals_two_neutral_columns_from_the_shuffled_phase_deck():
    events = E.new_match(Setup(2, E.validate_options(2, {})), random.Random(5))
    assert types(events)[:6] == [
        "MatchStarted",
        "AICardsDealt",
        "PhaseStarted",
        "DeckShuffled",
        "NeutralGridRevealed",
        "CardsDealt",
    ]
    assert events[0].data["mode"] == "duo"
    order = events[3].data["order"]
    grid = events[4].data
    assert grid["phase"] == 1
    # column by column: (0,0), (1,0), (2,0), (0,1), (1,1), (2,1) from the top of the deck
    by_cell = {tuple(e["cell"]): e["card"] for e in grid["cards"]}
    assert [by_cell[(r, c)] for c in (0, 1) for r in (0, 1, 2)] == order[:6]
    state = state_of(events)
    assert state.mode == "duo" and len(state.neutral) == 6
    assert len(state.deck) == 60 - 6 - 2 * 4
    assert [s.dealt for s in state.seats] == [order[6:10], order[10:14]]
    assert E.view(state, None)["neutral_grid"] == sorted(grid["cards"], key=lambda e: e["cell"])


def test_phase_two_adds_two_columns_to_the_right():
    state = state_of(
        given_duo(neutral=NEUTRAL, step="place", turn=7, reserves={0: ["007"], 1: ["009"]})
    )
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "007", "cell": [1, 1]}),
            (1, {"type": "place", "card": "009", "cell": [1, 1]}),
        ],
    )
    revealed = of_type(events, "NeutralGridRevealed")
    assert len(revealed) == 1 and revealed[0].data["phase"] == 2
    cells = sorted(tuple(e["cell"]) for e in revealed[0].data["cards"])
    assert cells == [(r, c) for r in range(3) for c in (2, 3)]
    assert len(state.neutral) == 12
    assert {p: state.neutral[p] for p in NEUTRAL} == NEUTRAL  # Phase 1 columns stay
    phase2 = set(catalogue().phase_deck(2))
    assert all(state.neutral[(r, c)] in phase2 for r in range(3) for c in (2, 3))
    assert state.phase == 2 and len(state.deck) == 60 - 6 - 2 * 4


def draft_state():
    """Turn 1, both seats hold 7 Phase 1 cards; the deck top is 021 then 023."""
    hands = {
        0: ["001", "005", "007", "009", "011", "013", "015"],
        1: ["017", "025", "027", "029", "031", "035", "037"],
    }
    deck = ["021", "023", "039", "041"]
    return state_of(
        given_duo(neutral=NEUTRAL, hands=hands, reserves={0: ["047"], 1: ["049"]}, deck=deck)
    )


def test_draft_then_discard_then_hidden_draw_then_place():
    state = draft_state()
    state, events = run(
        state, [(0, {"type": "draft", "card": "015"}), (1, {"type": "draft", "card": "037"})]
    )
    assert types(events)[-1] == "StepStarted" and events[-1].data["step"] == "discard"
    assert "HandsPassed" not in types(events)  # passing waits for the turn end
    assert E.pending(state) == {0: "discard", 1: "discard"}
    assert E.legal_actions(state, 0) == [
        {"type": "discard", "card": c} for c in ["001", "005", "007", "009", "011", "013"]
    ]
    state, events = run(state, [(0, {"type": "discard", "card": "001"})])
    assert types(events) == ["CardDiscarded"]  # seat 1 still has to discard
    state, events = run(state, [(1, {"type": "discard", "card": "017"})])
    draws = of_type(events, "CardsDrawn")
    assert [(e.seat, e.data["cards"], e.data["to"]) for e in draws] == [
        (0, ["021"], "hand"),
        (1, ["023"], "hand"),
    ]
    assert state.seats[0].hand == ["005", "007", "009", "011", "013", "021"]
    assert state.seats[1].hand == ["025", "027", "029", "031", "035", "023"]
    assert state.seats[0].reserve == ["047", "015"] and state.deck[:2] == ["039", "041"]
    assert E.pending(state) == {0: "place", 1: "place"}


def test_hands_pass_after_placing_and_scoring():
    state = draft_state()
    state, _ = run(
        state,
        [
            (0, {"type": "draft", "card": "015"}),
            (1, {"type": "draft", "card": "037"}),
            (0, {"type": "discard", "card": "001"}),
            (1, {"type": "discard", "card": "017"}),
        ],
    )
    before = [list(s.hand) for s in state.seats]
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "047", "cell": [1, 1]}),
            (1, {"type": "place", "card": "049", "cell": [1, 3]}),
        ],
    )
    names = types(events)
    assert names.index("VPScored") < names.index("HandsPassed") < len(names) - 1
    assert [s.hand for s in state.seats] == [before[1], before[0]]
    assert (state.turn, state.step) == (2, "draft")


def test_a_single_card_left_is_discarded_by_itself():
    state = state_of(
        given_duo(
            neutral=NEUTRAL,
            hands={0: ["001", "005"], 1: ["007", "009"]},
            reserves={0: ["047"], 1: ["049"]},
            turn=6,
            deck=["021", "023"],
        )
    )
    state, events = run(
        state, [(0, {"type": "draft", "card": "005"}), (1, {"type": "draft", "card": "009"})]
    )
    forced = of_type(events, "CardDiscarded")
    assert [(e.seat, e.data) for e in forced] == [
        (0, {"card": "001", "forced": True}),
        (1, {"card": "007", "forced": True}),
    ]
    draws = of_type(events, "CardsDrawn")
    assert [(e.seat, e.data["cards"]) for e in draws] == [(0, ["021"]), (1, ["023"])]
    assert E.pending(state) == {0: "place", 1: "place"}


def test_the_last_single_card_is_drafted_with_no_discard_and_no_draw():
    state = state_of(
        given_duo(
            neutral=NEUTRAL,
            hands={0: ["001"], 1: ["007"]},
            reserves={0: ["047"], 1: ["049"]},
            turn=7,
            deck=["021", "023"],
        )
    )
    state, events = run(
        state, [(0, {"type": "draft", "card": "001"}), (1, {"type": "draft", "card": "007"})]
    )
    assert not of_type(events, "CardDiscarded") and not of_type(events, "CardsDrawn")
    assert E.pending(state) == {0: "place", 1: "place"} and state.deck == ["021", "023"]


def test_neutral_grid_is_the_second_neighbour_of_107():
    # 107: 2 VP per card numbered 5 in an adjacent player's tableau (the best one).
    # Opponent: AI-11 (3) + 023 (3): no 5. Neutral grid: 003, 075, 083, 043, 057 -> 5 x 2 = 10.
    state = state_of(
        given_duo(
            neutral=NEUTRAL, step="place", reserves={0: ["107"], 1: ["023"]}, tableaux={1: {}}
        )
    )
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "107", "cell": [1, 1]}),
            (1, {"type": "place", "card": "023", "cell": [1, 1]}),
        ],
    )
    assert (0, "107", 10) in vp(events)


def test_neutral_grid_row_for_113():
    # 113 (Phase 1): 3 VP per card of the colour the corresponding row has most of.
    # Played in row 0: grid row 0 = 003 red, 043 green -> 1 x 3 = 3; opponent row 0 empty.
    state = state_of(given_duo(neutral=NEUTRAL, step="place", reserves={0: ["113"], 1: ["023"]}))
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "113", "cell": [0, 2]}),
            (1, {"type": "place", "card": "023", "cell": [1, 1]}),
        ],
    )
    assert (0, "113", 3) in vp(events)


def test_copy_card_copies_a_blue_card_of_the_neutral_grid():
    # 099 copies a blue card of a neighbour: only the grid's 059 is blue. 059 evaluated in
    # seat 0's tableau: AI-3 yellow, 015 yellow, 017 yellow, 099 black -> 3 yellow -> 3 VP.
    state = state_of(
        given_duo(
            neutral=NEUTRAL,
            step="place",
            reserves={0: ["099"], 1: ["023"]},
            tableaux={0: {(1, 3): "015", (0, 2): "017"}},
        )
    )
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "099", "cell": [1, 1]}),
            (1, {"type": "place", "card": "023", "cell": [1, 1]}),
        ],
    )
    assert E.pending(state) == {0: "copy"}
    assert E.legal_actions(state, 0) == [{"type": "copy", "card": "059"}]
    state, events = run(state, [(0, {"type": "copy", "card": "059"})])
    scored = [e for e in of_type(events, "VPScored") if e.seat == 0 and e.data["reason"] == "card"]
    assert [(e.data["card"], e.data["copied"], e.data["vp"]) for e in scored] == [("099", "059", 3)]


def test_105_gains_the_opponents_vp_as_the_grid_gains_none():
    # Seat 1 plays 053 (row: 3 VP per yellow card) in row 1 next to 015 (yellow): 3 VP.
    state = state_of(
        given_duo(
            neutral=NEUTRAL,
            step="place",
            reserves={0: ["105"], 1: ["053"]},
            tableaux={1: {(1, 3): "015"}},
        )
    )
    state, events = run(
        state,
        [
            (0, {"type": "place", "card": "105", "cell": [1, 1]}),
            (1, {"type": "place", "card": "053", "cell": [1, 1]}),
        ],
    )
    scored = {
        (e.seat, e.data["card"]): e.data
        for e in of_type(events, "VPScored")
        if e.data["reason"] == "card"
    }
    assert scored[(1, "053")]["vp"] == 3
    assert scored[(0, "105")]["vp"] == 3 and scored[(0, "105")]["from_seat"] == 1


def test_discard_rejections():
    state = draft_state()
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "discard", "card": "001"})
    assert err.value.code == "wrong_step"
    state, _ = run(
        state, [(0, {"type": "draft", "card": "015"}), (1, {"type": "draft", "card": "037"})]
    )
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "discard", "card": "015"})  # now in the reserve
    assert err.value.code == "card_not_in_hand"
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "discard"})
    assert err.value.code == "invalid_command"
