"""Compaction when Redis fails (issue 12 item 4 follow-up): a private ``redis-server``
(benchmarks/_faults.py) is killed at each boundary of the compaction of a finished match's
three round trips: before its read (``CompactStore.read_finished``), just before the
``MULTI`` that stores the log or just after it (before the global book-keeping). In every case the
final append stands, the match reads as before once Redis is back (its stream, or its
compacted log), a full reconcile pass finishes the compaction, and nothing is lost: the
export is the same, verifies, and the match is filed where a compacted match belongs."""

import shutil

import pytest

from tests.support.reads import finish_by_hand

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def private(tmp_path):
    """``(service, server)``: a MatchService with the test games on a private Redis."""
    from benchmarks._faults import PrivateRedis
    from service import bootstrap
    from service.config import Config
    from tests.support.games import ENGINES

    server = PrivateRedis(tmp_path / "redis").start()
    config = Config(
        redis_url=server.url(0), rq_redis_url=server.url(1), key_prefix="cf", index_shards=4
    )
    svc = bootstrap.install(bootstrap.build_service(config, engines=ENGINES))
    yield svc, server
    bootstrap.reset()
    server.stop()


def _kill_then(server, real):
    def dying(*args, **kwargs):
        server.kill()  # Redis dies right here, before the step runs
        return real(*args, **kwargs)

    return dying


@pytest.mark.parametrize("stage", ["start", "before-multi", "after-multi"])
def test_a_compaction_cut_by_a_redis_outage_loses_nothing_and_a_full_pass_finishes_it(
    private, monkeypatch, stage
):
    from service.store.store_errors import STORE_UNAVAILABLE

    svc, server = private
    svc.compactor.enabled = False  # finished by hand; compacted below, under fault
    mid = svc.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    finish_by_hand(svc, mid)
    before = svc.export(mid)
    keys, store = svc.keys, svc.stores.compacted
    svc.compactor.enabled = True
    targets = {
        "start": (store, "read_finished"),
        "before-multi": (store, "store"),
        "after-multi": (store, "filed"),
    }
    owner, name = targets[stage]
    monkeypatch.setattr(owner, name, _kill_then(server, getattr(owner, name)))

    # the inline compaction after the final append: a failure is logged, never raised
    assert svc.compactor.after_finish(mid) is False
    monkeypatch.undo()
    with pytest.raises(STORE_UNAVAILABLE):  # a full pass during the outage: 503-class error
        svc.reconcile(full=True)

    server.start()  # its AOF (appendfsync always) is loaded
    svc.folds.clear()
    record = svc._record(mid)
    assert bool(record.compacted) == (stage == "after-multi") and record.finished
    assert svc.redis.sismember(keys.compact_pending(), mid)  # still to do: retried
    assert svc.export(mid) == before  # readable meanwhile

    svc.reconcile(full=True)

    assert not svc.redis.sismember(keys.compact_pending(), mid)
    assert svc._record(mid).compacted
    assert svc.redis.zscore(keys.compacted(), mid) is not None
    assert svc.redis.zscore(keys.matches(svc.stores.index.shard(mid)), mid) is None
    assert not svc.redis.exists(keys.events(mid), keys.snap(mid))
    svc.folds.clear()
    after = svc.export(mid)
    assert after == before and svc.verify(after)["valid"] is True
    assert svc.events(mid, None)["events"][-1]["hash"] == before["events"][-1]["hash"]
    assert [i["match_id"] for i in svc.list_matches(status="finished")["items"]] == [mid]
