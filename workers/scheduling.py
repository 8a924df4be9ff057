"""RQ adapter: enqueue bot turns, schedule/cancel turn timeouts, judge whether a job is alive.

Implements the service's :class:`service.scheduler.Scheduler` port (the service never
imports ``workers``; :func:`service.bootstrap.build_service` wires this adapter in). Jobs
are enqueued by dotted path (``workers.jobs.bot_turn`` / ``workers.jobs.turn_timeout``:
importing the job module here would import the composition root back) on a
:class:`workers.turn_queue.TurnQueue` (due timeouts first, in the order they fell due).
Turn timeouts are scheduled in RQ's scheduled registry at their deadline to the
microsecond (:meth:`workers.turn_queue.TurnQueue.schedule_at`; RQ's ``enqueue_at`` keeps
whole seconds rounded down) with timezone-aware UTC datetimes only: RQ treats a naive
datetime as *local* time, which made jobs fire hours early or late on non-UTC hosts.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from rq import Queue
from rq.exceptions import DuplicateJobError, InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus

from service.store.keys import Keys
from service.store.store_errors import probe
from workers.turn_queue import TurnQueue

log = logging.getLogger(__name__)

BOT_TURN = "workers.jobs.bot_turn"
TURN_TIMEOUT = "workers.jobs.turn_timeout"
MATCH_ENDED = "workers.jobs.match_ended"
ANALYSIS = "workers.jobs.analysis"
#: an analysis job (one slice of an analysis, issue 23) is killed after this long
#: (seconds); a slice's CPU is bounded by ``service.usecases.analysis.SLICE_ROLLOUTS``
#: long before
ANALYSIS_JOB_TIMEOUT_S = 3600
#: Statuses of a job waiting for its time (RQ's scheduler moves it to the queue).
WAITING = {JobStatus.SCHEDULED, JobStatus.DEFERRED}
#: ``TurnScheduler.job_state``'s default: fetch the job itself.
_FETCH = object()
#: Seconds a scheduled timeout may be late before reconcile enqueues it itself.
OVERDUE_GRACE_S = 3.0
#: RQ keeps a finished job (and its result) this long: not at all. Nothing reads a turn
#: job's result, and reconcile treats a missing job as it treats a finished one (the turn
#: is re-created only if the match still awaits it at that version). Keeping them 300 s
#: made RQ's job and result records most of Redis while matches played (~375 KB per live
#: match: issue 18 item 4; ``benchmarks/soak_key_census.py``). A failed job is kept
#: ``FAILURE_TTL_S`` (its attempt count decides when a turn is given up; failures are
#: rare), and a job queued (not scheduled) for longer than ``QUEUED_TTL_S`` is dropped
#: (reconcile re-creates a turn job still needed); expired ids leave RQ's registries by
#: :meth:`clean_registries`.
RESULT_TTL_S = 0
FAILURE_TTL_S = 3600
QUEUED_TTL_S = 3600


def timeout_prefix(keys: Keys) -> str:
    """The prefix every turn-timeout job id of ``keys`` starts with
    (:meth:`service.store.keys.Keys.timeout_job_id`)."""
    return f"{keys.prefix}-timeout-"


def utc_now() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """``moment`` as aware UTC; RQ's naive datetimes are UTC (``utcparse``)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class TurnScheduler:
    """Puts turn jobs on one RQ ``queue`` (its connection must be ``decode_responses=False``)
    and judges, for reconcile, whether a job will still run (:meth:`job_state`).

    ``job_timeout_s``: RQ kills a job running longer; reconcile treats a job "started"
    for longer than that as dead. ``lease_s``: a worker's lease TTL
    (:class:`workers.rq_runtime.WorkerLease`); a job started by a worker without a lease,
    or off the queue list but not started for longer than this, is lost.
    ``max_attempts``: a turn whose job *failed* (raised) or was lost while running this
    many times is given up (logged); a job lost before it started, or one that ended
    because the store was unavailable, does not count.
    """

    def __init__(
        self,
        queue: Queue,
        keys: Keys,
        job_timeout_s: float = 30.0,
        max_attempts: int = 3,
        lease_s: float = 3.0,
    ):
        self.queue = (
            queue if isinstance(queue, TurnQueue) else TurnQueue.like(queue, timeout_prefix(keys))
        )
        self.keys = keys
        self.job_timeout_s = job_timeout_s
        self.max_attempts = max_attempts
        self.lease_s = lease_s
        self._off_queue_since: dict[str, float] = {}  # job id -> time.monotonic()
        self._lock = threading.Lock()
        #: match analyses (long jobs) wait on their own queue, which a worker serves only
        #: when no turn job is queued (RQ takes the first non-empty queue of its list)
        self.analysis_queue = Queue(
            f"{self.queue.name}-analysis",
            connection=self.queue.connection,
            serializer=self.queue.serializer,
        )

    @property
    def queues(self) -> list[Queue]:
        """The queues a worker serves, in priority order: turns, then analyses."""
        return [self.queue, self.analysis_queue]

    def enqueue_analysis(
        self, analysis_id: str, start: int = 0, run: str = "", attempt: int = 1, part: int = 0
    ) -> str:
        """Enqueue ``analysis(analysis_id, start[, part], run=run)`` (the slice from turn
        ``start``; ``part`` > 0: the ``part``-th that goes on with the decision there) on
        the analysis queue (``run``: the record's run token, part of the job id and passed
        to the job, which is a no-op once the record has another; ``attempt``:
        its run, for :meth:`revive_analysis`); a job with the same id already in Redis
        makes this a no-op. Returns the job id."""
        job_id = self.keys.analysis_job_id(analysis_id, start, run, part)
        try:
            self.analysis_queue.enqueue(
                ANALYSIS,
                analysis_id,
                start,
                *((part,) if part else ()),
                **({"run": run} if run else {}),
                job_id=job_id,
                unique=True,
                job_timeout=ANALYSIS_JOB_TIMEOUT_S,
                result_ttl=RESULT_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                meta={"attempt": attempt},
            )
        except DuplicateJobError:
            pass
        return job_id

    def revive_analysis(self, analysis_id: str, start: int, run: str, part: int = 0) -> bool | None:
        """Re-enqueue the slice from turn ``start`` (and ``part``, :meth:`enqueue_analysis`)
        of the analysis ``analysis_id`` (its record's ``run``) unless its job is queued or running on a live worker
        (:meth:`job_state` on the analysis queue, with the analysis job timeout): a slice
        that ended because the store was unavailable, whose worker died, or whose next
        slice was never enqueued (reconcile, for an analysis still queued or running).
        True when a job was enqueued, False when it is alive, ``None`` when it *raised*
        ``max_attempts`` times (given up: the caller marks the analysis failed)."""
        return self._revive(
            self.keys.analysis_job_id(analysis_id, start, run, part),
            "analysis",
            lambda attempt: self.enqueue_analysis(
                analysis_id, start, run, attempt=attempt, part=part
            ),
            queue=self.analysis_queue,
            timeout_s=ANALYSIS_JOB_TIMEOUT_S,
        )

    def _revive(
        self,
        job_id: str,
        what: str,
        enqueue: Callable[[int], object],
        queue: Queue | None = None,
        timeout_s: float | None = None,
    ) -> bool | None:
        """Re-enqueue the job ``job_id`` of ``queue`` (default: the turn queue) through
        ``enqueue(attempt)`` unless it is alive (:meth:`job_state` with ``timeout_s``): the
        shared body of :meth:`revive_analysis` and :meth:`revive_match_ended`. The attempt
        is the job's ``meta["attempt"]``, plus one when it *raised* (status failed); past
        ``max_attempts`` the job is given up (logged as ``what``, answer ``None``) and not
        enqueued. True when enqueued, False when alive."""
        job = self._job(job_id)
        if self.job_state(job_id, job, queue=queue, timeout_s=timeout_s) == "alive":
            return False
        attempt = 1
        if job is not None:
            attempt = int((job.meta or {}).get("attempt", 1))
            if job.get_status(refresh=False) == JobStatus.FAILED:
                attempt += 1
            if attempt > self.max_attempts:
                log.error("%s job %s failed %d times; giving up", what, job_id, attempt - 1)
                return None
            self._forget_job(job, queue)
        enqueue(attempt)
        return True

    @property
    def connection(self):
        """The RQ Redis connection."""
        return self.queue.connection

    def ping(self) -> bool:
        """True when the queue's Redis answers a ``PING`` (any failure means down)."""
        return self.probe() == "ok"

    def probe(self) -> str:
        """The queue Redis's state after one ``PING`` (:func:`service.store.store_errors.probe`)."""
        return probe(self.connection)

    def queue_depth(self) -> dict[str, dict[str, int]]:
        """``{"turns": {"queued", "scheduled", "started"}, "analysis": {...}}``: the job
        counts of the turn queue and of the analysis queue (RQ's lists and registries, read
        in one round trip without RQ's clean-up). Raises the store errors of
        :mod:`service.store.store_errors`."""
        pipe = self.connection.pipeline(transaction=False)
        for queue in (self.queue, self.analysis_queue):
            pipe.llen(queue.key)
            pipe.zcard(queue.scheduled_job_registry.key)
            pipe.zcard(queue.started_job_registry.key)
        counts = [int(n) for n in pipe.execute()]
        states = ("queued", "scheduled", "started")
        return {
            "turns": dict(zip(states, counts[:3], strict=True)),
            "analysis": dict(zip(states, counts[3:], strict=True)),
        }

    def _job(self, job_id: str) -> Job | None:
        try:
            return Job.fetch(job_id, connection=self.connection)
        except NoSuchJobError:
            return None

    def enqueue_bot_turn(
        self, match_id: str, version: int, seat: int, attempt: int = 1, at_front: bool = False
    ) -> str:
        """Enqueue ``bot_turn(match_id, version, seat)`` now (``at_front``: ahead of the
        queued bot turns, behind the due timeouts, for a turn that already waited for a
        lost job); a job with the same id
        (match + version + seat) already in Redis makes this a no-op. Returns the job id."""
        job_id = self.keys.bot_job_id(match_id, version, seat)
        try:
            self.queue.enqueue(
                BOT_TURN,
                match_id,
                version,
                seat,
                job_id=job_id,
                unique=True,
                job_timeout=max(1, int(self.job_timeout_s)),
                result_ttl=RESULT_TTL_S,
                ttl=QUEUED_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                meta={"attempt": attempt},
                at_front=at_front,
            )
        except DuplicateJobError:
            pass
        return job_id

    def enqueue_match_ended(self, match_id: str, attempt: int = 1) -> str:
        """Enqueue ``match_ended(match_id)`` (player counters and ratings, issue 22) once
        per match (its job id names the match; a duplicate is a no-op, and the job itself
        is idempotent; ``attempt``: its run, for :meth:`revive_match_ended`). Returns the
        job id."""
        job_id = self.keys.rating_job_id(match_id)
        try:
            self.queue.enqueue(
                MATCH_ENDED,
                match_id,
                job_id=job_id,
                unique=True,
                job_timeout=max(1, int(self.job_timeout_s)),
                result_ttl=RESULT_TTL_S,
                ttl=QUEUED_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                meta={"attempt": attempt},
            )
        except DuplicateJobError:
            pass
        return job_id

    def revive_match_ended(self, match_id: str) -> bool | None:
        """Re-enqueue the end-of-match job of ``match_id`` unless it is queued or running on
        a live worker (:meth:`job_state`; reconcile, for a match still in ``end-jobs``).
        True when a job was enqueued, False when it is alive, ``None`` when it *raised*
        ``max_attempts`` times (given up, logged). A run killed with its worker does not
        count: the job is idempotent, and being killed is the fault it is retried for."""
        return self._revive(
            self.keys.rating_job_id(match_id),
            "end-of-match",
            lambda attempt: self.enqueue_match_ended(match_id, attempt=attempt),
        )

    def schedule_turn_timeout(self, match_id: str, seat: int, version: int, at: datetime) -> str:
        """Schedule ``turn_timeout(match_id, seat, version)`` at ``at`` (aware datetime, kept
        to the microsecond; ``ValueError`` if naive) in RQ's scheduled registry; a duplicate
        id is a no-op. When due, the scheduler puts it ahead of the queued bot turns, after
        the timeouts already due (:class:`workers.turn_queue.TurnQueue`): its seat has
        waited its whole turn timeout already (a deadline the players were shown), queued
        bot turns have no deadline."""
        if at.tzinfo is None:
            raise ValueError("turn timeouts need a timezone-aware datetime")
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        job = self.queue.create_job(
            TURN_TIMEOUT,
            args=(match_id, seat, version),
            job_id=job_id,
            result_ttl=RESULT_TTL_S,
            failure_ttl=FAILURE_TTL_S,
            status=JobStatus.SCHEDULED,
            timeout=max(1, int(self.job_timeout_s)),
        )
        job.enqueue_at_front = True
        try:
            self.queue.schedule_at(job, at.astimezone(UTC))
        except DuplicateJobError:
            pass
        return job_id

    def enqueue_turn_timeout_now(self, match_id: str, seat: int, version: int) -> str:
        """Enqueue an overdue timeout immediately, after the timeouts already due and ahead
        of the bot turns (used by reconcile: its deadline has passed already)."""
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        try:
            self.queue.enqueue(
                TURN_TIMEOUT,
                match_id,
                seat,
                version,
                job_id=job_id,
                unique=True,
                result_ttl=RESULT_TTL_S,
                ttl=QUEUED_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                job_timeout=max(1, int(self.job_timeout_s)),
                at_front=True,
            )
        except DuplicateJobError:
            pass
        return job_id

    def cancel(self, job_id: str) -> bool:
        """Delete the job (queued or scheduled) so it never runs; True when it existed.
        Two requests may cancel one job at once (simultaneous moves ending one turn): the
        one that finds it deleted between fetching it and reading its status answers False
        (RQ raises ``InvalidJobOperation`` there; a newcomer probe saw it logged as a failed
        scheduling)."""
        job = self._job(job_id)
        if job is None:
            return False
        try:
            status = job.get_status(refresh=True)
        except (InvalidJobOperation, NoSuchJobError):
            return False  # another request deleted it meanwhile
        if status == JobStatus.STARTED:
            return False  # running now: its own version check makes it a no-op
        job.delete()
        return True

    def clean_registries(self) -> None:
        """Drop expired job ids from RQ's finished and failed registries of the queue
        (their jobs expired after ``result_ttl`` / ``failure_ttl``; the ids stayed)."""
        from rq.registry import FailedJobRegistry, FinishedJobRegistry

        for registry in (FinishedJobRegistry, FailedJobRegistry):
            registry(queue=self.queue).cleanup()

    def scheduled_at(self, job_id: str) -> datetime | None:
        """When a scheduled job will be enqueued (aware UTC), or None if not scheduled."""
        from rq.registry import ScheduledJobRegistry

        score = self.connection.zscore(ScheduledJobRegistry(queue=self.queue).key, job_id)
        return None if score is None else datetime.fromtimestamp(score, UTC)

    def worker_alive(self, worker_name: str | None) -> bool:
        """True when the RQ worker ``worker_name`` holds its lease (it beat less than
        ``lease_s`` seconds ago)."""
        if not worker_name:
            return False
        return bool(self.connection.exists(self.keys.worker_lease(worker_name)))

    def _queued(self, job_id: str, queue: Queue | None = None) -> bool:
        """True when ``job_id`` is on the list of ``queue`` (default: the turn queue), so a
        worker will pop it."""
        return self.connection.lpos((queue or self.queue).key, job_id) is not None

    def _off_queue_for(self, job_id: str) -> float:
        """Seconds this process has seen ``job_id`` queued yet off the queue list."""
        now = time.monotonic()
        with self._lock:
            since = self._off_queue_since.setdefault(job_id, now)
            if len(self._off_queue_since) > 10_000:  # forget very old sightings
                for key, at in list(self._off_queue_since.items()):
                    if now - at > 600:
                        del self._off_queue_since[key]
        return now - since

    def _seen(self, job_id: str) -> None:
        with self._lock:
            self._off_queue_since.pop(job_id, None)

    def job_state(
        self,
        job_id: str,
        job: Job | None | object = _FETCH,
        queue: Queue | None = None,
        timeout_s: float | None = None,
    ) -> str:
        """Whether the job will still run, for reconcile (``job``: the job as just fetched
        by the caller, ``None`` when it had none; fetched here when not given):

        - ``"alive"``: on the queue list, scheduled, running on a worker that holds its
          lease (within the job timeout), or just popped by a worker (off the queue list,
          not started yet, for less than ``lease_s`` as seen by this process);
        - ``"lost"``: *started* by a worker whose lease is gone (killed while running),
          or popped to RQ's intermediate list and never started: at once when RQ already
          made an execution of it for a worker whose lease is gone (the worker died
          between the two steps of starting it), else after ``lease_s`` as seen by this
          process (RQ itself cleans that up only after minutes);
        - ``"missing"``: no such job;
        - ``"dead"``: finished, failed, stopped or canceled, or started longer than the
          job timeout ago.

        ``queue`` (default: the turn queue) is the queue the job waits on, ``timeout_s``
        (default ``job_timeout_s``) its job timeout: an analysis slice's are the analysis
        queue and :data:`ANALYSIS_JOB_TIMEOUT_S`.
        """
        if job is _FETCH:
            job = self._job(job_id)
        if not isinstance(job, Job):
            self._seen(job_id)
            return "missing"
        status = job.get_status(refresh=False)
        if status in WAITING:
            self._seen(job_id)
            return "alive"
        if status == JobStatus.QUEUED:
            if self._queued(job_id, queue):
                self._seen(job_id)
                return "alive"
            if self._started_by_the_dead(job):
                self._seen(job_id)
                return "lost"
            return "alive" if self._off_queue_for(job_id) < self.lease_s else "lost"
        self._seen(job_id)
        if status == JobStatus.STARTED:
            started = job.started_at
            if started is not None and (utc_now() - _aware(started)).total_seconds() > (
                self.job_timeout_s if timeout_s is None else timeout_s
            ):
                return "dead"
            return "alive" if self.worker_alive(job.worker_name) else "lost"
        return "dead"

    def _started_by_the_dead(self, job: Job) -> bool:
        """True when RQ made executions of ``job`` (a worker begins a job by creating its
        execution, then marks the job started) and none of their workers holds its lease.
        Without it, a job whose worker was killed between the two steps waited until one
        process had seen it off the queue for ``lease_s``: under restarts every few
        seconds (``benchmarks/fault_worker_kill.py``) no process lived that long, and a
        turn stalled for 92 s. Reads only jobs popped but not started (rare)."""
        from rq.executions import Execution

        names = []
        for execution_id in job.execution_registry.get_execution_ids():
            try:
                execution = Execution.fetch(
                    id=execution_id, job_id=job.id, connection=self.connection
                )
            except ValueError:  # "not found": expired, its worker is long gone
                continue
            names.append(execution.worker_name)
        return bool(names) and not any(self.worker_alive(name) for name in names)

    def held_match_ids(self) -> set[str]:
        """The matches of the turn jobs RQ holds as taken by a worker: in the queue's
        started registry (running, or killed while running) or on its intermediate list
        (popped, not started yet). Two reads whatever the number of matches; the ids are
        parsed from the job ids (:meth:`service.store.keys.Keys.match_of_job`)."""
        from rq.registry import StartedJobRegistry

        started = StartedJobRegistry(queue=self.queue).get_job_ids(cleanup=False)
        popped = self.connection.lrange(self.queue.intermediate_queue_key, 0, -1)
        out = set()
        for raw in [*started, *popped]:
            match_id = self.keys.match_of_job(raw.decode() if isinstance(raw, bytes) else raw)
            if match_id:
                out.add(match_id)
        return out

    def _forget_job(self, job: Job, queue: Queue | None = None) -> None:
        """Delete ``job`` of ``queue`` (default: the turn queue) and its id from RQ's
        intermediate list, so RQ's maintenance never fails the job re-enqueued under the
        same id.

        A job killed while running can make RQ's own ``Job.delete`` raise ``ValueError``
        ("Execution ... not found in Redis": the killed execution's hash expired while the
        job's execution set still names it); then the job's keys are removed here instead
        (queue and intermediate list entries, its started-registry entries, its execution
        set, its hash), so one such job never blocks reconcile (fault_worker_kill found a
        match stuck 150 s, every pass failing on it)."""
        from rq.registry import StartedJobRegistry

        queue = queue or self.queue
        conn = self.connection
        conn.lrem(queue.intermediate_queue_key, 0, job.id)
        try:
            job.delete()
            return
        except ValueError as error:
            log.warning("RQ could not delete job %s (%s); removing its keys", job.id, error)
        started = StartedJobRegistry(queue=queue)
        prefix = f"{job.id}:".encode()
        stale = [
            m
            for m in conn.zrange(started.key, 0, -1)
            if (m if isinstance(m, bytes) else m.encode()).startswith(prefix)
        ]
        pipe = conn.pipeline()
        pipe.lrem(queue.key, 0, job.id)
        if stale:
            pipe.zrem(started.key, *stale)
        pipe.delete(job.execution_registry.key, job.key)
        pipe.execute()

    def revive_bot_turn(self, match_id: str, version: int, seat: int) -> bool:
        """Re-enqueue a lost bot turn (reconcile). Returns True when a job was enqueued;
        gives up after ``max_attempts`` failed or killed runs of the same turn."""
        job_id = self.keys.bot_job_id(match_id, version, seat)
        job = self._job(job_id)
        state = self.job_state(job_id, job)
        if state == "alive":
            return False
        attempt = 1
        if job is not None:
            attempt = int((job.meta or {}).get("attempt", 1))
            status = job.get_status(refresh=False)
            if status in (JobStatus.FAILED, JobStatus.STARTED):  # raised, or killed running
                attempt += 1
            if attempt > self.max_attempts:
                log.error("bot turn %s failed %d times; giving up", job_id, attempt - 1)
                return False
            self._forget_job(job)
        # ahead of the queue: this turn has waited for its lost job already
        self.enqueue_bot_turn(match_id, version, seat, attempt=attempt, at_front=True)
        return True

    def revive_turn_timeout(
        self, match_id: str, seat: int, version: int, deadline: datetime
    ) -> bool:
        """Make sure the timeout job for this decision exists: schedule it at ``deadline``
        (or enqueue now when overdue). True when a job had to be (re)created."""
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        job = self._job(job_id)
        state = self.job_state(job_id, job)
        overdue = deadline < utc_now() - timedelta(seconds=OVERDUE_GRACE_S)
        if state == "alive" and not (
            overdue and job is not None and job.get_status(refresh=False) == JobStatus.SCHEDULED
        ):
            return False
        # missing, dead, lost, or still "scheduled" well past its time (no scheduler holds
        # the queue's lock: it passes to another worker within ARENA_WORKER_LEASE_S)
        if job is not None:
            self._forget_job(job)  # it ran (or died) while the decision is still open: again
        if deadline <= utc_now() + timedelta(seconds=0.5):
            self.enqueue_turn_timeout_now(match_id, seat, version)
        else:
            self.schedule_turn_timeout(match_id, seat, version, deadline)
        return True


def turn_queue(name: str, connection) -> Queue:
    """The RQ turn queue ``name`` on ``connection`` (a bytes Redis client,
    :func:`service.store.connections.rq_connection`)."""
    return Queue(name, connection=connection)
