"""Which Redis client errors mean "the store cannot answer right now" (an outage, a restart,
a failover), as opposed to a bug.

The API answers these 503 ``store_unavailable`` with ``Retry-After`` (the mapping to HTTP
is in ``api/errors.py``, the one place); the worker's job functions record them as "retry
later" instead of failing the job, so an outage never uses up a turn's attempts.
"""

from __future__ import annotations

from redis import exceptions as redis_errors

#: Any error of the Redis client (redis-py's base class), for callers outside the store
#: package that retry a loop on any Redis trouble (the worker's lease and scheduler loops,
#: reconcile's shared passes) without importing redis-py themselves.
RedisError = redis_errors.RedisError

#: ``ConnectionError`` covers ``BusyLoadingError`` (``LOADING`` while Redis reloads its
#: AOF/RDB) and a refused or reset socket; ``ClusterDownError`` covers ``MASTERDOWN``;
#: ``MovedError`` is an ``AskError`` (a MOVED storm while slots migrate or fail over);
#: ``ReadOnlyError`` is a write sent to a replica that was just demoted. Any other
#: ``ResponseError`` (``WRONGTYPE``, a script error, ...) is a bug.
STORE_UNAVAILABLE: tuple[type[BaseException], ...] = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.ClusterDownError,
    redis_errors.ClusterError,
    redis_errors.SlotNotCoveredError,
    redis_errors.ReadOnlyError,
    redis_errors.TryAgainError,
    redis_errors.AskError,
    redis_errors.OutOfMemoryError,
)


#: What redis-py's cluster client says (``RedisClusterException``, not a ``RedisError``) when
#: it cannot build a slot map: no node reachable, slots not covered while a master fails
#: over, nodes disagreeing mid-election. Other ``RedisClusterException`` s (e.g. a command
#: whose keys are in several slots) are bugs.
CLUSTER_MAP_UNAVAILABLE = ("cannot be connected", "not covered", "could not agree")


def is_store_unavailable(error: BaseException | None) -> bool:
    """True when ``error``, or an error it was raised from or while handling (a few levels
    of ``__cause__``/``__context__``), is one of :data:`STORE_UNAVAILABLE` or a cluster
    client's :data:`CLUSTER_MAP_UNAVAILABLE` error."""
    for _ in range(8):
        if error is None:
            return False
        if isinstance(error, STORE_UNAVAILABLE):
            return True
        if isinstance(error, redis_errors.RedisClusterException) and any(
            text in str(error) for text in CLUSTER_MAP_UNAVAILABLE
        ):
            return True
        error = error.__cause__ or error.__context__
    return False


def store_state(error: BaseException | None) -> str:
    """A short name for the state a store is in, from the error a probe (``PING``) raised:
    ``"ok"`` (no error), ``"loading"`` (``LOADING``: reloading its AOF/RDB),
    ``"readonly"`` (a replica answering a write), ``"cluster_down"`` (``CLUSTERDOWN``,
    ``MASTERDOWN``, an unserved slot), ``"timeout"``, ``"unreachable"`` (refused, reset,
    no route) or ``"error"`` (anything else)."""
    if error is None:
        return "ok"
    if isinstance(error, redis_errors.BusyLoadingError):
        return "loading"
    if isinstance(error, redis_errors.ReadOnlyError):
        return "readonly"
    if isinstance(
        error,
        (
            redis_errors.ClusterDownError,
            redis_errors.ClusterError,
            redis_errors.SlotNotCoveredError,
            redis_errors.RedisClusterException,
        ),
    ):
        return "cluster_down"
    if isinstance(error, redis_errors.TimeoutError):
        return "timeout"
    if isinstance(error, redis_errors.ConnectionError):
        return "unreachable"
    return "error"


def probe(client) -> str:
    """:func:`store_state` of ``client`` after one ``PING`` (never raises)."""
    try:
        client.ping()
    except Exception as error:  # noqa: BLE001 - every failure is a state to report
        return store_state(error)
    return "ok"
