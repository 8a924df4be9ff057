"""Worker entry points: ``python -m workers.runner`` / ``arena worker`` (a real RQ worker with
a lease, a scheduler and a reconcile loop), and the embedded thread runtime for one-process
mode.

One worker process runs:

- RQ's ``SimpleWorker`` work loop on the turn queue, over a Redis client that reconnects
  with backoff forever (``service.store.connections.waiting_retry``): RQ quits its loop on the
  first ``ConnectionError`` or ``TimeoutError`` it sees ("found an unhandled exception,
  quitting"), so the client never lets one through. Should the loop still end without a
  stop request, :func:`run_worker` starts a new one after a backoff (a new RQ name);
- its lease (:class:`workers.rq_runtime.WorkerLease`, ``ARENA_WORKER_LEASE_S``) and the
  heartbeat file ``arena worker --check`` reads;
- the turn-timeout scheduler (:class:`workers.rq_runtime.LeasedScheduler` in a thread:
  whichever worker holds the short queue lock moves due timeouts to the queue);
- the reconcile loop (every ``ARENA_RECONCILE_S``, one worker of the deployment at a time:
  every match waiting for a worker; :class:`service.upkeep.reconcile.SharedPasses`) and
  the reclaim loop (every ``ARENA_WORKER_LEASE_S / 3``: only the jobs RQ holds as taken by
  a worker), which re-enqueues the turns of a killed worker, ahead of the queue, as soon as
  its lease is gone.

Stopping (``docker stop``'s SIGTERM, Ctrl+C's SIGINT): :class:`StopSignals` holds the
process's stop request from the first line of :func:`run_worker`. Idle (loading, waiting on
the queue, between two work loops) the worker exits 0 at once; busy, RQ's warm shutdown
lets the running turn finish (appended once) and then the loop ends; a second signal while
busy is RQ's cold shutdown (the turn is abandoned; the lease is dropped on the way out, so
another worker's reclaim pass re-enqueues it, and its version check makes a turn that had
been appended a no-op). Background threads get at most :data:`THREAD_JOIN_S` to finish.

Each process's RQ worker name is ``<name or "arena">.<random>``: unique per incarnation, so
a restarted worker never collides with its killed predecessor's registration (RQ keeps it
for ``worker_ttl + 60`` s) and jobs the predecessor started are recognised as lost.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import signal
import threading
import time

from service import bootstrap
from service.config import Config
from service.store.connections import fail_fast_connection
from service.store.store_errors import RedisError
from service.upkeep.reconcile import SharedPasses
from workers.embedded import EmbeddedRuntime, start_embedded
from workers.lean_worker import LeanForkWorker, LeanSimpleWorker
from workers.rq_runtime import Backoff, LeasedScheduler, WorkerLease, run_scheduler, scheduler_pass
from workers.scheduling import TurnScheduler

log = logging.getLogger(__name__)

__all__ = [
    "run_worker",
    "start_embedded",
    "EmbeddedRuntime",
    "main",
    "worker_name",
    "StopSignals",
    "WorkerStop",
]

#: Seconds, in all, that a stopping worker waits for its background threads (scheduler,
#: reconcile, reclaim: daemon threads whose work is safe to cut; a reconcile pass or an
#: archive batch cut short is redone by the next one).
THREAD_JOIN_S = 1.0


class WorkerStop(BaseException):
    """Raised in the main thread by :class:`StopSignals` when a stop signal arrives while
    no RQ work loop runs (a ``BaseException``, like ``KeyboardInterrupt``, so no
    ``except Exception`` on the way swallows it)."""


class StopSignals:
    """The process's SIGTERM/SIGINT handler outside RQ's work loop (RQ installs its own
    while the loop runs; :class:`workers.lean_worker.LeanWorkerMixin` sets the same event).

    ``stop``: set on the first signal. ``interrupt``: when true the handler also raises
    :class:`WorkerStop` so a blocking call (a Redis retry loop, a backoff wait) ends now.
    Signal handlers can only be installed from the main thread: elsewhere (tests calling
    :func:`run_worker` in a thread) :meth:`install` does nothing.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self, stop: threading.Event):
        self.stop = stop
        self.interrupt = True

    def install(self, interrupt: bool = True) -> None:
        """Make this the handler of SIGTERM and SIGINT (again: RQ's loop replaces it)."""
        self.interrupt = interrupt
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in self.SIGNALS:
            signal.signal(sig, self._handle)

    def _handle(self, signum, frame) -> None:
        if not self.stop.is_set():
            log.info("worker: %s received, stopping", signal.Signals(signum).name)
        self.stop.set()
        if self.interrupt:
            raise WorkerStop(signum)


