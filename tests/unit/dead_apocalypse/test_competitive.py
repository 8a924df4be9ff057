"""For a more competitive game: most Humans, then fewest Infections, then the CDC holder."""

from __future__ import annotations

from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table


def won(discards, cdc_column_seat=0):
    state = table(
        seats=2,
        options={"competitive": True},
        discards=discards,
        resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
    )
    state.zombie_row[2] = "pack-hunter#1"  # HP 6, no After Combat effect
    state.damage = [
        {
            "seat": 0,
            "source": "scout#2",
            "title": "Scout",
            "kind": "human",
            "faction": "Civilian",
            "amount": 9,
            "ally": False,
        }
    ]
    _, state = act(state, 0, {"type": "defeat", "column": 2})
    return E.result(state)


def test_most_humans_wins():
    result = won({0: ["survivor#s0.1"], 1: ["survivor#s1.1", "soldier#2"]})
    # Seat 0 gains the CDC (not a Human): 1 Human against 2.
    assert result["scores"] == [1, 2] and result["winners"] == [1]
    assert [r["seat"] for r in result["ranking"]] == [1, 0]


def test_tie_on_humans_fewest_infections_wins():
    result = won({0: ["survivor#s0.1", "infection#5"], 1: ["survivor#s1.1"]})
    assert result["winners"] == [1] and result["ranking"][1]["infections"] == 1


def test_third_tie_goes_to_the_cdc_holder():
    result = won({0: ["survivor#s0.1"], 1: ["survivor#s1.1"]})
    assert result["winners"] == [0] and result["ranking"][0] == {
        "seat": 0,
        "score": 1,
        "rank": 1,
        "infections": 0,
        "cdc": True,
    }


def test_cooperative_default_everyone_wins():
    state = table(seats=3, resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"])
    state.damage = [
        {
            "seat": 0,
            "source": "soldier#2",
            "title": "Soldier",
            "kind": "human",
            "faction": "Military",
            "amount": 9,
            "ally": False,
        }
    ]
    state.zombie_row[2] = "shambler#1"
    _, state = act(state, 0, {"type": "defeat", "column": 2})
    assert E.result(state)["winners"] == [0, 1, 2] and E.result(state)["scores"] == [1, 1, 1]
