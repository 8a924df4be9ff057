"""Match analysis across processes (issue 23 item 3): a REAL RQ worker process
(``python -m workers.runner``) on the real Redis takes the analysis jobs from their queue
(budget 512: 4 turns per slice, so the 12 turns take 3 jobs, each enqueuing the next),
writes the progress and result, and answers exactly what the domain computes in-process
for the same log, budget and seed (the log's head hash)."""

from __future__ import annotations

import random

import pytest

from domain.analysis import analyse
from domain.games import registry
from service import bootstrap
from service.bootstrap import build_service
from service.usecases.analysis import turns_of
from tests.support.polling import wait_for

pytestmark = pytest.mark.integration


@pytest.fixture
def game_service(real_config):
    """MatchService on the real Redis with the installed games (Duel among them)."""
    config = real_config.with_(engines_path=None, game_packages=("examples",))
    svc = bootstrap.install(build_service(config))
    yield svc, config
    bootstrap.reset()


def test_a_worker_process_analyses_a_finished_match(game_service, start_worker):
    service, config = game_service
    start_worker(ready=True, engines_path=None, game_packages=("examples",))
    mid = service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {"tricks": 6})[
        "match_id"
    ]
    rng = random.Random(9)
    while service.match_view(mid, None)["status"] != "finished":
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
    answer, created = service.request_analysis(mid, 512)
    assert created and answer["status"] == "queued"
    done = wait_for(lambda: service.analysis(answer["analysis_id"])["status"] == "done", 120)
    assert done, service.analysis(answer["analysis_id"])
    result = service.analysis(answer["analysis_id"])["result"]
    log = service.export(mid)
    setup, turns = turns_of(log)
    expected = analyse(
        registry()["duel"], setup, turns, 512, log["events"][-1]["hash"].encode(), seat_count=2
    )
    assert {k: result[k] for k in expected} == expected
    assert result["match_id"] == mid and len(result["decisions"]) == 12
    # cached: the same request names the finished analysis, no new job
    again, created = service.request_analysis(mid, 512)
    assert not created and again["status"] == "done"
