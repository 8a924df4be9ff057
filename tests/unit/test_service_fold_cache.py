"""The per-process caches of service/store/fold_cache.py (pure Python, no Redis)."""

import threading

from service.store.fold_cache import CachedFold, FoldCache, LruMap, TokenCache


def _fold(version, state=None):
    return CachedFold(
        version, f"h{version}", "race", state if state is not None else {"v": version}
    )


def test_take_hands_the_entry_out_exclusively():
    cache = FoldCache(4)
    cache.put("m", _fold(7))
    first = cache.take("m")
    assert first.version == 7 and first.head_hash == "h7"
    assert cache.take("m") is None  # a second holder gets nothing: it must reload


def test_put_never_replaces_a_later_fold_with_an_earlier_one():
    cache = FoldCache(4)
    cache.put("m", _fold(9))
    cache.put("m", _fold(8))  # a slower thread gives back an older state
    assert cache.take("m").version == 9
    cache.put("m", _fold(9, {"other": 1}))  # same version: the present one stays
    cache.put("m", _fold(9, {"first": 1}))
    assert cache.take("m").state == {"other": 1}
    cache.put("m", _fold(3))
    cache.put("m", _fold(4))
    assert cache.take("m").version == 4


def test_least_recently_used_match_is_evicted_first():
    cache = FoldCache(2)
    cache.put("a", _fold(1))
    cache.put("b", _fold(1))
    cache.put("a", _fold(2))  # touches a
    cache.put("c", _fold(1))  # evicts b
    assert len(cache) == 2
    assert cache.take("b") is None
    assert cache.take("a").version == 2 and cache.take("c").version == 1


def test_capacity_zero_disables_the_cache():
    cache = FoldCache(0)
    cache.put("m", _fold(1))
    assert cache.take("m") is None and len(cache) == 0


def test_discard_and_clear():
    cache = FoldCache(3)
    for mid in "abc":
        cache.put(mid, _fold(1))
    cache.discard("a")
    assert cache.take("a") is None and len(cache) == 2
    cache.clear()
    assert len(cache) == 0


def test_lru_map_get_marks_recent_and_is_thread_safe():
    lru = LruMap(100)
    barrier = threading.Barrier(4)

    def writer(base):
        barrier.wait()
        for i in range(500):
            lru.set(f"{base}-{i}", i)

    threads = [threading.Thread(target=writer, args=(b,)) for b in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert len(lru) == 100
    small = LruMap(2)
    small.set("x", 1)
    small.set("y", 2)
    assert small.get("x") == 1  # x is now the most recent
    small.set("z", 3)
    assert small.get("y") is None and small.get("x") == 1 and small.get("z") == 3


def test_token_cache_keeps_copies_and_ignores_empty_mappings():
    tokens = TokenCache(8)
    digests = {0: "d0"}
    tokens.set("m", digests)
    digests[1] = "d1"  # the caller's dict changing does not leak in
    assert tokens.get("m") == {0: "d0"}
    tokens.set("empty", {})
    assert tokens.get("empty") is None
    tokens.clear()
    assert tokens.get("m") is None
