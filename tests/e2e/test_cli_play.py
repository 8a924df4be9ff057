"""``arena play`` end to end: a separate process starts its embedded server and plays
seat 0 of a 4-seat match against 3 greedy bots over the public HTTP API."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _arena(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(COLUMNS="200", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args],
                          cwd=ROOT, env=env, input=stdin, capture_output=True, text=True,
                          timeout=300)


def _result_rows(stdout: str) -> list[str]:
    """The seat rows of the final result table (printed last)."""
    assert "final result of match" in stdout
    final = stdout.rsplit("final result of match", 1)[1]
    return [line for line in final.splitlines() if line.startswith("│")]


@pytest.mark.e2e
def test_auto_play_finishes_a_4_seat_match_against_3_greedy_bots():
    proc = _arena("play", "--auto", "--quiet", "--seed", "7", "--seats", "4", "--bots", "greedy")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = _result_rows(proc.stdout)
    assert len(rows) == 4
    assert sum("bot (greedy)" in row for row in rows) == 3
    assert "winner" in proc.stdout
    assert "revealed seed" in proc.stdout


@pytest.mark.e2e
def test_interactive_play_reads_the_numbered_choice_from_stdin():
    # Always answer "1": the first legal action listed. 2 phases x (keep + 7 x (draft, place))
    # plus the AI side need ~31 answers; extra lines are never read.
    proc = _arena("play", "--seats", "3", "--bots", "random", stdin="1\n" * 400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "your tableau" in out and "your decision: draft" in out
    assert "your choice" in out
    assert "1  choose ai side" in out
    rows = _result_rows(out)
    assert len(rows) == 3 and sum("bot (random)" in row for row in rows) == 2
