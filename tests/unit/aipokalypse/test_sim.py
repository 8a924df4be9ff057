"""Smoke run of ``benchmarks/aipokalypse_sim.py`` with 2 matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _sim(*args: str) -> dict:
    """The JSON report of ``benchmarks/aipokalypse_sim.py args...`` (exit status 0)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "aipokalypse_sim.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip())


def test_simulation_reports_rounds_end_reasons_and_win_rates():
    body = _sim("--matches", "2")
    assert body["benchmark"] == "aipokalypse_sim" and body["matches"] == 2
    assert body["replay_failures"] == 0
    assert len(body["rounds_per_match"]["all"]) == 2 and body["rounds_per_match"]["min"] >= 1
    assert abs(sum(body["end_reasons"].values()) - 1.0) < 1e-9
    assert set(body["win_share_by_level"]) == {"tactician", "random"}
    assert len(body["win_rate_by_faction"]) >= 2


def test_simulation_plays_the_variants_and_counts_effect_decisions():
    body = _sim("--matches", "2", "--expert", "--force-the-luck")
    assert body["options"] == {"expert": True, "force_the_luck": True}
    assert body["replay_failures"] == 0
    assert body["decisions_per_match"] > 0  # the shared Engineer Guild asks every round
    assert "Engineer Guild" not in body["win_rate_by_faction"]


def test_simulation_reports_win_rates_against_the_toma_per_difficulty():
    body = _sim("--toma", "--matches", "1")
    assert body["metric"] == "toma_matches_finished_and_replayed" and body["value"] == 1.0
    assert len(body["cells"]) == 24  # 4 difficulties x (3 solo + 3 co-op)
    assert {c["difficulty"] for c in body["cells"]} == {"handy_man", "boss", "endboss", "untamed"}
    assert all(0.0 <= c["human_win_rate"] <= 1.0 and len(c["seeds"]) == 1 for c in body["cells"])
    assert {"solo:toma_hunter:boss", "coop:toma_hunter+toma_hunter:untamed"} <= set(
        body["win_rates"]
    )
    assert all(c["ci95"][0] <= c["human_win_rate"] <= c["ci95"][1] for c in body["cells"])


def test_simulation_plays_chosen_cells_and_difficulties_against_the_toma():
    body = _sim(
        "--toma",
        "--matches",
        "2",
        "--cells",
        "solo:toma_hunter,coop:toma_hunter+tactician",
        "--difficulties",
        "handy_man",
        "--no-replay",
    )
    assert set(body["win_rates"]) == {
        "solo:toma_hunter:handy_man",
        "coop:toma_hunter+tactician:handy_man",
    }
    assert [c["matches"] for c in body["cells"]] == [2, 2]


def test_simulation_plays_the_5_8_player_variant():
    body = _sim("--matches", "1", "--seats", "6", "--no-replay")
    assert body["seats"] == 6 and sum(body["end_reasons"].values()) == 1.0
