"""A small soak with real workers on a private ``redis-server`` (benchmarks/soak_key_census.py):
every key the deployment leaves is accounted for by pattern, finished matches keep only
their compacted keys, the finished indexes stay bounded, RQ's registries hold no stale ids
and its per-job keys expire."""

import shutil

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]


def test_after_a_soak_every_key_is_accounted_for_and_finished_matches_are_compacted(tmp_path):
    from benchmarks.soak_key_census import run_census

    figures = run_census(per_game=1, workers=2, timeout_s=600, work_dir=str(tmp_path))
    print(figures)
    assert figures["unfinished"] == [] and figures["finished"] == figures["verified"] == 6
    assert figures["unaccounted_store_keys"] == [], figures
    assert figures["unaccounted_rq_keys"] == [], figures
    assert figures["finished_matches_with_other_keys"] == {}, figures
    assert figures["store_keys_by_kind"]["match:log"] == 6
    assert figures["store_keys_by_kind"].get("match:snap", 0) == 0
    assert figures["store_keys_by_kind"].get("index:compact-pending", 0) == 0
    assert figures["idempotent_commands"] >= 1 and figures["idem_without_ttl"] == []
    assert "match:events" in figures["open_match_keys"]  # a running match keeps its stream
    # no archive: the finished indexes keep the newest ARENA_FINISHED_INDEX_MAX (3 of 6),
    # each lobby shard its newest ceil(3 / 16) = 1, while all 6 stay readable (verified)
    assert figures["compacted_index_size"] == figures["finished_index_max"] == 3
    assert figures["lobby_finished_largest_shard"] <= 1
    assert figures["stale_rq_registry_ids"] == 0
    # RQ keeps no record of a succeeded turn job (issue 18 item 4: they were kept 300 s,
    # most of Redis while matches played); the script prints RQ's bytes per running match
    assert "rq:job" not in figures["rq_keys_by_kind"], figures["rq_keys_by_kind"]
    assert "rq:results" not in figures["rq_keys_by_kind"], figures["rq_keys_by_kind"]
    assert figures["rq_jobs_without_ttl"] == []
    # Matches here are of random length (server seeds), so this is a sanity bound against
    # an uncompacted match (117-200 KB), not the 25 KB target: that one is measured on a
    # fixed 6-seat match by benchmarks/bench_redis_bytes.py (one run here gave 26,776 B for
    # a long match, and a 25,000 bound made the test fail by chance).
    assert max(figures["bytes_per_finished_match_after_idem_ttl"]) <= 60_000
