"""Bot turns, turn timeouts and reconcile on fakeredis, with RQ jobs run in-process."""

import json
import os
import time
from datetime import UTC, datetime, timedelta

import pytest
import redis
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from tests.support.runtime import drain, promote_due
from workers.embedded import start_embedded

BOTS3 = [
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "greedy"},
    {"kind": "bot", "bot": "random"},
]


def _causes(service, mid):
    return [e["cause"] for e in service.log(mid)]


def test_bot_only_match_plays_to_the_end_through_rq_jobs(service):
    mid = service.create_match("race", BOTS3, {"target": 21})["match_id"]
    assert service.scheduler.queue.job_ids == [
        service.keys.bot_job_id(mid, 1, service.match_view(mid, None)["view"]["turn"])
    ]
    drain(service)
    view = service.match_view(mid, None)
    assert view["status"] == "finished" and view["view"]["total"] >= 21
    assert set(_causes(service, mid)[1:]) == {"bot"}
    assert service.verify(service.export(mid))["valid"] is True
    assert f"arena_bot_turns_total {len(_causes(service, mid)) - 1 - 1}" in service.metrics()


def test_duplicate_bot_jobs_collapse_and_stale_jobs_do_nothing(service):
    mid = service.create_match(
        "high-card", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {}
    )["match_id"]
    queue = service.scheduler.queue
    service.scheduler.enqueue_bot_turn(mid, 4, 1)
    assert queue.job_ids == [service.keys.bot_job_id(mid, 4, 1)]
    assert service.run_bot_turn(mid, 3, 1) == {"status": "stale"}
    assert service.run_bot_turn(mid, 4, 0) == {"status": "stale"}  # seat 0 is human
    assert service.run_bot_turn(mid, 4, 1) == {"status": "acted", "seat": 1, "version": 5}
    assert service.run_bot_turn(mid, 4, 1) == {"status": "stale"}  # the job ran twice
    assert service.match_view(mid, None)["version"] == 5


def test_a_bot_turn_whose_match_ends_while_the_bot_thinks_is_stale_not_a_failed_job(
    service, monkeypatch
):
    """The match ends while the bot chooses (newcomer probe: an ``expert`` bot thinking for
    seconds, its human opponent resigning meanwhile; here the last cards of a one-round
    match are played by others): the bot's append meets a finished match, and the job
    ends quietly as stale instead of raising ``MatchFinished`` (a failed RQ job)."""
    mid = service.create_match(
        "high-card", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {"rounds": 1}
    )["match_id"]
    version = service.match_view(mid, None)["version"]
    turns = service._turns
    plain = turns.seat_bot

    def finishing_bot(engine, record, seat):
        bot = plain(engine, record, seat)

        class FinishedMeanwhile:
            def choose(self, state, s, rng):
                command = bot.choose(state, s, rng)
                human = service.legal_actions(mid, 0)["actions"][0]
                service.act(mid, 0, human)  # the human's card
                service.act(mid, s, command)  # the seat's card, sent by another process
                return command

        return FinishedMeanwhile()

    monkeypatch.setattr(turns, "seat_bot", finishing_bot)
    assert service.run_bot_turn(mid, version, 1) == {"status": "stale"}
    view = service.match_view(mid, None)
    assert view["status"] == "finished" and view["version"] > version
    assert service.log(mid)[-1]["type"] == "MatchEnded"


def _timed_race(service, timeout_s):
    mid = service.create_match(
        "race", [{"kind": "human"}, {"kind": "human"}], {"target": 30}, turn_timeout_s=timeout_s
    )["match_id"]
    return mid, service.match_view(mid, None)["view"]["turn"]


