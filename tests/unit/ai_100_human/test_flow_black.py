"""Black (Hacking) and special cards after the reveal (rulebook "Black Cards", "Special
cards"; RULINGS "Black (Hacking) cards" and the game's R-COPY, R-105, R-115, R-117, R-119)."""

from __future__ import annotations

import pytest

from domain.engine import IllegalMove
from domain.games.ai_100_human.scoring import score_effect

from .test_flow_support import E, given, of_type, run, state_of, types, vp, when

HANDS = {0: ["031", "033"], 1: ["035", "037"], 2: ["039", "041"], 3: ["043", "045"]}


def turn(seats=3, **kw):
    """A place step of turn 1 where every seat still holds 2 hand cards (so the flow stops
    at the next draft step)."""
    return state_of(
        given(seats=seats, step="place", hands={s: HANDS[s] for s in range(seats)}, **kw)
    )


def place_all(state, placements):
    return run(
        state,
        [(s, {"type": "place", "card": c, "cell": list(p)}) for s, (c, p) in placements.items()],
    )


def scenario_order():
    """4 seats. 057: adjacent, 2 VP per purple card. 107: 2 VP per card numbered 5 in an
    adjacent player's tableau. 103: copy a yellow card of an adjacent player. 105: VP of the
    neighbour who gains the most this turn."""
    return turn(
        4,
        tableaux={
            0: {(1, 1): "053"},  # purple
            2: {(1, 1): "075", (1, 3): "058"},  # red 5, red 5
            3: {(0, 2): "071", (2, 2): "054", (0, 1): "060"},
        },  # 3 purple
        reserves={0: ["057"], 1: ["107"], 2: ["105"], 3: ["103"]},
    )


def test_non_black_first_then_black_by_number_then_105_with_the_best_neighbour():
    state = scenario_order()
    state, out = place_all(
        state, {0: ("057", (0, 1)), 1: ("107", (1, 1)), 2: ("105", (0, 2)), 3: ("103", (1, 1))}
    )
    # The copy card has a yellow target (seat 0's 057): its owner decides, nobody scores yet.
    assert out[-1].type == "StepStarted" and out[-1].data["needs"] == {"3": "copy"}
    assert E.pending(state) == {3: "copy"}
    assert E.legal_actions(state, 3) == [{"type": "copy", "card": "057"}]
    assert of_type(out, "VPScored") == []
    state, out = run(state, [(3, {"type": "copy", "card": "057"})])
    assert vp(out)[:4] == [
        (0, "057", 2),  # 1 purple card around it (053)
        (3, "103", 6),  # copies 057 in its own tableau: 3 purple cards around (1,1)
        (1, "107", 4),  # best neighbour: seat 2 has two cards numbered 5
        (2, "105", 6),  # neighbours seat 3 (6) and seat 1 (4)
    ]
    copy = of_type(out, "VPScored")[1].data
    assert copy["copied"] == "057" and copy["cell"] == [1, 1]
    assert of_type(out, "VPScored")[3].data["from_seat"] == 3
    assert [s.turn_vp for s in state.seats] == [0, 0, 0, 0]  # next turn started


def test_105_ignores_the_neighbours_own_105_106():
    state = turn(3, reserves={0: ["105"], 1: ["106"], 2: ["118"]}, deck=["001", "003"])
    state, out = place_all(state, {0: ("105", (1, 1)), 1: ("106", (1, 1)), 2: ("118", (1, 1))})
    assert vp(out) == [(2, "118", 3), (0, "105", 3), (1, "106", 3)]


def test_105_gains_nothing_when_both_neighbours_lose_vp():
    state = turn(3, reserves={0: ["105"], 1: ["115"], 2: ["116"]})
    state, out = place_all(state, {0: ("105", (1, 1)), 1: ("115", (1, 1)), 2: ("116", (1, 1))})
    assert "resolve" not in [e.data.get("step") for e in of_type(out, "StepStarted")]
    assert vp(out) == [(1, "115", -2), (2, "116", -2), (0, "105", 0)]


def test_copy_without_a_target_scores_0_and_asks_nothing():
    state = turn(3, reserves={0: ["099"], 1: ["001"], 2: ["003"]})
    state, out = place_all(state, {0: ("099", (1, 1)), 1: ("001", (1, 1)), 2: ("003", (1, 1))})
    copy = [e.data for e in of_type(out, "VPScored") if e.seat == 0][0]
    assert copy["vp"] == 0 and copy["copied"] is None
    assert "resolve" not in [e.data["step"] for e in of_type(out, "StepStarted")]
    assert out[-1].data == {"phase": 1, "turn": 2, "step": "draft"}
    assert E.pending(state) == {0: "draft", 1: "draft", 2: "draft"}


