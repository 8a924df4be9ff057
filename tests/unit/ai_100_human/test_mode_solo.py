"""Solo mode ("Solo Mode", "Scoring"; rulings R-SOLO-*): set-up (dividers, draft grid,
reserve, 18-card timer stack), the standee's line, standee movement, tilt and refill, the
grid as the black cards' neighbour, flat 4 VP for 105/106, AI-6, Phase 2 and the ladder."""

from __future__ import annotations

import random

import pytest

from domain.engine import Event, Setup
from domain.games.ai_100_human import solo
from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.flow import result_of
from domain.games.ai_100_human.spec import DIVIDER_COLORS, rating

from .test_flow_support import E, of_type, run, state_of, types, vp, when
from .test_mode_support import given_solo

DIVIDERS = (["red", "blue", "yellow"], ["black", "green", "purple"])
# Phase 1 cards. Row 0: 003 red 5, 075 red 5, 083 purple 5; row 1: 043 green 5,
# 001 purple 2, 005 red 4; row 2: 007 blue 3, 009 red 3, 063 green 4.
GRID = {
    (0, 0): "003",
    (0, 1): "075",
    (0, 2): "083",
    (1, 0): "043",
    (1, 1): "001",
    (1, 2): "005",
    (2, 0): "007",
    (2, 1): "009",
    (2, 2): "063",
}
TIMER = ["015", "017", "021", "023", "025", "027"]


def solo_state(**kw):
    args = {"dividers": DIVIDERS, "grid": GRID, "timer": TIMER, "standee": "red"}
    args.update(kw)
    return state_of(given_solo(**args))


def test_setup_lays_out_dividers_grid_reserve_and_timer_stack():
    events = E.new_match(Setup(1, E.validate_options(1, {})), random.Random(11))
    assert types(events) == [
        "MatchStarted",
        "AICardsDealt",
        "PhaseStarted",
        "DeckShuffled",
        "DividersPlaced",
        "DraftGridBuilt",
        "CardsDealt",
        "TimerStackFormed",
    ]
    assert events[0].data["mode"] == "solo"
    assert events[1].data["cards"] == [[f"AI-{i}" for i in range(1, 13)]]
    dividers = events[4].data
    assert len(dividers["rows"]) == 3 and len(dividers["columns"]) == 3
    assert sorted(dividers["rows"] + dividers["columns"]) == sorted(DIVIDER_COLORS)
    order = events[3].data["order"]
    grid = {tuple(e["cell"]): e["card"] for e in events[5].data["cards"]}
    assert [grid[(r, c)] for r in range(3) for c in range(3)] == order[:9]  # reading order
    assert events[6].data == {"purpose": "reserve", "cards": order[9:13]}
    assert events[7].data == {"phase": 1, "count": 18}
    state = state_of(events)
    assert state.timer == order[13:31] and state.deck == order[31:] and len(state.deck) == 29
    assert [a["card"] for a in E.legal_actions(state, 0)] == [f"AI-{i}" for i in range(1, 13)]


def test_standee_starts_on_the_divider_of_the_chosen_ai_colour():
    events = E.new_match(Setup(1, E.validate_options(1, {})), random.Random(11))
    state = state_of(events)
    dividers = events[4].data
    state, new = run(
        state,
        [
            (0, {"type": "choose_ai_side", "card": "AI-7"}),  # black
            (0, {"type": "keep_reserve", "cards": state.seats[0].dealt[:2]}),
        ],
    )
    moved = of_type(new, "StandeeMoved")
    kind = "row" if "black" in dividers["rows"] else "column"
    index = dividers[kind + "s"].index("black")
    assert [e.data for e in moved] == [{"color": "black", "line": kind, "index": index}]
    assert "CardsDealt" not in types(new)  # no hand in solo
    assert len(state.timer) == 18 and len(state.deck) == 29 + 2  # the 2 not kept return
    cells = [(index, c) for c in range(3)] if kind == "row" else [(r, index) for r in range(3)]
    assert E.pending(state) == {0: "draft"}
    assert E.legal_actions(state, 0) == [
        {"type": "draft", "card": c} for c in sorted(state.grid[p] for p in cells)
    ]


