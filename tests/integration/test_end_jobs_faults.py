"""Issue 22, "exactly once, even when lost": the end-of-match job (player counters, ratings,
the archive's rating rows) through REAL RQ worker processes (``python -m workers.runner``)
on the real Redis and a real PostgreSQL archive.

- The enqueue is lost (the queue "down" when the match ends): the append filed the match in
  ``end-jobs`` (:mod:`service.store.end_jobs`), so a worker's reconcile pass enqueues the
  job again and the match counts once (on one Redis and on a Redis Cluster).
- The worker running the job is killed (SIGKILL) mid-update: before the ratings script,
  or after it and before the archive's rows (a crash between Redis and PostgreSQL). A
  second worker's reconcile finds the job lost, runs it again, and every counter, rating
  and archive row is there exactly once.
- A Redis Cluster goes away in the middle of the job (in this process, deterministically):
  at each of the job's Redis round trips in turn, before the command reaches Redis or with
  the command carried out and its reply lost, and stays away for the rest of the job (the
  worker's job function ends ``store_unavailable``). Back, the job runs again while the
  match is still filed (as reconcile would run it) and the match is counted, rated and
  archived exactly once. (tests/unit/test_end_job_redis_faults.py cuts one round trip on
  fakeredis without the archive; this one found the cluster's "cannot be connected"
  error escaping the job.)

The kill point is set by a ``sitecustomize`` the test puts on the first worker's
``PYTHONPATH`` (it wraps :meth:`service.store.rating_store.RatingStore.apply` to write a
marker file and hang), so the service carries no test hook. Waits are bounded polls."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from redis.backoff import NoBackoff
from redis.connection import AbstractConnection
from redis.retry import Retry

from service import bootstrap
from service.bootstrap import build_service
from tests.conftest import ROOT, kill_group
from tests.support.cluster import BOTH_STORES
from tests.support.duels import assert_rated_once, rated_duel
from tests.support.polling import wait_for
from workers import jobs

pytestmark = [pytest.mark.integration]

#: the first worker's sitecustomize: hang (to be killed) before or after the ratings script
HANG = """
import os, pathlib, time
marker = os.environ.get("ARENA_TEST_HANG_MARKER")
if marker:
    from service.store import rating_store
    real = rating_store.RatingStore.apply
    when = os.environ["ARENA_TEST_HANG_WHEN"]
    def apply(self, *args, **kwargs):
        if when == "before":
            pathlib.Path(marker).write_text("before")
            time.sleep(600)
        ok = real(self, *args, **kwargs)
        if when == "after":
            pathlib.Path(marker).write_text("after")
            time.sleep(600)
        return ok
    rating_store.RatingStore.apply = apply
"""


@pytest.fixture
def config(real_config, archive_url):
    """The examples' Duel, an archive, jobs that RQ would kill only after 30 s."""
    return real_config.with_(engines_path=None, archive_url=archive_url, bot_job_timeout_s=30)


@pytest.fixture
def service(config):
    svc = build_service(config)
    bootstrap.install(svc)
    yield svc
    bootstrap.reset()


def _worker(start_worker, config, **env):
    return start_worker(
        extra_env={"ARENA_GAME_PACKAGES": "examples", **env},
        ready=True,
        engines_path=None,
        archive_url=config.archive_url,
        bot_job_timeout_s=30,
    )


def _settled(svc, mid) -> bool:
    return not svc.stores.end_jobs.filed(mid)


