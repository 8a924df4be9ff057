"""Builds the one MatchService of a process (API, worker, CLI) and its RQ queue.

No ``REDIS_URL`` => embedded mode: both the event store and RQ use one shared
``fakeredis.FakeServer`` per process (fakeredis state is per process; see embedded.py).
"""
from __future__ import annotations

import importlib
import logging
import threading
import time
from typing import Mapping
from urllib.parse import unquote, urlsplit

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry
from rq import Queue

from domain.engine import Engine
from service.config import Config
from service.store.keys import Keys
from service.match_service import MatchService
from workers.scheduling import TurnScheduler
from service.store.store_errors import is_store_unavailable

log = logging.getLogger(__name__)

#: Socket timeouts (seconds) of the event-store clients, set explicitly rather than left to
#: redis-py's default (none before 8.0, 5 s since): a command that gets no answer in
#: ``STORE_SOCKET_TIMEOUT_S`` fails (503 ``store_unavailable``) instead of hanging a request.
#: Blocking reads stay shorter than it (:func:`service.store.event_store.block_slice_s`).
STORE_SOCKET_TIMEOUT_S = 5.0
STORE_CONNECT_TIMEOUT_S = 2.0

_lock = threading.Lock()
_fake_server = None
_service: MatchService | None = None


def fake_server():
    """The process-wide ``fakeredis.FakeServer`` (created on first use)."""
    global _fake_server
    with _lock:
        if _fake_server is None:
            import fakeredis

            _fake_server = fakeredis.FakeServer()
        return _fake_server


def store_connection(config: Config, *, wait: bool = False):
    """Event-store client (``decode_responses=True``) for ``REDIS_URL`` or fakeredis: a
    ``redis.cluster.RedisCluster`` when ``REDIS_URL`` names a cluster
    (:func:`cluster_connection`; ``wait``: until the cluster answers), else a
    ``redis.Redis`` (which connects lazily). Both with :data:`STORE_SOCKET_TIMEOUT_S` and
    :data:`STORE_CONNECT_TIMEOUT_S`."""
    if config.embedded:
        import fakeredis

        return fakeredis.FakeRedis(server=fake_server(), decode_responses=True)
    if config.redis_cluster:
        return cluster_connection(config.redis_url, wait=wait)
    return redis.Redis.from_url(config.redis_url, decode_responses=True, health_check_interval=30,
                                socket_timeout=STORE_SOCKET_TIMEOUT_S,
                                socket_connect_timeout=STORE_CONNECT_TIMEOUT_S)


def cluster_nodes(url: str) -> tuple[list[ClusterNode], dict]:
    """The seed nodes and connection options of a cluster URL
    ``redis[s][+cluster]://[user:password@]host:port[,host:port...]`` (port default 6379):
    ``([ClusterNode], {"username", "password", "ssl"})``. Raises ValueError for a URL
    without a host."""
    scheme, _, rest = url.partition("://")
    auth, _, hosts = rest.rpartition("@")
    hosts = hosts.split("/", 1)[0]
    nodes = []
    for item in filter(None, hosts.split(",")):
        parsed = urlsplit(f"redis://{item}")
        if not parsed.hostname:
            raise ValueError(f"no host in cluster node {item!r}")
        nodes.append(ClusterNode(parsed.hostname, parsed.port or 6379))
    if not nodes:
        raise ValueError(f"no cluster node in {url!r}")
    user, _, password = auth.partition(":")
    options = {"username": unquote(user) or None, "password": unquote(password) or None,
               "ssl": scheme.startswith("rediss")}
    return nodes, options