def test_take_tilts_the_line_and_moves_the_standee_to_the_cards_colour():
    state = solo_state(reserve=["047"])
    assert E.legal_actions(state, 0) == [
        {"type": "draft", "card": c} for c in ("003", "075", "083")
    ]
    state, events = run(state, [(0, {"type": "draft", "card": "083"})])  # purple
    assert [(e.type, e.data) for e in events[:2]] == [
        ("GridCardTaken", {"card": "083", "cell": [0, 2], "tilted": [[0, 0], [0, 1]]}),
        ("StandeeMoved", {"color": "purple", "line": "column", "index": 2}),
    ]
    assert state.seats[0].reserve == ["047", "083"] and (0, 2) not in state.grid
    assert state.tilted == [[0, 0], [0, 1]] and state.grid[(0, 0)] == "003"  # still there
    assert E.pending(state) == {0: "place"}


def test_107_reads_the_grid_and_the_line_is_refilled_after_scoring():
    # Take 003 (red: the standee stays on row 0). 107: 2 VP per card numbered 5 in the
    # neighbour = the draft grid now: 075, 083 (tilted, still there) and 043 -> 3 x 2 = 6.
    state = solo_state(reserve=["107"])
    state, events = run(
        state,
        [
            (0, {"type": "draft", "card": "003"}),
            (0, {"type": "place", "card": "107", "cell": [1, 1]}),
        ],
    )
    assert of_type(events, "StandeeMoved")[0].data == {"color": "red", "line": "row", "index": 0}
    assert (0, "107", 6) in vp(events)
    refill = of_type(events, "GridRefilled")
    assert [e.data for e in refill] == [
        {
            "discarded": ["075", "083"],
            "cards": [
                {"cell": [0, 0], "card": "015"},
                {"cell": [0, 1], "card": "017"},
                {"cell": [0, 2], "card": "021"},
            ],
        }
    ]
    names = types(events)
    assert names.index("VPScored") < names.index("GridRefilled")
    assert state.timer == ["023", "025", "027"] and state.tilted == [] and len(state.grid) == 9
    assert (state.turn, state.step) == (2, "draft")
    assert E.legal_actions(state, 0) == [
        {"type": "draft", "card": c} for c in ("015", "017", "021")
    ]


def test_copy_card_copies_a_green_card_of_the_grid():
    # 101 copies a green card of the grid (043, 063). 063 "In this row, 2 VP per card of
    # different colors" at (1,1): row 1 = 101 black, AI-3 yellow -> 2 colours -> 4 VP.
    state = solo_state(reserve=["101"])
    state, _ = run(
        state,
        [
            (0, {"type": "draft", "card": "003"}),
            (0, {"type": "place", "card": "101", "cell": [1, 1]}),
        ],
    )
    assert E.pending(state) == {0: "copy"}
    assert E.legal_actions(state, 0) == [
        {"type": "copy", "card": "043"},
        {"type": "copy", "card": "063"},
    ]
    state, events = run(state, [(0, {"type": "copy", "card": "063"})])
    assert (0, "101", 4) in vp(events)


def test_105_scores_a_flat_4_vp():
    state = solo_state(reserve=["105"])
    state, events = run(
        state,
        [
            (0, {"type": "draft", "card": "003"}),
            (0, {"type": "place", "card": "105", "cell": [1, 1]}),
        ],
    )
    scored = [e.data for e in of_type(events, "VPScored") if e.data.get("card") == "105"]
    assert scored == [{"reason": "card", "card": "105", "cell": [1, 1], "vp": 4, "from_seat": None}]


def test_standee_stays_when_no_divider_has_the_colour():
    state = solo_state(dividers=(["red", "blue", "yellow"], ["black", "green", "orange"]))
    state, events = run(state, [(0, {"type": "draft", "card": "083"})])  # purple
    assert "StandeeMoved" not in types(events)
    assert state.standee == {"color": "red", "line": "row", "index": 0}


def test_a_short_line_offers_what_it_holds_and_an_empty_line_the_whole_grid():
    short = {p: c for p, c in GRID.items() if p != (0, 1)}
    state = solo_state(grid=short)
    assert [c for _, c in solo.offer(state)] == ["003", "083"]
    empty = {p: c for p, c in GRID.items() if p[0] != 0}
    state = solo_state(grid=empty)
    assert [c for _, c in solo.offer(state)] == [empty[p] for p in sorted(empty)]
    state, events = run(state, [(0, {"type": "draft", "card": "063"})])
    assert of_type(events, "GridCardTaken")[0].data["tilted"] == []


