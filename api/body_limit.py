"""The request-body size limit for chunked bodies too (RFC 9110 section 15.5.14, 413).

werkzeug refuses a ``Content-Length`` above ``MAX_CONTENT_LENGTH`` with 413 by itself, but a
``Transfer-Encoding: chunked`` body has no length up front: werkzeug's stream just stops at
the limit and the JSON parser then saw a truncated document (400 ``malformed_json``). This
``before_request`` hook reads a chunked body itself, at most ``MAX_CONTENT_LENGTH + 1``
bytes in :data:`READ_CHUNK` pieces (never the whole of an endless stream), answers
413 ``payload_too_large`` past the limit (the rest of the body is left to the server),
and otherwise hands the buffered body on to werkzeug's request stream.
"""
from __future__ import annotations

import io

from flask import Flask, current_app, request

from api.errors import Problem

#: Bytes read from the server's input stream at a time.
READ_CHUNK = 64 * 1024


def install(app: Flask) -> None:
    """Register :func:`limit_chunked_body` as a ``before_request`` hook of ``app``."""
    app.before_request(limit_chunked_body)


def limit_chunked_body() -> None:
    """Buffer a chunked request body of at most ``MAX_CONTENT_LENGTH`` bytes (the server has
    already removed the chunk framing: ``wsgi.input_terminated``), else refuse it.

    Raises:
        Problem: 413 ``payload_too_large`` for a body above the limit.
    """
    environ = request.environ
    if ("chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
            or not environ.get("wsgi.input_terminated")):
        return
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    stream = environ["wsgi.input"]
    parts, size = [], 0
    while True:
        want = READ_CHUNK if limit is None else min(READ_CHUNK, limit + 1 - size)
        part = stream.read(want)
        if not part:
            break
        parts.append(part)
        size += len(part)
        if limit is not None and size > limit:
            raise Problem(413, "payload_too_large",
                          f"The request body is larger than {limit} bytes.")
    # still "terminated": werkzeug reads the buffered body to its end (within the limit)
    environ["wsgi.input"] = io.BytesIO(b"".join(parts))