def test_timeout_decides_with_the_timeout_bot_after_the_deadline(service):
    before = datetime.now(UTC)
    mid, turn = _timed_race(service, 1)
    job_id = service.keys.timeout_job_id(mid, turn, 1)
    at = service.scheduler.scheduled_at(job_id)
    # scheduled 1 s after the match was created (bounds from clocks read around it; RQ
    # keeps whole seconds)
    assert at is not None and (before + timedelta(seconds=1)).replace(
        microsecond=0
    ) <= at <= datetime.now(UTC) + timedelta(seconds=1)
    view = service.match_view(mid, turn)
    assert datetime.fromisoformat(view["deadline"]).tzinfo is not None
    assert service.run_turn_timeout(mid, turn, 1) == {"status": "early"}
    while datetime.now(UTC) < datetime.fromisoformat(view["deadline"]):
        time.sleep(0.05)
    # one scheduler pass only: on a loaded machine the next seat's own 1 s deadline may
    # pass too before a second pass, and would (rightly) fire
    promote_due(service)
    drain(service)
    log = service.log(mid)
    assert [(e["cause"], e["seat"], e["data"]["amount"]) for e in log[1:]] == [("timeout", turn, 3)]
    # the next seat now has its own deadline, started at version 2
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 1 - turn, 2)) is not None
    assert "arena_timeouts_total 1" in service.metrics()


def test_timeout_job_run_twice_decides_once(service):
    mid, turn = _timed_race(service, 0.2)
    time.sleep(0.3)
    first = service.run_turn_timeout(mid, turn, 1)
    second = service.run_turn_timeout(mid, turn, 1)
    assert first == {"status": "acted", "seat": turn, "version": 2}
    assert second == {"status": "stale"}
    assert len(service.log(mid)) == 2


def test_cancelled_timeout_never_fires_a_turn(service):
    mid, turn = _timed_race(service, 0.5)
    job_id = service.keys.timeout_job_id(mid, turn, 1)
    service.act(mid, turn, {"type": "add", "amount": 1})
    assert service.scheduler.scheduled_at(job_id) is None
    assert Job.exists(job_id, connection=service.scheduler.connection) is False
    time.sleep(0.6)
    drain(service, with_scheduler=True)
    assert service.run_turn_timeout(mid, turn, 1) == {"status": "stale"}
    # only seat 1-turn's own timeout may have fired; never a second decision for `turn` at v1
    log = service.log(mid)
    assert [(e["cause"], e["seat"]) for e in log[1:3]] == [("player", turn), ("timeout", 1 - turn)]


def test_simultaneous_step_keeps_the_waiting_seats_deadline(service):
    mid = service.create_match(
        "high-card", [{"kind": "human"}, {"kind": "human"}], {"rounds": 1}, turn_timeout_s=60
    )["match_id"]
    before = service.match_view(mid, 1)["deadlines"]
    service.act(mid, 0, service.legal_actions(mid, 0)["actions"][0])
    after = service.match_view(mid, 1)
    assert after["deadlines"] == {"1": before["1"]} and after["deadline"] == before["1"]
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 1, 4)) is not None
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 0, 4)) is None


def test_timeouts_are_scheduled_in_utc_whatever_the_local_timezone(service):
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    try:
        assert time.timezone != 0
        mid, turn = _timed_race(service, 30)
        job_id = service.keys.timeout_job_id(mid, turn, 1)
        score = service.scheduler.connection.zscore(
            ScheduledJobRegistry(queue=service.scheduler.queue).key, job_id
        )
        assert abs(score - (time.time() + 30)) < 2
        promote_due(service)
        assert job_id not in service.scheduler.queue.job_ids  # not fired early
        with pytest.raises(ValueError):
            service.scheduler.schedule_turn_timeout(
                mid, turn, 1, datetime.now() + timedelta(seconds=5)
            )
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


def test_reconcile_requeues_a_lost_bot_job(service):
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]
    job_id = service.keys.bot_job_id(mid, 1, seat)
    Job.fetch(job_id, connection=service.scheduler.connection).delete()
    assert service.scheduler.queue.job_ids == []
    assert service.reconcile() == {"checked": 1, "requeued": 1}
    assert service.reconcile() == {"checked": 1, "requeued": 0}  # alive now: not duplicated
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"
    assert service.reconcile() == {"checked": 0, "requeued": 0}


