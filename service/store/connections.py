"""Redis clients of a process: the event store's (plain or cluster, with explicit socket
timeouts), RQ's queue client (bytes, optionally retrying forever), and the one shared
``fakeredis.FakeServer`` of embedded mode. Part of the store package, the only one that
imports redis-py (import contracts in ``.importlinter``)."""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import unquote, urlsplit

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from service.config import Config
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
    url = config.redis_url
    assert url is not None  # not embedded
    if config.redis_cluster:
        return cluster_connection(url, wait=wait)
    return redis.Redis.from_url(
        url,
        decode_responses=True,
        health_check_interval=30,
        socket_timeout=STORE_SOCKET_TIMEOUT_S,
        socket_connect_timeout=STORE_CONNECT_TIMEOUT_S,
    )


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
    options = {
        "username": unquote(user) or None,
        "password": unquote(password) or None,
        "ssl": scheme.startswith("rediss"),
    }
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
            return RedisCluster(
                startup_nodes=nodes,
                decode_responses=True,
                socket_connect_timeout=STORE_CONNECT_TIMEOUT_S,
                socket_timeout=STORE_SOCKET_TIMEOUT_S,
                health_check_interval=30,
                **{k: v for k, v in options.items() if v},
            )
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
    url = config.rq_url
    assert url is not None  # not embedded
    if wait:
        return redis.Redis.from_url(
            url, retry=waiting_retry(), socket_keepalive=True, socket_connect_timeout=5
        )
    return redis.Redis.from_url(url, socket_connect_timeout=5)


def fail_fast_connection(url: str):
    """A bytes client for ``url`` without retries (2 s connect, 5 s socket timeouts): the
    worker's lease and scheduler thread, whose loops retry themselves (a beat must not
    hang through an outage)."""
    return redis.Redis.from_url(url, retry=None, socket_connect_timeout=2, socket_timeout=5)
