"""Match analysis across processes (issue 23 item 3): a REAL RQ worker process
(``python -m workers.runner``) on the real Redis takes the analysis jobs from their queue
(budget 512: at most 4 turns per slice, and none goes on past a second, inside a decision
if need be, so the 12 turns take 3 jobs or more, each enqueuing the next),
writes the progress and result, and answers exactly what the domain computes in-process
for the same log, budget and seed (the log's head hash)."""

from __future__ import annotations

import pytest

from service import bootstrap
from service.bootstrap import build_service
from tests.support.duels import finished_duel, in_process_analysis
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
    mid = finished_duel(service, tricks=6, seed=9)
    answer, created = service.request_analysis(mid, 512)
    # the worker may take the job before the answer is read back (a busy machine)
    assert created and answer["status"] in ("queued", "running")
    done = wait_for(lambda: service.analysis(answer["analysis_id"])["status"] == "done", 120)
    assert done, service.analysis(answer["analysis_id"])
    result = service.analysis(answer["analysis_id"])["result"]
    expected = in_process_analysis(service, mid, 512)
    assert {k: result[k] for k in expected} == expected
    assert result["match_id"] == mid and len(result["decisions"]) == 12
    # cached: the same request names the finished analysis, no new job
    again, created = service.request_analysis(mid, 512)
    assert not created and again["status"] == "done"
