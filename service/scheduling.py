"""RQ adapter: enqueue bot turns, schedule/cancel turn timeouts, judge whether a job is alive.

The service never imports ``workers``: jobs are enqueued by dotted path
(``workers.jobs.bot_turn`` / ``workers.jobs.turn_timeout``). Scheduled jobs use RQ's own
scheduler (``Queue.enqueue_at``) with timezone-aware UTC datetimes only: RQ treats a naive
datetime as *local* time, which made jobs fire hours early or late on non-UTC hosts.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from service.keys import Keys

log = logging.getLogger(__name__)

BOT_TURN = "workers.jobs.bot_turn"
TURN_TIMEOUT = "workers.jobs.turn_timeout"
#: Statuses of a job that will still run (or is waiting for its time).
WAITING = {JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED}
#: Seconds a scheduled timeout may be late before reconcile enqueues it itself.
OVERDUE_GRACE_S = 3.0


def utc_now() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(timezone.utc)


def _aware(moment: datetime) -> datetime:
    """``moment`` as aware UTC; RQ's naive datetimes are UTC (``utcparse``)."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


class TurnScheduler:
    """Puts turn jobs on one RQ ``queue`` (its connection must be ``decode_responses=False``).

    ``job_timeout_s``: RQ kills a job running longer; reconcile treats a job "started"
    for longer than that as lost (its worker died).
    """

    def __init__(self, queue: Queue, keys: Keys, job_timeout_s: float = 30.0, max_attempts: int = 3):
        self.queue = queue
        self.keys = keys
        self.job_timeout_s = job_timeout_s
        self.max_attempts = max_attempts

    @property
    def connection(self):
        """The RQ Redis connection."""
        return self.queue.connection

    def ping(self) -> bool:
        """True when the queue's Redis answers a ``PING`` (any failure means down)."""
        try:
            return bool(self.connection.ping())
        except Exception:  # noqa: BLE001 - any failure means "down"
            return False

    def _job(self, job_id: str) -> Job | None:
        try:
            return Job.fetch(job_id, connection=self.connection)
        except NoSuchJobError:
            return None

    def enqueue_bot_turn(self, match_id: str, version: int, seat: int, attempt: int = 1) -> str:
        """Enqueue ``bot_turn(match_id, version, seat)`` now; a job with the same id
        (match + version + seat) already in Redis makes this a no-op. Returns the job id."""
        job_id = self.keys.bot_job_id(match_id, version, seat)
        try:
            self.queue.enqueue(BOT_TURN, match_id, version, seat, job_id=job_id, unique=True,
                               job_timeout=max(1, int(self.job_timeout_s)), result_ttl=300,
                               failure_ttl=3600, meta={"attempt": attempt})
        except DuplicateJobError:
            pass
        return job_id

    def schedule_turn_timeout(self, match_id: str, seat: int, version: int, at: datetime) -> str:
        """Schedule ``turn_timeout(match_id, seat, version)`` at ``at`` (aware datetime;
        ``ValueError`` if naive) with RQ's scheduler; a duplicate id is a no-op."""
        if at.tzinfo is None:
            raise ValueError("turn timeouts need a timezone-aware datetime")
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        try:
            self.queue.enqueue_at(at.astimezone(timezone.utc), TURN_TIMEOUT, match_id, seat, version,
                                  job_id=job_id, unique=True, result_ttl=300, failure_ttl=3600,
                                  job_timeout=max(1, int(self.job_timeout_s)))
        except DuplicateJobError:
            pass
        return job_id

    def enqueue_turn_timeout_now(self, match_id: str, seat: int, version: int) -> str:
        """Enqueue an overdue timeout immediately (used by reconcile)."""
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        try:
            self.queue.enqueue(TURN_TIMEOUT, match_id, seat, version, job_id=job_id, unique=True,
                               result_ttl=300, failure_ttl=3600,
                               job_timeout=max(1, int(self.job_timeout_s)))
        except DuplicateJobError:
            pass
        return job_id

    def cancel(self, job_id: str) -> bool:
        """Delete the job (queued or scheduled) so it never runs; True when it existed."""
        job = self._job(job_id)
        if job is None:
            return False
        if job.get_status(refresh=True) == JobStatus.STARTED:
            return False  # running now: its own version check makes it a no-op
        job.delete()
        return True

    def scheduled_at(self, job_id: str) -> datetime | None:
        """When a scheduled job will be enqueued (aware UTC), or None if not scheduled."""
        from rq.registry import ScheduledJobRegistry

        score = self.connection.zscore(ScheduledJobRegistry(queue=self.queue).key, job_id)
        return None if score is None else datetime.fromtimestamp(score, timezone.utc)

    def job_state(self, job_id: str) -> str:
        """``"alive"`` (waiting or running within its time budget), ``"missing"``, or
        ``"dead"`` (finished/failed/stopped/canceled, or started longer than the budget
        ago — a killed worker that RQ would notice only minutes later)."""
        job = self._job(job_id)
        if job is None:
            return "missing"
        status = job.get_status(refresh=False)
        if status in WAITING:
            return "alive"
        if status == JobStatus.STARTED:
            started = job.started_at
            if started is None:
                return "alive"
            age = (utc_now() - _aware(started)).total_seconds()
            return "alive" if age <= self.job_timeout_s else "dead"
        return "dead"

    def revive_bot_turn(self, match_id: str, version: int, seat: int) -> bool:
        """Re-enqueue a lost bot turn (reconcile). Returns True when a job was enqueued;
        gives up after ``max_attempts`` tries of the same turn."""
        job_id = self.keys.bot_job_id(match_id, version, seat)
        job = self._job(job_id)
        state = self.job_state(job_id)
        if state == "alive":
            return False
        attempt = 1
        if job is not None:
            attempt = int((job.meta or {}).get("attempt", 1)) + 1
            if attempt > self.max_attempts:
                log.error("bot turn %s failed %d times; giving up", job_id, attempt - 1)
                return False
            job.delete()
        self.enqueue_bot_turn(match_id, version, seat, attempt=attempt)
        return True

    def revive_turn_timeout(self, match_id: str, seat: int, version: int, deadline: datetime) -> bool:
        """Make sure the timeout job for this decision exists: schedule it at ``deadline``
        (or enqueue now when overdue). True when a job had to be (re)created."""
        job_id = self.keys.timeout_job_id(match_id, seat, version)
        state = self.job_state(job_id)
        job = self._job(job_id)
        overdue = deadline < utc_now() - timedelta(seconds=OVERDUE_GRACE_S)
        if state == "alive" and not (overdue and job is not None
                                     and job.get_status(refresh=False) == JobStatus.SCHEDULED):
            return False
        # missing, dead, or still "scheduled" well past its time (the scheduler holding the
        # queue's lock died: RQ frees the lock only after ~60 s)
        if job is not None:
            job.delete()  # it ran (or died) while the decision is still open: run it again
        if deadline <= utc_now() + timedelta(seconds=0.5):
            self.enqueue_turn_timeout_now(match_id, seat, version)
        else:
            self.schedule_turn_timeout(match_id, seat, version, deadline)
        return True
