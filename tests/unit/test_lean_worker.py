"""RQ's per-job writes of a worker's own key (workers.lean_worker): the embedded and
``arena worker`` workers send one heartbeat and one state write per job on their own, not
RQ's three heartbeats (three round trips each) and two state writes, and the worker key
still outlives any blocking dequeue."""

from __future__ import annotations

import time

from workers.embedded import ThreadWorker
from workers.lean_worker import LeanForkWorker, LeanSimpleWorker

RACE_BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


def _record_worker_key_writes(connection, worker_key: str) -> list[str]:
    """Wrap ``connection`` so each command sent on its own to ``worker_key`` is listed, and
    each pipeline holding a heartbeat only (RQ's job start and end pipelines, which carry
    heartbeats among other writes, stay as they are and are not listed)."""
    seen: list[str] = []
    execute_command = connection.execute_command
    make_pipeline = connection.pipeline

    def counted_command(*args, **kwargs):
        if len(args) > 1 and args[1] == worker_key:
            seen.append(str(args[0]).upper())
        return execute_command(*args, **kwargs)

    def counted_pipeline(*args, **kwargs):
        pipe = make_pipeline(*args, **kwargs)
        execute = pipe.execute

        def counted_execute(*e_args, **e_kwargs):
            names = [str(c[0][0]).upper() for c in getattr(pipe, "command_stack", []) or []]
            if names == ["HSET", "EXPIRE", "EXPIRE"]:  # a heartbeat and nothing else
                seen.append("pipelined heartbeat")
            return execute(*e_args, **e_kwargs)

        pipe.execute = counted_execute
        return pipe

    connection.execute_command = counted_command
    connection.pipeline = counted_pipeline
    return seen


def test_a_worker_writes_its_own_key_once_for_heartbeat_and_once_for_state_per_job(service):
    for _ in range(3):
        service.create_match("race", RACE_BOTS, {"target": 15})
    queue = service.scheduler.queue
    worker = ThreadWorker([queue], connection=queue.connection)
    seen = _record_worker_key_writes(queue.connection, worker.key)
    jobs_before = len(queue)
    assert worker.work(burst=True, logging_level="WARNING", max_jobs=12)
    assert jobs_before and len(queue)  # 12 jobs ran, more are queued (bot matches go on)
    heartbeats = [c for c in seen if c == "pipelined heartbeat"]
    states = [c for c in seen if c == "HSET"]
    # RQ's SimpleWorker: 3 heartbeats per job (3 round trips each: HSET + 2 EXPIRE) and
    # 2 HSET state; here one pipelined heartbeat after each job, one state write
    assert "EXPIRE" not in seen
    assert len(heartbeats) <= 12 + 1
    assert len(states) <= 12 + 2  # + "started" and the final state on the way out


def test_a_lean_heartbeat_is_skipped_while_fresh_and_sent_after_a_shorter_ttl(service):
    queue = service.scheduler.queue
    worker = LeanSimpleWorker([queue], connection=queue.connection)
    conn = queue.connection
    worker.heartbeat()
    assert conn.ttl(worker.key) > worker.worker_ttl
    conn.hset(worker.key, "last_heartbeat", "marker")
    worker.heartbeat()  # fresh: nothing sent
    assert conn.hget(worker.key, "last_heartbeat") == b"marker"
    worker.heartbeat(90)  # a job's shorter TTL (RQ's job start)
    assert conn.ttl(worker.key) <= 90
    worker.heartbeat()  # so the full TTL is sent again
    assert conn.ttl(worker.key) > worker.worker_ttl
    worker._full_beat_at = time.monotonic() - worker.heartbeat_every_s - 1
    conn.hset(worker.key, "last_heartbeat", "marker")
    worker.heartbeat()  # stale: sent
    assert conn.hget(worker.key, "last_heartbeat") != b"marker"


def test_a_lean_state_write_is_skipped_only_when_it_repeats_the_last_one(service):
    queue = service.scheduler.queue
    conn = queue.connection
    for cls in (LeanSimpleWorker, LeanForkWorker):
        worker = cls([queue], connection=conn)
        worker.set_state("idle")
        conn.hset(worker.key, "state", "marker")
        worker.set_state("idle")  # the same state again: skipped
        assert conn.hget(worker.key, "state") == b"marker" and worker.get_state() == "idle"
        with conn.pipeline() as pipe:  # RQ's own pipelined write
            worker.set_state("busy", pipeline=pipe)
            pipe.execute()
        worker.set_state("idle")
        assert conn.hget(worker.key, "state") == b"idle"


def test_an_idle_thread_worker_stops_on_request(service):
    """RQ 3.0 retries a dequeue that timed out without looking at the stop request: the
    embedded worker thread never ended while its queue was empty (each embedded shutdown
    waited out its 5 s join). Now the next 1 s dequeue timeout ends it."""
    import threading

    queue = service.scheduler.queue
    assert len(queue) == 0
    worker = ThreadWorker([queue], connection=queue.connection)
    thread = threading.Thread(target=worker.work, kwargs={"logging_level": "WARNING"})
    thread.start()
    for _ in range(6000):  # until it listens (RQ sets "idle" before its dequeue loop)
        if worker.get_state() == "idle":
            break
        time.sleep(0.01)
    assert worker.get_state() == "idle"
    worker.stop()
    thread.join(60)  # a bound far above the 1 s dequeue timeout; the old worker never ends
    alive = thread.is_alive()
    if alive:  # the old code: end the thread with a job so the test process can exit
        service.create_match("race", RACE_BOTS, {"target": 15})
        thread.join()
    assert not alive
