"""Smoke run of ``benchmarks/bench_rollouts.py`` (tiny sizes) and of its ``--reference``
mode: the same expert rollouts played with the compiled scorer and with the reference
scorer reach exactly the same values (``checksum``), since scoring is exact."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(*args: str) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_rollouts.py"),
            "--rollouts",
            "8",
            "--matches",
            "2",
            "--points",
            "2",
            "--ai-sides",
            "AI-10,AI-3",
            "--min-seconds",
            "0",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    return json.loads(lines[0])


def test_bench_rollouts_reports_ms_per_rollout_and_the_reference_scorer_agrees():
    fast, reference = _run(), _run("--reference")
    assert (fast["benchmark"], fast["unit"], fast["target"]) == (
        "bench_rollouts",
        "ms",
        {"op": "<=", "value": 3.5},
    )
    assert fast["metric"] == "cpu_ms_per_rollout"
    assert abs(fast["value"] - fast["cpu_ms_per_rollout"]) < 1e-3
    assert fast["value"] > 0 and fast["wall_ms_per_rollout"] > 0
    assert fast["rollouts_per_pass"] == 8 and fast["points"] == 4
    assert (fast["scorer"], reference["scorer"]) == ("compiled", "reference")
    assert fast["checksum"] == reference["checksum"] > 0


def test_a_pass_clears_the_expert_caches_but_keeps_the_card_catalogue():
    """Before each pass the benchmark empties the expert's own caches (the rollouts fill
    them, as one decision does) but not ``cards.catalogue``, which ``expert`` imports and a
    process loads once: reloading it every pass was counted as rollout time."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_rollouts

    from domain.games.ai_100_human import expert
    from domain.games.ai_100_human.cards import catalogue

    before = catalogue()
    expert.end_value("Omega-1", None, expert.tableau_key({(1, 2): "AI-1"}))
    assert expert.end_value.cache_info().currsize > 0
    bench_rollouts._clear_caches()
    assert expert.end_value.cache_info().currsize == 0
    assert catalogue() is before
