"""Configuration from the environment (service/config.py)."""

import pytest

from service.config import Config
from service.store.keys import Keys
from service.store.quotas import BotCaps


def test_defaults_are_embedded_mode():
    config = Config.from_env({})
    assert config.embedded and config.redis_url is None and config.rq_url is None
    assert (config.key_prefix, config.snapshot_every, config.reconcile_s) == ("arena", 50, 2.0)
    assert config.queue == "arena-turns"


def test_rq_url_defaults_to_redis_url_and_may_be_separate():
    assert Config.from_env({"REDIS_URL": "redis://a/1"}).rq_url == "redis://a/1"
    config = Config.from_env(
        {
            "REDIS_URL": "redis://cluster/0",
            "RQ_REDIS_URL": "redis://rq/2",
            "ARENA_KEY_PREFIX": "p",
            "ARENA_SNAPSHOT_EVERY": "7",
        }
    )
    assert (config.redis_url, config.rq_url, config.key_prefix, config.snapshot_every) == (
        "redis://cluster/0",
        "redis://rq/2",
        "p",
        7,
    )
    assert not config.embedded


def test_round_trip_through_environment():
    config = Config(
        redis_url="redis://x/3",
        key_prefix="q",
        snapshot_every=9,
        reconcile_s=0.5,
        engines_path="m:E",
    )
    assert Config.from_env(config.to_env()) == config


def test_the_full_reconcile_period_is_read_from_the_environment_and_reaches_the_service():
    from service.bootstrap import build_service

    assert Config.from_env({}).reconcile_full_s == 60.0
    config = Config.from_env({"ARENA_RECONCILE_FULL_S": "7.5", "ARENA_KEY_PREFIX": "cfg"})
    assert config.reconcile_full_s == 7.5
    assert Config.from_env(config.to_env()) == config
    assert build_service(config).reconcile_full_s == 7.5
    with pytest.raises(ValueError):
        Config.from_env({"ARENA_RECONCILE_FULL_S": "-1"})


def test_bad_numbers_are_rejected():
    with pytest.raises(ValueError):
        Config.from_env({"ARENA_SNAPSHOT_EVERY": "0"})


def test_match_keys_share_one_hash_tag():
    keys = Keys("arena")
    assert keys.events("abc") == "arena:{abc}:events"
    assert {k.split("{")[1].split("}")[0] for k in keys.match_keys("abc")} == {"abc"}


def test_bot_caps_come_from_the_environment_and_zero_means_no_cap():
    """Issue 12 item 6: server-wide caps on bot options and running bot matches per client."""
    assert Config.from_env({}).bot_caps == BotCaps(budget=512, time_budget_ms=2000, matches=4)
    config = Config.from_env(
        {
            "ARENA_MAX_BOT_BUDGET": "0",
            "ARENA_MAX_BOT_TIME_MS": "750",
            "ARENA_MAX_BOT_MATCHES_PER_CLIENT": "9",
        }
    )
    assert config.bot_caps == BotCaps(budget=0, time_budget_ms=750, matches=9)
    assert config.bot_caps.option_caps() == {"time_budget_ms": 750}
    assert Config.from_env(config.to_env()).bot_caps == config.bot_caps
    with pytest.raises(ValueError, match="ARENA_MAX_BOT_MATCHES_PER_CLIENT"):
        Config.from_env({"ARENA_MAX_BOT_MATCHES_PER_CLIENT": "-1"})


