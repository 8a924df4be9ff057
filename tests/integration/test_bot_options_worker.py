"""Per-seat bot options across processes: a REAL RQ worker process (``python -m
workers.runner``) on the real Redis builds each bot seat's bot from the options stored in
the match record (tests/support/bot_options_game.py: ``stepper`` adds its ``step``)."""

import pytest

from service import bootstrap
from service.bootstrap import build_service
from tests.support.bot_options_game import ENGINES
from tests.support.polling import wait_for

pytestmark = pytest.mark.integration

STEP_ENGINES = "tests.support.bot_options_game:ENGINES"


@pytest.fixture
def step_service(real_config):
    """MatchService on the real Redis with ``step-race`` installed."""
    svc = bootstrap.install(build_service(real_config.with_(engines_path=STEP_ENGINES), ENGINES))
    yield svc
    bootstrap.reset()


def test_a_worker_process_plays_each_bot_seat_with_its_stored_options(step_service, start_worker):
    start_worker(engines_path=STEP_ENGINES, ready=True)
    seats = [
        {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
        {"kind": "bot", "bot": "stepper"},
        {"kind": "bot", "bot": "stepper", "bot_options": {"step": 2}},
    ]
    mid = step_service.create_match("step-race", seats, {"target": 60})["match_id"]
    assert wait_for(lambda: step_service.match_view(mid, None)["status"] == "finished", 120)
    log = step_service.export(mid)
    added = [(e["seat"], e["data"]["amount"]) for e in log["events"] if e["type"] == "Added"]
    # the default stepper adds 1: with the options ignored every seat would add 1
    assert {seat: {a for s, a in added if s == seat} for seat in range(3)} == {
        0: {3},
        1: {1},
        2: {2},
    }
    assert [s.get("bot_options") for s in log["seats"]] == [{"step": 3}, None, {"step": 2}]
    assert step_service.verify(log)["valid"] is True
