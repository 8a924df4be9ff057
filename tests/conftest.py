"""Shared fixtures.

- ``redis_url``: the real test Redis from ``ARENA_TEST_REDIS_URL`` (default
  ``redis://127.0.0.1:6379/12``; under pytest-xdist worker gwN uses database base + N, and
  ``ARENA_TEST_REDIS_URL`` is rewritten so in that worker, for the processes its tests start
  too: :mod:`tests.support.redis_env`); tests using it are skipped cleanly when no server
  answers. The run's header says which Redis and database it uses.
- ``key_prefix``: a unique key prefix per test; every key under it (and its RQ queue, jobs
  and workers) is deleted afterwards.
- ``service``: a MatchService on a private fakeredis server with the test games
  (``tests.support.games``), its RQ queue on the same fake server.
- ``real_config`` / ``real_service``: the same on the real Redis, or on a real Redis
  Cluster when the test is parametrized with ``store_kind`` ``"cluster"`` (indirect; see
  :data:`tests.support.cluster.BOTH_STORES`): the event store on ``redis_cluster`` (3 masters + 3 replicas from
  ``redis-server``, started once per session on random loopback ports, torn down at the
  end; :mod:`tests.support.cluster`; under xdist the tests using it share one worker, the
  ``redis-cluster`` group), RQ on the standalone test Redis (RQ does not support Cluster).
- The API's request rate limits are off (``ARENA_RATE_LIMITS_ENABLED=0``) unless a test
  turns them on.
- ``archive_url``: a PostgreSQL database of its own (random name) on
  ``ARENA_TEST_PG_URL`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``), dropped
  at the end of the session; tests using it are skipped, with the reason, only when no
  PostgreSQL answers there.
- ``start_worker``: starts a real RQ worker process (``python -m workers.runner``) for the
  real service (with ``ready=True``, returns once the worker holds its lease, i.e. its
  scheduler and reconcile threads run: a busy machine's Python start-up is not counted in
  what the test then waits for); every started process group is killed at teardown.
- Process hygiene (:mod:`tests.support.reaper`): Ctrl-C or SIGTERM stops the run within
  seconds, fixtures tear down, and whatever is left (redis-servers, gunicorn, workers,
  Chromium) is killed; ``--quick`` runs the inner-loop subset (:mod:`tests.support.suite_plan`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# The suite sends many requests from one address: request rate limits are off unless a test
# turns them on (tests/e2e/test_api_limits.py). Subprocesses (served apps) inherit this.
os.environ.setdefault("ARENA_RATE_LIMITS_ENABLED", "0")
# The example games (examples/*/) are installed for the whole suite, so every generic test
# plays them too (domain.games: ARENA_GAME_PACKAGES). Subprocesses inherit this.
os.environ.setdefault("ARENA_GAME_PACKAGES", "examples")

ROOT = Path(__file__).resolve().parents[1]
TEST_ENGINES = "tests.support.games:ENGINES"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick",
        action="store_true",
        default=False,
        help="the inner-loop subset: tests/unit without the tests marked slow "
        "(tests/support/suite_plan.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Per-process set-up of a run: this process's test Redis database
    (:mod:`tests.support.redis_env`: under xdist, worker gwN uses the base database + N,
    written to ``ARENA_TEST_REDIS_URL`` for the processes tests start) and the stray-process
    backstop (:mod:`tests.support.reaper`: SIGINT/SIGTERM stop the run within seconds and
    leave no process behind), and the hypothesis profile ``ARENA_HYPOTHESIS_PROFILE`` names
    (:mod:`tests.support.depth`); with ``ARENA_TEST_CPU_LOG=FILE`` each test's CPU is logged
    (:mod:`tests.support.cpu_log`)."""
    from tests.support import cpu_log, depth, reaper, redis_env

    cpu_log.register(config)

    worker_id = getattr(config, "workerinput", {}).get("workerid")
    try:
        config.arena_test_redis = redis_env.configure_process(worker_id)
        depth.register()
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from exc
    controller = worker_id is None and bool(getattr(config.option, "numprocesses", None))
    reaper.install_signal_handlers(forward_to_children=controller)
    if controller:
        from tests.support import suite_plan

        suite_plan.start_controller()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Says which Redis and database the run uses (also under ``-q``; once, by the xdist
    controller or the only process)."""
    config = session.config
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(config, "workerinput"):
        return
    for line in _redis_lines(config):
        reporter.write_line(line)


def _redis_lines(config: pytest.Config) -> list[str]:
    from tests.support import redis_env

    url, source = config.arena_test_redis
    lines = [f"test Redis: {url} ({source})"]
    workers = getattr(config.option, "numprocesses", None)
    if isinstance(workers, int) and workers > 0:
        base = redis_env.db_of(url)
        lines.append(
            f"xdist: {workers} workers, Redis databases {base}..{base + workers - 1} "
            f"(one each), a Redis Cluster per worker that runs cluster tests"
        )
    return lines


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--quick`` deselects all but the inner-loop subset; every test gets its xdist group
    (:func:`tests.support.suite_plan.xdist_group`) for ``--dist loadgroup``."""
    from tests.support import suite_plan

    if config.getoption("quick"):
        keep = [item for item in items if suite_plan.is_quick(item)]
        dropped = [item for item in items if not suite_plan.is_quick(item)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
    groups: dict[str, str] = {}
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        group = (
            (mark.args[0] if mark and mark.args else mark.kwargs.get("name"))
            if mark
            else suite_plan.xdist_group(item)
        )
        if group:
            groups[item.nodeid] = str(group)
    if hasattr(config, "workerinput"):
        suite_plan.write_groups(config.workerinput["workerid"], groups)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadgroup`` with the groups of :mod:`tests.support.suite_plan` (which
    also works around pytest-xdist issue 1386 under pytest 9.2)."""
    from tests.support import suite_plan

    if config.getvalue("dist") == "loadgroup":
        return suite_plan.make_scheduler(config, log)
    return None


def pytest_unconfigure(config: pytest.Config) -> None:
    """Kill any process a test or fixture left behind (normally none)."""
    from tests.support import reaper, suite_plan

    if reaper.is_installed():
        reaper.kill_descendants()
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        suite_plan.stop_controller()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of this process's test Redis database (skips the test when it does not answer):
    ``ARENA_TEST_REDIS_URL`` as :mod:`tests.support.redis_env` set it (xdist: one database
    per worker)."""
    import redis

    from tests.support.redis_env import DEFAULT_URL

    url = os.environ.get("ARENA_TEST_REDIS_URL", DEFAULT_URL)
    try:
        conn = redis.Redis.from_url(url, socket_connect_timeout=1)
        conn.ping()
    except redis.RedisError as exc:
        pytest.skip(f"no test Redis at {url}: {exc}")
    # RQ writes a few global keys no prefix can cover (rq:clean_groups, scheduler locks):
    # remove, at the end of the session, those that did not exist before it.
    before = set(conn.scan_iter("rq:*", count=1000))
    yield url
    for key in conn.scan_iter("rq:*", count=1000):
        if key not in before and (key == b"rq:clean_groups" or key.startswith(b"rq:scheduler")):
            conn.delete(key)


@pytest.fixture(scope="session")
def archive_url() -> Iterator[str]:
    """URL of a fresh PostgreSQL database for the archive tier (see module docstring)."""
    try:
        import psycopg
    except ImportError as exc:  # pragma: no cover - a dependency of the project
        pytest.skip(f"psycopg is not installed: {exc}")
    admin_url = os.environ.get("ARENA_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    try:
        admin = psycopg.connect(admin_url, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL at {admin_url}: {exc}")
    name = "arena_test_" + uuid.uuid4().hex[:12]
    admin.execute(f"CREATE DATABASE {name}")
    base, _, _ = admin_url.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.fixture(scope="session")
def redis_cluster(redis_url):
    """A real Redis Cluster (:class:`tests.support.cluster.LocalCluster`) for the session;
    skipped when ``redis-server`` is not installed (``.ci/run`` installs it)."""
    from tests.support.cluster import running_cluster

    yield from running_cluster()


@pytest.fixture
def store_kind(request) -> str:
    """``"standalone"`` (default) or ``"cluster"`` (a test parametrized indirectly)."""
    return getattr(request, "param", "standalone")


@pytest.fixture
def key_prefix() -> str:
    """A key prefix no other test uses (``t`` + 10 hex digits)."""
    return "t" + uuid.uuid4().hex[:10]


def _service_for(config, engines):
    from service.bootstrap import build_service

    return build_service(config, engines=engines)


@pytest.fixture
def fake_redis_server():
    """A private fakeredis server for one test."""
    import fakeredis

    return fakeredis.FakeServer()


@pytest.fixture
def service(fake_redis_server, key_prefix):
    """MatchService on fakeredis with the test games; jobs queue on the same fake server
    and run in-process via :func:`tests.support.runtime.drain`."""
    import fakeredis
    from rq import Queue

    from service import bootstrap
    from service.match_service import MatchService
    from service.store.keys import Keys
    from tests.support.games import ENGINES
    from workers.scheduling import TurnScheduler

    keys = Keys(key_prefix)
    queue = Queue(f"{key_prefix}-turns", connection=fakeredis.FakeRedis(server=fake_redis_server))
    svc = MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        keys,
        TurnScheduler(queue, keys, job_timeout_s=5),
        ENGINES,
        snapshot_every=5,
        blocking_reads=False,
    )
    bootstrap.install(svc)
    yield svc
    bootstrap.reset()


def _cleanup(url: str, prefix: str) -> None:
    import redis

    conn = redis.Redis.from_url(url)
    patterns = [
        f"{prefix}:*",
        f"rq:job:{prefix}-*",
        f"rq:*:{prefix}-turns*",
        f"rq:*{prefix}-*",
        f"rq:queue:{prefix}-turns",
        f"rq:results:{prefix}-*",
        f"rq:execution*{prefix}-*",
    ]
    for pattern in patterns:
        for key in conn.scan_iter(pattern, count=500):
            conn.delete(key)
    for set_key in (b"rq:workers", b"rq:queues"):
        for member in conn.smembers(set_key):
            if prefix.encode() in member:
                conn.srem(set_key, member)


def _cleanup_cluster(url: str, prefix: str) -> None:
    from service.store.connections import cluster_connection

    conn = cluster_connection(url)
    try:
        for key in list(conn.scan_iter(f"{prefix}:*", count=500)):
            conn.delete(key)
    finally:
        conn.close()


@pytest.fixture
def real_config(request, redis_url, key_prefix, store_kind):
    """Config for the real Redis (or, with ``store_kind`` ``"cluster"``, the session's
    Redis Cluster with RQ on the real Redis) with this test's prefix (keys removed at
    teardown)."""
    from service.config import Config

    config = Config(
        redis_url=redis_url,
        key_prefix=key_prefix,
        snapshot_every=5,
        reconcile_s=0.5,
        bot_job_timeout_s=3,
        engines_path=TEST_ENGINES,
        max_bot_matches_per_client=0,
    )
    cluster_url = None
    if store_kind == "cluster":
        cluster_url = request.getfixturevalue("redis_cluster").url
        config = config.with_(redis_url=cluster_url, rq_redis_url=redis_url)
    _cleanup(redis_url, key_prefix)
    yield config
    _cleanup(redis_url, key_prefix)
    if cluster_url:
        _cleanup_cluster(cluster_url, key_prefix)


@pytest.fixture
def real_service(real_config):
    """MatchService on the real Redis (test games, per-test prefix)."""
    from service import bootstrap
    from tests.support.games import ENGINES

    svc = bootstrap.install(_service_for(real_config, ENGINES))
    yield svc
    bootstrap.reset()


@pytest.fixture
def start_worker(real_config, tmp_path):
    """``start_worker(name=None, extra_env=None, ready=False, **config_changes) -> Popen``: a
    real RQ worker process (``python -m workers.runner``) on this test's queue and prefix;
    ``ready``: wait (up to 300 s, else the test fails) until its lease key is written, just
    before RQ's work loop starts and after its scheduler and reconcile threads started."""
    import redis

    from tests.support.polling import wait_for

    procs: list[subprocess.Popen] = []

    def start(
        name: str | None = None, extra_env: dict | None = None, ready: bool = False, **changes
    ) -> subprocess.Popen:
        config = real_config.with_(**changes) if changes else real_config
        env = {**os.environ, **config.to_env(), "PYTHONPATH": str(ROOT), **(extra_env or {})}
        name = name or f"{config.key_prefix}-w{len(procs)}"
        # logs go to a file: an unread pipe fills up and blocks the worker
        log_file = open(tmp_path / f"{name}.log", "ab")
        proc = subprocess.Popen(
            [sys.executable, "-m", "workers.runner", "--name", name],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        log_file.close()
        procs.append(proc)
        if ready:
            conn = redis.Redis.from_url(config.rq_url)
            lease = f"{config.key_prefix}:worker-lease:{name}.*"
            try:
                started = wait_for(
                    lambda: (
                        proc.poll() is not None or next(conn.scan_iter(lease, count=1000), None)
                    ),
                    300,
                    0.1,
                )
            finally:
                conn.close()
            assert started and proc.poll() is None, (
                f"worker {name} did not start (exit {proc.poll()}; log {tmp_path / name}.log)"
            )
        return proc

    yield start
    for proc in procs:
        kill_group(proc)


def kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Send ``sig`` to the process group of ``proc`` (worker + its scheduler) and reap it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
