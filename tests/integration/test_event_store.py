"""The Redis Streams event store against a real Redis (Lua append, ids, idempotency)."""

import re
import threading

import pytest
import redis
from redis.crc import key_slot

from domain.engine import Event
from service.log.codec import genesis_hash
from service.log.envelopes import build_envelopes
from service.store.event_store import APPEND_LUA, HEAD_LUA, EventStore
from service.store.keys import Keys

pytestmark = pytest.mark.integration


@pytest.fixture
def store(real_config):
    return EventStore(
        redis.Redis.from_url(real_config.redis_url, decode_responses=True),
        Keys(real_config.key_prefix),
    )


def _batch(first, prev, n=2, cause="player"):
    return build_envelopes(
        [Event("Ticked", {"i": first + i}) for i in range(n)],
        first,
        prev,
        cause,
        f"c{first}",
        {"type": "tick"},
        0,
    )


def test_append_is_gap_free_with_stream_ids_0_version(store):
    first = _batch(1, genesis_hash("m"))
    assert store.append("m", 0, first).version == 2
    second = _batch(3, first[-1]["hash"], 3)
    assert store.append("m", 2, second, {"head_hash": second[-1]["hash"]}).version == 5
    ids = [entry_id for entry_id, _ in store.redis.xrange(store.keys.events("m"))]
    assert ids == ["0-1", "0-2", "0-3", "0-4", "0-5"]
    assert [e["version"] for e in store.read("m", after=2, upto=4)] == [3, 4]
    assert store.meta("m") == {"version": "5", "head_hash": second[-1]["hash"]}


def test_stale_expected_version_appends_nothing(store):
    store.append("m", 0, _batch(1, genesis_hash("m")))
    outcome = store.append("m", 1, _batch(2, "x"))
    assert (outcome.status, outcome.version) == ("conflict", 2)
    assert store.redis.xlen(store.keys.events("m")) == 2


def test_a_conflict_sends_only_the_missed_events_to_a_caller_holding_its_fold(store):
    first = _batch(1, genesis_hash("m"))
    store.append("m", 0, first, {"head_hash": first[-1]["hash"]})
    second = _batch(3, first[-1]["hash"], 3)
    store.append("m", 2, second, {"head_hash": second[-1]["hash"]})
    late = _batch(3, first[-1]["hash"])  # decided on the fold at version 2
    held = store.append("m", 2, late, expected_head=first[-1]["hash"], holds_fold=True)
    assert (held.status, held.version) == ("conflict", 5)
    assert held.reload is not None and held.reload.start == 2 and held.reload.snapshot == {}
    assert [e["version"] for e in held.reload.tail] == [3, 4, 5]
    assert held.reload.meta["version"] == "5"
    # without it, or when the store did not move past the expected version (another
    # head at that version), the reload starts from the snapshot (none here: version 0)
    plain = store.append("m", 2, late, expected_head=first[-1]["hash"])
    assert plain.reload is not None and plain.reload.start == 0 and len(plain.reload.tail) == 5
    forked = _batch(6, "f" * 64)
    same = store.append("m", 5, forked, expected_head="f" * 64, holds_fold=True)
    assert (same.status, same.version) == ("conflict", 5)
    assert same.reload is not None and same.reload.start == 0
    assert store.redis.xlen(store.keys.events("m")) == 5


def test_racing_identical_idempotent_appends_append_once(store, real_config):
    """Eight clients race the same Idempotency-Key: exactly one appends."""
    store.append("m", 0, _batch(1, genesis_hash("m"), 1))
    outcomes = []
    barrier = threading.Barrier(8)

    def racer():
        conn = EventStore(
            redis.Redis.from_url(real_config.redis_url, decode_responses=True), store.keys
        )
        barrier.wait()
        outcomes.append(
            conn.append(
                "m",
                1,
                _batch(2, "h", 2),
                idem_field="0:key",
                idem_answer={"answer": {"version": 3}},
            )
        )

    threads = [threading.Thread(target=racer) for _ in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(o.status for o in outcomes) == ["ok"] + ["replayed"] * 7
    assert all(o.answer == {"answer": {"version": 3}} for o in outcomes if o.status == "replayed")
    assert store.redis.xlen(store.keys.events("m")) == 3


def test_scripts_touch_only_keys_they_are_given_in_one_cluster_slot(store):
    # every key argument is KEYS[i] or a Lua parameter bound to one (the reload helper,
    # the write runner's ``key = KEYS[...]``)
    for script in (APPEND_LUA, HEAD_LUA):
        calls = re.findall(r"redis\.call\((?:'(\w+)'|ARGV\[i\]), ([^,)]+)", script)
        assert calls and all(
            key.startswith("KEYS[") or key in {"events_key", "meta_key", "snap_key", "key"}
            for _cmd, key in calls
        )
    assert "local key = KEYS[" in APPEND_LUA
    keys = store.keys
    assert len({key_slot(k.encode()) for k in keys.match_keys("abc")}) == 1


def test_a_new_match_id_shares_its_slot_with_its_index_shard():
    from service.store.slots import ShardMap

    shards = ShardMap("arena", 16)
    for _ in range(50):
        mid = shards.new_id()
        assert len(mid) == 20 and shards.aligned(mid)
        k = shards.shard_of(mid)
        keys = Keys("arena")
        names = keys.match_keys(mid) + [
            keys.metrics(k),
            keys.running(k),
            keys.awaiting(k),
            keys.matches(k),
            keys.lobby(k, "all", "race"),
        ]
        assert len({key_slot(n.encode()) for n in names}) == 1
    # ids drawn elsewhere keep a stable shard
    assert shards.shard_of("not-aligned") == shards.shard_of("not-aligned") < 16


def test_blocking_long_poll_wakes_on_append(store):
    store.append("m", 0, _batch(1, genesis_hash("m"), 1))
    timer = threading.Timer(0.3, lambda: store.append("m", 1, _batch(2, "h", 1)))
    timer.start()
    assert store.wait_after("m", 1, 5) is True
    assert store.wait_after("m", 2, 0.2) is False
