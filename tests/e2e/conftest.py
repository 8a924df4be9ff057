"""E2E fixtures: the API over the embedded service, and a live HTTP server on real Redis.

- ``embedded_service`` (session): a MatchService on the process's fakeredis under a
  unique key prefix, with the embedded worker/scheduler threads running, so bot seats play.
- ``app`` / ``client``: the Flask app over it and a test client.
- ``live_server``: a werkzeug server (threaded) in a background thread serving a service on
  the real Redis of ``real_config`` (tests/conftest.py: own key prefix, keys deleted
  afterwards). No worker runs there: live tests use human seats only.
- ``http``: :class:`tests.e2e.http_helpers.Http` over the test client.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from service import bootstrap
from service.bootstrap import build_service
from service.config import Config
from tests.e2e.http_helpers import Http
from workers.embedded import EmbeddedRuntime


@pytest.fixture(scope="session")
def embedded_service() -> Iterator[Any]:
    """A MatchService on embedded fakeredis (unique prefix) with worker threads running.
    Every test client is one address: the caps per client are off (their own tests set
    them)."""
    service = build_service(
        Config(
            key_prefix=f"e2e-{uuid.uuid4().hex[:8]}",
            max_bot_matches_per_client=0,
            max_analyses_per_client=0,
        )
    )
    runtime = EmbeddedRuntime(service, interval_s=1, reconcile_s=1.0).start()
    yield service
    runtime.stop()


@pytest.fixture(scope="session")
def app(embedded_service):
    """The API app over the embedded service (short SSE polls for tests)."""
    return create_app(embedded_service, {"SSE_POLL_S": 0.5, "TESTING": True})


@pytest.fixture
def client(app, embedded_service):
    """A Flask test client (the embedded service is (re)installed as the process's service,
    which the worker thread's jobs use)."""
    bootstrap.install(embedded_service)
    return app.test_client()


class LiveServer:
    """A running HTTP server: ``url`` and the ``service`` behind it."""

    def __init__(self, url: str, service: Any):
        self.url = url
        self.service = service


@pytest.fixture
def live_server(real_config) -> Iterator[LiveServer]:
    """The API served over real HTTP (werkzeug, threaded) on the real Redis of
    ``real_config`` (tests/conftest.py: per-test prefix, keys deleted afterwards), with the
    installed games rather than the test games."""
    service = build_service(real_config.with_(engines_path=None))
    server = make_server("127.0.0.1", 0, create_app(service, {"SSE_POLL_S": 0.5}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="e2e-live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", service)
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture
def http(client) -> Http:
    """:class:`Http` over the Flask test client of the embedded app."""
    return Http(client)


@pytest.fixture(scope="session")
def python_client_code(tmp_path_factory) -> Path:
    """The Python client generated from the current ``openapi.yaml`` by the SDK's own
    ``clients/python/generate.py`` (openapi-python-client, the pinned version), once per
    session: a folder holding ``arena_sdk/generated``, the package both the SDK tests
    (``tests/e2e/test_sdk_python.py``) and the bare generated client's tests
    (``tests/e2e/test_generated_python_client.py``, as ``arena_client``) copy. Its tests
    share one xdist worker (group ``python-client``, :mod:`tests.support.suite_plan`)."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    script = root / "clients" / "python" / "generate.py"
    spec = importlib.util.spec_from_file_location("arena_sdk_generate", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = tmp_path_factory.mktemp("python-client")
    module.generate(root / "openapi.yaml", folder)
    return folder / "arena_sdk" / "generated"


@pytest.fixture(scope="session")
def typescript_tools() -> Path:
    """``clients/ts/node_modules/.bin`` with the lock file's packages and ``openapi.d.ts``
    freshly generated, once per session (:func:`tests.support.typescript.prepare`)."""
    from tests.support.typescript import prepare

    return prepare()