def test_reconcile_treats_a_long_started_job_as_dead(service):
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]
    job = Job.fetch(service.keys.bot_job_id(mid, 1, seat), connection=service.scheduler.connection)
    service.scheduler.queue.remove(job.id)
    job.started_at = datetime.now(UTC) - timedelta(seconds=2)
    job.worker_name = "w-live"
    job.set_status(JobStatus.STARTED)
    job.save()
    service.scheduler.connection.set(service.keys.worker_lease("w-live"), "1", ex=60)
    assert service.scheduler.job_state(job.id) == "alive"  # within its 5 s budget, leased
    job.started_at = datetime.now(UTC) - timedelta(seconds=60)
    job.save()
    assert service.scheduler.job_state(job.id) == "dead"
    assert service.reconcile()["requeued"] == 1
    assert Job.fetch(job.id, connection=service.scheduler.connection).meta["attempt"] == 2
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"


def test_reconcile_restores_a_missing_timeout(service):
    mid, turn = _timed_race(service, 0.3)
    service.scheduler.cancel(service.keys.timeout_job_id(mid, turn, 1))
    time.sleep(0.4)
    assert service.reconcile()["requeued"] == 1
    drain(service, with_scheduler=True)
    assert service.log(mid)[1]["cause"] == "timeout"


