"""Cross-origin requests (Fetch Standard, "CORS protocol") for browser apps on other origins.

Off unless the setting ``ARENA_CORS_ORIGINS`` (app config or environment) names origins: a
comma list of exact origins (``https://app.example,http://localhost:5173``; scheme, host
and port, compared case-insensitively) or ``*`` for any origin. With it set, flask-cors
answers every route for a listed ``Origin``:

- preflight ``OPTIONS`` (``204 No Content`` with ``Allow``, as every ``OPTIONS`` answer:
  :meth:`api.app.ArenaFlask.make_default_options_response`):
  ``Access-Control-Allow-Origin`` (the request's origin, or ``*``),
  ``Access-Control-Allow-Methods`` (:data:`METHODS`), ``Access-Control-Allow-Headers`` (the
  requested ones among :data:`ALLOW_HEADERS`), ``Access-Control-Max-Age``
  (:data:`MAX_AGE_S` seconds);
- every other answer, problems included: ``Access-Control-Allow-Origin`` and
  ``Access-Control-Expose-Headers`` (:data:`EXPOSE_HEADERS`).

With CORS on, **every** answer carries ``Vary: Origin`` (:func:`vary_on_origin`; preflights
also ``Vary: Access-Control-Request-Method, Access-Control-Request-Headers``), whether or
not it carries ``Access-Control-Allow-Origin``, ``*`` included, 304s and cached public
answers included (the card data, the game catalogue, the web client's files): what the
answer says depends on the request's ``Origin``, so a shared cache must not hand one
origin's answer (or a no-origin answer without the header) to another (Fetch Standard,
"CORS protocol and HTTP caches"; RFC 9110 section 12.5.5).

An origin not listed gets no ``Access-Control-*`` header (the browser then refuses the
answer to its script). No credentials mode: seat tokens travel in ``Authorization``, never in
cookies, so ``Access-Control-Allow-Credentials`` is never sent.
"""

from __future__ import annotations

import os

from flask import Flask, Response, request
from flask_cors import CORS

#: Methods the API answers cross-origin.
METHODS = ["GET", "HEAD", "POST", "OPTIONS"]
#: Request headers a cross-origin script may send.
ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "Prefer",
    "X-Request-ID",
]
#: Response headers a cross-origin script may read (beyond the CORS-safelisted ones).
EXPOSE_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "Idempotent-Replayed",
    "WWW-Authenticate",
    "Allow",
    "Preference-Applied",
    "X-Request-ID",
]
#: Seconds a browser may reuse a preflight answer.
MAX_AGE_S = 600
SETTING = "ARENA_CORS_ORIGINS"


def allowed_origins(value: str | None) -> list[str]:
    """The origins of a comma list (blank items dropped; a trailing ``/`` removed, since an
    ``Origin`` header never has one); ``[]`` for ``None`` or a blank string.

    Raises:
        ValueError: an item that is neither ``*`` nor ``scheme://host[:port]``.
    """
    origins = []
    for item in (value or "").split(","):
        origin = item.strip().rstrip("/")
        if not origin:
            continue
        scheme, sep, rest = origin.partition("://")
        if origin != "*" and (
            not sep or scheme.lower() not in ("http", "https") or not rest or "/" in rest
        ):
            raise ValueError(
                f"{SETTING}: {item.strip()!r} is not an origin (scheme://host[:port]) or '*'"
            )
        origins.append(origin)
    return origins


def install(app: Flask) -> CORS | None:
    """Turn CORS on for ``app`` when :data:`SETTING` (config, else environment) lists
    origins; returns the flask-cors extension, or ``None`` when CORS stays off."""
    origins = allowed_origins(app.config.get(SETTING, os.environ.get(SETTING)))
    if not origins:
        return None
    any_origin = "*" in origins
    app.after_request(vary_on_origin)
    return CORS(
        app,
        origins="*" if any_origin else origins,
        send_wildcard=any_origin,
        methods=METHODS,
        allow_headers=ALLOW_HEADERS,
        expose_headers=EXPOSE_HEADERS,
        max_age=MAX_AGE_S,
        supports_credentials=False,
        always_send=False,
        vary_header=True,
        automatic_options=True,
    )


#: What a preflight answer depends on besides ``Origin``.
PREFLIGHT_VARY = ("Access-Control-Request-Method", "Access-Control-Request-Headers")


def vary_on_origin(response: Response) -> Response:
    """``after_request`` hook (installed only with CORS on): add ``Origin`` to the answer's
    ``Vary`` (and, on a preflight ``OPTIONS``, :data:`PREFLIGHT_VARY`), keeping the names
    already there (``Authorization``, ``Prefer``, ...). Returns ``response``."""
    names = ["Origin"]
    if request.method == "OPTIONS":
        names.extend(PREFLIGHT_VARY)
    for name in names:
        response.vary.add(name)
    return response