def test_storage_settings_come_from_the_environment_and_reach_the_service():
    """Issue 12 items 4-5: compaction, idempotency TTL, the archive tier (off when unset)."""
    from service.bootstrap import build_service

    default = Config.from_env({})
    assert (
        default.compaction,
        default.idempotency_ttl_s,
        default.archive_url,
        default.archive_after_s,
        default.archive_batch,
    ) == (True, 3600.0, None, 604800.0, 100)
    assert build_service(default).archiver is None
    assert build_service(default)._reconciler.housekeeping.finished_max == 10000
    bounded = Config.from_env({"ARENA_FINISHED_INDEX_MAX": "25"})
    assert Config.from_env(bounded.to_env()).finished_index_max == 25
    assert build_service(bounded)._reconciler.housekeeping.finished_max == 25
    assert Config.from_env({"ARENA_FINISHED_INDEX_MAX": "0"}).finished_index_max == 0
    with pytest.raises(ValueError):
        Config.from_env({"ARENA_FINISHED_INDEX_MAX": "-1"})
    config = Config.from_env(
        {
            "ARENA_COMPACTION": "0",
            "ARENA_IDEMPOTENCY_TTL_S": "90",
            "ARENA_ARCHIVE_URL": "postgresql://u@h/db",
            "ARENA_ARCHIVE_AFTER_S": "30",
            "ARENA_ARCHIVE_BATCH": "7",
            "ARENA_KEY_PREFIX": "st",
        }
    )
    assert Config.from_env(config.to_env()) == config
    service = build_service(config)  # no connection is opened before the first use
    assert service.compactor.enabled is False and service.compactor.idem_ttl_s == 90
    assert (service.archiver.after_s, service.archiver.batch) == (30, 7)
    assert service.ctx.archive.url == "postgresql://u@h/db" and service.ctx.archive.prefix == "st"
    with pytest.raises(ValueError):
        Config.from_env({"ARENA_COMPACTION": "maybe"})
    with pytest.raises(ValueError):
        Config.from_env({"ARENA_IDEMPOTENCY_TTL_S": "0"})


def test_a_cluster_url_names_a_redis_cluster_and_rq_needs_its_own_standalone_redis():
    import pytest as _pytest

    from service.config import Config
    from service.store.connections import cluster_nodes

    config = Config.from_env(
        {
            "REDIS_URL": "redis+cluster://:s%40cret@10.0.0.1:7000,10.0.0.2",
            "RQ_REDIS_URL": "redis://10.0.0.9:6379/1",
        }
    )
    assert config.redis_cluster and config.rq_url == "redis://10.0.0.9:6379/1"
    nodes, options = cluster_nodes(config.redis_url)
    assert [(n.host, n.port) for n in nodes] == [("10.0.0.1", 7000), ("10.0.0.2", 6379)]
    assert options == {"username": None, "password": "s@cret", "ssl": False}
    assert cluster_nodes("rediss+cluster://h:1")[1]["ssl"] is True
    assert Config.from_env(
        {"REDIS_URL": "redis://h:1", "ARENA_REDIS_CLUSTER": "1", "RQ_REDIS_URL": "redis://q"}
    ).redis_cluster
    assert not Config.from_env({"REDIS_URL": "redis://h:1"}).redis_cluster
    with _pytest.raises(ValueError, match="RQ_REDIS_URL"):
        _ = Config.from_env({"REDIS_URL": "redis+cluster://h:1"}).rq_url
    with _pytest.raises(ValueError, match="standalone"):
        _ = Config.from_env(
            {"REDIS_URL": "redis+cluster://h:1", "RQ_REDIS_URL": "redis+cluster://h:2"}
        ).rq_url
    with _pytest.raises(ValueError):
        cluster_nodes("redis+cluster://")
    round_trip = Config.from_env({**config.to_env(), "ARENA_REDIS_WAIT_REPLICAS": "1"})
    assert round_trip.redis_cluster and round_trip.wait_replicas == 1


def test_a_worker_waits_for_an_unreachable_cluster_and_an_api_process_does_not(monkeypatch):
    import pytest as _pytest
    import redis as _redis

    from service.store import connections

    attempts = []

    class Flaky:
        def __init__(self, **_kwargs):
            attempts.append(1)
            if len(attempts) < 3:
                raise _redis.exceptions.RedisClusterException(
                    "Redis Cluster cannot be connected. Please provide at least one reachable node"
                )

    monkeypatch.setattr(connections, "RedisCluster", Flaky)
    monkeypatch.setattr(connections.time, "sleep", lambda _s: None)
    assert isinstance(connections.cluster_connection("redis+cluster://h:1", wait=True), Flaky)
    assert len(attempts) == 3
    attempts.clear()
    with _pytest.raises(_redis.exceptions.RedisClusterException):
        connections.cluster_connection("redis+cluster://h:1")
