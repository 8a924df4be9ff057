"""RQ workers with fewer Redis round trips per job: ``LeanSimpleWorker`` (jobs in the worker
process) and ``LeanForkWorker`` (a forked work horse per job).

RQ's work loop writes the worker's own key several times per job, one command each: three
*heartbeats* (``HSET last_heartbeat`` + ``EXPIRE`` worker key + ``EXPIRE`` executions key,
three round trips each: one after the job, two around the dequeue) and two ``HSET state
idle`` (after the job, then again before the dequeue). A worker that plays short bot turns
spends about as long on these as on the turns themselves: 9 of ~23 round trips per job
(profile of the fault script's matches, ``benchmarks/fault_worker_kill.py``). Under a busy
box each round trip costs a context switch to ``redis-server`` and back.

:class:`LeanWorkerMixin` changes only those writes, nothing a job or reconcile relies on
(a job's liveness is the worker's lease, :class:`workers.rq_runtime.WorkerLease`; RQ's
worker key only feeds ``rq info`` and RQ's own cleanup of dead workers, which waits for
the key's TTL of ``worker_ttl + 60`` s):

- a heartbeat without a pipeline and without an explicit TTL is sent in one pipelined
  round trip, and skipped when the last full-TTL heartbeat (this kind, or the one RQ's
  suspension check sends in its own pipeline before every dequeue) is less than
  ``heartbeat_every_s`` old *and* no heartbeat with a shorter TTL (RQ sets the job's TTL
  when a job starts) was sent since: the key then still expires more than
  ``worker_ttl + 60 - heartbeat_every_s`` seconds from now, longer than any blocking
  dequeue (``worker_ttl - 15``);
- a state write without a pipeline is skipped when that same state is what this worker
  wrote last without a pipeline and no pipelined state write happened since.

Heartbeats and state writes RQ sends inside its own pipelines (job start, job end, the
forked horse's monitoring) are untouched.

A stop request (SIGTERM/SIGINT, RQ's warm shutdown) also sets the worker's ``stop_event``
when it has one: RQ records a stop request in its worker only while a job runs (idle, it
raises ``StopRequested`` out of its loop and records nothing), so the process running the
loop (:func:`workers.runner.run_worker`) reads this event to tell "stopped" from "the loop
ended by itself".
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from rq import SimpleWorker, Worker

if TYPE_CHECKING:  # the mixin's methods call RQ's Worker ones through super()
    _WorkerBase = Worker
else:
    _WorkerBase = object

#: Seconds between two of RQ's idle-loop heartbeats of one worker (RQ's own TTL on the
#: worker key is 480 s by default).
HEARTBEAT_EVERY_S = 10.0


class LeanWorkerMixin(_WorkerBase):
    """The write-saving overrides of :mod:`workers.lean_worker` for any RQ worker class.

    ``heartbeat_every_s`` (seconds, class attribute): how long a full-TTL heartbeat
    counts as fresh."""

    heartbeat_every_s: float = HEARTBEAT_EVERY_S
    #: Set on a stop request (see module docstring); ``None``: nothing to tell.
    stop_event: threading.Event | None = None
    _full_beat_at: float | None = None  # time.monotonic() of the last full-TTL beat
    _state_written: str | None = None  # state this worker last wrote on its own

    def request_stop(self, signum, frame):
        """RQ's warm shutdown (finish the running job, or leave the idle loop at once),
        after setting :attr:`stop_event`. Same arguments as RQ's signal handler."""
        if self.stop_event is not None:
            self.stop_event.set()
        return super().request_stop(signum, frame)

    def heartbeat(self, timeout: int | None = None, pipeline=None):
        """RQ's heartbeat (worker key's ``last_heartbeat`` and TTLs), see module docstring
        for when it is sent in one round trip or skipped. Same arguments as RQ's."""
        now = time.monotonic()
        if timeout is not None:
            self._full_beat_at = None  # a shorter (job) TTL may have been set
            return super().heartbeat(timeout, pipeline=pipeline)
        if pipeline is not None:  # RQ's suspension check: a full beat in its pipeline
            self._full_beat_at = now
            return super().heartbeat(None, pipeline=pipeline)
        if self._full_beat_at is not None and now - self._full_beat_at < self.heartbeat_every_s:
            return None
        with self.connection.pipeline(transaction=False) as pipe:
            super().heartbeat(None, pipeline=pipe)
            pipe.execute()
        self._full_beat_at = now
        return None

    def set_state(self, state: str, pipeline=None):
        """RQ's state write; a repeated write of the same state without a pipeline is
        skipped (see module docstring)."""
        if pipeline is not None:
            self._state_written = None
            return super().set_state(state, pipeline=pipeline)
        if state == self._state_written:
            self._state = state
            return None
        super().set_state(state)
        self._state_written = state
        return None


class LeanSimpleWorker(LeanWorkerMixin, SimpleWorker):
    """RQ's ``SimpleWorker`` (jobs run in the worker process) with the savings above."""


class LeanForkWorker(LeanWorkerMixin, Worker):
    """RQ's forking ``Worker`` with the savings above."""
