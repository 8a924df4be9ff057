"""Log set-up of every process: text or JSON lines (``ARENA_LOG_FORMAT``, through
python-json-logger), the lowest level (``ARENA_LOG_LEVEL``), and the id of the HTTP
request being served (:data:`REQUEST_ID`, set by :mod:`api.request_id`) on every line
logged while it is served (``request_id``; ``-`` outside a request).
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from typing import Any

from service import settings

#: The id of the request this thread serves (None outside a request).
REQUEST_ID: ContextVar[str | None] = ContextVar("arena_request_id", default=None)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"
#: Marks the handler :func:`configure` installed (replaced, not duplicated, on a re-run).
_HANDLER_FLAG = "_arena_handler"


class RequestIdFilter(logging.Filter):
    """Adds ``record.request_id`` (:data:`REQUEST_ID`, ``-`` when none); never drops."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get() or "-"
        return True


def formatter(log_format: str) -> logging.Formatter:
    """The formatter of ``log_format``: ``text`` (one line ``time LEVEL logger [request id]
    message``) or ``json`` (one object per line: ``time``, ``level``, ``logger``,
    ``message``, ``request_id`` and any ``extra`` fields, e.g. the access log's)."""
    if log_format == "json":
        from pythonjsonlogger.json import JsonFormatter

        return JsonFormatter(
            JSON_FIELDS, rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}
        )
    return logging.Formatter(TEXT_FORMAT)


def handler(log_format: str) -> logging.Handler:
    """A stderr handler with :class:`RequestIdFilter` and :func:`formatter`."""
    out = logging.StreamHandler(sys.stderr)
    out.addFilter(RequestIdFilter())
    out.setFormatter(formatter(log_format))
    setattr(out, _HANDLER_FLAG, True)
    return out


def configure(env: Any = None) -> tuple[str, str]:
    """Point the root logger at one :func:`handler` per ``ARENA_LOG_FORMAT`` and
    ``ARENA_LOG_LEVEL`` (read from ``env``, default ``os.environ``); returns ``(format,
    level)``. Idempotent. Raises :class:`service.settings.ConfigError`."""
    table = settings.by_name(settings.SERVICE)
    log_format = table["ARENA_LOG_FORMAT"].value(env)
    level = table["ARENA_LOG_LEVEL"].value(env)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _HANDLER_FLAG, False)]:
        root.removeHandler(old)
    root.addHandler(handler(log_format))
    root.setLevel(level)
    return log_format, level


def gunicorn_logconfig(env: Any = None) -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its error log and the root logger (the app's lines,
    the access log of :mod:`api.request_id`) on one stderr handler of :func:`handler`'s
    kind. Raises :class:`service.settings.ConfigError`."""
    table = settings.by_name(settings.SERVICE)
    log_format = table["ARENA_LOG_FORMAT"].value(env)
    level = table["ARENA_LOG_LEVEL"].value(env)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"arena": {"()": formatter, "log_format": log_format}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["request_id"],
                "formatter": "arena",
            }
        },
        "root": {"level": level, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stderr"], "propagate": False},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }
