"""The production-topology tier: gunicorn (the Dockerfile's settings) + ``arena worker``
processes on the real test Redis (``production``) and on the session's Redis Cluster
(``production_cluster``: the event store on the cluster, RQ on the test Redis), one stack
each for the whole session, started on first use and stopped by PID at the end
(:mod:`tests.support.production`). Every test here carries the ``production`` marker.

- ``production`` / ``production_cluster``: a started :class:`ProductionStack`; ``url`` is
  where gunicorn answers.
- ``production_http`` / ``production_cluster_http``: :class:`tests.e2e.http_helpers.Http`
  over them.
- ``browser`` / ``page``: Chromium through Playwright, as the browser tests have them
  (tests/e2e/browser/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.browser.conftest import browser, chromium_path, page  # noqa: F401 - fixtures
from tests.e2e.http_helpers import Http
from tests.support.production import ProductionStack

HERE = Path(__file__).resolve().parent


def pytest_configure(config):
    """Register the tier's marker (``-m production`` runs it alone)."""
    config.addinivalue_line(
        "markers",
        "production: runs against gunicorn + real Redis + "
        "separate arena worker processes (tests/production)",
    )


def pytest_collection_modifyitems(config, items):
    """Mark every test of this directory ``production`` (and ``e2e``)."""
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.production)
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def production(redis_url, tmp_path_factory) -> Iterator[ProductionStack]:
    """gunicorn + 2 ``arena worker`` processes on the real test Redis (own key prefix)."""
    stack = ProductionStack(redis_url, tmp_path_factory.mktemp("production"), workers=2).start()
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def production_cluster(redis_url, redis_cluster, tmp_path_factory) -> Iterator[ProductionStack]:
    """gunicorn + 2 ``arena worker`` processes with the event store on the session's Redis
    Cluster and RQ on the real test Redis (RQ does not support Cluster)."""
    stack = ProductionStack(
        redis_cluster.url,
        tmp_path_factory.mktemp("production-cluster"),
        rq_redis_url=redis_url,
        workers=2,
    ).start()
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def production_http(production) -> Http:
    """JSON over HTTP to the standalone stack."""
    return Http(production.url)


@pytest.fixture
def production_cluster_http(production_cluster) -> Http:
    """JSON over HTTP to the cluster stack."""
    return Http(production_cluster.url)
