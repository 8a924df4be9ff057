"""Browser fixtures: Debian's Chromium driven by Playwright against a live server.

- ``chromium_path`` (session): ``shutil.which("chromium")``; when it is missing it is
  installed with apt-get (as root, like ``.ci/run`` does). Only when it is absent and cannot
  be installed do the browser tests skip — never in CI (``CI`` set), where that fails.
- ``web_server`` (session): the API (with the web client) over werkzeug on a free port,
  serving the embedded service of ``tests/e2e/conftest.py`` (its worker threads play the
  bot seats).
- ``browser`` (session) and ``page`` (per test, 1280 x 800): a page whose console errors
  and uncaught exceptions fail the test (:class:`ConsoleGuard`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from service import bootstrap

#: Chromium switches for a headless run as root on a box without GPU or internet
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: generous: the machine is a shared, heavily loaded 2-core box
TIMEOUT_MS = 90_000


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium binary (installed from Debian's packages when missing and possible)."""
    path = shutil.which("chromium")
    if path is None and shutil.which("apt-get") and os.geteuid() == 0:
        for command in (
            ["apt-get", "install", "-y", "-qq", "chromium"],
            ["apt-get", "update", "-qq"],
            ["apt-get", "install", "-y", "-qq", "chromium"],
        ):
            subprocess.run(
                command,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
                env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
            )
            path = shutil.which("chromium")
            if path:
                break
    if path is None:
        _unavailable("chromium is not installed and cannot be installed here")
    return path


@pytest.fixture(scope="session")
def web_server(embedded_service) -> Iterator[str]:
    """The API and web client on a free port of 127.0.0.1; yields the base URL."""
    bootstrap.install(embedded_service)
    app = create_app(embedded_service, {"SSE_POLL_S": 0.5})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="browser-web-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


@pytest.fixture(autouse=True)
def _installed(embedded_service):
    """The embedded worker threads' jobs use the process's installed service: this one."""
    bootstrap.install(embedded_service)


#: The process's one Chromium: tests/production/conftest.py imports this fixture too, so a
#: process running both folders holds two session fixtures, and a second ``sync_playwright()``
#: in one thread is refused ("Playwright Sync API inside the asyncio loop").
_CHROMIUM: dict[str, Any] = {}


@pytest.fixture(scope="session")
def browser(chromium_path) -> Iterator[Any]:
    """One headless Chromium for the session (shared by every fixture instance of it)."""
    if "chromium" in _CHROMIUM:
        yield _CHROMIUM["chromium"]
        return
    sync_api = (
        pytest.importorskip("playwright.sync_api")
        if not os.environ.get("CI")
        else __import__("playwright.sync_api", fromlist=["sync_playwright"])
    )
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        _CHROMIUM["chromium"] = chromium
        try:
            yield chromium
        finally:
            _CHROMIUM.pop("chromium", None)
            chromium.close()


class ConsoleGuard:
    """Collects a page's console errors and uncaught exceptions.

    ``allowed`` holds (url suffix, status) pairs of failed requests the client handles as
    part of the game (a move another seat's move made stale: 409/422 to ``/actions``):
    the browser logs every non-2xx fetch as a console error, and such a race is not a bug.
    """

    def __init__(self, page: Any):
        self.errors: list[str] = []
        self.allowed = {("/actions", 409), ("/actions", 422)}
        self._failed: list[tuple[str, int]] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self._failed.append((response.url, response.status))

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if "Failed to load resource" in message.text and any(
            url.endswith(suffix) and f"status of {status}" in message.text
            for suffix, status in self.allowed
        ):
            return
        self.errors.append(f"console: {message.text} ({url})")

    def check(self) -> None:
        assert not self.errors, "\n".join(self.errors)


@pytest.fixture
def page(browser) -> Iterator[Any]:
    """A fresh 1280 x 800 page (own storage); console errors fail the test at its end."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    guard = ConsoleGuard(tab)
    tab.console_guard = guard
    yield tab
    context.close()
    guard.check()
