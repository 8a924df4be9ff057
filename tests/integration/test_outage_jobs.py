"""Redis going away in the middle of the end-of-match job (ratings) and of an analysis
slice, with a REAL ``arena worker`` process on a private ``redis-server`` (AOF,
``appendfsync always``: benchmarks/_faults.py) holding both the store and RQ, and a real
PostgreSQL archive for the rating rows.

The worker carries a ``sitecustomize`` (put on its ``PYTHONPATH`` by the test, so the
service has no test hook) that stops at a chosen point of the job, writes a marker file and
waits for the test: the test kills Redis, lets the job go on into the outage (its next
Redis command fails: the job ends ``store_unavailable``), and starts Redis again after
:data:`OUTAGE_S`. Then:

- ratings, stopped before or after the ratings script: the match is counted, rated (one
  history point per player, the rebuild from the logs equal to the live table) and
  archived (one row per player) exactly once, through reconcile's revival of the job;
- analysis, stopped at the end of its first slice (before the slice's decisions are
  written): the analysis resumes (reconcile enqueues the slice again) and ends ``done``
  with exactly the answer of an in-process analysis of the same log; no slice is lost.
  The same when the worker is killed there (SIGKILL) instead of Redis, and another
  worker started.

Waits are bounded polls (no timing is asserted)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.support.duels import assert_rated_once, finished_duel, in_process_analysis, rated_duel
from tests.support.polling import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        shutil.which("redis-server") is None, reason="redis-server is not installed"
    ),
]

#: seconds Redis stays down
OUTAGE_S = 2.0

#: seconds an analysis record goes unwritten before the workers' reconcile revives its
#: slice here (the shipped REVIVE_AFTER_S is 10: only the waits get shorter)
REVIVE_AFTER_S = 2.0

#: the worker's sitecustomize: stop at ARENA_TEST_STOP_AT, write the marker, wait for "go"
#: (and ARENA_TEST_REVIVE_AFTER_S for the analyses' revival)
HOOK = """
import os, pathlib, time
if os.environ.get("ARENA_TEST_REVIVE_AFTER_S"):
    from service.usecases import analysis
    analysis.REVIVE_AFTER_S = float(os.environ["ARENA_TEST_REVIVE_AFTER_S"])
marker = os.environ.get("ARENA_TEST_MARKER")
if marker:
    where = os.environ["ARENA_TEST_STOP_AT"]
    go = pathlib.Path(marker + ".go")
    done = []

    def stop(name):
        if done:
            return
        done.append(name)
        pathlib.Path(marker).write_text(name)
        while not go.exists():
            time.sleep(0.05)

    if where in ("before", "after"):
        from service.store import rating_store
        real_apply = rating_store.RatingStore.apply

        def apply(self, *args, **kwargs):
            if where == "before":
                stop("before")
            ok = real_apply(self, *args, **kwargs)
            if where == "after":
                stop("after")
            return ok

        rating_store.RatingStore.apply = apply
    else:
        from service.store import analysis_store
        real_update = analysis_store.AnalysisStore.update

        def update(self, analysis_id, **fields):
            if "partial" in fields:
                stop("slice")
            return real_update(self, analysis_id, **fields)

        analysis_store.AnalysisStore.update = update
"""


@pytest.fixture
def outage(tmp_path, archive_url):
    """``(server, config, pool, service, marker)``: a private Redis, the config of a stack
    on it (Duel of the examples, the archive, fast reconcile passes), a worker pool whose
    processes carry :data:`HOOK`, the service of the test process, and the hook's marker."""
    from benchmarks._faults import PrivateRedis, WorkerPool
    from service import bootstrap
    from service.config import Config

    server = PrivateRedis(tmp_path / "redis").start()
    config = Config(
        redis_url=server.url(0),
        rq_redis_url=server.url(1),
        key_prefix="out",
        engines_path=None,
        game_packages=("examples",),
        archive_url=archive_url,
        worker_lease_s=1.0,
        reconcile_s=0.5,
        reconcile_full_s=600.0,
        bot_job_timeout_s=30.0,
        heartbeat_file=str(tmp_path / "heartbeat"),
        max_bot_matches_per_client=0,
    )
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    marker = tmp_path / "marker"
    pool = WorkerPool(config.to_env(), tmp_path / "logs")
    pool.env["PYTHONPATH"] = f"{hooks}:{ROOT}"
    pool.env["ARENA_TEST_MARKER"] = str(marker)
    service = bootstrap.install(bootstrap.build_service(config))
    try:
        yield server, config, pool, service, marker
    finally:
        pool.stop()
        bootstrap.reset()
        service.ctx.archive.close()
        server.stop()


