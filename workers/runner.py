"""Worker entry points: ``python -m workers.runner`` / ``arena worker`` (real RQ worker with
RQ's scheduler and a reconcile loop), and the embedded thread runtime for one-process mode.

The reconcile loop (every ``ARENA_RECONCILE_S`` seconds) is what recovers a turn whose
worker was killed: RQ itself notices a dead worker's job only minutes later.
"""
from __future__ import annotations

import argparse
import logging
import threading

from rq import SimpleWorker, Worker

from service import bootstrap
from service.config import Config
from service.embedded import EmbeddedRuntime, start_embedded

log = logging.getLogger(__name__)

__all__ = ["run_worker", "start_embedded", "EmbeddedRuntime", "main"]


def _reconcile_loop(period_s: float, stop: threading.Event) -> None:
    service = bootstrap.get_service()
    while not stop.wait(period_s):
        try:
            service.reconcile()
        except Exception:  # noqa: BLE001 - a failed pass is retried next period
            log.exception("reconcile pass failed")


def run_worker(config: Config | None = None, *, burst: bool = False, name: str | None = None,
               fork: bool = False) -> bool:
    """Run an RQ worker (with RQ's scheduler) on the turn queue until stopped.

    ``fork=False`` uses ``SimpleWorker`` (jobs run in the worker process: bot turns are
    short pure-Python decisions); ``fork=True`` RQ's forking ``Worker``. Embedded mode
    (no ``REDIS_URL``) has no shared Redis for a separate process: use ``start_embedded``.
    Returns whether any job was processed (RQ's ``work`` result).
    """
    config = config or Config.from_env()
    if config.embedded:
        raise SystemExit("REDIS_URL is not set: a separate worker cannot see the embedded "
                         "in-process Redis; `arena serve` runs its own worker threads.")
    service = bootstrap.install(bootstrap.build_service(config))
    worker_class = Worker if fork else SimpleWorker
    worker = worker_class([service.scheduler.queue], connection=service.scheduler.connection,
                          name=name)
    stop = threading.Event()
    loop = threading.Thread(target=_reconcile_loop, args=(config.reconcile_s, stop),
                            name="arena-reconcile", daemon=True)
    loop.start()
    try:
        return worker.work(burst=burst, with_scheduler=True, logging_level="INFO")
    finally:
        stop.set()


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m workers.runner [--burst] [--name N] [--fork]``."""
    parser = argparse.ArgumentParser(description="Apocalypse Arena turn worker (RQ).")
    parser.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    parser.add_argument("--name", help="RQ worker name")
    parser.add_argument("--fork", action="store_true", help="fork a work horse per job")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    run_worker(burst=args.burst, name=args.name, fork=args.fork)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
