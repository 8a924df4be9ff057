"""The ceiling app of ``bench_http.py``: Flask behind the same gunicorn settings as the
project, doing exactly one Redis ``XADD`` per request and answering a small JSON body.

It is what an accepted action could cost at best on this stack (Flask + gunicorn + one
Redis round trip), so the project's figures are reported as ratios of it, measured in the
same run on the same machine (issue 13, "A fair benchmark").

Environment: ``REDIS_URL`` (the benchmark Redis), ``ARENA_KEY_PREFIX`` (the run's prefix;
the stream is ``<prefix>:ceiling``, deleted with the prefix afterwards).
"""

from __future__ import annotations

import os

import redis
from flask import Flask, jsonify, request


def create_app() -> Flask:
    """``POST /ceiling``: XADD the request body to one stream, answer ``{"id": …}``;
    ``GET /healthz``: ``{"ok": true}`` (for start-up)."""
    app = Flask(__name__)
    conn = redis.Redis.from_url(os.environ["REDIS_URL"])
    stream = f"{os.environ.get('ARENA_KEY_PREFIX', 'bench')}:ceiling"

    @app.post("/ceiling")
    def ceiling():
        entry = conn.xadd(stream, {"e": request.get_data()}, maxlen=10_000, approximate=True)
        return jsonify(id=entry.decode())

    @app.get("/healthz")
    def healthz():
        return jsonify(ok=True)

    return app
