"""What keeps turn jobs moving when workers die or Redis goes away: a worker's lease, RQ's
scheduler with a short lock, and the loop that runs that scheduler through outages.

- :class:`WorkerLease`: every worker process holds ``P:worker-lease:<rq worker name>`` on
  the queue Redis with a TTL of ``lease_s`` seconds, refreshed every ``lease_s / 3`` by a
  thread. Reconcile (:meth:`workers.scheduling.TurnScheduler.job_state`) treats a job
  "started" by a worker whose lease is gone as lost and re-enqueues it at once, instead of
  waiting for the job timeout (RQ's own worker key lives ``worker_ttl + 60`` = 480 s).
- :class:`LeasedScheduler`: RQ's ``RQScheduler`` whose queue lock has a TTL of ``lock_s``
  seconds instead of RQ's ``interval + 60`` (61 s): after the lock holder is killed another
  worker's scheduler takes over within ``lock_s``. It moves the jobs due by the current
  time as a float (turn timeouts are scheduled to the microsecond:
  :mod:`workers.turn_queue`), oldest first, through the queue objects it was given (a
  :class:`workers.turn_queue.TurnQueue` keeps due timeouts in that order).
- :class:`service.store.pass_turn.PassTurn`: one worker of the deployment runs each periodic reconcile pass (and
  each full pass), not every worker: a pass of every match waiting for a worker costs
  about 6 Redis commands per match, and 3 workers each running one every
  ``ARENA_RECONCILE_S`` sent more round trips than the turn jobs themselves.
- :func:`run_scheduler`: acquire-or-refresh the lock and move due scheduled jobs to the
  queue every ``interval_s``; a Redis error is logged and retried with capped exponential
  backoff, so the scheduler outlives an outage of any length (RQ's own forked scheduler
  process dies on the first ``ConnectionError`` and is restarted only by the worker's
  10-minute maintenance pass).
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from rq import Queue
from rq.job import Job
from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock

from service.store.store_errors import RedisError
from workers.turn_queue import TurnQueue

log = logging.getLogger(__name__)

#: Default seconds of a worker lease and of the scheduler lock (``ARENA_WORKER_LEASE_S``).
DEFAULT_LEASE_S = 3.0


class Backoff:
    """Capped exponential backoff: ``next()`` gives ``first_s``, doubling up to ``cap_s``;
    ``reset()`` after a success."""

    def __init__(self, first_s: float = 0.1, cap_s: float = 2.0):
        self.first_s, self.cap_s = first_s, cap_s
        self._next = first_s

    def next(self) -> float:
        """The delay to wait now (seconds); the following one doubles, up to ``cap_s``."""
        delay, self._next = self._next, min(self.cap_s, self._next * 2)
        return delay

    def reset(self) -> None:
        """Start again from ``first_s``."""
        self._next = self.first_s


class WorkerLease:
    """The liveness lease of one RQ worker (see module docstring).

    Args:
        connection: the queue Redis; give it a client that fails fast (a beat that cannot
            reach Redis is retried on the next beat, it must not hang the thread).
        key: ``Keys.worker_lease(worker name)``.
        lease_s: the key's TTL; refreshed every ``lease_s / 3`` seconds.
        heartbeat_file: when set, each beat writes ``{"at": unix time, "redis": "ok"|...}``
            there (``arena worker --check`` reads it).
    """

    def __init__(
        self,
        connection,
        key: str,
        lease_s: float = DEFAULT_LEASE_S,
        heartbeat_file: str | os.PathLike | None = None,
    ):
        self.connection = connection
        self.key = key
        self.lease_s = lease_s
        self.heartbeat_file = Path(heartbeat_file) if heartbeat_file else None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.value = f"{socket.gethostname()}:{os.getpid()}"

    def beat(self) -> bool:
        """Set the lease key for ``lease_s`` (and the heartbeat file); False when Redis
        did not answer (logged once per outage by the caller)."""
        try:
            self.connection.set(self.key, self.value, px=max(1, int(self.lease_s * 1000)))
            ok = True
        except RedisError:
            ok = False
        if self.heartbeat_file is not None:
            try:
                tmp = self.heartbeat_file.with_suffix(".tmp")
                tmp.write_text(
                    json.dumps(
                        {"at": time.time(), "redis": "ok" if ok else "down", "pid": os.getpid()}
                    )
                )
                tmp.replace(self.heartbeat_file)
            except OSError:
                log.warning("cannot write the heartbeat file %s", self.heartbeat_file)
        return ok

    def start(self) -> WorkerLease:
        """Beat once now, then every ``lease_s / 3`` seconds in a daemon thread."""
        self.beat()
        self._thread = threading.Thread(target=self._run, name="arena-lease", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        period = self.lease_s / 3
        down = False
        while not self._stop.wait(period):
            ok = self.beat()
            if ok == down:  # state changed
                (log.info if ok else log.warning)(
                    "worker lease %s: queue Redis %s", self.key, "back" if ok else "unreachable"
                )
            down = not ok

    def stop(self) -> None:
        """Stop beating and drop the lease (a clean exit frees the worker's jobs at once)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.lease_s)
        try:
            self.connection.delete(self.key)
        except RedisError:
            pass  # it expires by itself


class Heartbeat(NamedTuple):
    """A worker's health as its heartbeat file tells it: ``healthy`` and why (``reason``,
    one line for ``arena worker --check``)."""

    healthy: bool
    reason: str


def check_heartbeat(path: str | os.PathLike, max_age_s: float) -> Heartbeat:
    """A :class:`Heartbeat` ``(healthy, reason)`` from a :class:`WorkerLease` heartbeat file: healthy when it was
    written less than ``max_age_s`` seconds ago and that beat reached the queue Redis."""
    try:
        beat = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return Heartbeat(False, f"no heartbeat file at {path}")
    age = time.time() - float(beat.get("at", 0))
    if age > max_age_s:
        return Heartbeat(False, f"last heartbeat {age:.1f} s ago (more than {max_age_s:g} s)")
    if beat.get("redis") != "ok":
        return Heartbeat(
            False, f"worker alive (heartbeat {age:.1f} s ago) but Redis is unreachable"
        )
    return Heartbeat(True, f"worker alive, heartbeat {age:.1f} s ago")


class LeasedScheduler(RQScheduler):
    """RQ's scheduler with a queue lock of ``lock_s`` seconds (see module docstring).

    Only :meth:`acquire_locks` differs from RQ: it acquires or refreshes each queue's lock
    with RQ's own atomic script (``rq.scripts.acquire_or_refresh_lock``) and TTL ``lock_s``
    instead of ``interval + 60``. It is driven by :func:`run_scheduler`, not RQ's forked
    ``work()`` loop (whose heartbeat would set RQ's long TTL again).
    """

    #: Due jobs moved per registry and pass, at most.
    chunk = 1000

    def __init__(self, queues, connection, lock_s: float = DEFAULT_LEASE_S, **kwargs):
        super().__init__(queues, connection=connection, **kwargs)
        self.lock_s = max(1, math.ceil(lock_s))
        self._queue_like = {q.name: q for q in queues if isinstance(q, Queue)}
        self._queues: dict[str, Queue] = {}

    def queue(self, name: str) -> Queue:
        """The queue ``name`` on this scheduler's connection: of the class (and settings)
        of the queue object it was given under that name, else a plain RQ ``Queue``."""
        queue = self._queues.get(name)
        if queue is None:
            given = self._queue_like.get(name)
            if isinstance(given, TurnQueue):
                queue = type(given).like(given, given.front_prefix, connection=self.connection)
            else:
                queue = Queue(name, connection=self.connection, serializer=self.serializer)
            self._queues[name] = queue
        return queue

    def enqueue_scheduled_jobs(self) -> None:
        """Move the scheduled jobs due by now (``time.time()``, a float: scores are kept
        to the microsecond) to their queue, oldest first, in one transaction per registry;
        ids whose job is gone leave the registry. Differs from RQ's only in the float time
        and the queue class (:meth:`queue`); turn jobs carry no RQ rate limit, and a job
        with one is moved as RQ does."""
        self._status = self.Status.WORKING
        if not self._scheduled_job_registries and self._acquired_locks:
            self.prepare_registries()
        for registry in self._scheduled_job_registries:
            raw = self.connection.zrangebyscore(
                registry.key, 0, time.time(), start=0, num=self.chunk
            )
            if not raw:
                continue
            job_ids = [i.decode() if isinstance(i, bytes) else i for i in raw]
            queue = self.queue(registry.name)
            jobs = Job.fetch_many(job_ids, connection=self.connection, serializer=self.serializer)
            with self.connection.pipeline() as pipe:
                for job_id, job in zip(job_ids, jobs, strict=True):
                    if job is not None and job.has_rate_limit:
                        continue
                    if job is not None:
                        queue._enqueue_job(
                            job, pipeline=pipe, at_front=job.should_enqueue_at_front()
                        )
                    registry.remove(job_id, pipeline=pipe)
                pipe.execute()
            for job in jobs:
                if job is not None and job.has_rate_limit:
                    with self.connection.pipeline() as pipe:
                        registry.remove(job.id, pipeline=pipe)
                        queue._enqueue_rate_limited_job(
                            job, pipeline=pipe, at_front=job.should_enqueue_at_front()
                        )
                        pipe.execute()
        self._status = self.Status.STARTED

    def next_due(self) -> float | None:
        """The earliest score (unix time, seconds) left in the scheduled registries of the
        queues this scheduler holds, or ``None`` when they are empty (one ``ZRANGE`` each).
        Raises the client's Redis errors."""
        scores = []
        for registry in self._scheduled_job_registries:
            first = self.connection.zrange(registry.key, 0, 0, withscores=True)
            if first:
                scores.append(float(first[0][1]))
        return min(scores, default=None)

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        """Acquire or refresh the lock of each queue for ``lock_s`` seconds; returns the
        names owned now. ``auto_start`` is ignored (no forked process)."""
        owned = set()
        for name in self._queue_names:
            outcome = acquire_or_refresh_lock(
                self.connection, self.get_locking_key(name), self.name, self.lock_s
            )
            if outcome == "acquired":
                log.info("scheduler %s acquired the lock of queue %s", self.name, name)
            if outcome != "taken":
                owned.add(name)
        if owned != self._acquired_locks:
            self._scheduled_job_registries = []
        self._acquired_locks = owned
        # RQ's own acquire_locks sets it so too (its __init__ declares it as None)
        self.lock_acquisition_time = datetime.now()  # type: ignore[assignment]
        return owned


def scheduler_pass(scheduler: LeasedScheduler) -> bool:
    """One pass: acquire or refresh the lock; when owned, enqueue the due scheduled jobs.
    Returns whether this scheduler holds the lock. Raises the Redis client's errors."""
    scheduler.acquire_locks()
    if scheduler.acquired_locks:
        scheduler.enqueue_scheduled_jobs()
        return True
    return False


#: Seconds a scheduler waits at least between two passes.
MIN_WAIT_S = 0.01


def run_scheduler(
    scheduler: LeasedScheduler, stop: threading.Event, interval_s: float = 0.5
) -> None:
    """Run :func:`scheduler_pass` until ``stop`` is set: every ``interval_s``, or sooner
    when the lock holder's earliest scheduled job falls due before that
    (:meth:`LeasedScheduler.next_due`; at least :data:`MIN_WAIT_S` apart), so a timeout is
    moved to the queue at its deadline rather than up to ``interval_s`` after it. Redis
    errors back off (capped at 2 s) and never end the loop. Releases the lock on the way
    out."""
    backoff = Backoff(first_s=interval_s, cap_s=max(2.0, interval_s))
    failing = False
    while not stop.is_set():
        try:
            delay = interval_s
            if scheduler_pass(scheduler):
                due = scheduler.next_due()
                if due is not None:
                    delay = min(interval_s, max(MIN_WAIT_S, due - time.time()))
            if failing:
                log.info("scheduler %s: Redis answers again", scheduler.name)
            failing = False
            backoff.reset()
        except RedisError as error:
            if not failing:
                log.warning(
                    "scheduler %s: Redis error (%s); retrying with backoff", scheduler.name, error
                )
            failing = True
            delay = backoff.next()
        except Exception:  # noqa: BLE001 - a bad scheduled job must not stop all timeouts
            log.exception("scheduler pass failed")
            delay = interval_s
        stop.wait(delay)
    try:
        scheduler.release_locks()
    except RedisError:
        pass  # the lock expires within lock_s
