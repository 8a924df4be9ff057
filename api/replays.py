"""``POST /v1/replays``: import an exported log and verify it (hash chain, seed
commitment, every command re-decided from the revealed seed, same result).

Setting (a Flask config key of the same name overrides the environment; read once by
:func:`install`): ``ARENA_MAX_LOG_EVENTS``, the most events a log may have (default
:data:`api.schemas.DEFAULT_MAX_LOG_EVENTS`, 10,000); a longer one is a 413
``too_many_events`` before any per-event work.
"""

from __future__ import annotations

import os

from flask import Blueprint, Flask, current_app, jsonify

from api import schemas
from api.runtime import service

bp = Blueprint("replays", __name__, url_prefix="/v1/replays")
#: The setting's name (Flask config and environment).
MAX_LOG_EVENTS = "ARENA_MAX_LOG_EVENTS"


def install(app: Flask) -> None:
    """Fix ``app.config["ARENA_MAX_LOG_EVENTS"]`` (config, else environment, else default).

    Raises:
        ValueError: the value is not a positive integer (at start-up, not per request).
    """
    raw = app.config.get(MAX_LOG_EVENTS)
    if raw is None or raw == "":
        raw = os.environ.get(MAX_LOG_EVENTS) or schemas.DEFAULT_MAX_LOG_EVENTS
    try:
        value = int(raw)
    except (TypeError, ValueError):
        value = 0
    if isinstance(raw, bool) or value <= 0:
        raise ValueError(f"{MAX_LOG_EVENTS} must be a positive integer, got {raw!r}")
    app.config[MAX_LOG_EVENTS] = value


@bp.post("")
def verify_log():
    """``{"valid", "version", "result", "errors"}``; a log that fails verification is a
    200 with ``valid: false`` (a malformed one is a 400/422 problem, one with more than
    ``ARENA_MAX_LOG_EVENTS`` events a 413 ``too_many_events``)."""
    log = schemas.match_log(current_app.config[MAX_LOG_EVENTS])
    return jsonify(service().verify(log))
