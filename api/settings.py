"""The HTTP API's environment variables (:class:`service.settings.Setting` each) and the
start-up check of an API process.

A Flask config key of the same name overrides the environment (tests); either way the
value goes through the same parser, so :func:`api.app.create_app` refuses a bad one with
:class:`service.settings.ConfigError` instead of answering 500 per request.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import limits
import limits.storage
import limits.strategies

from api import cors
from api.schemas import DEFAULT_MAX_LOG_EVENTS
from service import settings
from service.config import Config
from service.settings import Setting, flag, integer

API = ("api",)


def rate_limits(raw: str) -> str:
    """``;``-separated ``limits`` strings (``120/minute;20/second``); returned unchanged."""
    if not limits.parse_many(raw):
        raise ValueError("no limit")
    return raw


def storage_uri(raw: str) -> str:
    """A ``limits`` storage URI (``memory://``, ``redis://…``, ``redis+cluster://…``)."""
    scheme, sep, _ = raw.strip().partition("://")
    if not sep or scheme not in limits.storage.SCHEMES or scheme.startswith("async+"):
        raise ValueError("")
    return raw.strip()


def strategy(raw: str) -> str:
    """A ``limits`` strategy name."""
    if raw.strip() not in limits.strategies.STRATEGIES:
        raise ValueError("")
    return raw.strip()


def origins(raw: str) -> list[str]:
    """:func:`api.cors.allowed_origins` (its own message names the bad item)."""
    return cors.allowed_origins(raw)


#: The API's variables (besides :data:`service.settings.SERVICE`, which it reads too).
SETTINGS: tuple[Setting, ...] = (
    Setting(
        "ARENA_RATE_LIMITS_ENABLED",
        "1",
        flag,
        "1/true/yes/on or 0/false/no/off",
        "Per-client request rate limits on (`0`: off).",
        API,
    ),
    Setting(
        "ARENA_RATE_LIMITS",
        "120/minute;20/second",
        rate_limits,
        "';'-separated limits such as 120/minute;20/second",
        "Limits each client shares over every `/v1` request.",
        API,
    ),
    Setting(
        "ARENA_CREATE_RATE_LIMITS",
        "10/minute;2/second",
        rate_limits,
        "';'-separated limits such as 10/minute;2/second",
        "Stricter limits on making a match (`POST /v1/matches` and `…/fork`).",
        API,
    ),
    Setting(
        "ARENA_RATE_LIMIT_STORAGE",
        None,
        storage_uri,
        "a limits storage URI: memory://, redis://, rediss://, redis+cluster://, ...",
        "Storage of the rate-limit counters (default: the store's Redis; `memory://` "
        "in embedded mode).",
        API,
    ),
    Setting(
        "ARENA_RATE_LIMIT_STRATEGY",
        "fixed-window",
        strategy,
        "fixed-window, sliding-window-counter or moving-window",
        "The rate limiter's window strategy.",
        API,
    ),
    Setting(
        "ARENA_TRUSTED_PROXIES",
        "0",
        integer(0),
        "an integer >= 0",
        "Reverse proxies in front of the API that append to `X-Forwarded-For` (0: the "
        "header is ignored).",
        API,
    ),
    Setting(
        "ARENA_CORS_ORIGINS",
        None,
        origins,
        "a comma list of origins (scheme://host[:port]) or *",
        "Origins whose browser scripts may call the API; unset: no CORS.",
        API,
    ),
    Setting(
        "ARENA_MAX_LOG_EVENTS",
        str(DEFAULT_MAX_LOG_EVENTS),
        integer(1),
        "an integer >= 1",
        "The most events a log sent to `POST /v1/replays` may have.",
        API,
    ),
    Setting(
        "ARENA_ACCESS_LOG",
        "1",
        flag,
        "1/true/yes/on or 0/false/no/off",
        "The app's access log (`arena.access`: one line per request with its request id, "
        "never a token); `0` where a proxy in front logs every request already (saves "
        "~2-3% of the API's CPU under load).",
        API,
    ),
    Setting(
        "ARENA_RESERVED_THREADS",
        "8",
        integer(0),
        "an integer >= 0",
        "Threads of each gunicorn worker that SSE streams and `?wait=` long-polls never "
        "take (at most half of them): a worker with T threads holds at most T - min(this, "
        "T/2) of them at once and answers one more 503 `too_many_waits` with `Retry-After`, "
        "so `/healthz` and every `POST` always find a thread. Not in the embedded `arena "
        "serve` (a thread per request).",
        API,
    ),
    Setting(
        "PROMETHEUS_MULTIPROC_DIR",
        None,
        settings.writable_directory,
        "a writable directory",
        "prometheus_client's multi-process directory: set (by the gunicorn config) when "
        "several processes serve the API, so `/metrics` sums them.",
        API,
    ),
)
BY_NAME = settings.by_name(SETTINGS)


def value(config: Mapping[str, Any], name: str) -> Any:
    """The parsed value of API setting ``name``: Flask ``config``'s when set, else the
    environment's, else the default. Raises :class:`ConfigError`."""
    raw = config.get(name)
    return BY_NAME[name].value(raw=raw) if raw not in (None, "") else BY_NAME[name].value()


def check_app(config: Mapping[str, Any]) -> None:
    """Parse every API setting as an app built with Flask ``config`` sees it (config, else
    environment, else default), used or not. Raises :class:`ConfigError`."""
    for setting in SETTINGS:
        value(config, setting.name)


def check_environment(env: Mapping[str, str] | None = None) -> Config:
    """Parse every variable an API process reads (:data:`service.settings.SERVICE` and
    :data:`SETTINGS`) from ``env`` (default ``os.environ``); returns the service config.

    Raises:
        ConfigError: the first refused value.
    """
    env = os.environ if env is None else env
    settings.read(SETTINGS, env)
    return Config.from_env(env).check()


def check_or_exit(env: Mapping[str, str] | None = None) -> Config:
    """:func:`check_environment` for a process start: on a refused value print its one
    line to stderr and exit with status 1 (:func:`service.settings.or_exit`)."""
    return settings.or_exit(lambda: check_environment(env))