def test_embedded_runtime_runs_worker_scheduler_and_reconcile_in_one_process(service):
    runtime = start_embedded(service, reconcile_s=0.5)
    try:
        bots = service.create_match("race", BOTS3, {"target": 15})["match_id"]
        timed, turn = _timed_race(service, 1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if (
                service.match_view(bots, None)["status"] == "finished"
                and len(service.log(timed)) > 1
            ):
                break
            time.sleep(0.1)
        assert service.match_view(bots, None)["status"] == "finished"
        assert service.log(timed)[1]["cause"] == "timeout"
    finally:
        runtime.stop()


def test_reconcile_enqueues_a_timeout_whose_scheduler_died(service):
    """Scheduled, but nobody promoted it 3+ s after its deadline: reconcile enqueues it."""
    mid, turn = _timed_race(service, 0.2)
    job_id = service.keys.timeout_job_id(mid, turn, 1)
    time.sleep(0.3)
    assert service.reconcile()["requeued"] == 0  # just due: the scheduler gets its chance
    entry = service._deadlines(mid)[turn]
    late = (datetime.now(UTC) - timedelta(seconds=10)).isoformat()
    service.redis.hset(
        service.keys.deadlines(mid), str(turn), json.dumps({**entry, "deadline": late})
    )
    assert service.reconcile()["requeued"] == 1
    assert (
        job_id in service.scheduler.queue.job_ids and service.scheduler.scheduled_at(job_id) is None
    )
    drain(service)
    assert service.log(mid)[1]["cause"] == "timeout"


# ---------------------------------------------------------------- the awaiting index
def _awaiting(service) -> set[str]:
    return service.stores.index.awaiting_ids()


def _lose_bot_job(service, mid) -> None:
    """The bot job of version 1 vanished (e.g. deleted with a dead queue)."""
    seat = service.match_view(mid, None)["view"]["turn"]
    Job.fetch(
        service.keys.bot_job_id(mid, 1, seat), connection=service.scheduler.connection
    ).delete()


def test_the_awaiting_index_holds_exactly_the_matches_a_worker_must_move(service):
    idle = service.create_match("race", [{"kind": "human"}, {"kind": "human"}], {"target": 3})[
        "match_id"
    ]
    bots = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    timed, turn = _timed_race(service, 60)
    mixed = service.create_match(
        "race", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {"target": 50}
    )["match_id"]
    bot_first = service.match_view(mixed, None)["view"]["turn"] == 1
    assert _awaiting(service) == {bots, timed} | ({mixed} if bot_first else set())
    assert service.stores.index.running_ids() == {idle, bots, timed, mixed}
    drain(service)
    # the bot moved: the human of the mixed match waits for its player, out of the index
    assert service.match_view(mixed, None)["view"]["turn"] == 0
    assert mixed not in _awaiting(service)
    service.act(mixed, 0, {"type": "add", "amount": 1})
    assert mixed in _awaiting(service)  # the bot's turn again
    assert bots not in _awaiting(service)  # finished: out of both indexes
    assert bots not in service.stores.index.running_ids()
    service.act(timed, turn, {"type": "add", "amount": 1})
    assert timed in _awaiting(service)  # the other seat's deadline runs


def test_a_pass_scans_only_the_awaiting_matches_and_a_full_pass_every_running_one(service):
    idle = [
        service.create_match("race", [{"kind": "human"}] * 2, {"target": 9})["match_id"]
        for _ in range(5)
    ]
    lost = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    _lose_bot_job(service, lost)
    assert service.reconcile(full=False) == {"checked": 1, "requeued": 1}
    assert service.reconcile(full=False) == {"checked": 1, "requeued": 0}  # alive now
    assert service.reconcile(full=True) == {"checked": 1 + len(idle), "requeued": 0}
    drain(service)
    assert service.match_view(lost, None)["status"] == "finished"
    assert service.reconcile(full=False) == {"checked": 0, "requeued": 0}


def test_a_full_pass_recovers_a_match_missing_from_the_index_and_puts_it_back(service):
    """The process that appended died before its index update and before enqueuing."""
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    _lose_bot_job(service, mid)
    service.redis.srem(service.keys.awaiting(service.stores.index.shard(mid)), mid)
    assert service.reconcile(full=False) == {"checked": 0, "requeued": 0}
    assert service.reconcile(full=True) == {"checked": 1, "requeued": 1}
    assert mid in _awaiting(service)
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"


def test_the_first_pass_and_every_pass_after_reconcile_full_s_are_full(service):
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    service.redis.srem(service.keys.awaiting(service.stores.index.shard(mid)), mid)
    assert service.reconcile()["checked"] == 1  # first pass of a service: full
    service.redis.srem(service.keys.awaiting(service.stores.index.shard(mid)), mid)
    assert service.reconcile()["checked"] == 0  # within 60 s: the index only
    service.reconcile_full_s = 0.2
    time.sleep(0.25)
    assert service.reconcile()["checked"] == 1
    assert service.reconcile()["checked"] == 1  # back in the index


def test_a_job_started_by_a_worker_without_a_lease_is_lost_and_requeued_at_once(service):
    """Killed while running: the job stays "started" in RQ, but its worker's lease is gone."""
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]
    job = Job.fetch(service.keys.bot_job_id(mid, 1, seat), connection=service.scheduler.connection)
    service.scheduler.queue.remove(job.id)
    job.started_at = datetime.now(UTC)
    job.worker_name = "w-killed"
    job.set_status(JobStatus.STARTED)
    job.save()
    assert service.scheduler.job_state(job.id) == "lost"
    assert service.reconcile()["requeued"] == 1
    revived = Job.fetch(job.id, connection=service.scheduler.connection)
    assert revived.get_status() == JobStatus.QUEUED and revived.meta["attempt"] == 2
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"


def test_a_job_popped_to_rqs_intermediate_list_and_never_started_is_requeued(service):
    """The worker moved the job off the queue (BLMOVE to RQ's intermediate list) and died
    before starting it: status still "queued", yet no worker will ever pop it."""
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]
    job_id = service.keys.bot_job_id(mid, 1, seat)
    queue, conn = service.scheduler.queue, service.scheduler.connection
    assert conn.lmove(queue.key, queue.intermediate_queue_key) == job_id.encode()
    service.scheduler.lease_s = 0.2
    assert service.scheduler.job_state(job_id) == "alive"  # just popped: a worker may start it
    assert service.reconcile()["requeued"] == 0
    time.sleep(0.3)
    assert service.scheduler.job_state(job_id) == "lost"
    assert service.reconcile()["requeued"] == 1
    assert conn.lrange(queue.intermediate_queue_key, 0, -1) == []
    assert Job.fetch(job_id, connection=conn).meta["attempt"] == 1  # it never ran
    assert queue.job_ids == [job_id]
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"


