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

The kill point is set by a ``sitecustomize`` the test puts on the first worker's
``PYTHONPATH`` (it wraps :meth:`service.store.rating_store.RatingStore.apply` to write a
marker file and hang), so the service carries no test hook. Waits are bounded polls."""

from __future__ import annotations

import signal

import pytest

from service import bootstrap
from service.bootstrap import build_service
from tests.conftest import ROOT, kill_group
from tests.support.cluster import BOTH_STORES
from tests.support.duels import assert_rated_once, rated_duel
from tests.support.polling import wait_for

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
