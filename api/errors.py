"""Every error the HTTP API answers, mapped in one place to RFC 9457 problem details.

A problem response has the media type ``application/problem+json`` and the body::

    {"type": "https://apocalypse-arena.dev/problems/<code>", "title": str, "status": int,
     "detail": str, "code": str, "instance": "<request path>", ...extras}

``code`` is stable (clients branch on it; ``openapi.yaml`` lists it as an enum plus the
games' finer rule codes). Extras carry machine-readable context: ``errors`` (field ->
messages) for ``validation_error``, ``current_version`` for ``version_conflict``.
Every 503 problem (``busy``, ``store_unavailable``, ``too_many_waits``) carries ``Retry-After`` (RFC 9110
section 10.2.3: delay in seconds before the client may retry), unless the raiser set its own.
Every 429 problem carries ``Retry-After`` too (the raiser's value; default 1 s).

Sources mapped here:

- :class:`Problem` — raised by the API itself (bad JSON, validation, auth, ...);
- :class:`domain.engine.RuleError` — a command the rules reject (passes through the service);
- :class:`service.errors.ServiceError` — the service's own failures (unknown match, ...);
- the Redis client's errors that mean "the store cannot answer now"
  (``service.store.store_errors.STORE_UNAVAILABLE``: connection refused or lost, timeout,
  ``LOADING`` while Redis reloads its AOF/RDB, cluster
  down or a slot not served, ``READONLY``/``MASTERDOWN``/``TRYAGAIN`` and MOVED/ASK storms
  during a failover, ``OOM``) — 503 ``store_unavailable`` with ``Retry-After``
  (:data:`STORE_RETRY_AFTER_S`); the request changed nothing it did not acknowledge;
- :class:`flask_limiter.RateLimitExceeded` — a client over its request rate limits
  (:mod:`api.limits`): 429 ``rate_limited`` with ``Retry-After`` (RFC 6585 section 4);
- werkzeug ``HTTPException`` — unknown route (404), wrong method (405), body too large (413);
- anything else — a genuine bug: logged with its traceback, answered 500 ``internal_error``
  without internals.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json, request
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import HTTPException

from domain.engine import RuleError
from service.errors import ServiceError, is_store_unavailable

log = logging.getLogger(__name__)

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://apocalypse-arena.dev/problems/"
#: Seconds a client should wait before retrying a 503 answer (``Retry-After``).
RETRY_AFTER_S = 1
#: Seconds a client should wait before retrying after ``store_unavailable`` (a restart or a
#: failover takes seconds; a sooner retry only adds load to a recovering store).
STORE_RETRY_AFTER_S = 2


#: Titles of the codes the API and service answer (RFC 9457 "title": same for every
#: occurrence of a code). Codes not listed (finer game rule codes) get a title from the code.
TITLES: dict[str, str] = {
    "malformed_json": "Malformed JSON",
    "validation_error": "Validation failed",
    "unsupported_media_type": "Unsupported media type",
    "payload_too_large": "Payload too large",
    "bad_request": "Bad request",
    "missing_token": "Missing bearer token",
    "invalid_token": "Invalid bearer token",
    "forbidden": "Forbidden",
    "not_found": "Not found",
    "unknown_game": "Unknown game",
    "match_not_found": "Match not found",
    "method_not_allowed": "Method not allowed",
    "unknown_action": "Unknown action",
    "invalid_command": "Invalid command",
    "illegal_move": "Illegal move",
    "not_your_turn": "Not your turn",
    "match_finished": "Match finished",
    "match_running": "Match still running",
    "version_conflict": "Version conflict",
    "precondition_failed": "Precondition failed",
    "decision_moved": "Decision moved",
    "seat_taken": "Seat taken",
    "seat_not_found": "Seat not found",
    "invalid_seats": "Invalid seats",
    "idempotency_key_reused": "Idempotency key reused",
    "version_out_of_range": "Version out of range",
    "invalid_log": "Invalid log",
    "too_many_events": "Too many events",
    "busy": "Busy, retry",
    "invalid_turn_timeout": "Invalid turn timeout",
    "not_a_batch_boundary": "Not a batch boundary",
    "internal_error": "Internal server error",
    "service_unavailable": "Service unavailable",
    "store_unavailable": "Store unavailable",
    "rate_limited": "Too many requests",
    "too_many_waits": "Too many open streams and long-polls",
    "too_many_bot_matches": "Too many running bot matches",
    "too_many_analyses": "Too many analyses queued or running",
    "bot_options_capped": "Bot options above the server's cap",
    "player_key_mismatch": "Key of another player",
    "seat_name_reserved": "Seat name reserved",
    # answered by the HTTP server before the app (api.wire_errors)
    "uri_too_long": "URI too long",
    "header_fields_too_large": "Request header fields too large",
    "request_timeout": "Request timeout",
    "expectation_failed": "Expectation failed",
    "not_implemented": "Not implemented",
    "http_version_not_supported": "HTTP version not supported",
}

#: werkzeug HTTP status -> stable code for routing/protocol errors raised before a view runs.
_HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class Problem(Exception):
    """An error the API raises itself; rendered as problem+json by :func:`problem_response`.

    Args:
        status: HTTP status (4xx for bad input).
        code: stable snake_case code (see :data:`TITLES`).
        detail: one sentence for a human.
        headers: extra response headers (e.g. ``WWW-Authenticate``).
        **extras: additional members of the problem object (``errors``, ``current_version``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extras: Any,
    ):
        super().__init__(f"{code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extras = extras


#: the longest ``detail`` a problem answer carries (characters)
MAX_DETAIL = 1000


def validation_problem(errors: Any, detail: str = "The request is not valid.") -> Problem:
    """A 400 ``validation_error`` carrying marshmallow-style ``errors`` (field -> messages)."""
    return Problem(400, "validation_error", detail, errors=errors)


def problem_response(
    status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extras: Any
) -> Response:
    """Build the RFC 9457 response (``instance`` is the request path when in a request).

    A 503 answer gets ``Retry-After: RETRY_AFTER_S`` (seconds) unless ``headers`` has one.
    A ``detail`` longer than :data:`MAX_DETAIL` characters is cut there (a message that
    quotes a client's value never echoes megabytes of it back).
    """
    if len(detail) > MAX_DETAIL:
        detail = detail[: MAX_DETAIL - 3] + "..."
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_BASE + code,
        "title": TITLES.get(code, code.replace("_", " ").capitalize()),
        "status": status,
        "detail": detail,
        "code": code,
        "instance": request.path if request else None,
    }
    for key, value in extras.items():
        if key not in body:
            body[key] = value
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_MEDIA_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    if status in (429, 503) and "Retry-After" not in response.headers:
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response


