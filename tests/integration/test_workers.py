"""Bot turns and timeouts through REAL RQ worker processes (``python -m workers.runner``)."""

import time
from datetime import UTC, datetime

import pytest
from rq.registry import StartedJobRegistry

from tests.conftest import kill_group
from tests.support.polling import wait_for

pytestmark = pytest.mark.integration

BOTS3 = [
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "greedy"},
    {"kind": "bot", "bot": "random"},
]


def test_a_real_worker_plays_a_bot_only_match_to_the_end(real_service, start_worker):
    start_worker()
    mid = real_service.create_match("race", BOTS3, {"target": 40})["match_id"]
    assert wait_for(lambda: real_service.match_view(mid, None)["status"] == "finished", 120)
    log = real_service.export(mid)
    assert {e["cause"] for e in log["events"][1:]} == {"bot"}
    assert real_service.verify(log)["valid"] is True


def test_killed_worker_mid_match_the_match_still_finishes_quickly(real_service, start_worker):
    """kill -9 a worker while it runs a (slow) bot turn; reconcile in a new worker re-enqueues it."""
    worker = start_worker()
    bots = [{"kind": "bot", "bot": "slow"}, {"kind": "bot", "bot": "slow"}]
    # sequential: the killed job's turn is the only pending decision, nobody else moves it on
    mid = real_service.create_match("race", bots, {"target": 15, "bot_delay_s": 0.7})["match_id"]
    started = StartedJobRegistry(queue=real_service.scheduler.queue)
    assert wait_for(lambda: started.get_job_ids(), 120), "the worker never started a bot turn"
    kill_group(worker)
    version_at_kill = real_service.match_view(mid, None)["version"]
    start_worker(ready=True)
    t0 = time.monotonic()  # from the new worker's readiness: its start-up is not recovery
    assert wait_for(lambda: real_service.match_view(mid, None)["version"] > version_at_kill, 60)
    elapsed = time.monotonic() - t0
    # generous (RQ's own recovery of a lost job would wait for its 3 s timeout plus a
    # maintenance run every 10 minutes): the new worker's first reconcile pass requeues it
    assert elapsed < 20, f"recovery took {elapsed:.1f} s"
    assert wait_for(lambda: real_service.match_view(mid, None)["status"] == "finished", 120)
    assert "arena_reconcile_requeued_total 0" not in real_service.metrics()
    assert real_service.verify(real_service.export(mid))["valid"] is True


def test_turn_timeout_fires_through_rqs_scheduler_not_early_under_los_angeles_time(
    real_service, start_worker
):
    # ready first: a deadline passing while the worker's process still starts would fire late
    start_worker(extra_env={"TZ": "America/Los_Angeles"}, ready=True)
    mid = real_service.create_match(
        "race", [{"kind": "human"}, {"kind": "human"}], {"target": 50}, turn_timeout_s=2
    )["match_id"]
    view = real_service.match_view(mid, None)
    deadline = datetime.fromisoformat(view["deadline"])
    assert wait_for(lambda: len(real_service.log(mid)) > 1, 60)
    event = real_service.log(mid)[1]
    assert event["cause"] == "timeout" and event["seat"] == view["view"]["turn"]
    fired = datetime.fromisoformat(event["at"])
    assert deadline <= fired and (fired - deadline).total_seconds() < 6