def worker_name(name: str | None = None) -> str:
    """The RQ name of one worker incarnation: ``<name>.<8 hex digits>``."""
    return f"{name or 'arena'}.{secrets.token_hex(4)}"


def _reconcile_loop(period_s: float, stop: threading.Event, connection) -> None:
    """Every ``period_s / 4``: ask for the deployment's reconcile turn
    (:class:`service.upkeep.reconcile.SharedPasses` on ``connection``, the queue Redis): one
    worker runs a pass every ``period_s``, a full one every ``ARENA_RECONCILE_FULL_S``.
    Errors are logged and retried."""
    service = bootstrap.get_service()
    passes = SharedPasses(service, connection, period_s, service.reconcile_full_s)
    failing = False
    while not stop.wait(period_s / 4):
        try:
            passes.attempt()
            failing = False
        except RedisError as error:
            if not failing:
                log.warning(
                    "reconcile: Redis unavailable (%s); retrying every %.1f s", error, period_s
                )
            failing = True
        except Exception:  # noqa: BLE001 - a failed pass is retried next period
            log.exception("reconcile pass failed")


def _reclaim_loop(period_s: float, stop: threading.Event) -> None:
    """Every ``period_s``: :meth:`service.match_service.MatchService.reclaim` (the turns
    of killed workers, two reads when nothing was lost); errors are retried next period."""
    service = bootstrap.get_service()
    while not stop.wait(period_s):
        try:
            service.reclaim()
        except RedisError:
            pass  # the reconcile loop logs the outage
        except Exception:  # noqa: BLE001 - a failed pass is retried next period
            log.exception("reclaim pass failed")


def warm_up(service) -> None:
    """Load, before the worker takes its first job, what that job would otherwise load while
    holding a turn: the game registry (every game's modules and engine, ~0.6 s of CPU;
    2-3 s on a loaded 2-core box, where each restarted worker's first turn was the slowest
    job of ``benchmarks/fault_worker_kill.py`` — often the killed worker's turn, requeued
    at the front)."""
    len(service.engines)


def _fail_fast_client(config: Config):
    """A queue-Redis client without retries, for the lease and the scheduler thread (their
    loops retry themselves; a beat must not hang through an outage)."""
    url = config.rq_url
    assert url, "a worker runs beside a Redis deployment (REDIS_URL)"
    return fail_fast_connection(url)


def run_worker(
    config: Config | None = None,
    *,
    burst: bool = False,
    name: str | None = None,
    fork: bool = False,
) -> bool:
    """Run a worker (see module docstring) on the turn queue until stopped (SIGTERM/SIGINT:
    RQ's warm shutdown), or until the queue is empty with ``burst``.

    ``fork=False`` uses ``SimpleWorker`` (jobs run in the worker process: bot turns are
    short pure-Python decisions); ``fork=True`` RQ's forking ``Worker``; both with fewer
    writes of RQ's own worker key per job (:mod:`workers.lean_worker`). Embedded mode
    (no ``REDIS_URL``) has no shared Redis for a separate process: use ``start_embedded``.
    Returns whether any job was processed. SIGTERM/SIGINT end it (module docstring): it
    returns normally, whatever it was doing.
    """
    config = config or Config.from_env()
    if config.embedded:
        raise SystemExit(
            "REDIS_URL is not set: a separate worker cannot see the embedded "
            "in-process Redis; `arena serve` runs its own worker threads."
        )
    stop = threading.Event()
    signals = StopSignals(stop)
    signals.install(interrupt=True)
    try:
        return _run_worker(config, burst, name, fork, stop, signals)
    except WorkerStop:
        return False


