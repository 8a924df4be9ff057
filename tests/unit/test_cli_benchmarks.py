"""Smoke runs of ``benchmarks/*.py`` with tiny sizes: each prints one JSON object that
states its metric, value and target. (Full-size runs are manual; see README.)"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> dict:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    body = json.loads(lines[0])
    assert body["value"] > 0
    assert body["target"]["op"] in (">=", "<=")
    assert isinstance(body["meets_target"], bool)
    return body


def test_bench_match():
    body = _run("bench_match.py", "--runs", "1")
    assert (body["benchmark"], body["unit"], body["target"]["value"]) == ("bench_match", "s", 1.0)
    assert body["seats"] == 4 and body["events_per_match"] > 100


def test_bench_fold():
    body = _run("bench_fold.py", "--matches", "1", "--min-seconds", "0.05")
    assert body["target"] == {"op": ">=", "value": 200000}
    assert body["events_folded"] >= body["events_per_match"]


def test_bench_scoring():
    body = _run("bench_scoring.py", "--matches", "1", "--min-seconds", "0.05")
    assert body["unit"] == "evaluations/s"
    # 4 full tableaux: 14 development cards + 16 objectives + 1 AI card each.
    assert body["evaluations_per_pass"] >= 4 * (14 + 16 + 1)


@pytest.mark.integration
def test_bench_redis_bytes(redis_url):
    body = _run("bench_redis_bytes.py", "--redis-url", redis_url, "--seats", "3")
    assert body["mean_bytes_by_key"]["events"] > 0
    assert body["bytes_per_event"] > 0


@pytest.mark.integration
def test_bench_http(redis_url):
    body = _run("bench_http.py", "--redis-url", redis_url, "--clients", "2",
                "--max-requests", "40", "--max-seconds", "5", "--gunicorn-workers", "1",
                "--rq-workers", "1")
    assert body["requests"] <= 40
    assert body["actions"] > 0 and body["action_p99_ms"] >= body["action_p50_ms"]