def test_a_decision_before_the_deadline_cancels_the_timeout(real_service, start_worker):
    start_worker(ready=True)
    mid = real_service.create_match(
        "race",
        [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        {"target": 50},
        turn_timeout_s=1.5,
    )["match_id"]
    turn = real_service.match_view(mid, None)["view"]["turn"]
    if turn == 1:
        assert wait_for(lambda: real_service.match_view(mid, None)["view"]["turn"] == 0, 60)
    version = real_service.match_view(mid, None)["version"]
    job_id = real_service.keys.timeout_job_id(mid, 0, version)
    # the bot's worker schedules the timeout just after its append becomes visible
    assert wait_for(lambda: real_service.scheduler.scheduled_at(job_id) is not None, 60)
    real_service.act(mid, 0, {"type": "add", "amount": 1})
    assert real_service.scheduler.scheduled_at(job_id) is None
    time.sleep(2.5)
    causes = [e["cause"] for e in real_service.log(mid) if e.get("seat") == 0]
    assert causes[0] == "player"
    assert real_service.run_turn_timeout(mid, 0, version) == {"status": "stale"}


def test_reconcile_passes_scan_the_awaiting_index_and_full_passes_recover_the_rest(
    real_service, real_config, start_worker
):
    """Matches whose process appended and died before enqueuing (a service without a
    scheduler appends without enqueuing). One is in the awaiting index: a running
    worker's index passes recover it. One also missed its index update: index passes
    never see it, nor the idle human-only matches; a full pass recovers it (one worker of
    the deployment runs it when the full-pass turn opens: ARENA_RECONCILE_FULL_S after the
    last one, here when its key is deleted)."""
    from service.match_service import MatchService
    from tests.support.games import ENGINES

    died = MatchService(real_service.redis, real_service.keys, None, ENGINES)
    idle = [
        real_service.create_match("race", [{"kind": "human"}] * 2, {"target": 9})["match_id"]
        for _ in range(20)
    ]
    probe = died.create_match("race", BOTS3, {"target": 12})["match_id"]
    start_worker(reconcile_full_s=3600)  # the first pass is full, then index passes only
    assert wait_for(lambda: real_service.match_view(probe, None)["status"] == "finished", 120)

    indexed = died.create_match("race", BOTS3, {"target": 12})["match_id"]
    unindexed = died.create_match("race", BOTS3, {"target": 12})["match_id"]
    index = real_service.stores.index
    real_service.redis.srem(real_service.keys.awaiting(index.shard(unindexed)), unindexed)
    assert indexed in real_service.stores.index.awaiting_ids()
    assert not set(idle) & real_service.stores.index.awaiting_ids()
    assert wait_for(lambda: real_service.match_view(indexed, None)["status"] == "finished", 120)
    time.sleep(6 * real_config.reconcile_s)  # six more index passes of the worker
    assert real_service.match_view(unindexed, None)["version"] == 1
    assert real_service.reconcile(full=False) == {"checked": 0, "requeued": 0}

    start_worker()  # a new worker waits for the full-pass turn too
    time.sleep(6 * real_config.reconcile_s)
    assert real_service.match_view(unindexed, None)["version"] == 1
    real_service.scheduler.connection.delete(real_service.keys.pass_turn("full"))
    assert wait_for(lambda: real_service.match_view(unindexed, None)["status"] == "finished", 120)
    assert real_service.verify(real_service.export(unindexed))["valid"] is True
    # the running index drops a finished match right after its last append: wait for it
    assert wait_for(lambda: len(real_service.stores.index.running_ids()) == len(idle), 60)


def test_a_worker_loads_the_games_before_it_takes_its_first_job(real_config, monkeypatch):
    """``arena worker`` loads the game registry before its work loop starts: a restarted
    worker's first turn (often the killed worker's, requeued at the front) does not pay
    for importing every game while it holds the turn."""
    from service import bootstrap
    from workers import runner
    from workers.lean_worker import LeanSimpleWorker

    seen: list[bool] = []

    def work(self, burst=False, **kwargs):  # RQ's loop: note the state, take no job
        seen.append(bootstrap.get_service().ctx._engines is not None)
        return False

    monkeypatch.setattr(LeanSimpleWorker, "work", work)
    try:
        runner.run_worker(real_config.with_(engines_path=""), burst=True, name="warm")
    finally:
        bootstrap.reset()
    assert seen == [True]


def test_turn_timeouts_fire_on_their_first_run_through_a_real_worker(
    real_service, start_worker, tmp_path
):
    """Issue 18 item 4: scheduled at the deadline itself (not the whole second before it),
    each timeout job acts on its first run — no run finds its deadline still ahead."""
    from benchmarks._faults import timeout_report

    start_worker(name="timeouts", ready=True)
    mid = real_service.create_match(
        "race", [{"kind": "human"}, {"kind": "human"}], {"target": 50}, turn_timeout_s=1.3
    )["match_id"]
    assert wait_for(lambda: timeout_report(tmp_path)["acted"] >= 4, 120)
    report = timeout_report(tmp_path)
    assert set(report["by_status"]) == {"acted"}, report
    assert report["lateness_s"]["p50"] >= 0
    causes = [e["cause"] for e in real_service.log(mid)[1:]]
    assert causes and set(causes) == {"timeout"}


def test_a_timeout_another_request_cancelled_meanwhile_cancels_to_false(real_service):
    """Two requests cancel one turn's timeout at once: the second fetches the job, the
    first deletes it, the second reads its status. RQ raises InvalidJobOperation there; a
    newcomer probe saw it logged as 'scheduling turn jobs ... failed'. Now False."""
    from rq.job import Job

    scheduler = real_service.scheduler
    job_id = scheduler.schedule_turn_timeout("m" * 32, 0, 7, datetime(2099, 1, 1, tzinfo=UTC))
    stale = Job.fetch(job_id, connection=scheduler.connection)
    real_fetch = scheduler._job
    scheduler._job = lambda _id: stale  # the job as the second request fetched it
    try:
        assert real_fetch(job_id) is not None and scheduler.cancel(job_id) is True
        assert real_fetch(job_id) is None
        assert scheduler.cancel(job_id) is False  # deleted after it was fetched
    finally:
        scheduler._job = real_fetch
