"""Match analysis on the production topology (issue 23 item 3): gunicorn + 2 separate ``arena
worker`` processes + the real Redis, with every decision's rollouts split across RQ jobs.

At a budget above ``SLICE_ROLLOUTS`` (2,048) every decision with a choice spans two slices or
more, each a job that either worker may take, resuming the decision from the record's
``pending`` document. The answer must be the analysis one uninterrupted run of the same
export gives in this process (``domain.analysis.analyse``), value for value: the split, the
workers taking turns and the JSON round trips through Redis change nothing. The example game
Duel (``examples/duel``, ``ARENA_GAME_PACKAGES``) keeps the rollouts cheap.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from domain.analysis import analyse
from domain.games import registry
from service.usecases.analysis import SLICE_ROLLOUTS, result_document, turns_of
from tests.e2e.http_helpers import Http, create
from tests.support.production import ProductionStack

BUDGET = 2 * SLICE_ROLLOUTS  # rollouts per decision: every real choice spans 2+ slices
PATIENCE_S = 600  # a bound on waiting for the stack, never a measured time


@pytest.fixture(scope="module")
def duel_stack(redis_url, tmp_path_factory) -> Iterator[ProductionStack]:
    """gunicorn + 2 workers with the example game Duel installed and no budget cap below
    4,096 (``ARENA_MAX_BOT_BUDGET=0``)."""
    stack = ProductionStack(
        redis_url,
        tmp_path_factory.mktemp("analysis-slices"),
        workers=2,
        env={"ARENA_GAME_PACKAGES": "examples.duel", "ARENA_MAX_BOT_BUDGET": "0"},
    ).start()
    try:
        yield stack
    finally:
        stack.stop()


def _until(read, done, what: str):
    """Read until ``done(answer)``: the answer (fails after :data:`PATIENCE_S`)."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        answer = read()
        if done(answer):
            return answer
        assert time.monotonic() < deadline, f"{what}: {answer}"
        time.sleep(0.2)


def test_an_analysis_split_across_workers_is_the_uninterrupted_one(duel_stack):
    http = Http(duel_stack.url)
    created = create(
        http,
        [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "high"}],
        game="duel",
        options={"tricks": 9},
    )
    match_id = created["match_id"]
    _until(
        lambda: http.get(f"/v1/matches/{match_id}")[2],
        lambda match: match["status"] == "finished",
        "the bots' match",
    )

    status, _, first = http.post(f"/v1/matches/{match_id}/analysis?budget={BUDGET}")
    assert status == 202, first
    shown: list[int] = []

    def read():
        code, _, body = http.get(f"/v1/matches/{match_id}/analysis?budget={BUDGET}")
        assert code == 200, body
        shown.append(body["progress"])
        return body

    answer = _until(read, lambda body: body["status"] in ("done", "failed"), "the analysis")
    assert answer["status"] == "done", answer
    assert shown == sorted(shown) and shown[-1] == 100, shown  # progress only ever up

    status, _, export = http.get(f"/v1/matches/{match_id}/export")
    assert status == 200, export
    engine = registry(["examples.duel"])["duel"]
    setup, turns = turns_of(export)
    seed = str(export["events"][-1]["hash"]).encode()
    whole = analyse(engine, setup, turns, BUDGET, seed, len(export["seats"]))
    expected = result_document(export, whole)
    assert answer["result"] == expected
    chosen = [d for d in expected["decisions"] if d["best"] is not None]
    assert len(chosen) >= 8  # real choices: each took two slices or more
