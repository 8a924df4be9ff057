"""Turn timeouts on time, oldest first (issue 18 item 4), on fakeredis: the deadline kept to
the microsecond, due timeouts queued in the order they fell due ahead of the bot turns,
and no RQ record kept after a turn job succeeded."""

import math
import time
from datetime import UTC, datetime, timedelta

from rq.job import Job
from rq.registry import ScheduledJobRegistry

from tests.support.runtime import drain
from workers import rq_runtime
from workers.rq_runtime import LeasedScheduler, scheduler_pass
from workers.scheduling import timeout_prefix
from workers.turn_queue import TurnQueue


def _scheduler(service) -> LeasedScheduler:
    return LeasedScheduler(
        [service.scheduler.queue], connection=service.scheduler.connection, logging_level="WARNING"
    )


def _pass_at(service, monkeypatch, unix: float) -> None:
    """One scheduler pass with the clock read as ``unix``."""
    monkeypatch.setattr(rq_runtime.time, "time", lambda: unix)
    scheduler = _scheduler(service)
    assert scheduler_pass(scheduler)
    scheduler.release_locks()
    monkeypatch.undo()


def _ids(service) -> list[str]:
    return service.scheduler.queue.job_ids


def test_a_timeout_is_scheduled_at_its_deadline_not_the_second_before(service):
    now = datetime.now(UTC)
    at = datetime.fromtimestamp(math.floor(now.timestamp()) + 1.9, UTC)  # .9 past
    job_id = service.scheduler.schedule_turn_timeout("m1", 0, 3, at)
    score = service.scheduler.connection.zscore(
        ScheduledJobRegistry(queue=service.scheduler.queue).key, job_id
    )
    assert at.timestamp() <= score < at.timestamp() + 0.01
    assert service.scheduler.scheduled_at(job_id) >= at


def test_the_scheduler_moves_a_timeout_at_its_deadline_not_before(service, monkeypatch):
    at = datetime.now(UTC) + timedelta(seconds=30)
    job_id = service.scheduler.schedule_turn_timeout("m1", 0, 3, at)
    _pass_at(service, monkeypatch, at.timestamp() - 0.05)
    assert _ids(service) == [] and service.scheduler.scheduled_at(job_id) is not None
    _pass_at(service, monkeypatch, at.timestamp() + 0.01)
    assert _ids(service) == [job_id] and service.scheduler.scheduled_at(job_id) is None


def test_due_timeouts_queue_in_deadline_order_ahead_of_bot_turns(service, monkeypatch):
    sched = service.scheduler
    bots = [sched.enqueue_bot_turn(f"b{n}", 1, 0) for n in range(2)]
    base = datetime.now(UTC) - timedelta(seconds=60)
    # scheduled out of order; t0 fell due first
    late, early, middle = (
        sched.schedule_turn_timeout(f"t{n}", 0, 1, base + timedelta(seconds=n)) for n in (2, 0, 1)
    )
    _pass_at(service, monkeypatch, base.timestamp() + 10)
    assert _ids(service) == [early, middle, late, *bots]
    newer = sched.schedule_turn_timeout("t3", 0, 1, base + timedelta(seconds=20))
    _pass_at(service, monkeypatch, base.timestamp() + 30)
    assert _ids(service) == [early, middle, late, newer, *bots]
    # a reclaimed bot turn goes ahead of the bot turns, behind the due timeouts; an
    # overdue timeout enqueued by reconcile behind the timeouts already due
    revived = sched.enqueue_bot_turn("b9", 4, 1, at_front=True)
    overdue = sched.enqueue_turn_timeout_now("t9", 1, 4)
    assert _ids(service) == [early, middle, late, newer, overdue, revived, *bots]
    assert sched.enqueue_turn_timeout_now("t9", 1, 4) == overdue  # unique: no second copy
    assert _ids(service).count(overdue) == 1


def test_the_turn_queue_inserts_after_a_long_run_of_timeouts(service):
    queue = service.scheduler.queue
    assert isinstance(queue, TurnQueue)
    prefix = timeout_prefix(service.keys)
    assert service.keys.timeout_job_id("m", 1, 2).startswith(prefix)
    assert not service.keys.bot_job_id("m", 1, 2).startswith(prefix)
    conn = queue.connection
    conn.rpush(queue.key, *[f"{prefix}{n}" for n in range(600)])  # > one LRANGE chunk
    queue.push_job_id(f"{prefix}last", at_front=True)
    assert conn.lindex(queue.key, 600) == f"{prefix}last".encode()
    conn.rpush(queue.key, "bot-x")
    queue.push_job_id(f"{prefix}next", at_front=True)
    assert conn.lrange(queue.key, 600, -1) == [
        f"{prefix}last".encode(),
        f"{prefix}next".encode(),
        b"bot-x",
    ]