@pytest.mark.parametrize(
    "outage",
    [
        redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory"),
        # a Redis Cluster with no node reachable (not a RedisError: it escaped the job)
        redis.exceptions.RedisClusterException(
            "Redis Cluster cannot be connected. Please provide at least one reachable node: x"
        ),
    ],
    ids=["loading", "cluster-unreachable"],
)
def test_a_bot_job_meeting_a_store_outage_ends_and_does_not_use_up_attempts(
    service, monkeypatch, outage
):
    from workers import jobs

    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]

    def down(*_args, **_kwargs):
        raise outage

    def bug(*_args, **_kwargs):
        raise redis.exceptions.RedisClusterException("Keys in request don't hash to the same slot")

    with monkeypatch.context() as patch:
        patch.setattr(service, "run_bot_turn", bug)
        with pytest.raises(redis.exceptions.RedisClusterException):
            jobs.bot_turn(mid, 1, seat)  # not an outage: the job fails
        patch.setattr(service, "run_bot_turn", down)
        assert jobs.bot_turn(mid, 1, seat) == {"status": "store_unavailable"}
        drain(service)  # the queued job runs into the outage and ends
    job_id = service.keys.bot_job_id(mid, 1, seat)
    # it ended normally: RQ keeps no record of a succeeded turn job (RESULT_TTL_S = 0)
    assert not Job.exists(job_id, connection=service.scheduler.connection)
    assert service.match_view(mid, None)["version"] == 1
    assert service.reconcile()["requeued"] == 1
    assert Job.fetch(job_id, connection=service.scheduler.connection).meta["attempt"] == 1
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"


def test_a_deadline_whose_seat_acted_since_is_restarted_not_left_stale_forever(service):
    """A worker killed between a seat's append and its book-keeping leaves the seat's old
    deadline record: the seat acted after it and is pending again. The old timeout job
    must start the new decision's deadline, else reconcile re-runs a stale job forever."""
    mid, first = _timed_race(service, 0.2)
    service.act(mid, first, {"type": "add", "amount": 1})
    service.act(mid, 1 - first, {"type": "add", "amount": 1})
    assert service.match_view(mid, None)["view"]["turn"] == first
    version = service.match_view(mid, None)["version"]
    past = (datetime.now(UTC) - timedelta(seconds=5)).isoformat()
    service.stores.deadlines.start(mid, first, 1, past)  # the lost book-keeping
    assert service.run_turn_timeout(mid, first, 1) == {"status": "restarted"}
    entry = service.stores.deadlines.get(mid, first)
    assert entry["version"] == version
    assert service.run_turn_timeout(mid, first, 1) == {"status": "stale"}
    time.sleep(0.3)
    assert service.run_turn_timeout(mid, first, version)["status"] == "acted"
    assert service.log(mid)[-1]["cause"] == "timeout"


def test_job_ids_name_their_match_even_when_the_match_id_holds_dashes():
    from service.store.keys import Keys

    keys = Keys("fault-x")
    for mid in ("3f9a", "named-by-request-0", "a_b"):
        assert keys.match_of_job(keys.bot_job_id(mid, 12, 3)) == mid
        assert keys.match_of_job(keys.timeout_job_id(mid, 0, 7)) == mid
    assert keys.match_of_job(Keys("other").bot_job_id("m", 1, 0)) is None
    for bad in ("fault-x-bot-m-1", "fault-x-bot--1-2", "fault-x-bot-m-x-2", "rq-job", ""):
        assert keys.match_of_job(bad) is None


