"""The request-body size limit for chunked bodies too (RFC 9110 section 15.5.14, 413).

werkzeug refuses a ``Content-Length`` above ``MAX_CONTENT_LENGTH`` with 413 by itself, but a
``Transfer-Encoding: chunked`` body has no length up front: werkzeug's stream just stops at
the limit and the JSON parser then saw a truncated document (400 ``malformed_json``). This
``before_request`` hook reads a chunked body itself, at most ``MAX_CONTENT_LENGTH + 1``
bytes in :data:`READ_CHUNK` pieces (never the whole of an endless stream), answers
413 ``payload_too_large`` past the limit (the rest of the body is left to the server),
and otherwise hands the buffered body on to werkzeug's request stream.

A chunked body whose framing is broken (a chunk size that is not hexadecimal such as ``zz``,
a chunk shorter than its size line, a missing CRLF, the connection closed before the last
chunk) is the client's error: 400 ``bad_request`` (RFC 9112 section 7.1), not a 500. Both
servers then close the connection (werkzeug always does; gunicorn closes a connection whose
body failed to read), since where the next request would start is unknown. A body that
stops arriving until the server's socket timeout is 408 ``request_timeout``.
"""

from __future__ import annotations

import io

from flask import Flask, current_app, request

from api.errors import Problem

try:  # gunicorn's chunk-framing errors (absent when only the embedded server is installed)
    from gunicorn.http.errors import ParseException as _GunicornParseError
except ImportError:  # pragma: no cover

    class _GunicornParseError(Exception):  # type: ignore[no-redef]
        """Stands in for gunicorn's parse error class."""


#: What reading a broken chunked body raises: werkzeug's ``DechunkedInput`` raises
#: ``OSError`` ("Invalid chunk header", "Missing chunk terminating newline"); gunicorn's
#: ``ChunkedReader`` raises ``InvalidChunkSize``/``ChunkMissingTerminator``/
#: ``InvalidChunkExtension`` (``ParseException``) and ``NoMoreData`` (an ``IOError``).
FRAMING_ERRORS = (OSError, ValueError, _GunicornParseError)

#: Bytes read from the server's input stream at a time.
READ_CHUNK = 64 * 1024


def install(app: Flask) -> None:
    """Register :func:`limit_chunked_body` as a ``before_request`` hook of ``app``."""
    app.before_request(limit_chunked_body)


def limit_chunked_body() -> None:
    """Buffer a chunked request body of at most ``MAX_CONTENT_LENGTH`` bytes (the server has
    already removed the chunk framing: ``wsgi.input_terminated``), else refuse it.

    Raises:
        Problem: 413 ``payload_too_large`` for a body above the limit; 400 ``bad_request``
            for broken chunk framing; 408 ``request_timeout`` when the body stops arriving.
    """
    environ = request.environ
    if "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower() or not environ.get(
        "wsgi.input_terminated"
    ):
        return
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    stream = environ["wsgi.input"]
    parts, size = [], 0
    while True:
        want = READ_CHUNK if limit is None else min(READ_CHUNK, limit + 1 - size)
        part = _read(stream, want)
        if not part:
            break
        parts.append(part)
        size += len(part)
        if limit is not None and size > limit:
            raise Problem(
                413, "payload_too_large", f"The request body is larger than {limit} bytes."
            )
    # still "terminated": werkzeug reads the buffered body to its end (within the limit)
    environ["wsgi.input"] = io.BytesIO(b"".join(parts))


def _read(stream, size: int) -> bytes:
    """``stream.read(size)`` with the servers' framing errors turned into problems.

    Raises:
        Problem: 408 ``request_timeout`` (the socket timed out), else 400 ``bad_request``.
    """
    try:
        return stream.read(size)
    except TimeoutError:
        raise Problem(
            408, "request_timeout", "The request body stopped arriving before it was complete."
        ) from None
    except FRAMING_ERRORS as error:
        raise Problem(
            400, "bad_request", f"The chunked request body is malformed: {error}."
        ) from None
