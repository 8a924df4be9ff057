"""A store outage answers 503 ``store_unavailable`` problem+json with ``Retry-After``, never
500 — whatever the Redis client raised (api/errors.py maps them in one place)."""

import pytest
import redis

from api.app import create_app
from service.store.store_errors import is_store_unavailable, store_state

OUTAGES = [
    redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
    redis.exceptions.TimeoutError("Timeout reading from socket"),
    redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory"),
    redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down"),
    redis.exceptions.MasterDownError("MASTERDOWN Link with MASTER is down"),
    redis.exceptions.ReadOnlyError("READONLY You can't write against a read only replica."),
    redis.exceptions.TryAgainError("TRYAGAIN"),
    redis.exceptions.MovedError("3999 127.0.0.1:6381"),
    redis.exceptions.SlotNotCoveredError("Slot 3999 is not covered"),
    redis.exceptions.OutOfMemoryError("OOM command not allowed"),
    redis.exceptions.RedisClusterException(
        "Redis Cluster cannot be connected. Please provide at least one reachable node: x"
    ),
    redis.exceptions.RedisClusterException(
        "All slots are not covered after query all startup_nodes."
    ),
    redis.exceptions.ClusterError("TTL exhausted."),
]


class DownService:
    """Every use case raises ``error`` (as the Redis client would mid-request)."""

    def __init__(self, error):
        self.error = error

    def games(self):
        raise self.error

    def match_view(self, *_args, **_kwargs):
        raise self.error

    def health(self):
        return {
            "status": "degraded",
            "store": False,
            "queue": False,
            "store_state": store_state(self.error),
            "queue_state": "unreachable",
        }


@pytest.mark.parametrize("error", OUTAGES, ids=lambda e: type(e).__name__)
def test_a_redis_outage_answers_503_store_unavailable_with_retry_after(error):
    client = create_app(DownService(error), {"TESTING": True}).test_client()
    for path in ("/v1/games", "/v1/matches/abcdef0123456789abcd"):
        answer = client.get(path)
        assert answer.status_code == 503, answer.get_json()
        assert answer.mimetype == "application/problem+json"
        body = answer.get_json()
        assert body["code"] == "store_unavailable" and body["status"] == 503
        assert int(answer.headers["Retry-After"]) >= 1
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.get_json()["store"] is False


def test_a_script_error_is_a_bug_not_an_outage():
    bug = redis.exceptions.ResponseError("WRONGTYPE Operation against a key holding the wrong kind")
    assert not is_store_unavailable(bug)
    client = create_app(DownService(bug), {"TESTING": True}).test_client()
    assert client.get("/v1/games").status_code == 500
    cross_slot = redis.exceptions.RedisClusterException(
        "EVALSHA - all keys must map to the same key slot"
    )
    assert not is_store_unavailable(cross_slot)  # a cluster client refusing a bug


def test_an_outage_raised_while_handling_another_error_is_still_an_outage():
    try:
        try:
            raise KeyError("x")
        except KeyError:
            raise redis.exceptions.ConnectionError("reset")  # noqa: B904 - the implicit context is the case
    except redis.exceptions.ConnectionError as error:
        wrapped = RuntimeError("while reading")
        wrapped.__cause__ = error
    assert is_store_unavailable(wrapped)


def test_store_states_name_what_the_probe_met():
    assert store_state(None) == "ok"
    assert store_state(redis.exceptions.BusyLoadingError("LOADING")) == "loading"
    assert store_state(redis.exceptions.ConnectionError("refused")) == "unreachable"
    assert store_state(redis.exceptions.TimeoutError("t")) == "timeout"
    assert store_state(redis.exceptions.ReadOnlyError("READONLY")) == "readonly"
    assert store_state(redis.exceptions.ClusterDownError("CLUSTERDOWN")) == "cluster_down"