def _started_by(service, job_id: str, worker: str) -> Job:
    """Mark ``job_id`` as RQ does when a worker starts it: off the queue, status started,
    in the started registry (``<job id>:<execution id>`` entries in RQ 2+)."""
    from rq.registry import StartedJobRegistry

    conn = service.scheduler.connection
    job = Job.fetch(job_id, connection=conn)
    service.scheduler.queue.remove(job.id)
    job.started_at = datetime.now(UTC)
    job.worker_name = worker
    job.set_status(JobStatus.STARTED)
    job.save()
    registry = StartedJobRegistry(queue=service.scheduler.queue)
    conn.zadd(registry.key, {f"{job.id}:exec-1": time.time() + 60})
    return job


def test_reclaim_looks_only_at_jobs_rq_holds_and_requeues_a_killed_workers_turn_first(service):
    """A reclaim pass reads RQ's started registry and intermediate list, not every match:
    the killed worker's turn goes back ahead of the other queued turns; a turn whose
    worker still holds its lease is left alone."""
    mids = [service.create_match("race", BOTS3, {"target": 12})["match_id"] for _ in range(3)]
    seat = service.match_view(mids[0], None)["view"]["turn"]
    job = _started_by(service, service.keys.bot_job_id(mids[0], 1, seat), "w-killed")
    conn = service.scheduler.connection
    conn.set(service.keys.worker_lease("w-alive"), "1")
    seat1 = service.match_view(mids[1], None)["view"]["turn"]
    _started_by(service, service.keys.bot_job_id(mids[1], 1, seat1), "w-alive")
    assert service.scheduler.held_match_ids() == {mids[0], mids[1]}
    assert service.reclaim() == {"checked": 2, "requeued": 1}
    queue = service.scheduler.queue
    assert queue.job_ids[0] == job.id  # ahead of the queued turn of mids[2]
    assert service.scheduler.keys.match_of_job(queue.job_ids[1]) == mids[2]
    assert Job.fetch(job.id, connection=conn).meta["attempt"] == 2
    assert service.reclaim()["requeued"] == 0  # queued again: alive


def test_reclaim_requeues_a_job_popped_and_never_started_after_the_lease(service):
    mid = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    other = service.create_match("race", BOTS3, {"target": 12})["match_id"]
    seat = service.match_view(mid, None)["view"]["turn"]
    job_id = service.keys.bot_job_id(mid, 1, seat)
    queue, conn = service.scheduler.queue, service.scheduler.connection
    conn.lrem(queue.key, 0, job_id)
    conn.rpush(queue.intermediate_queue_key, job_id)
    service.scheduler.lease_s = 0.2
    assert service.reclaim() == {"checked": 1, "requeued": 0}  # just popped: may start
    time.sleep(0.3)
    assert service.reclaim() == {"checked": 1, "requeued": 1}
    assert queue.job_ids[0] == job_id and conn.lrange(queue.intermediate_queue_key, 0, -1) == []
    assert service.scheduler.keys.match_of_job(queue.job_ids[1]) == other


def test_a_killed_job_whose_execution_expired_is_requeued_though_rq_cannot_delete_it(service):
    """RQ's ``Job.delete`` raises ValueError when the job's execution set names an
    execution whose hash expired (a worker killed mid-job); the job is removed by hand and
    requeued, and the pass goes on to the other matches."""
    mids = sorted(service.create_match("race", BOTS3, {"target": 12})["match_id"] for _ in range(2))
    conn = service.scheduler.connection
    lost = []
    for mid in mids:
        seat = service.match_view(mid, None)["view"]["turn"]
        job = _started_by(service, service.keys.bot_job_id(mid, 1, seat), "w-killed")
        conn.zadd(job.execution_registry.key, {"exec-1": time.time() + 60})  # no hash
        lost.append(job)
    with pytest.raises(ValueError, match="not found"):
        Job.fetch(lost[0].id, connection=conn).delete()
    assert service.reclaim() == {"checked": 2, "requeued": 2}
    assert sorted(service.scheduler.queue.job_ids[:2]) == sorted(j.id for j in lost)
    assert service.scheduler.held_match_ids() == set()
    drain(service)
    assert all(service.match_view(m, None)["status"] == "finished" for m in mids)