def _answering(call):
    """``call()``, or ``None`` while the store cannot answer (Redis reloading)."""
    try:
        return call()
    except Exception:  # noqa: BLE001 - store-unavailable errors while Redis comes back
        return None


def _through_an_outage(server, marker: Path, point: str) -> None:
    """Wait for the worker to stop at ``point``; kill Redis; let the job run on into the
    outage; start Redis again after :data:`OUTAGE_S`."""
    assert wait_for(marker.exists, 120), f"the worker never reached {point}"
    assert marker.read_text() == point
    server.kill()
    Path(f"{marker}.go").write_text("go")
    time.sleep(OUTAGE_S)
    server.start()


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_redis_outage_in_a_rating_update_rates_the_match_exactly_once(outage, when):
    server, _config, pool, service, marker = outage
    pool.env["ARENA_TEST_STOP_AT"] = when
    worker = pool.start()
    ann, bob = service.create_player("Ann"), service.create_player("Bob")
    mid = rated_duel(service, ann, bob)
    _through_an_outage(server, marker, when)
    settled = wait_for(lambda: _answering(lambda: not service.stores.end_jobs.filed(mid)), 120)
    assert settled, "the end-of-match job was not run again after the outage"
    assert worker.poll() is None, "the worker died in the outage"
    assert_rated_once(service, mid, (ann, bob))
    events = service.export(mid)["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert service.verify(service.export(mid))["valid"] is True


@pytest.mark.parametrize("fault", ["redis outage", "worker killed"])
def test_a_redis_outage_or_a_killed_worker_in_an_analysis_slice_resumes_the_analysis(outage, fault):
    """``worker killed``: the worker process and its work horse get SIGKILL where the slice
    stops (its decisions computed, not written) and another worker is started: its
    reconcile finds the slice's job started by a worker whose lease is gone and enqueues
    it again."""
    server, _config, pool, service, marker = outage
    pool.env["ARENA_TEST_STOP_AT"] = "slice"
    pool.env["ARENA_TEST_REVIVE_AFTER_S"] = str(REVIVE_AFTER_S)
    worker = pool.start()
    mid = finished_duel(service, tricks=6, seed=9)
    answer, created = service.request_analysis(mid, 512)  # 12 turns: slices of 4 at most
    assert created
    analysis = answer["analysis_id"]
    if fault == "redis outage":
        _through_an_outage(server, marker, "slice")
    else:
        assert wait_for(marker.exists, 120), "the worker never reached the slice's end"
        assert marker.read_text() == "slice"
        pool.kill(worker)
        assert worker.poll() is not None
        del pool.env["ARENA_TEST_MARKER"]  # the next worker runs every slice through
        worker = pool.start()

    def status() -> str | None:
        return _answering(lambda: service.analysis(analysis)["status"])

    assert wait_for(lambda: status() in ("done", "failed"), 180), (
        f"the analysis never resumed after the {fault}: {_answering(lambda: service.analysis(analysis))}"
    )
    assert worker.poll() is None, "the worker died in the outage"
    record = service.analysis(analysis)
    assert record["status"] == "done", record
    expected = in_process_analysis(service, mid, 512)
    assert {k: record["result"][k] for k in expected} == expected
    assert len(record["result"]["decisions"]) == 12