def _run_worker(
    config: Config,
    burst: bool,
    name: str | None,
    fork: bool,
    stop: threading.Event,
    signals: StopSignals,
) -> bool:
    """:func:`run_worker` once its stop signals are installed."""
    service = bootstrap.install(bootstrap.build_service(config, wait_for_queue=True))
    warm_up(service)
    assert isinstance(service.scheduler, TurnScheduler)  # the RQ scheduler of bootstrap
    queue = service.scheduler.queue
    side = _fail_fast_client(config)
    worker_class = LeanForkWorker if fork else LeanSimpleWorker
    scheduler = LeasedScheduler(
        [queue], connection=side, lock_s=config.worker_lease_s, logging_level="INFO"
    )
    threads = [
        threading.Thread(
            target=_reconcile_loop,
            args=(config.reconcile_s, stop, side),
            name="arena-reconcile",
            daemon=True,
        ),
        threading.Thread(
            target=_reclaim_loop,
            args=(config.worker_lease_s / 3, stop),
            name="arena-reclaim",
            daemon=True,
        ),
    ]
    if burst:
        try:
            scheduler_pass(scheduler)  # due timeouts go to the queue once, as RQ's burst does
            scheduler.release_locks()
        except RedisError:
            log.exception("burst scheduler pass failed")
    else:
        threads.append(
            threading.Thread(
                target=run_scheduler, args=(scheduler, stop), name="arena-scheduler", daemon=True
            )
        )
    for thread in threads:
        thread.start()
    worked = False
    backoff = Backoff(first_s=0.5, cap_s=10.0)
    try:
        while not stop.is_set():
            rq_name = worker_name(name)
            lease = WorkerLease(
                side,
                service.keys.worker_lease(rq_name),
                config.worker_lease_s,
                config.heartbeat_file,
            ).start()
            worker = worker_class(
                service.scheduler.queues, connection=queue.connection, name=rq_name
            )
            worker.stop_event = stop
            try:
                if not stop.is_set():  # a signal while the lease started
                    worked = worker.work(burst=burst, logging_level="INFO") or worked
            except RedisError:
                # teardown (register_death) met an outage the retrying client gave up on
                log.exception("worker %s ended on a Redis error", rq_name)
            finally:
                signals.install(interrupt=False)  # RQ's handlers go with its loop
                lease.stop()
            signals.install(interrupt=True)
            if burst or stop.is_set():
                break
            delay = backoff.next()
            log.error(
                "worker %s: RQ's work loop ended without a stop request; a new one "
                "starts in %.1f s",
                rq_name,
                delay,
            )
            stop.wait(delay)
    finally:
        signals.install(interrupt=False)
        stop.set()
        _join(threads, THREAD_JOIN_S)
    return worked


def _join(threads: list[threading.Thread], within_s: float) -> None:
    """Join ``threads``, waiting ``within_s`` seconds for all of them together."""
    until = time.monotonic() + within_s
    for thread in threads:
        thread.join(timeout=max(0.0, until - time.monotonic()))


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m workers.runner [--burst] [--name N] [--fork]``."""
    parser = argparse.ArgumentParser(description="Apocalypse Arena turn worker (RQ).")
    parser.add_argument("--burst", action="store_true", help="quit when the queue is empty")
    parser.add_argument("--name", help="RQ worker name prefix (a random suffix is added)")
    parser.add_argument("--fork", action="store_true", help="fork a work horse per job")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    run_worker(burst=args.burst, name=args.name, fork=args.fork)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
