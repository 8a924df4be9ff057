"""A store outage during the storage upkeep (service/upkeep/compaction.py and
housekeeping.py): with no Redis node reachable (a standalone server's ``ConnectionError``, a
cluster's ``RedisClusterException``, which is not a ``RedisError``) the pass ends and every
match stays where the next pass finds it; any other failure is one match's or the
archive's alone: logged, and the pass goes on."""

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException

from service.upkeep.housekeeping import Housekeeping
from tests.support.compaction import failing_compaction
from tests.support.reads import finish_by_hand

HUMANS = [{"kind": "human"}, {"kind": "human"}]
#: what redis-py 7's cluster client raises when it cannot reach any node for its slot map
NO_NODE = "Redis Cluster cannot be connected. Please provide at least one reachable node: None"


def _pending_matches(service, monkeypatch, count: int) -> list[str]:
    """``count`` finished matches whose compaction (inside the request that ended them)
    failed, so that they wait in the pending set for a full pass."""
    failing_compaction(service, monkeypatch, RuntimeError("injected"), failures=None)
    mids = []
    for _ in range(count):
        mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
        finish_by_hand(service, mid)
        mids.append(mid)
    monkeypatch.undo()
    assert all(service.redis.sismember(service.keys.compact_pending(), m) for m in mids)
    return mids


@pytest.mark.parametrize(
    "outage",
    [RedisClusterException(NO_NODE), RedisConnectionError("refused")],
    ids=["cluster", "standalone"],
)
def test_an_outage_ends_the_compaction_pass_and_every_match_stays_pending(
    service, monkeypatch, outage
):
    mids = _pending_matches(service, monkeypatch, 3)
    calls = failing_compaction(service, monkeypatch, outage, failures=None)
    with pytest.raises(type(outage)):
        service.reconcile(full=True)
    assert len(calls) == 1  # the first match met the outage: the others were not tried
    monkeypatch.undo()
    assert all(service.redis.sismember(service.keys.compact_pending(), m) for m in mids)
    assert not any(service._record(m).compacted for m in mids)
    # the store is back: the next full pass compacts all three
    assert service.reconcile(full=True).get("compacted") == 3
    assert all(service._record(m).compacted for m in mids)


def test_one_match_that_fails_to_compact_does_not_stop_the_pass(service, monkeypatch, caplog):
    mids = _pending_matches(service, monkeypatch, 3)
    calls = failing_compaction(service, monkeypatch, RuntimeError("one bad match"))
    with caplog.at_level(logging.ERROR):
        assert service.reconcile(full=True).get("compacted") == 2
    assert len(calls) == 3 and f"compacting {calls[0]} failed" in caplog.text
    assert service.redis.sismember(service.keys.compact_pending(), calls[0])
    assert sorted(m for m in mids if service._record(m).compacted) == sorted(calls[1:])


class _Archiver:
    """An archive mover whose ``move_due`` raises ``error`` (or moves 2 matches)."""

    def __init__(self, error: Exception | None):
        self.error = error

    def move_due(self) -> int:
        if self.error is not None:
            raise self.error
        return 2


class _Scheduler:
    def __init__(self):
        self.cleaned = 0

    def clean_registries(self) -> None:
        self.cleaned += 1


@pytest.mark.parametrize(
    "outage",
    [RedisClusterException(NO_NODE), RedisConnectionError("refused")],
    ids=["cluster", "standalone"],
)
def test_a_redis_outage_in_the_archive_step_ends_the_housekeeping_pass(outage):
    scheduler = _Scheduler()
    with pytest.raises(type(outage)):
        Housekeeping(None, _Archiver(outage), scheduler).run()
    assert scheduler.cleaned == 0  # the pass ended: the next one does the rest


def test_an_archive_failure_of_its_own_is_logged_and_the_pass_goes_on(caplog):
    scheduler = _Scheduler()
    failure = OSError("PostgreSQL: connection refused")
    with caplog.at_level(logging.ERROR):
        assert Housekeeping(None, _Archiver(failure), scheduler).run() == {}
    assert "archive pass failed" in caplog.text and scheduler.cleaned == 1
    assert Housekeeping(None, _Archiver(None), scheduler).run() == {"archived": 2}
