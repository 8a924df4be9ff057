"""Embedded mode: API, RQ worker, RQ scheduler and reconcile in ONE process.

fakeredis state lives in the process, so a separate ``rq worker`` cannot see it (serving it
over TCP failed, DESIGN.md "Embedded mode"). Here a ``SimpleWorker`` subclass runs in a
thread (no signal handlers, ``TimerDeathPenalty`` instead of SIGALRM) holding a worker
lease, a thread runs the leased scheduler (:func:`workers.rq_runtime.run_scheduler`), and
another runs ``MatchService.reconcile()`` every ``reconcile_s`` seconds.
"""

from __future__ import annotations

import logging
import threading

from rq.exceptions import StopRequested
from rq.timeouts import TimerDeathPenalty

from service import bootstrap
from service.match_service import MatchService
from workers.lean_worker import LeanSimpleWorker
from workers.rq_runtime import LeasedScheduler, WorkerLease, run_scheduler
from workers.scheduling import TurnScheduler

log = logging.getLogger(__name__)


class ThreadWorker(LeanSimpleWorker):
    """An RQ SimpleWorker (with :mod:`workers.lean_worker`'s fewer writes) that can run in a
    non-main thread and stops within a second."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        """Threads cannot install signal handlers; stopping goes through :meth:`stop`."""

    @property
    def dequeue_timeout(self) -> int:
        """Block at most 1 s per dequeue so a stop request is noticed quickly."""
        return 1

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """RQ's dequeue, one :attr:`dequeue_timeout` at a time, until a job comes or a stop
        is requested. RQ 3.0 retries a dequeue that timed out inside this method without
        looking at the stop request, so an idle worker never stopped (``stop`` waited out
        its join timeout, 5 s per embedded shutdown). Raises ``StopRequested`` (the work
        loop's way out) once :meth:`stop` was called; a job already dequeued is returned
        and runs first. A burst dequeue (``timeout`` None) is RQ's own."""
        if timeout is None:
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        while not self._stop_requested:
            result = super().dequeue_job_and_maintain_ttl(timeout, max_idle_time=timeout)
            if result is not None:
                return result
        raise StopRequested()

    def stop(self) -> None:
        """Ask the work loop to finish after the current job."""
        self._stop_requested = True


class EmbeddedRuntime:
    """Runs worker, scheduler and reconcile threads for ``service`` (daemon threads).

    ``interval_s``: scheduler poll period (seconds); ``reconcile_s``: reconcile period.
    """

    def __init__(self, service: MatchService, interval_s: float = 0.5, reconcile_s: float = 2.0):
        self.service = service
        self.interval_s = interval_s
        self.reconcile_s = reconcile_s
        assert isinstance(service.scheduler, TurnScheduler)  # the RQ scheduler of bootstrap
        self.queue = service.scheduler.queue
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.worker = ThreadWorker(service.scheduler.queues, connection=self.queue.connection)
        lease_s = getattr(service.scheduler, "lease_s", 3.0)
        self.lease = WorkerLease(
            self.queue.connection, service.keys.worker_lease(self.worker.name), lease_s
        )
        self.scheduler = LeasedScheduler(
            [self.queue], connection=self.queue.connection, lock_s=lease_s, logging_level="WARNING"
        )

    def start(self) -> EmbeddedRuntime:
        """Install the service for job functions and start the three threads."""
        bootstrap.install(self.service)
        self.lease.start()
        for name, target in (
            ("arena-worker", self._work),
            ("arena-scheduler", self._schedule),
            ("arena-reconcile", self._reconcile),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop all threads and wait up to ``timeout_s`` for them."""
        self._stop.set()
        self.worker.stop()
        for thread in self._threads:
            thread.join(timeout_s)
        self.lease.stop()

    def _work(self) -> None:
        try:
            with bootstrap.bound(self.service):  # its jobs run on its own service
                self.worker.work(burst=False, logging_level="WARNING")
        except Exception:  # noqa: BLE001 - keep the API process alive; log for operators
            log.exception("embedded worker stopped")

    def _schedule(self) -> None:
        run_scheduler(self.scheduler, self._stop, self.interval_s)

    def _reconcile(self) -> None:
        while not self._stop.wait(self.reconcile_s):
            try:
                self.service.reconcile()
            except Exception:  # noqa: BLE001
                log.exception("embedded reconcile pass failed")


def start_embedded(
    service: MatchService | None = None, reconcile_s: float | None = None
) -> EmbeddedRuntime:
    """Start the embedded runtime for ``service`` (default: the process's service)."""
    service = service or bootstrap.get_service()
    period = reconcile_s or (service.config.reconcile_s if service.config else 2.0)
    return EmbeddedRuntime(service, reconcile_s=period).start()
