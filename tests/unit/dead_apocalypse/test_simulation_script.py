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
    assert sim.main(["--games", "2", "--variants", "easiest", "standard", "--seats", "1", "2",
                     "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["rows"]
    assert [(r["variant"], r["seats"]) for r in rows] == [("easiest", 1), ("easiest", 2),
                                                          ("standard", 1), ("standard", 2)]
    for r in rows:
        assert r["games"] == 2 and 0 <= r["wins"] <= 2 and r["mean_turns"] > 0
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
        assert sum(r["losses"].values()) == 2 - r["wins"]
