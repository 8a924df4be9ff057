"""The embedded app (bots played by the embedded worker threads) over real HTTP on a
random port of 127.0.0.1, for the SDK examples (tests/e2e/test_sdk_*.py), which are
separate clients: a Node process or the Python package's own HTTP."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server

from service import bootstrap


@contextmanager
def served(app: Any, service: Any) -> Iterator[str]:
    """``app`` served (threaded werkzeug) while the block runs; yields its base URL."""
    bootstrap.install(service)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="sdk-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)