def test_draft_rejects_a_card_outside_the_standees_line():
    state = solo_state()
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "draft", "card": "043"})
    assert err.value.code == "card_not_offered"


def test_ai6_discards_two_cards_of_the_line_and_draws_from_the_phase_deck():
    """AI-6 "you may draw 2 cards and add them to your reserve. Then discard any 2 cards
    from your hand" (R-SOLO-AI6: the standee's line stands for the hand; R-SOLO-DECK: the
    draw comes from the phase deck, never the timer stack), in two steps."""
    deck = ["031", "035", "037", "039"]
    state = solo_state(ai="AI-6", deck=deck)
    assert {"type": "use_ai6"} in E.legal_actions(state, 0)
    state, events = run(state, [(0, {"type": "use_ai6"})])
    assert events[0].data["drawn"] == ["031", "035"]
    assert state.seats[0].reserve == ["031", "035"] and state.timer == TIMER
    assert E.legal_actions(state, 0) == [
        {"type": "ai6_discard", "cards": d}
        for d in (["003", "075"], ["003", "083"], ["075", "083"])
    ]
    state, events = run(state, [(0, {"type": "ai6_discard", "cards": ["075", "003"]})])
    assert types(events) == ["PowerCardsDiscarded"]
    assert (0, 0) not in state.grid and state.tilted == [[0, 0], [0, 1]]
    assert E.legal_actions(state, 0) == [{"type": "draft", "card": "083"}]


def test_phase_two_rebuilds_the_grid_and_the_standee_stays():
    state = solo_state(standee="purple", reserve=["047"], turn=7, step="place", timer=[])
    state, events = run(state, [(0, {"type": "place", "card": "047", "cell": [1, 1]})])
    names = types(events)
    assert names[names.index("ReservesDiscarded") :] == [
        "ReservesDiscarded",
        "VPScored",
        "DraftGridDiscarded",
        "PhaseStarted",
        "DeckShuffled",
        "DraftGridBuilt",
        "CardsDealt",
        "TimerStackFormed",
    ]
    phase2 = set(catalogue().phase_deck(2))
    assert len(state.grid) == 9 and set(state.grid.values()) <= phase2
    assert len(state.timer) == 18 and state.dividers == {
        "rows": DIVIDERS[0],
        "columns": DIVIDERS[1],
    }
    state, events = run(state, [(0, {"type": "keep_reserve", "cards": state.seats[0].dealt[:2]})])
    assert "StandeeMoved" not in types(events)
    assert state.standee == {"color": "purple", "line": "column", "index": 2}
    assert (state.phase, state.turn, state.step) == (2, 1, "draft")


@pytest.mark.parametrize(
    "score, name",
    [
        (0, "Failure"),
        (110, "Failure"),
        (111, "Mentat"),
        (116, "Mentat"),
        (117, "AL9000"),
        (122, "AL9000"),
        (123, "Shyrka"),
        (129, "Cortana"),
        (134, "Cortana"),
        (135, "Skynet"),
        (141, "Skynet"),
        (142, "PRIV8"),
        (180, "PRIV8"),
    ],
)
def test_rating_ladder(score, name):
    assert rating(score) == name


def test_solo_result_carries_the_rating_and_a_failure_wins_nothing():
    assert solo.with_rating(result_of([111])) == {
        "scores": [111],
        "ranking": [{"seat": 0, "score": 111, "rank": 1}],
        "winners": [0],
        "rating": "Mentat",
    }
    assert solo.with_rating(result_of([110]))["winners"] == []
    state = solo_state()
    ended = solo.with_rating(result_of([142]))
    state = E.evolve(state, Event("MatchEnded", ended))
    assert E.result(state)["rating"] == "PRIV8"
    view = E.view(state, None)
    assert view["solo"]["rating"] == "PRIV8" and view["result"]["rating"] == "PRIV8"
    assert view["solo"]["ladder"][0] == {"rating": "PRIV8", "from": 142}
