"""Per-client request rate limits of the HTTP API (Flask-Limiter over the ``limits`` library).

Settings (Flask config keys of the same name override the environment; unset = default;
parsed by :mod:`api.settings`, so a bad value stops the app from starting):

- ``ARENA_RATE_LIMITS_ENABLED``: ``1`` (default) or ``0``: request rate limits on or off.
- ``ARENA_RATE_LIMITS``: the limits every client shares over all ``/v1`` requests (reads
  and actions alike), ``;``-separated ``limits`` strings (default ``120/minute;20/second``).
- ``ARENA_CREATE_RATE_LIMITS``: the stricter limits on making a match (``POST /v1/matches``
  and ``POST /v1/matches/{id}/fork`` share them; default ``10/minute;2/second``), on top of
  the limits above.
- ``ARENA_RATE_LIMIT_STORAGE``: the counters' ``limits`` storage URI. Default: the store's
  Redis (``REDIS_URL``; a Redis Cluster as ``redis+cluster://host:port``), ``memory://`` in
  embedded mode (one process serves everything there). Keys are under
  ``<ARENA_KEY_PREFIX>:limits:`` (:meth:`service.store.keys.Keys.rate_limits`), one per client and
  limit window, each expiring with its window.
- ``ARENA_RATE_LIMIT_STRATEGY``: ``fixed-window`` (default: one counter key per client and
  limit, one script call each), ``sliding-window-counter`` or ``moving-window``.
- ``ARENA_TRUSTED_PROXIES``: how many reverse proxies in front of the API append to
  ``X-Forwarded-For`` (default ``0``: the header is ignored and the client is the TCP peer).
  With ``N`` > 0, werkzeug's ``ProxyFix(x_for=N)`` takes the client address from the N-th
  address from the right; set it only when exactly N trusted proxies always set the header,
  or clients can spoof their address.

The client: a request carrying a valid player key (issue 22) is that player's client
(``player:<player id>``, whatever the endpoint: a player's budget follows the player); a
request carrying a bearer token that is a seat token of the match in its path
is that seat's client (``seat:<SHA-256 of the token, 32 hex digits>``); every other request
(no token, a wrong token, an endpoint without a match) is its address's
(``addr:<remote address>``), so random tokens do not buy fresh budgets. Over the limit the
API answers 429 ``rate_limited`` problem+json with ``Retry-After`` (seconds until the
window that was exhausted resets; RFC 6585 section 4) through :mod:`api.errors`. The
operations endpoints (``/healthz``, ``/metrics``, ``/openapi.yaml``) and the web client's
files are not limited.

The caps on bot options and on running bot matches per client are the service's
(:mod:`service.store.quotas`); the views pass :func:`quota_client` for them.
"""

from __future__ import annotations

import math
import time
from typing import Any, cast

from flask import Blueprint, Flask, current_app, g, request
from flask_limiter import Limiter
from werkzeug.middleware.proxy_fix import ProxyFix

from api.runtime import service as request_service
from service.errors import ServiceError
from service.tokens import token_digest

#: ``app.extensions`` key of the app's :class:`flask_limiter.Limiter`.
EXTENSION = "arena_limiter"
#: Views that make a match: they share the creation limits (scope ``create``).
CREATE_ENDPOINTS = ("matches.create_match", "matches.fork")
#: Blueprints no limit applies to.
EXEMPT_BLUEPRINTS = ("ops", "webclient")


def storage_uri(service: Any, configured: str = "") -> str:
    """The ``limits`` storage URI: ``configured`` when set, else the service's store Redis
    (``redis+cluster://`` kept for a cluster), else ``memory://`` (embedded mode or a
    service built without a configuration)."""
    if configured:
        return configured
    config = getattr(service, "config", None)  # set by service.bootstrap.build_service
    url = getattr(config, "redis_url", None)
    if not url:
        return "memory://"
    scheme, sep, rest = url.partition("://")
    if getattr(config, "redis_cluster", False) and "+cluster" not in scheme:
        return "redis+cluster://" + rest
    return url


def address_key() -> str:
    """The client key of the request's address (after ``ProxyFix`` when configured)."""
    return "addr:" + (request.remote_addr or "unknown")


def _seat_key() -> str | None:
    """``seat:<digest>`` when the request's bearer token is a seat token of the match in
    its path, else None (the service's token cache makes a valid token cheap)."""
    scheme, _, token = (request.headers.get("Authorization") or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer" and token.startswith("pk."):
        try:  # a player key: every request of the player shares one budget (issue 22)
            return "player:" + request_service().player_of_key(token)
        except ServiceError:
            return None
    match_id = (request.view_args or {}).get("match_id")
    if scheme.lower() != "bearer" or not token or not isinstance(match_id, str):
        return None
    try:
        request_service().authenticate(match_id, token)  # this request's reads keep the head
    except ServiceError:
        return None
    return "seat:" + token_digest(token)[:32]


def client_key() -> str:
    """The rate-limit client of the current request (module docstring), computed once."""
    key = g.get("arena_client_key")
    if key is None:
        key = _seat_key() or address_key()
        g.arena_client_key = key
    return key


def quota_client() -> str:
    """The client whose running bot matches a match made by this request counts against
    (:mod:`service.store.quotas`): its address. Making a match is anonymous, so a bearer token
    (a seat of some other match) does not name the client."""
    return address_key()


def retry_after_s() -> int:
    """Whole seconds until the window of the limit the current request exceeded resets
    (at least 1)."""
    limiter = current_app.extensions.get(EXTENSION)
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return 1
    return max(1, math.ceil(current.window[0] - time.time()))  # (reset time, remaining)


def _is_preflight() -> bool:
    """A CORS preflight (``OPTIONS``) spends no client budget: the browser sends it by
    itself, and the request it announces is counted."""
    return request.method == "OPTIONS"


def install(app: Flask, service: Any) -> Limiter | None:
    """Install the proxy fix and the rate limits on ``app`` (serving ``service``) from its
    settings; returns the limiter, or None when rate limits are disabled.

    Raises:
        service.settings.ConfigError: a setting that does not parse (:mod:`api.settings`).
    """
    from api.settings import value  # parsed as at start-up: a bad value is refused here

    proxies = value(app.config, "ARENA_TRUSTED_PROXIES")
    if proxies:
        # Flask's documented way to add a WSGI middleware (typed as a method)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    if not value(app.config, "ARENA_RATE_LIMITS_ENABLED"):
        return None
    keys = service.keys  # service.store.keys.Keys
    limiter = Limiter(
        client_key,
        application_limits=[value(app.config, "ARENA_RATE_LIMITS")],
        storage_uri=storage_uri(service, value(app.config, "ARENA_RATE_LIMIT_STORAGE") or ""),
        storage_options={"key_prefix": keys.rate_limits()},
        strategy=value(app.config, "ARENA_RATE_LIMIT_STRATEGY"),
        headers_enabled=False,  # Retry-After comes from api.errors; no X-RateLimit-*
    )
    limiter.init_app(app)
    limiter.request_filter(_is_preflight)
    for name in EXEMPT_BLUEPRINTS:
        limiter.exempt(cast(Blueprint, app.blueprints[name]))  # typed as the sansio base
    create = limiter.shared_limit(
        value(app.config, "ARENA_CREATE_RATE_LIMITS"), scope="create", override_defaults=False
    )
    for endpoint in CREATE_ENDPOINTS:
        # flask-limiter's decorator types its result as possibly async: same view, same type
        app.view_functions[endpoint] = create(app.view_functions[endpoint])  # type: ignore[assignment]
    app.extensions[EXTENSION] = limiter
    return limiter
