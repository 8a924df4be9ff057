"""The peer benchmark's Node seat clients (``benchmarks/peer/bgio/arena_loadgen.js``) play
over HTTP against the production topology (gunicorn + Redis + ``arena worker``s) as a
third-party JavaScript client would: each seat on its own kept-alive connection, ``POST
.../actions?wait=`` with ``Prefer: return=representation`` and a ``decision_id``, its next
decision read from the answer. Every command they send is accepted (no error of any kind),
and each request they count was answered.

Nothing asserts a duration: the load generator plays for a short window and reports."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.node import node_or_skip

LOADGEN = Path(__file__).resolve().parents[2] / "benchmarks" / "peer" / "bgio" / "arena_loadgen.js"


@pytest.fixture(scope="module")
def node() -> str:
    return node_or_skip("the Node seat clients' test")


def test_node_seat_clients_play_whole_turns_with_no_refused_command(production, node):
    start = time.time()
    config = {
        "url": production.url,
        "pairs": 2,
        "countingFrom": start,
        "deadline": start + 4.0,
        "seed": 7,
        "game": "ai-100-human",
    }
    proc = subprocess.run(
        [node, str(LOADGEN), json.dumps(config)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=LOADGEN.parent,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["errors"] == {}, report["errors"]
    assert report["moves"] >= 2 and len(report["latencies_ms"]) == report["moves"]
    assert all(ms >= 0 for ms in report["latencies_ms"])
    # a request for every move, plus each pair's match creation and first legal-actions reads
    assert report["requests"] >= report["moves"] + 2 * (1 + 2)
