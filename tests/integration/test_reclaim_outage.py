"""Reclaim through a Redis outage (issue 12 items 2-3 follow-up), with real ``arena
worker`` processes on a private ``redis-server`` (benchmarks/_faults.py).

Worker A starts a slow bot turn (the test game ``race``, 5 s per decision); a second
worker B starts idle; A is SIGKILLed holding the job, and Redis is killed right after, so
B's reclaim (and reconcile) loops run against a dead Redis for a few seconds. Then Redis
comes back (its AOF loaded). B must survive the outage, re-enqueue the job A stranded
(the lease of A is gone: the reclaim path, not RQ's 300 s job timeout set here) and play
the match to its end, each decision exactly once. Nothing is timed beyond generous limits.
"""

import shutil
import signal
import time

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]

OUTAGE_S = 3.0


def _requeued(metrics_text: str) -> float:
    for line in metrics_text.splitlines():
        if line.startswith("arena_reconcile_requeued_total"):
            return float(line.split()[-1])
    return 0.0


def test_a_worker_survives_an_outage_during_reclaim_and_replays_the_stranded_turn_once(tmp_path):
    from rq.registry import StartedJobRegistry

    from benchmarks._faults import PrivateRedis, WorkerPool, decision_report, wait_until
    from service import bootstrap
    from service.config import Config

    server = PrivateRedis(tmp_path / "redis").start()
    config = Config(
        redis_url=server.url(0),
        rq_redis_url=server.url(1),
        key_prefix="rcl",
        engines_path="tests.support.games:ENGINES",
        worker_lease_s=1.0,
        reconcile_s=0.5,
        reconcile_full_s=600.0,
        bot_job_timeout_s=300.0,
        heartbeat_file=str(tmp_path / "heartbeat"),
        max_bot_matches_per_client=0,
    )
    pool = WorkerPool(config.to_env(), tmp_path / "logs")
    service = bootstrap.build_service(config)
    try:
        first = pool.start()
        mid = service.create_match(
            "race", [{"kind": "bot", "bot": "slow"}] * 2, {"target": 7, "bot_delay_s": 5}
        )["match_id"]
        registry = StartedJobRegistry(queue=service.scheduler.queue)
        assert wait_until(lambda: registry.get_job_ids(cleanup=False), 120, step_s=0.05), (
            "worker A never started the bot turn"
        )
        second = pool.start()
        assert wait_until(
            lambda: len(service.scheduler.queue.connection.smembers("rq:workers")) >= 2,
            120,
            step_s=0.1,
        ), "worker B never registered"
        version_at_kill = service.match_view(mid, None)["version"]
        pool.kill(first)  # A dies holding the job
        stranded = bool(registry.get_job_ids(cleanup=False))
        server.kill()  # and Redis right after
        time.sleep(OUTAGE_S)  # B's loops meet the outage
        assert second.poll() is None, "worker B died during the outage"
        server.start()

        def finished() -> bool:
            try:
                return service.match_view(mid, None)["status"] == "finished"
            except Exception:  # noqa: BLE001 - 503-class errors while Redis reloads
                return False

        assert wait_until(finished, 180, step_s=0.2), "the match did not finish after the outage"
        assert second.poll() is None, "worker B died after the outage"
        events = service.export(mid)["events"]
        report = decision_report(service.ctx.engine("race"), events)
        assert report["duplicates"] == 0, report
        assert len(events) > version_at_kill
        assert service.verify(service.export(mid))["valid"] is True
        if stranded:  # the killed worker's job was re-enqueued by B (reclaim/reconcile)
            assert _requeued(service.metrics()) >= 1
        print(
            {
                "stranded": stranded,
                "decisions": report["decisions"],
                "requeued": _requeued(service.metrics()),
            }
        )
    finally:
        for proc in pool.procs:
            pool.kill(proc, signal.SIGKILL)
        server.stop()


def test_an_outage_between_dropping_a_dead_turn_job_and_enqueueing_its_replacement_loses_no_turn(
    tmp_path, monkeypatch
):
    """A reconcile pass re-creating a failed bot turn: Redis dies after the dead job was
    deleted and before the new one is enqueued (the turn is then in no queue at all). The
    pass ends with the store-unavailable error; once Redis is back the next pass finds the
    match in the awaiting index and enqueues the turn; the match ends, no decision twice."""
    from rq.job import Job, JobStatus

    from benchmarks._faults import PrivateRedis, decision_report
    from service import bootstrap
    from service.config import Config
    from service.store.store_errors import STORE_UNAVAILABLE
    from tests.support.games import ENGINES
    from tests.support.runtime import drain

    server = PrivateRedis(tmp_path / "redis").start()
    config = Config(
        redis_url=server.url(0),
        rq_redis_url=server.url(1),
        key_prefix="rcm",
        max_bot_matches_per_client=0,
    )
    service = bootstrap.install(bootstrap.build_service(config, engines=ENGINES))
    try:
        scheduler, keys = service.scheduler, service.keys
        mid = service.create_match("race", [{"kind": "bot", "bot": "greedy"}] * 2, {"target": 7})[
            "match_id"
        ]
        record = service._record(mid)
        seat = next(iter(record.pending))
        job_id = keys.bot_job_id(mid, record.version, seat)
        job = Job.fetch(job_id, connection=scheduler.queue.connection)
        scheduler.queue.remove(job)
        job.set_status(JobStatus.FAILED)  # its run raised: reconcile re-creates it
        real = scheduler.enqueue_bot_turn

        def dying(*args, **kwargs):
            server.kill()  # after the dead job was dropped
            return real(*args, **kwargs)

        monkeypatch.setattr(scheduler, "enqueue_bot_turn", dying)
        with pytest.raises(STORE_UNAVAILABLE):
            service.reconcile(full=False)
        monkeypatch.undo()
        server.start()
        assert scheduler.job_state(job_id) == "missing" and len(scheduler.queue) == 0

        assert service.reconcile(full=False)["requeued"] == 1
        drain(service)
        assert service.match_view(mid, None)["status"] == "finished"
        log = service.export(mid)
        assert decision_report(service.ctx.engine("race"), log["events"])["duplicates"] == 0
        assert service.verify(log)["valid"] is True
    finally:
        bootstrap.reset()
        server.stop()
