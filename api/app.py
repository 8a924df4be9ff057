"""The Flask application factory (``create_app``) of the Apocalypse Arena HTTP API.

Run it with gunicorn (``gunicorn 'api.app:create_app()'``) or ``arena serve``. The app is
stateless apart from caches: every match lives in the service's Redis store, so any
number of processes may serve the same matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

from api import (
    analysis,
    body_limit,
    cors,
    events,
    games,
    http_cache,
    limits,
    matches,
    ops,
    players,
    replays,
    request_id,
    settings,
    waits,
    webclient,
)
from api.errors import register_error_handlers
from api.runtime import Runtime
from api.schemas import check_match_id

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,  # bytes; an exported log can be large
    "SSE_POLL_S": 15.0,  # seconds one SSE long-poll waits before a keep-alive comment
}


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson for responses (several times faster than the
    stdlib encoder on views and event pages); anything orjson refuses (e.g. a value
    type only the default encoder knows) falls back to the stdlib path unchanged.
    Keys keep their order and non-ASCII text is sent as UTF-8. ``jsonify`` asks for the
    compact separators (``Flask.json.response``: ``separators=(",", ":")`` unless
    debugging), which is orjson's output: those calls take orjson too (they fell back to
    the stdlib encoder before, 3-4% of the server's CPU under the peer benchmark's load)."""

    sort_keys = False
    ensure_ascii = False
    _OPTIONS = orjson.OPT_NON_STR_KEYS
    _COMPACT = {"separators": (",", ":")}

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs or kwargs == self._COMPACT:
            try:
                return orjson.dumps(obj, option=self._OPTIONS).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)


class ArenaFlask(Flask):
    """The Flask app class with :class:`FastJSONProvider` and its own ``OPTIONS`` answer."""

    json_provider_class = FastJSONProvider

    def make_default_options_response(self) -> Response:
        """The answer to ``OPTIONS`` on any route: ``204 No Content`` with ``Allow`` (the
        route's methods, RFC 9110 section 9.3.7) and no body or media type (Flask's own is a
        ``200 text/html`` with an empty body). With CORS on (:mod:`api.cors`), a preflight
        from a listed origin gets its ``Access-Control-*`` headers on this answer; a
        preflight needs only a 2xx status (Fetch Standard, "CORS-preflight fetch")."""
        response = super().make_default_options_response()
        response.status_code = 204
        response.headers.remove("Content-Type")
        return response


def create_app(service: Any = None, config: Mapping[str, Any] | None = None) -> Flask:
    """Build the API app.

    Args:
        service: the ``MatchService`` to serve; default ``service.bootstrap.build_service()``
            (configured from the environment: embedded fakeredis when ``REDIS_URL`` is unset).
        config: Flask config overrides (``MAX_CONTENT_LENGTH``, ``SSE_POLL_S``,
            ``ARENA_MAX_LOG_EVENTS`` of :mod:`api.replays`, the rate-limit settings of
            :mod:`api.limits` such as ``ARENA_RATE_LIMITS_ENABLED``, ``ARENA_CORS_ORIGINS``
            of :mod:`api.cors`; unset keys of these two are read from the environment).
    """
    if service is None:
        from service.bootstrap import build_service

        service = build_service()
    app = ArenaFlask(__name__, static_folder=None)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    settings.check_app(app.config)  # a bad setting stops the app here, not per request
    app.url_map.strict_slashes = False
    # "//" in a path is a 404 problem, not werkzeug's HTML 308 to the merged path
    app.url_map.merge_slashes = False
    app.extensions["arena"] = Runtime(service)
    for module in (games, matches, events, players, replays, analysis, ops, webclient):
        app.register_blueprint(module.bp)
    app.url_value_preprocessor(check_match_id)
    register_error_handlers(app)
    replays.install(app)
    waits.install(app)  # the cap on streams and long-polls (api.gunicorn_config sets it)
    request_id.install(app)  # before limits' ProxyFix wraps the app: it sees the client
    limits.install(app, service)
    body_limit.install(app)  # after the rate limits: a limited client's body is not read
    http_cache.install(app)
    cors.install(app)
    return app