def cluster_connection(url: str, *, wait: bool = False) -> RedisCluster:
    """A ``RedisCluster`` client (``decode_responses=True``) over the seed nodes of ``url``
    (:func:`cluster_nodes`). It follows ``MOVED``/``ASK`` itself and re-reads the slot map
    after a failover; errors while no node serves a slot (``ClusterDownError``,
    ``ConnectionError``, ``TryAgainError``) reach the caller after its bounded retries and
    answer 503 ``store_unavailable`` (:mod:`service.store.store_errors`).

    The client reads the slot map when it is made, so it cannot be made while no seed
    node answers: that raises (a store-unavailable error), unless ``wait`` (a worker
    starting during an outage): then it retries with jittered backoff (capped at 2 s)
    until the cluster answers."""
    nodes, options = cluster_nodes(url)
    backoff = ExponentialWithJitterBackoff(cap=2.0, base=0.1)
    failures = 0
    while True:
        try:
            return RedisCluster(startup_nodes=nodes, decode_responses=True,
                                socket_connect_timeout=STORE_CONNECT_TIMEOUT_S,
                                socket_timeout=STORE_SOCKET_TIMEOUT_S,
                                health_check_interval=30,
                                **{k: v for k, v in options.items() if v})
        except Exception as error:  # noqa: BLE001 - classified just below
            if not wait or not is_store_unavailable(error):
                raise
            failures += 1
            log.warning("Redis Cluster at %s not reachable yet (%s); retrying", url, error)
            time.sleep(backoff.compute(failures))


def waiting_retry() -> Retry:
    """A retry policy that never gives up: reconnect with jittered exponential backoff
    (capped at 2 s) on connection errors, timeouts and ``LOADING`` (``BusyLoadingError`` is
    a ``ConnectionError``). The worker's RQ client uses it, so RQ's work loop, heartbeats
    and job bookkeeping wait out a Redis outage of any length instead of quitting."""
    return Retry(ExponentialWithJitterBackoff(cap=2.0, base=0.1), retries=-1)


def rq_connection(config: Config, *, wait: bool = False):
    """RQ client (``decode_responses=False``, as RQ needs) for ``RQ_REDIS_URL``/``REDIS_URL``
    or the embedded fakeredis. ``wait``: retry through outages forever (:func:`waiting_retry`;
    the worker), else redis-py's bounded default (the API answers 503 instead)."""
    if config.embedded:
        import fakeredis

        return fakeredis.FakeRedis(server=fake_server())
    if wait:
        return redis.Redis.from_url(config.rq_url, retry=waiting_retry(), socket_keepalive=True,
                                    socket_connect_timeout=5)
    return redis.Redis.from_url(config.rq_url, socket_connect_timeout=5)


def rq_queue(config: Config, connection=None) -> Queue:
    """The turn queue (``config.queue``) on ``connection`` (default :func:`rq_connection`)."""
    return Queue(config.queue, connection=connection or rq_connection(config))


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


def build_service(config: Config | None = None,
                  engines: Mapping[str, Engine] | None = None, *,
                  wait_for_queue: bool = False) -> MatchService:
    """A MatchService wired to the configured store and RQ queue (``config`` default
    ``Config.from_env()``; ``engines`` default ``ARENA_ENGINES`` or the game registry).
    ``wait_for_queue``: the RQ client retries through outages forever (a worker process;
    see :func:`rq_connection`), and a cluster store client is made once the cluster answers.
    The store client keeps redis-py's bounded retries: a job meeting an outage ends at once
    and is enqueued again by reconcile."""
    config = config or Config.from_env()
    keys = Keys(config.key_prefix)
    queue = rq_queue(config, rq_connection(config, wait=wait_for_queue))
    scheduler = TurnScheduler(queue, keys, job_timeout_s=config.bot_job_timeout_s,
                              lease_s=config.worker_lease_s)
    service = MatchService(store_connection(config, wait=wait_for_queue), keys, scheduler,
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
                           wait_replicas=0 if config.embedded else config.wait_replicas,
                           wait_ms=config.wait_ms)
    service.config = config
    return service


def install(service: MatchService) -> MatchService:
    """Make ``service`` the one :func:`get_service` returns in this process (embedded mode,
    tests running jobs in-process)."""
    global _service
    with _lock:
        _service = service
    return service


def get_service() -> MatchService:
    """The process's MatchService, built from the environment on first use."""
    global _service
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
