"""Long waits in the event store never block Redis for longer than the client's socket
timeout (issue 18, item 1; the end-to-end proof on gunicorn + real Redis and Cluster is
tests/production/test_long_waits.py), and an SSE stream that loses the store ends with a
retry hint instead of a traceback."""

from __future__ import annotations

from types import SimpleNamespace

import fakeredis
import pytest
import redis

from api.events import _ended_on_outage
from service.config import Config
from service.store import event_store
from service.store.connections import STORE_SOCKET_TIMEOUT_S, store_connection
from service.store.event_store import MAX_BLOCK_SLICE_S, EventStore, block_slice_s, socket_timeout_s
from service.store.keys import Keys


class Clock:
    """A ``time.monotonic`` that moves only when a blocking read "waits"."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SlowRedis:
    """Records the ``block`` of every ``XREAD`` and lets that much time pass, nothing new."""

    def __init__(self, clock: Clock, socket_timeout: float | None):
        self.clock = clock
        self.blocks: list[int] = []
        self.connection_pool = SimpleNamespace(connection_kwargs={"socket_timeout": socket_timeout})

    def register_script(self, _source):
        return None

    def xread(self, streams, count=None, block=None):
        self.blocks.append(block)
        self.clock.now += block / 1000
        return []


@pytest.mark.parametrize("socket_timeout", [5.0, 1.0, None])
def test_a_long_wait_blocks_in_slices_shorter_than_the_socket_timeout(monkeypatch, socket_timeout):
    clock = Clock()
    monkeypatch.setattr(event_store.time, "monotonic", clock)
    client = SlowRedis(clock, socket_timeout)
    store = EventStore(client, Keys("t"))
    assert store.wait_after("m", 3, 30.0) is False
    assert len(client.blocks) > 1
    limit_ms = 1000 * (socket_timeout / 2 if socket_timeout else MAX_BLOCK_SLICE_S)
    assert max(client.blocks) <= limit_ms
    assert sum(client.blocks) == pytest.approx(30_000, abs=len(client.blocks))


def test_the_slice_follows_the_client_socket_timeout():
    assert block_slice_s(redis.Redis(socket_timeout=5)) == MAX_BLOCK_SLICE_S
    assert block_slice_s(redis.Redis(socket_timeout=0.6)) == pytest.approx(0.3)
    assert socket_timeout_s(redis.Redis(socket_timeout=None)) is None
    assert block_slice_s(fakeredis.FakeRedis()) == MAX_BLOCK_SLICE_S
    cluster_like = SimpleNamespace(
        nodes_manager=SimpleNamespace(connection_kwargs={"socket_timeout": 3})
    )
    assert block_slice_s(cluster_like) == pytest.approx(1.5)


def test_the_store_client_has_an_explicit_socket_timeout_whatever_redis_py_defaults_to():
    client = store_connection(Config(redis_url="redis://127.0.0.1:1/0"))
    assert socket_timeout_s(client) == STORE_SOCKET_TIMEOUT_S
    assert block_slice_s(client) < STORE_SOCKET_TIMEOUT_S


def test_an_event_stream_that_loses_the_store_ends_with_a_retry_hint():
    def frames():
        yield "retry: 2000\n\n"
        raise redis.ConnectionError("Connection refused")

    assert list(_ended_on_outage(frames(), "m")) == ["retry: 2000\n\n", "retry: 2000\n\n"]

    def buggy():
        yield ": keep-alive\n\n"
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        list(_ended_on_outage(buggy(), "m"))