def test_one_match_failing_to_reconcile_does_not_stop_the_pass(service, monkeypatch):
    mids = sorted(service.create_match("race", BOTS3, {"target": 12})["match_id"] for _ in range(3))
    for mid in mids:
        seat = service.match_view(mid, None)["view"]["turn"]
        _started_by(service, service.keys.bot_job_id(mid, 1, seat), "w-killed")
    real = service.scheduler.revive_bot_turn

    def revive(match_id, version, seat):
        if match_id == mids[0]:
            raise KeyError("a corrupt job")
        return real(match_id, version, seat)

    monkeypatch.setattr(service.scheduler, "revive_bot_turn", revive)
    assert service.reconcile(full=False) == {"checked": 3, "requeued": 2}


def test_a_cluster_with_no_node_reachable_ends_the_reconcile_pass(service, monkeypatch):
    # A store outage ends the pass (the loops retry it) instead of being logged as one
    # bad match after another: on a Redis Cluster that is a RedisClusterException, which
    # is not a RedisError.
    mids = sorted(service.create_match("race", BOTS3, {"target": 12})["match_id"] for _ in range(2))
    for mid in mids:
        seat = service.match_view(mid, None)["view"]["turn"]
        _started_by(service, service.keys.bot_job_id(mid, 1, seat), "w-killed")
    tried = []

    def revive(match_id, version, seat):
        tried.append(match_id)
        raise redis.exceptions.RedisClusterException(
            "Redis Cluster cannot be connected. Please provide at least one reachable node: x"
        )

    monkeypatch.setattr(service.scheduler, "revive_bot_turn", revive)
    with pytest.raises(redis.exceptions.RedisClusterException):
        service.reconcile(full=False)
    assert tried == mids[:1]


def test_bot_seats_deciding_at_once_have_one_job_queued_per_match(service):
    """high-card's two seats choose at once: one bot job is queued for the match (the
    lowest bot seat's), never one per seat (the second would only be stale once the first
    acted); the append of that action queues the other seat's job."""
    two_bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
    mid = service.create_match("high-card", two_bots, {"rounds": 2})["match_id"]
    queue = service.scheduler.queue
    version = service.match_view(mid, None)["version"]
    assert sorted(service.match_view(mid, None)["pending"]) == ["0", "1"]
    assert queue.job_ids == [service.keys.bot_job_id(mid, version, 0)]
    assert service.run_bot_turn(mid, version, 0)["status"] == "acted"
    assert queue.job_ids[1:] == [service.keys.bot_job_id(mid, version + 1, 1)]
    queue.empty()
    # reconcile re-creates the same single job, not one per pending seat
    assert service.reconcile(full=True)["requeued"] == 1
    assert queue.job_ids == [service.keys.bot_job_id(mid, version + 1, 1)]
    drain(service)
    assert service.match_view(mid, None)["status"] == "finished"
    assert service.verify(service.export(mid))["valid"] is True


def test_a_due_timeout_goes_ahead_of_the_queued_bot_turns(service):
    """RQ's scheduler moves a due turn timeout to the front of the queue: its seat waited
    its whole timeout already; the bot turns queued meanwhile wait behind it."""
    mid, turn = _timed_race(service, 0.05)
    bots = [service.create_match("race", BOTS3, {"target": 12})["match_id"] for _ in range(3)]
    queue = service.scheduler.queue
    assert len(queue) == 3
    time.sleep(0.1)  # past the deadline (the assertion does not depend on how long)
    promote_due(service)
    job_ids = queue.job_ids
    assert job_ids[0] == service.keys.timeout_job_id(mid, turn, 1)
    assert [service.keys.match_of_job(j) for j in job_ids[1:]] == bots