@BOTH_STORES  # on a cluster the end-jobs set shares the match's slot (the append's script)
def test_a_lost_enqueue_is_enqueued_again_by_reconcile_and_counts_once(
    service, config, start_worker, monkeypatch
):
    ann, bob = service.create_player("Ann"), service.create_player("Bob")

    def queue_down(match_id, attempt=1):
        raise ConnectionError("the queue is down")

    monkeypatch.setattr(service.scheduler, "enqueue_match_ended", queue_down)
    mid = rated_duel(service, ann, bob)
    monkeypatch.undo()
    assert service.stores.end_jobs.filed(mid)
    assert service.scheduler._job(service.keys.rating_job_id(mid)) is None
    assert service.player_profile(ann["player_id"])["played"] == 0
    _worker(start_worker, config)
    assert wait_for(lambda: _settled(service, mid), 120), "reconcile never ran the lost job"
    assert_rated_once(service, mid, (ann, bob))
    # a repeat (a second revival, a duplicate) changes nothing
    again = service.match_ended(mid)
    assert (again["counted"], again["folded"]) == (0, 0)
    assert_rated_once(service, mid, (ann, bob))


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_worker_killed_mid_update_leaves_the_match_counted_rated_and_archived_once(
    service, config, start_worker, tmp_path, when
):
    ann, bob = service.create_player("Ann"), service.create_player("Bob")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HANG, encoding="utf-8")
    marker = tmp_path / "marker"
    doomed = _worker(
        start_worker,
        config,
        PYTHONPATH=f"{hooks}:{ROOT}",
        ARENA_TEST_HANG_MARKER=str(marker),
        ARENA_TEST_HANG_WHEN=when,
    )
    mid = rated_duel(service, ann, bob)
    assert wait_for(marker.exists, 120), "the worker never reached the ratings script"
    kill_group(doomed, signal.SIGKILL)
    table, history = service._ratings.live_table()
    who = f"player:{ann['player_id']}"
    assert len(history.get(who, [])) == (1 if when == "after" else 0)
    assert service.ctx.archive.rating_curve(who, "duel:2p") == []  # killed before PostgreSQL
    assert service.stores.end_jobs.filed(mid)
    _worker(start_worker, config)
    assert wait_for(lambda: _settled(service, mid), 120), "the killed job was never run again"
    assert_rated_once(service, mid, (ann, bob))
    assert service.match_ended(mid)["folded"] == 0
    assert_rated_once(service, mid, (ann, bob))


class RedisGoesAway:
    """A Redis outage that starts at this process's ``at``-th Redis round trip (a command
    or a pipeline sent on any redis-py connection; 1-based) and lasts while
    :meth:`installed` is open: every later send and reply read raises
    ``redis.ConnectionError``. ``lost_reply``: the ``at``-th round trip itself reaches
    Redis (it is carried out) and only its reply is lost; else it never reaches Redis."""

    def __init__(self, at: int, lost_reply: bool):
        self.at, self.lost_reply = at, lost_reply
        self.trips = 0
        self.down = False

    @contextmanager
    def installed(self) -> Iterator[RedisGoesAway]:
        """Patch redis-py's connections for the block (restored after it)."""
        real_send = AbstractConnection.send_packed_command
        real_read = AbstractConnection.read_response
        outage = self

        def send(conn, command, check_health=True):
            if outage.down:
                raise redis.ConnectionError("Redis went away")
            outage.trips += 1
            if outage.trips != outage.at:
                return real_send(conn, command, check_health)
            if not outage.lost_reply:
                outage.down = True
                raise redis.ConnectionError("Redis went away before the command")
            sent = real_send(conn, command, check_health)
            outage.down = True  # carried out; its reply is never read
            return sent

        def read(conn, *args, **kwargs):
            if outage.down:
                raise redis.ConnectionError("Redis went away before the reply")
            return real_read(conn, *args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(AbstractConnection, "send_packed_command", send)
            patch.setattr(AbstractConnection, "read_response", read)
            yield self


@pytest.mark.parametrize("store_kind", ["cluster"], indirect=True)
@pytest.mark.parametrize("lost_reply", [False, True], ids=["command-lost", "reply-lost"])
def test_redis_going_away_at_any_round_trip_of_the_job_counts_rates_and_archives_once(
    service, monkeypatch, lost_reply
):
    # No retries inside redis-py (the outage outlasts them anyway) and no RQ job: the test
    # runs the job itself, as a worker would (workers.jobs.match_ended), and runs it again
    # after the outage while the match is filed in end-jobs, as reconcile would.
    service.redis.set_retry(Retry(NoBackoff(), 0))
    monkeypatch.setattr(service.scheduler, "enqueue_match_ended", lambda *a, **k: "lost")
    at = 1
    while True:
        ann, bob = service.create_player(f"Ann{at}"), service.create_player(f"Bob{at}")
        mid = rated_duel(service, ann, bob)
        assert service.stores.end_jobs.filed(mid)
        outage = RedisGoesAway(at, lost_reply)
        with outage.installed():
            first = jobs.match_ended(mid)
        if not outage.down:
            break  # the job (and its metrics) took fewer than `at` round trips
        assert first["status"] in ("store_unavailable", "archive_failed", "ok"), (at, first)
        if service.stores.end_jobs.filed(mid):
            again = jobs.match_ended(mid)
            assert again["status"] == "ok", (at, again)
        else:  # only the job's last write, taking the match out of end-jobs, was carried out
            assert lost_reply or first["status"] == "ok", (at, first)
        assert not service.stores.end_jobs.filed(mid)
        assert_rated_once(service, mid, (ann, bob))
        at += 1
    assert at > 10, f"the job made {at - 1} Redis round trips; the outage never hit it"
    print(f"\nRedis went away at each of the job's {at - 1} round trips ({first})")
