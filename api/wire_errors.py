"""problem+json for the errors the HTTP server answers before Flask sees a request.

A request line longer than the server's limit (414 URI Too Long), header fields over its
limits (431 Request Header Fields Too Large, RFC 6585 section 5), a malformed request line
or header (400) never reach the app: the server itself writes the answer, by default as an
HTML page. Both servers the project runs answer RFC 9457 ``application/problem+json``
instead, with the codes of :data:`WIRE_CODES` and the same members as
:func:`api.errors.problem_response` (``instance`` is ``null``: no request target was read):

- gunicorn: :class:`ProblemThreadWorker`, its ``gthread`` worker with ``handle_error``
  overridden — gunicorn's own ``handle_error`` still decides the status and logs (warning,
  access log) exactly as before; only the bytes it would write are replaced. Select it
  with ``--worker-class api.wire_errors.ProblemThreadWorker`` (Dockerfile, compose.yaml,
  ``arena serve`` with ``REDIS_URL``);
- the embedded ``arena serve`` (werkzeug's threaded server): :class:`ProblemRequestHandler`,
  werkzeug's request handler with ``send_error`` writing problem+json.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any, cast

from gunicorn.http import parser as gunicorn_parser
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker
from werkzeug.serving import WSGIRequestHandler

from api.errors import PROBLEM_MEDIA_TYPE, PROBLEM_TYPE_BASE, TITLES
from api.request_threads import RequestThreads

#: HTTP status -> stable code of an error the server answers before the app.
WIRE_CODES: dict[int, str] = {
    400: "bad_request",
    403: "forbidden",
    408: "request_timeout",
    413: "payload_too_large",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "header_fields_too_large",
    500: "internal_error",
    501: "not_implemented",
    505: "http_version_not_supported",
}
_STATUS_LINE = re.compile(rb"^HTTP/1\.[01] ([1-5][0-9]{2}) ([^\r\n]*)\r\n")


def wire_code(status: int) -> str:
    """The stable code of a server-level error ``status`` (see :data:`WIRE_CODES`)."""
    return WIRE_CODES.get(status, "bad_request" if status < 500 else "internal_error")


def problem_message(status: int, reason: str, detail: str) -> bytes:
    """A complete HTTP/1.1 error answer: status line, ``Connection: close``,
    ``Content-Type: application/problem+json``, ``Content-Length`` and the problem body.

    Args:
        status: the HTTP status (400-599).
        reason: its reason phrase (``URI Too Long``).
        detail: one sentence for a human (the server's own explanation).
    """
    body = problem_body(status, detail)
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_MEDIA_TYPE}\r\nContent-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\n\r\n"
    )
    return head.encode("latin-1", "replace") + body


def problem_body(status: int, detail: str) -> bytes:
    """The RFC 9457 body of a server-level error (UTF-8 JSON, ``instance: null``)."""
    code = wire_code(status)
    return json.dumps(
        {
            "type": PROBLEM_TYPE_BASE + code,
            "title": TITLES.get(code, code.replace("_", " ").capitalize()),
            "status": status,
            "detail": detail,
            "code": code,
            "instance": None,
        },
        separators=(",", ":"),
    ).encode()


class _CapturedSocket:
    """Stands in for the client socket while gunicorn's ``handle_error`` writes its HTML
    answer: records the bytes instead of sending them (gunicorn writes with ``gettimeout``,
    ``setblocking`` and ``sendall`` only, ``gunicorn.util.write_nonblock``)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.written = b""

    def gettimeout(self) -> float | None:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        """Nothing to change on a capture."""

    def sendall(self, data: bytes) -> None:
        self.written += data

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


#: The most of an unread request body gunicorn discards to keep a connection open (its
#: parser's ``_DRAIN_MAX_BYTES``): past it the connection closes after the answer.
DRAIN_MAX_BYTES: int = getattr(gunicorn_parser, "_DRAIN_MAX_BYTES", 64 * 1024)


def body_left_unread(body: Any) -> bool:
    """Whether a gunicorn request ``body`` (``wsgi.input`` as the server made it) still holds
    more than gunicorn will discard to keep the connection: a ``Content-Length`` body with
    more than :data:`DRAIN_MAX_BYTES` not yet read, or a chunked body not read to its end
    (its size is unknown)."""
    reader: Any = getattr(body, "reader", None)
    length = getattr(reader, "length", None)
    if isinstance(length, int):  # LengthReader: ``length`` is what is left to read
        return length > DRAIN_MAX_BYTES
    if hasattr(reader, "parser"):  # ChunkedReader: ``parser`` is None once the body ended
        return reader.parser is not None
    return False


def closing_when_body_unread(app: Any) -> Any:
    """``app`` (a WSGI callable under gunicorn) whose answer says ``Connection: close`` when
    the app answered without reading a large request body (a 401, 404 or 413 refusing it
    early): gunicorn then closes the connection instead of discarding the rest, so the
    answer must not promise keep-alive (RFC 9112 section 9.6). It looks at the server's own
    body object (taken before the app may replace ``wsgi.input``) and closes through the
    gunicorn response that ``start_response`` belongs to, before any header is sent."""

    def wrapped(environ: dict[str, Any], start_response: Any) -> Any:
        body = environ.get("wsgi.input")
        answer = app(environ, start_response)
        response = getattr(start_response, "__self__", None)
        if response is not None and body_left_unread(body):
            response.force_close()
        return answer

    wrapped.__wrapped__ = app  # type: ignore[attr-defined]  # inspect.unwrap finds the app
    return wrapped


class ProblemThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker answering its own request errors as problem+json, its
    requests handed to :class:`api.request_threads.RequestThreads` (no future per request),
    and saying ``Connection: close`` when it will not keep a connection whose request body
    the app left unread (:func:`closing_when_body_unread`)."""

    def load_wsgi(self) -> None:
        """gunicorn's loading of the app, wrapped in :func:`closing_when_body_unread`."""
        super().load_wsgi()
        self.wsgi = closing_when_body_unread(self.wsgi)

    def get_thread_pool(self) -> Any:
        """``threads`` request threads taking connections from one queue."""
        return RequestThreads(self.cfg.threads, self.handle, self._handled)

    def _handled(self, conn: Any, outcome: Any) -> None:
        self.method_queue.defer(self.finish_request, conn, outcome)

    def enqueue_req(self, conn: Any) -> None:
        """Queue ``conn`` for a request thread (gunicorn: ``submit`` and a future)."""
        self.tpool.submit(conn)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """gunicorn's handling (status choice, logging, access log) with the answer it
        writes replaced by :func:`problem_message` carrying the same status and reason."""
        capture = _CapturedSocket(client)
        # a stand-in for the socket: gunicorn's error answer uses only the methods it has
        super().handle_error(req, cast(socket.socket, capture), addr, exc)
        found = _STATUS_LINE.match(capture.written)
        if found is None:  # gunicorn wrote nothing (or could not): nothing to replace
            return
        status, reason = int(found.group(1)), found.group(2).decode("latin-1")
        if status >= 500:
            detail = "The server could not handle this request."
        else:
            detail = f"{reason}: {exc}" if str(exc) else reason
        try:
            write_nonblock(client, problem_message(status, reason, detail))
        except Exception:  # as gunicorn does: a client gone already gets nothing
            self.log.debug("Failed to send error message.")


class ProblemRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler (the embedded server) whose own error answers — 414 for a
    request line over 65536 bytes, 431 for a header line over 65536 bytes or more than 100
    header fields, 400 for a malformed request — are problem+json."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Log and send error ``code`` as problem+json (``http.server`` semantics: the
        connection closes; no body for a HEAD request)."""
        short, long = self.responses.get(code, ("Error", ""))
        reason = message or short
        self.log_error("code %d, message %s", code, reason)
        body = problem_body(code, explain or long or reason)
        self.send_response(code, reason)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", PROBLEM_MEDIA_TYPE)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
