"""Without an archive, the indexes of finished matches are bounded (issue 12 item 4):
full reconcile passes keep the newest ``finished_index_max`` finished matches in the lobby's
finished list and in ``P:compacted`` (service/upkeep/housekeeping.py), while every trimmed match
stays readable by id."""

import fakeredis
import pytest

from service import bootstrap
from service.match_service import MatchService
from service.store.keys import Keys
from tests.support.games import ENGINES
from tests.support.reads import finish_by_hand

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _service(server, prefix: str, shards: int, keep: int) -> MatchService:
    svc = MatchService(
        fakeredis.FakeRedis(server=server, decode_responses=True),
        Keys(prefix),
        None,
        ENGINES,
        snapshot_every=5,
        blocking_reads=False,
        index_shards=shards,
        finished_index_max=keep,
    )
    bootstrap.install(svc)
    return svc


@pytest.fixture
def bounded(fake_redis_server, key_prefix):
    yield _service(fake_redis_server, key_prefix, shards=1, keep=3)
    bootstrap.reset()


def _finished(svc, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        mid = svc.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
        finish_by_hand(svc, mid)
        ids.append(mid)
    return ids


def _listed(svc, **filters) -> list[str]:
    out, cursor = [], None
    while True:
        page = svc.list_matches(cursor=cursor, limit=2, **filters)
        out += [item["match_id"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return out


def test_the_lobby_keeps_the_newest_finished_matches_and_the_trimmed_ones_stay_readable(bounded):
    svc = bounded
    ids = _finished(svc, 5)
    running = svc.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    assert set(_listed(svc, status="finished")) == set(ids)  # trimmed only by full passes
    before = {mid: (svc.export(mid), svc.match_view(mid, 0)) for mid in ids}

    summary = svc.reconcile(full=True)

    assert summary.get("unlisted") == 2
    assert svc.reconcile(full=True).get("unlisted") is None  # idempotent
    newest = list(reversed(ids))[:3]
    assert _listed(svc, status="finished") == newest
    assert _listed(svc, status="finished", game="high-card") == newest
    assert _listed(svc) == [running, *newest]
    assert _listed(svc, game="high-card") == [running, *newest]
    keys = svc.keys
    assert svc.redis.zcard(keys.compacted()) == 3
    assert set(svc.redis.zrange(keys.compacted(), 0, -1)) == set(newest)
    for mid in ids[:2]:  # no longer listed, every read by id answers as before
        svc.folds.clear()
        assert svc.export(mid) == before[mid][0]
        assert svc.match_view(mid, 0) == before[mid][1]
        assert svc.events(mid, None)["version"] == before[mid][0]["events"][-1]["version"]
        assert svc.state_at(mid, None, 1)["version"] == 1
        assert svc.verify(svc.export(mid))["valid"] is True
        setup_end = sum(1 for e in before[mid][0]["events"] if e["cause"] == "setup")
        fork = svc.fork(mid, setup_end, HUMANS)
        assert svc.match_view(fork["match_id"], None)["forked_from"]["match_id"] == mid


def test_each_shard_keeps_its_share_and_every_bucket_of_a_trimmed_match_lets_it_go(
    fake_redis_server, key_prefix
):
    svc = _service(fake_redis_server, key_prefix, shards=4, keep=4)
    try:
        ids = _finished(svc, 12)
        svc.reconcile(full=True)
        index, keys = svc.stores.index, svc.keys
        for shard in range(4):
            finished = svc.redis.zrange(keys.lobby(shard, "finished"), 0, -1)
            mine = [m for m in ids if index.shard(m) == shard]
            assert finished == mine[-1:], shard  # ceil(4 / 4) = 1 newest per shard
            for name in ("all", "finished"):
                assert svc.redis.zrange(keys.lobby(shard, name, "high-card"), 0, -1) == finished
            assert svc.redis.zrange(keys.lobby(shard, "all"), 0, -1) == finished
    finally:
        bootstrap.reset()


def test_no_bound_without_a_setting_and_none_with_an_archive(fake_redis_server, key_prefix):
    svc = _service(fake_redis_server, key_prefix, shards=1, keep=0)
    try:
        ids = _finished(svc, 3)
        svc.reconcile(full=True)
        assert len(_listed(svc, status="finished")) == 3
        assert svc.redis.zcard(svc.keys.compacted()) == 3
        svc._reconciler.housekeeping.finished_max = 1
        svc._reconciler.housekeeping.archiver = _NoMove()
        svc.reconcile(full=True)  # the archive mover bounds them instead
        assert set(_listed(svc, status="finished")) == set(ids)
        assert svc.redis.zcard(svc.keys.compacted()) == 3
    finally:
        bootstrap.reset()


class _NoMove:
    """An archiver with nothing due."""

    def move_due(self) -> int:
        return 0