def store_unavailable_response() -> Response:
    """The 503 ``store_unavailable`` answer (``Retry-After: STORE_RETRY_AFTER_S``)."""
    return problem_response(
        503,
        "store_unavailable",
        "The match store is not reachable right now; retry shortly.",
        {"Retry-After": str(STORE_RETRY_AFTER_S)},
    )


def register_error_handlers(app: Flask) -> None:
    """Install the one mapping from exceptions to problem+json responses on ``app``."""

    @app.errorhandler(Problem)
    def _problem(error: Problem) -> Response:
        return problem_response(
            error.status, error.code, error.detail, error.headers, **error.extras
        )

    @app.errorhandler(RuleError)
    def _rule_error(error: RuleError) -> Response:
        return problem_response(error.status, error.code, error.detail)

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(error: RateLimitExceeded) -> Response:
        from api.limits import retry_after_s

        limit = str(error.limit.limit)
        return problem_response(
            429,
            "rate_limited",
            f"Too many requests from this client: the limit is {limit}.",
            {"Retry-After": str(retry_after_s())},
            limit=limit,
        )

    @app.errorhandler(ServiceError)
    def _service_error(error: ServiceError) -> Response:
        headers = (
            {"WWW-Authenticate": 'Bearer error="invalid_token"'} if error.status == 401 else {}
        )
        if error.retry_after_s is not None:
            headers["Retry-After"] = str(error.retry_after_s)
        return problem_response(error.status, error.code, error.detail, headers, **error.extra)

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        status = error.code or 500
        code = _HTTP_CODES.get(status, "bad_request" if status < 500 else "internal_error")
        headers = {}
        if status == 405:
            allowed = getattr(error, "valid_methods", None)
            if allowed:
                headers["Allow"] = ", ".join(sorted(allowed))
        detail = {
            404: f"No resource at {request.path}.",
            405: f"{request.method} is not allowed on {request.path}.",
        }.get(status, error.description or TITLES.get(code, code))
        return problem_response(status, code, detail, headers)

    @app.errorhandler(Exception)
    def _bug(error: Exception) -> Response:
        if is_store_unavailable(error):
            log.warning(
                "store unavailable on %s %s: %s: %s",
                request.method,
                request.path,
                type(error).__name__,
                error,
            )
            return store_unavailable_response()
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem_response(
            500, "internal_error", "An unexpected error occurred; it has been logged."
        )