def test_copy_target_must_be_a_card_of_the_colour_in_an_adjacent_tableau():
    state = scenario_order()
    state, _ = place_all(
        state, {0: ("057", (0, 1)), 1: ("107", (1, 1)), 2: ("105", (0, 2)), 3: ("103", (1, 1))}
    )
    for target in ("058", "AI-3", "071"):  # red card, AI card, own card
        with pytest.raises(Exception) as err:
            when(state, 3, {"type": "copy", "card": target})
        assert err.value.code == "invalid_copy_target"


def scenario_115():
    """Phase 2, seat 0 plays 115 next to 052 (1 VP per red card) and 064 (red)."""
    return turn(
        3,
        phase=2,
        tableaux={0: {(1, 1): "052", (1, 0): "064"}},
        reserves={0: ["115", "056", "116"], 1: ["060"], 2: ["062"]},
    )


def test_115_scores_minus_2_then_exchanges_and_scores_the_card_put_into_play():
    state = scenario_115()
    state, out = place_all(state, {0: ("115", (0, 2)), 1: ("060", (1, 1)), 2: ("062", (1, 1))})
    assert E.pending(state) == {0: "exchange_reserve"}
    options = E.legal_actions(state, 0)
    # Not the AI card, not 115/116 (neither in the tableau nor in the reserve).
    assert {(tuple(o["cell"]), o["card"]) for o in options} == {((1, 0), "056"), ((1, 1), "056")}
    with pytest.raises(IllegalMove):
        when(state, 0, {"type": "exchange_reserve", "cell": [1, 2], "card": "056"})
    with pytest.raises(IllegalMove):
        when(state, 0, {"type": "exchange_reserve", "cell": [1, 1], "card": "116"})
    state, out = run(state, [(0, {"type": "exchange_reserve", "cell": [1, 1], "card": "056"})])
    seat0 = [e for e in out if e.seat == 0 and e.type in ("VPScored", "ReserveExchanged")]
    assert [e.type for e in seat0] == ["VPScored", "ReserveExchanged", "VPScored"]
    assert seat0[0].data["vp"] == -2
    assert dict(seat0[1].data) == {
        "cell": [1, 1],
        "to_reserve": "052",
        "from_reserve": "056",
        "via": "115",
    }
    # 056: adjacent to the played card, 2 VP per red card: 064 at (1,0) is the only red one.
    assert seat0[2].data["card"] == "056" and seat0[2].data["via"] == "115"
    assert seat0[2].data["vp"] == 2
    assert state.seats[0].tableau[(1, 1)] == "056"
    assert sorted(state.seats[0].reserve) == ["052", "116"]


def test_117_scores_2_and_draws_the_top_card_into_the_reserve():
    state = turn(3, reserves={0: ["117"], 1: ["001"], 2: ["003"]}, deck=["047", "049", "050"])
    state, out = place_all(state, {0: ("117", (1, 1)), 1: ("001", (1, 1)), 2: ("003", (1, 1))})
    assert (0, "117", 2) in vp(out)
    drawn = of_type(out, "CardsDrawn")
    assert [(e.seat, dict(e.data)) for e in drawn] == [(0, {"cards": ["047"], "reason": "117"})]
    assert state.seats[0].reserve == ["047"] and state.deck == ["049", "050"]
    assert types(out).index("CardsDrawn") == types(out).index("VPScored") + 3  # after its VP


def test_119_moves_a_card_to_an_empty_cell_keeping_adjacency_and_scores_2():
    state = turn(3, tableaux={0: {(1, 1): "001"}}, reserves={0: ["119"], 1: ["003"], 2: ["005"]})
    state, out = place_all(state, {0: ("119", (1, 3)), 1: ("003", (1, 1)), 2: ("005", (1, 1))})
    assert E.pending(state) == {0: "move_card"}
    legal = E.legal_actions(state, 0)
    assert {"type": "decline"} in legal
    assert {"type": "move_card", "from": [1, 1], "to": [0, 2]} in legal
    assert {"type": "move_card", "from": [1, 1], "to": [0, 0]} not in legal  # disconnected
    assert not any(o.get("from") == [1, 2] for o in legal)  # AI card
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "move_card", "from": [1, 1], "to": [0, 0]})
    assert err.value.code == "illegal_move"
    state, out = run(state, [(0, {"type": "move_card", "from": [1, 1], "to": [0, 2]})])
    seat0 = [e for e in out if e.seat == 0]
    assert [e.type for e in seat0[1:3]] == ["TableauCardsSwapped", "VPScored"]
    assert seat0[2].data["card"] == "119" and seat0[2].data["vp"] == 2
    assert len([e for e in seat0 if e.type == "VPScored"]) == 1  # the moved card scores nothing
    assert state.seats[0].tableau == {(0, 2): "001", (1, 2): "AI-3", (1, 3): "119"}


