"""Helpers running RQ work in the test process (fakeredis tests)."""
from __future__ import annotations

from rq.scheduler import RQScheduler

from service.embedded import ThreadWorker


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
    """Do one pass of RQ's scheduler: enqueue scheduled jobs whose time has come."""
    queue = service.scheduler.queue
    scheduler = RQScheduler([queue], connection=queue.connection, logging_level="WARNING")
    scheduler.acquire_locks()
    scheduler.enqueue_scheduled_jobs()
    scheduler.release_locks()
