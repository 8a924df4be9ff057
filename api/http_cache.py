"""HTTP caching of every answer, decided in one place: ``Cache-Control``, ``Vary``, ``ETag``
and ``304 Not Modified`` (RFC 9110 sections 8.8.3, 12.5.5 and 13.1.2; RFC 9111 section 5.2).

Rules (applied by :func:`finish`, an ``after_request`` hook; preflight ``OPTIONS`` answers
are left to :mod:`api.cors`):

- **Seat-specific answers** — every answer to a request carrying ``Authorization`` (a seat's
  view, legal actions, events, SSE, ``state`` with a token, ...) and every answer to a
  method other than GET/HEAD (``create``/``join``/``rematch``/``fork`` answers carry seat
  tokens): ``Cache-Control: private, no-store``. Nothing that one seat was sent may be
  stored by a shared cache, or by the browser, and handed to another seat.
- ``Vary: Authorization`` on every answer under ``/v1/matches`` (what they say depends on
  the bearer token, or on there being none) and on every answer to a request with one.
- **Problems** (4xx/5xx) to GET/HEAD without a token: ``Cache-Control: no-store`` (a 404 or
  405 is otherwise heuristically cacheable, RFC 9111 section 4.2.2).
- **Public answers** keep what their view set (the card data: ``public, max-age=3600``;
  the web client's files: ``no-cache``); the game catalogue is ``public, max-age=300``
  (static for the life of a process); the health probes and ``/metrics`` are ``no-store`` (live
  readings); everything else — the lobby, a spectator's view and events, past states,
  exports, ``/openapi.yaml`` — is ``no-cache`` (may be stored, revalidated before each use).
- **ETag and 304**: every 200 answer to GET/HEAD except the health probes, ``/metrics`` and the
  SSE stream carries a strong ``ETag`` (:func:`body_etag`: a digest of the exact body, so it
  changes whenever the representation does); the match view's is
  ``"<version>-<digest>"`` (:func:`set_version_etag`), still usable as ``If-Match`` on
  ``POST .../actions``. A request whose ``If-None-Match`` matches (weak comparison, ``*``,
  comma lists: werkzeug's :meth:`~werkzeug.wrappers.Response.make_conditional`) is answered
  ``304 Not Modified`` with no body and the same ``ETag``, ``Cache-Control`` and ``Vary``.
"""

from __future__ import annotations

import hashlib

from flask import Flask, Response, request

#: Seat-specific answers: never stored by any cache.
PRIVATE = "private, no-store"
#: Public answers that change: store, but revalidate (``If-None-Match``) before each use.
REVALIDATE = "no-cache"
#: Answers never to be stored at all (live readings, problems).
NO_STORE = "no-store"
#: Endpoints (Flask endpoint names) with a fixed public policy.
PUBLIC_POLICIES: dict[str, str] = {
    "games.list_games": "public, max-age=300",
    "games.get_game": "public, max-age=300",
    "ops.healthz": NO_STORE,
    "ops.livez": NO_STORE,
    "ops.readyz": NO_STORE,
    "ops.metrics": NO_STORE,
}
#: Endpoints whose answers get no ETag (live readings; the SSE stream is streamed anyway).
NO_ETAG = frozenset({"ops.healthz", "ops.livez", "ops.readyz", "ops.metrics", "events.stream"})
#: Answers under this path prefix depend on the request's bearer token (or its absence).
MATCHES_PREFIX = "/v1/matches"
_SAFE = ("GET", "HEAD")


def install(app: Flask) -> None:
    """Register :func:`finish` as an ``after_request`` hook of ``app``."""
    app.after_request(finish)


def body_etag(body: bytes, version: int | None = None) -> str:
    """The strong entity tag of a body: ``"<digest>"``, or ``"<version>-<digest>"`` when a
    match ``version`` is given (``digest``: 24 hex digits of BLAKE2b over the exact bytes,
    so equal tags mean byte-identical representations, RFC 9110 section 8.8.3)."""
    digest = hashlib.blake2b(body, digest_size=12).hexdigest()
    return f'"{digest}"' if version is None else f'"{version}-{digest}"'


def set_version_etag(response: Response, version: int) -> Response:
    """Give ``response`` the ETag ``"<version>-<digest of its body>"`` (the match view)."""
    response.headers["ETag"] = body_etag(response.get_data(), version)
    return response


def finish(response: Response) -> Response:
    """Apply the module's rules to ``response`` (see the module docstring); returns it,
    possibly turned into a ``304 Not Modified``."""
    method = request.method
    if method == "OPTIONS":
        return response
    has_token = "Authorization" in request.headers
    if has_token or request.path.startswith(MATCHES_PREFIX):
        if "Vary" in response.headers:
            response.vary.add("Authorization")
        else:
            response.headers["Vary"] = "Authorization"
    if has_token or method not in _SAFE:
        response.headers["Cache-Control"] = PRIVATE
    elif response.status_code >= 400:
        response.headers["Cache-Control"] = NO_STORE
    elif "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = PUBLIC_POLICIES.get(request.endpoint or "", REVALIDATE)
    if (
        method in _SAFE
        and response.status_code == 200
        and not response.is_streamed
        and request.endpoint not in NO_ETAG
    ):
        if "ETag" not in response.headers:
            response.headers["ETag"] = body_etag(response.get_data())
        if "If-None-Match" in request.headers:  # the only precondition a GET here takes
            response.make_conditional(request)
    return response