def test_a_timeout_fires_on_its_first_run(service, monkeypatch, caplog):
    """Scheduled at the deadline, moved by the scheduler, run once: it acts (on main RQ's
    whole-second score made the first run "early", a no-op left to reconcile)."""
    runs: list[dict] = []
    original = type(service).run_turn_timeout

    def counted(self, *args, **kwargs):
        runs.append(original(self, *args, **kwargs))
        return runs[-1]

    monkeypatch.setattr(type(service), "run_turn_timeout", counted)
    caplog.set_level("INFO", logger="service.usecases.turns")
    mid = service.create_match(
        "race", [{"kind": "human"}, {"kind": "human"}], {"target": 30}, turn_timeout_s=0.3
    )["match_id"]
    for _ in range(400):
        scheduler = _scheduler(service)
        scheduler_pass(scheduler)
        scheduler.release_locks()
        drain(service)
        if runs:
            break
        time.sleep(0.01)
    assert runs and runs[0]["status"] == "acted", runs
    assert service.log(mid)[1]["cause"] == "timeout"
    # each run is logged with its lateness (benchmarks/_faults.py reads these lines)
    from benchmarks._faults import TIMEOUT_RUN

    lines = [r.getMessage() for r in caplog.records if r.name == "service.usecases.turns"]
    found = [TIMEOUT_RUN.search(line) for line in lines]
    assert found and found[0]["status"] == "acted" and float(found[0]["late"]) >= 0


def test_a_finished_turn_job_leaves_no_record(service):
    mid = service.create_match("race", [{"kind": "bot", "bot": "random"}] * 2, {"target": 3})[
        "match_id"
    ]
    job_id = service.scheduler.queue.job_ids[0]
    drain(service, rounds=1)
    conn = service.scheduler.connection
    assert not Job.exists(job_id, connection=conn)
    assert not list(conn.scan_iter(f"rq:results:{job_id}*"))
    assert service.match_view(mid, None)["version"] > 1


def test_the_scheduler_wakes_up_for_the_next_deadline_not_a_whole_interval_later(service):
    """``run_scheduler`` waits until the earliest scheduled deadline when it comes before
    its interval (here 60 s): the wait it asks for is recorded, nothing is timed."""
    at = datetime.now(UTC) + timedelta(seconds=3)
    service.scheduler.schedule_turn_timeout("m1", 0, 3, at)
    waits: list[float] = []

    class OneWait:
        def is_set(self):
            return bool(waits)

        def wait(self, delay):
            waits.append(delay)
            return True

    scheduler = _scheduler(service)
    assert scheduler_pass(scheduler)
    assert abs(scheduler.next_due() - at.timestamp()) < 0.01
    rq_runtime.run_scheduler(scheduler, OneWait(), interval_s=60)
    assert len(waits) == 1 and 0 < waits[0] <= 3.01


def test_a_job_whose_worker_died_between_starting_steps_is_lost_at_once(service):
    """RQ begins a job in two steps: it creates the job's execution (naming the worker),
    then marks the job started. A worker killed between them leaves the job queued, off
    the queue, with an execution: lost as soon as that worker's lease is gone — not after
    one process has watched it for ``lease_s`` (workers restarted every few seconds never
    did: a turn stalled 92 s in benchmarks/fault_worker_kill.py)."""
    from rq.executions import Execution

    mid = service.create_match("race", [{"kind": "bot", "bot": "random"}] * 2, {"target": 12})[
        "match_id"
    ]
    sched, conn = service.scheduler, service.scheduler.connection
    job_id = sched.queue.job_ids[0]
    assert conn.lmove(sched.queue.key, sched.queue.intermediate_queue_key) == job_id.encode()
    job = Job.fetch(job_id, connection=conn)
    with conn.pipeline() as pipe:
        Execution.create(job, ttl=60, pipeline=pipe, worker_name="w-alive")
        pipe.execute()
    conn.set(service.keys.worker_lease("w-alive"), "1", px=60_000)
    assert sched.job_state(job_id) == "alive"  # its worker holds its lease
    conn.delete(service.keys.worker_lease("w-alive"))  # killed: the lease is gone
    assert sched.job_state(job_id) == "lost"
    assert service.reclaim()["requeued"] == 1
    drain(service)
    assert service.match_view(mid, None)["version"] > 1
