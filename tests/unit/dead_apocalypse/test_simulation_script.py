"""The balance simulation script (benchmarks/dead_apocalypse_sim.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[3] / "benchmarks" / "dead_apocalypse_sim.py"


@pytest.fixture(scope="module")
def sim():
    spec = importlib.util.spec_from_file_location("dead_apocalypse_sim", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_interval_values(sim):
    low, high = sim.wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert sim.wilson(0, 10)[0] == 0.0 and round(sim.wilson(0, 10)[1], 3) == 0.278
    assert sim.wilson(0, 0) == (0.0, 1.0)


def test_a_seeded_game_is_reproducible(sim):
    assert sim.play(2, {}, 7) == sim.play(2, {}, 7)


def test_json_report_has_one_row_per_variant_and_seat_count(sim, capsys):
    assert (
        sim.main(
            [
                "--games",
                "2",
                "--variants",
                "easiest",
                "standard",
                "--seats",
                "1",
                "2",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    rows = report["rows"]
    assert [(r["variant"], r["seats"]) for r in rows] == [
        ("easiest", 1),
        ("easiest", 2),
        ("standard", 1),
        ("standard", 2),
    ]
    for r in rows:
        assert r["games"] == 2 and 0 <= r["wins"] <= 2 and r["mean_turns"] > 0
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
        assert sum(r["losses"].values()) == 2 - r["wins"]


def test_audit_counts_a_win_in_hand_and_a_decline_that_would_add_a_defeat(sim):
    """Issue 17 item 7's measures on concrete tables: the Shambler (HP 1) in the CDC's column
    with 3 damage is a win in hand; four Rotting Walkers (HP 3) attacking a pool of 7 — a
    Shotgun (3) in the ally's hand adds a third defeat, a Survivor (1) none."""
    from domain.games.dead_apocalypse import ENGINE as E

    from .support import table

    state = table(
        seats=2,
        attackers=[0],
        zombie_row=["brute#1", None, "shambler#1", None, None],
        resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
    )
    state.damage = [
        {
            "seat": 0,
            "source": "scout#2",
            "title": "Scout",
            "kind": "human",
            "faction": "Civilian",
            "amount": 3,
            "ally": False,
        }
    ]
    assert sim._win_in_hand(E, state, 0) and not sim._win_in_hand(E, state, 1)
    walkers = ["rotting-walker#1", "rotting-walker#2", None, "rotting-walker#3", "rotting-walker#4"]
    for hand, adds in ((["shotgun#2"], True), (["survivor#s1.1"], False)):
        state = table(
            seats=2,
            attackers=[0, 1, 3, 4],
            zombie_row=walkers,
            hands={0: [], 1: hand},
            help={"called": True, "queue": [1], "assisting": None, "assisted": []},
        )
        state.damage = [
            {
                "seat": 0,
                "source": "scout#2",
                "title": "Scout",
                "kind": "human",
                "faction": "Civilian",
                "amount": 7,
                "ally": False,
            }
        ]
        assert sim._hand_adds_defeats(state, 1) is adds


def test_audit_report_sums_the_counts_per_row(sim, capsys):
    assert (
        sim.main(
            [
                "--games",
                "2",
                "--variants",
                "standard",
                "--seats",
                "2",
                "--workers",
                "1",
                "--json",
                "--audit",
            ]
        )
        == 0
    )
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert set(row["audit"]) == {
        "calls_with_win",
        "turns_win_given_up",
        "declines_adding_defeats",
        "games_win_given_up",
        "games_win_given_up_then_lost",
    }
    assert row["audit"]["games_win_given_up_then_lost"] <= row["audit"]["games_win_given_up"] <= 2