def test_119_decline_keeps_the_tableau():
    state = turn(3, tableaux={0: {(1, 1): "001"}}, reserves={0: ["119"], 1: ["003"], 2: ["005"]})
    state, _ = place_all(state, {0: ("119", (1, 3)), 1: ("003", (1, 1)), 2: ("005", (1, 1))})
    state, out = run(state, [(0, {"type": "decline"})])
    assert "TableauCardsSwapped" not in types(out)
    assert state.seats[0].tableau == {(1, 1): "001", (1, 2): "AI-3", (1, 3): "119"}


def test_107_scores_best_neighbour():
    state = turn(
        3,
        tableaux={1: {(1, 1): "075", (1, 3): "058"}, 2: {(1, 1): "057"}},
        reserves={0: ["107"], 1: ["001"], 2: ["013"]},
    )
    state, out = place_all(state, {0: ("107", (1, 1)), 1: ("001", (0, 2)), 2: ("013", (0, 2))})
    assert [v for v in vp(out) if v[0] == 0] == [(0, "107", 4)]
    assert (
        score_effect(
            "107", state.seats[0].tableau, (1, 1), (state.seats[1].tableau, state.seats[2].tableau)
        )
        == 4
    )


def test_105_put_into_play_by_115_scores_last_with_the_best_neighbour():
    state = turn(
        3,
        phase=2,
        tableaux={0: {(1, 1): "052"}},
        reserves={0: ["115", "105"], 1: ["118"], 2: ["117"]},
    )
    state, _ = place_all(state, {0: ("115", (0, 2)), 1: ("118", (1, 1)), 2: ("117", (1, 1))})
    assert E.legal_actions(state, 0) == [
        {"type": "exchange_reserve", "cell": [1, 1], "card": "105"}
    ]
    state, out = run(state, [(0, {"type": "exchange_reserve", "cell": [1, 1], "card": "105"})])
    scored = [e for e in out if e.type in ("VPScored", "ReserveExchanged", "CardsDrawn")]
    assert [(e.type, e.seat, e.data.get("card"), e.data.get("vp")) for e in scored] == [
        ("VPScored", 0, "115", -2),
        ("ReserveExchanged", 0, None, None),
        ("VPScored", 2, "117", 2),
        ("CardsDrawn", 2, None, None),
        ("VPScored", 1, "118", 3),
        ("CardsDrawn", 1, None, None),
        ("VPScored", 0, "105", 3),
    ]
    assert scored[-1].data["via"] == "115" and scored[-1].data["from_seat"] == 1


def test_copy_card_put_into_play_by_115_copies_the_target_chosen_with_the_exchange():
    state = turn(
        3,
        phase=2,
        tableaux={0: {(1, 1): "052", (0, 1): "060", (2, 1): "054"}, 1: {(1, 1): "057"}},
        reserves={0: ["115", "103"], 1: ["001"], 2: ["003"]},
    )
    state, _ = place_all(state, {0: ("115", (1, 3)), 1: ("001", (0, 2)), 2: ("003", (1, 1))})
    legal = E.legal_actions(state, 0)
    assert {"type": "exchange_reserve", "cell": [1, 1], "card": "103", "copy": "057"} in legal
    assert not any(o.get("card") == "103" and "copy" not in o for o in legal)
    state, out = run(
        state, [(0, {"type": "exchange_reserve", "cell": [1, 1], "card": "103", "copy": "057"})]
    )
    copy = [e.data for e in of_type(out, "VPScored") if e.data.get("card") == "103"][0]
    # 057 copied at (1,1): 2 VP per purple card around it (060 and 054).
    assert (copy["copied"], copy["via"], copy["vp"]) == ("057", "115", 4)
