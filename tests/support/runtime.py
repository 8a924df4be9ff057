"""Helpers running RQ work in the test process (fakeredis tests)."""

from __future__ import annotations

from workers.embedded import ThreadWorker
from workers.rq_runtime import LeasedScheduler, scheduler_pass


def drain(service, rounds: int = 200, with_scheduler: bool = False) -> int:
    """Run queued turn jobs in-process (a burst ThreadWorker) until the queue stays empty
    or ``rounds`` bursts ran. ``with_scheduler`` first moves due scheduled jobs to the
    queue. Returns the number of bursts that processed at least one job."""
    queue = service.scheduler.queue
    worked = 0
    for _ in range(rounds):
        if with_scheduler:
            promote_due(service)
        if not len(queue):
            break
        worker = ThreadWorker([queue], connection=queue.connection)
        if worker.work(burst=True, logging_level="WARNING"):
            worked += 1
    return worked


def promote_due(service) -> None:
    """Do one pass of the workers' scheduler (:class:`workers.rq_runtime.LeasedScheduler`):
    enqueue scheduled jobs whose time has come (to the microsecond: RQ's own scheduler
    compares whole seconds)."""
    queue = service.scheduler.queue
    scheduler = LeasedScheduler([queue], connection=queue.connection, logging_level="WARNING")
    scheduler_pass(scheduler)
    scheduler.release_locks()
