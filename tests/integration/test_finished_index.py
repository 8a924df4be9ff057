"""The bounded finished indexes without an archive (service/upkeep/housekeeping.py) on the real
Redis and on the session's Redis Cluster: a full reconcile pass keeps the newest
``ARENA_FINISHED_INDEX_MAX`` finished matches listed and in ``P:compacted``; the trimmed
ones answer every read by id exactly as before."""

import pytest

from tests.support.cluster import BOTH_STORES
from tests.support.reads import every_read, finish_by_hand

pytestmark = [pytest.mark.integration, BOTH_STORES]

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def bounded(real_config):
    from service import bootstrap
    from tests.support.games import ENGINES

    config = real_config.with_(finished_index_max=4, index_shards=2)
    svc = bootstrap.install(bootstrap.build_service(config, engines=ENGINES))
    yield svc
    bootstrap.reset()


def test_a_full_pass_bounds_the_finished_indexes_and_trimmed_matches_read_as_before(bounded):
    svc = bounded
    ids = []
    for _ in range(7):
        mid = svc.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
        finish_by_hand(svc, mid)
        ids.append(mid)
    before = {mid: every_read(svc, mid, 2) for mid in ids}

    assert svc.reconcile(full=True).get("unlisted", 0) >= 3
    keys, index = svc.keys, svc.stores.index
    for shard in range(2):  # each of the 2 shards keeps its newest ceil(4 / 2) = 2
        mine = [m for m in ids if index.shard(m) == shard]
        assert set(svc.redis.zrange(keys.lobby(shard, "finished"), 0, -1)) == set(mine[-2:])
        assert set(svc.redis.zrange(keys.lobby(shard, "all", "high-card"), 0, -1)) == set(mine[-2:])
    listed = [i["match_id"] for i in svc.list_matches(status="finished", limit=100)["items"]]
    assert len(listed) <= 4 and set(listed) <= set(ids)
    assert set(svc.redis.zrange(keys.compacted(), 0, -1)) == set(ids[-4:])
    for mid in ids:
        assert every_read(svc, mid, 2) == before[mid], mid
