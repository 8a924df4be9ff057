"""The turn queue: RQ's ``Queue`` with due turn timeouts kept in the order they fell due, and
turn timeouts scheduled to the microsecond.

Order. RQ's ``at_front`` is ``LPUSH``: due timeouts moved to the queue one batch after
another ran newest-first, and under overload the oldest starved (issue 18 item 4: 43
deadlines still unfired 60-66 s after they fell due while the median delay was 0.8 s).
Here an at-front push inserts the job *after the queue's leading run of timeout jobs*
(ids starting with ``front_prefix``), atomically (:data:`INSERT_AFTER_HEAD`). So the queue
always reads: due timeouts in the order they were pushed — deadline order, as the scheduler
moves due jobs oldest first (:meth:`workers.rq_runtime.LeasedScheduler.enqueue_scheduled_jobs`)
— then turns reclaimed from killed workers, then bot turns in arrival order.

Time. RQ stores a scheduled job's time in whole seconds rounded down and compares it with
the current whole second, so a timeout often ran up to 1 s before its deadline, found it
"early" and waited for reconcile (2,559 job runs for 1,507 timeouts). :meth:`TurnQueue.schedule_at`
stores the deadline itself (a float score, plus 1 ms so that rounding never puts it before
the deadline the job checks); the scheduler compares it with the current time as a float.
"""

from __future__ import annotations

from datetime import datetime

from rq import Queue
from rq.exceptions import DuplicateJobError
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry
from rq.scripts import get_unique_schedule_script, save_unique_job

#: Seconds added to a deadline's score (a float's rounding must not make it early).
SCORE_MARGIN_S = 0.001

#: KEYS[1] the queue list; ARGV[1] the prefix of the ids of the leading run; ARGV[2] the job
#: id. Inserts the id after the leading run of ids with that prefix (LPUSH when there is
#: none, RPUSH when the whole list is that run). Returns the list's new length.
INSERT_AFTER_HEAD = """
local head, step, n = ARGV[1], 256, 0
while true do
  local chunk = redis.call('LRANGE', KEYS[1], n, n + step - 1)
  local i = 1
  while i <= #chunk and string.sub(chunk[i], 1, #head) == head do i = i + 1 end
  n = n + i - 1
  if i <= #chunk or #chunk < step then break end
end
if n == 0 then return redis.call('LPUSH', KEYS[1], ARGV[2]) end
local pivot = redis.call('LINDEX', KEYS[1], n)
if not pivot then return redis.call('RPUSH', KEYS[1], ARGV[2]) end
return redis.call('LINSERT', KEYS[1], 'BEFORE', pivot, ARGV[2])
"""


class TurnQueue(Queue):
    """RQ's ``Queue`` (same constructor, plus ``front_prefix``: the job-id prefix of turn
    timeouts, ``"<key prefix>-timeout-"``) whose at-front pushes keep the order described
    in the module docstring. Everything else is RQ's."""

    def __init__(self, name: str = "default", *args, front_prefix: str, **kwargs):
        super().__init__(name, *args, **kwargs)
        self.front_prefix = front_prefix
        self._insert = self.connection.register_script(INSERT_AFTER_HEAD)

    @classmethod
    def like(cls, queue: Queue, front_prefix: str, connection=None) -> TurnQueue:
        """A :class:`TurnQueue` with ``queue``'s name, serializer, default timeout and mode,
        on ``connection`` (default ``queue``'s)."""
        return cls(
            queue.name,
            connection=connection or queue.connection,
            serializer=queue.serializer,
            default_timeout=queue._default_timeout,
            is_async=queue._is_async,
            front_prefix=front_prefix,
        )

    def push_job_id(self, job_id: str, pipeline=None, at_front: bool = False):
        """RQ's push; ``at_front`` inserts after the leading timeouts instead of ``LPUSH``."""
        if not at_front:
            return super().push_job_id(job_id, pipeline=pipeline, at_front=False)
        return self._insert(
            keys=[self.key],
            args=[self.front_prefix, job_id],
            client=pipeline if pipeline is not None else self.connection,
        )

    def _enqueue_async_job(
        self, job: Job, pipeline=None, at_front: bool = False, unique: bool = False
    ) -> Job:
        """RQ's, except a unique at-front enqueue: RQ's atomic unique save (raises
        ``DuplicateJobError``) without its ``LPUSH``, then :meth:`push_job_id`. A process
        dying between the two leaves a queued job off the list: reconcile sees it as lost
        after ``ARENA_WORKER_LEASE_S`` (:meth:`workers.scheduling.TurnScheduler.job_state`)
        and enqueues it again."""
        if not (unique and at_front):
            return super()._enqueue_async_job(
                job, pipeline=pipeline, at_front=at_front, unique=unique
            )
        self._prepare_for_queue(job)
        save_unique_job(self.connection, self.key, job, enqueue=False)
        self.push_job_id(job.id, at_front=True)
        return job

    def schedule_at(self, job: Job, at: datetime) -> Job:
        """Schedule ``job`` (made by ``create_job``, with an id) at ``at`` (aware datetime)
        to the microsecond, uniquely and atomically (RQ's own unique-schedule script, given
        a float score: ``at`` plus :data:`SCORE_MARGIN_S`). Raises ``DuplicateJobError``
        when a job with that id exists, ``ValueError`` for a naive ``at``."""
        if at.tzinfo is None:
            raise ValueError("schedule_at needs a timezone-aware datetime")
        job._status = JobStatus.SCHEDULED
        registry = ScheduledJobRegistry(queue=self)
        fields: list = []
        for key, value in job.to_dict().items():
            if value is not None:
                fields += [key, value if isinstance(value, (bytes, str)) else str(value)]
        script = get_unique_schedule_script(self.connection)
        created = script(
            keys=[job.key, registry.key, self.redis_queues_keys],
            args=[
                job.id,
                job.ttl if job.ttl is not None else -1,
                repr(at.timestamp() + SCORE_MARGIN_S),
                self.key,
                *fields,
            ],
        )
        if not created:
            raise DuplicateJobError(f"Job with ID '{job.id}' already exists")
        return job
