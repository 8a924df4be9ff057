"""Builds the one MatchService of a process (API, worker, CLI) and its RQ queue.

No ``REDIS_URL`` => embedded mode: both the event store and RQ use one shared
``fakeredis.FakeServer`` per process (fakeredis state is per process; see embedded.py).
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from domain.engine import Engine
from service.config import Config
from service.match_service import MatchService
from service.store.connections import rq_connection, store_connection
from service.store.keys import Keys
from workers.scheduling import TurnScheduler, turn_queue

log = logging.getLogger(__name__)

_lock = threading.Lock()
_service: MatchService | None = None


def rq_queue(config: Config, connection=None):
    """The turn queue (``config.queue``) on ``connection`` (default
    :func:`service.store.connections.rq_connection`): an ``rq.Queue``
    (:func:`workers.scheduling.turn_queue`)."""
    return turn_queue(config.queue, connection or rq_connection(config))


def load_engines(config: Config) -> Mapping[str, Engine] | None:
    """The engines named by ``ARENA_ENGINES`` (``module:attribute``), or None (= default)."""
    if not config.engines_path:
        return None
    module_name, _, attribute = config.engines_path.partition(":")
    target = getattr(importlib.import_module(module_name), attribute or "ENGINES")
    return target() if callable(target) else target


def archive_store(config: Config):
    """The PostgreSQL archive of ``ARENA_ARCHIVE_URL`` (:mod:`service.store.archive_store`), or
    ``None`` when none is configured (connections open on first use)."""
    if not config.archive_url:
        return None
    from service.store.archive_store import ArchiveStore

    return ArchiveStore(config.archive_url, config.key_prefix)


def build_service(
    config: Config | None = None,
    engines: Mapping[str, Engine] | None = None,
    *,
    wait_for_queue: bool = False,
) -> MatchService:
    """A MatchService wired to the configured store and RQ queue (``config`` default
    ``Config.from_env()``; ``engines`` default ``ARENA_ENGINES`` or the game registry).
    ``wait_for_queue``: the RQ client retries through outages forever (a worker process;
    see :func:`service.store.connections.rq_connection`), and a cluster store client is made once the cluster answers.
    The store client keeps redis-py's bounded retries: a job meeting an outage ends at once
    and is enqueued again by reconcile."""
    config = config or Config.from_env()
    keys = Keys(config.key_prefix)
    queue = rq_queue(config, rq_connection(config, wait=wait_for_queue))
    scheduler = TurnScheduler(
        queue, keys, job_timeout_s=config.bot_job_timeout_s, lease_s=config.worker_lease_s
    )
    service = MatchService(
        store_connection(config, wait=wait_for_queue),
        keys,
        scheduler,
        engines if engines is not None else load_engines(config),
        snapshot_every=config.snapshot_every,
        append_attempts=config.append_attempts,
        blocking_reads=not config.embedded,
        fold_cache_size=config.fold_cache_size,
        reconcile_full_s=config.reconcile_full_s,
        index_shards=config.index_shards,
        abandon_after_s=config.abandon_after_s,
        bot_caps=config.bot_caps,
        compaction=config.compaction,
        idempotency_ttl_s=config.idempotency_ttl_s,
        archive=archive_store(config),
        archive_after_s=config.archive_after_s,
        archive_batch=config.archive_batch,
        finished_index_max=config.finished_index_max,
        analyses_per_client=config.max_analyses_per_client,
        wait_replicas=0 if config.embedded else config.wait_replicas,
        wait_ms=config.wait_ms,
    )
    service.config = config
    return service


def install(service: MatchService) -> MatchService:
    """Make ``service`` the one :func:`get_service` returns in this process (embedded mode,
    tests running jobs in-process)."""
    global _service
    with _lock:
        _service = service
    return service


#: a thread's own service (:func:`bound`), ahead of the process's
_bound = threading.local()


@contextmanager
def bound(service: MatchService) -> Iterator[MatchService]:
    """Within the block, :func:`get_service` returns ``service`` in this thread whatever
    the process installed: an embedded runtime's worker runs its jobs so. (A session-long
    embedded runtime of the test suite ran its jobs on whatever service a unit test had
    installed, and after a ``reset`` installed one built from the environment over the
    unit test's own: that test's bot turns then found no match.)"""
    previous = getattr(_bound, "service", None)
    _bound.service = service
    try:
        yield service
    finally:
        _bound.service = previous


def get_service() -> MatchService:
    """The thread's bound service (:func:`bound`), else the process's MatchService,
    built from the environment on first use."""
    global _service
    local = getattr(_bound, "service", None)
    if local is not None:
        return local
    with _lock:
        current = _service
    if current is None:
        return install(build_service())
    return current


def reset() -> None:
    """Forget the process's service (tests)."""
    global _service
    with _lock:
        _service = None
