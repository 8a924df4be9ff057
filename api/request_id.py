"""Request ids and the access log (a WSGI middleware around the Flask app).

- ``X-Request-ID``: a client's id is kept when it is 1-:data:`MAX_LENGTH` characters of
  :data:`PATTERN` (letters, digits, ``_ . : + = / -``); any other value, or none, is
  replaced by a fresh one (32 random hex digits). Every answer carries it in
  ``X-Request-ID``, and every log line written while the request is served carries it
  (``request_id``, :mod:`service.logs`).
- The access log (``ARENA_ACCESS_LOG``, on by default; off where a proxy in front logs
  every request: about 2-3% of an API process's CPU under load): one line per request on
  the ``arena.access`` logger when the answer's
  body is done (a stream's when it ends): method, path, status, bytes, duration in
  milliseconds, client address, request id (JSON fields of the same names with
  ``ARENA_LOG_FORMAT=json``). It never records a token: only the path and the query
  parameters the API documents are kept, with short plain values; any other parameter,
  any longer value and any path segment longer than :data:`MAX_SEGMENT` characters (a
  seat token has 43) is written ``***``. Headers (``Authorization``) are never logged.
- The same moment feeds ``arena_http_request_duration_seconds`` (:mod:`api.metrics`).
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, quote

from flask import Flask, request, request_started

from service.logs import REQUEST_ID

log = logging.getLogger("arena.access")

HEADER = "X-Request-ID"
MAX_LENGTH = 128
PATTERN = re.compile(rf"[A-Za-z0-9_.:+=/-]{{1,{MAX_LENGTH}}}")
#: ``environ`` key holding the request id (for the app: ``request.environ[ENVIRON_KEY]``).
ENVIRON_KEY = "arena.request_id"
#: Query parameters the API documents (openapi.yaml): their short plain values are logged.
LOGGED_PARAMETERS = frozenset(
    {
        "after",
        "cursor",
        "game",
        "limit",
        "max_s",
        "open_seat",
        "seat",
        "status",
        "version",
        "views",
        "wait",
    }
)
SAFE_VALUE = re.compile(r"[A-Za-z0-9_.,:-]{0,32}")
MAX_SEGMENT = 32
PLAIN_PATH = re.compile(rf"(?:/[A-Za-z0-9_.~:@=+,-]{{0,{MAX_SEGMENT}}})*")
REDACTED = "***"


def request_id(offered: str | None) -> str:
    """``offered`` when it is an acceptable id (module docstring), else a new one."""
    if offered is not None and PATTERN.fullmatch(offered):
        return offered
    return secrets.token_hex(16)


def loggable_target(path: str, query: str) -> str:
    """``path[?query]`` as the access log writes it: path segments longer than
    :data:`MAX_SEGMENT` characters and every query parameter that is not a documented one
    with a short plain value become ``***`` (module docstring)."""
    if PLAIN_PATH.fullmatch(path):  # the common case: nothing to quote or redact
        target = path
    else:
        target = "/".join(
            REDACTED
            if len(part) > MAX_SEGMENT
            else quote(part.encode("latin-1", "replace"), safe="@:+=,;-._~!$&'()*")
            for part in path.split("/")
        )
    if not query:
        return target
    pairs = []
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name in LOGGED_PARAMETERS and SAFE_VALUE.fullmatch(value):
            pairs.append(f"{name}={value}")
        else:
            pairs.append(REDACTED)
    return f"{target}?{'&'.join(pairs)}" if pairs else target


class _Body:
    """The app's response iterable, counting bytes, writing the access line on close."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]):
        self.body, self.done, self.size = body, done, 0

    def __iter__(self):
        for chunk in self.body:
            self.size += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.done(self.size)


class RequestLog:
    """WSGI middleware: request id in and out (module docstring) and the access log
    (``access_log`` False: no access line; the request id and ``observe`` stay)."""

    def __init__(
        self,
        app: Callable,
        observe: Callable[[dict, int, float], None] | None = None,
        access_log: bool = True,
    ):
        self.app = app
        self.observe = observe
        self.access_log = access_log

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        environ[ENVIRON_KEY] = rid
        REQUEST_ID.set(rid)
        started = time.perf_counter()
        status: list[str] = ["500"]

        def start(code: str, headers: list, exc_info: Any = None):
            status[0] = code.split(" ", 1)[0]
            headers = [(k, v) for k, v in headers if k.lower() != "x-request-id"]
            headers.append((HEADER, rid))
            return start_response(code, headers, exc_info)

        def done(size: int) -> None:
            seconds = time.perf_counter() - started
            code = int(status[0]) if status[0].isdigit() else 0
            if self.access_log and log.isEnabledFor(logging.INFO):
                target = loggable_target(
                    environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""),
                    environ.get("QUERY_STRING", ""),
                )
                fields = {
                    "method": environ.get("REQUEST_METHOD", "-"),
                    "path": target,
                    "status": code,
                    "bytes": size,
                    "duration_ms": round(seconds * 1000, 1),
                    "client": environ.get("REMOTE_ADDR", "-"),
                    "request_id": rid,
                }
                log.info(
                    "%s %s %s %dB %.1fms %s",
                    fields["method"],
                    target,
                    status[0],
                    size,
                    fields["duration_ms"],
                    fields["client"],
                    extra=fields,
                )
            if self.observe is not None:
                self.observe(environ, code, seconds)
            REQUEST_ID.set(None)

        try:
            body = self.app(environ, start)
        except BaseException:
            done(0)
            raise
        return _Body(body, done)


def install(app: Flask) -> None:
    """Wrap ``app.wsgi_app`` in :class:`RequestLog` (before :mod:`api.limits`' ProxyFix
    wraps it, so the access log's ``client`` is the forwarded address when trusted), which
    also feeds the HTTP duration histogram of :mod:`api.metrics`; the access line only
    with ``ARENA_ACCESS_LOG`` on (the default)."""
    from api import settings
    from api.metrics import ROUTE_KEY, observe

    def note_route(_sender: Flask, **_extra: Any) -> None:
        rule = request.url_rule  # matched when the request context was pushed
        if rule is not None:
            request.environ[ROUTE_KEY] = rule.rule

    request_started.connect(note_route, app, weak=False)
    # Flask's documented way to add a WSGI middleware (typed as a method)
    app.wsgi_app = RequestLog(  # type: ignore[method-assign]
        app.wsgi_app, observe, settings.value(app.config, "ARENA_ACCESS_LOG")
    )
