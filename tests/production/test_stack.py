"""The tier's stack is the production topology: gunicorn with the image's ``CMD`` settings
(the deployments' worker class), the store on the real Redis under the stack's prefix (not
an embedded fakeredis), and ``arena worker`` processes of their own."""

from __future__ import annotations

import redis

from cli.serve import WORKER_CLASS
from tests.e2e.http_helpers import Http
from tests.support.production import shipped_gunicorn_args


def test_the_stack_serves_with_the_image_settings_on_the_real_redis(production, redis_url):
    args = shipped_gunicorn_args()
    assert args[args.index("--worker-class") + 1] == WORKER_CLASS
    assert "--bind" not in args and "api.app:create_app()" in args
    assert production.gunicorn.poll() is None
    assert len(production.workers) == 2 and all(w.poll() is None for w in production.workers)
    assert len({production.gunicorn.pid, *(w.pid for w in production.workers)}) == 3

    status, _, health = Http(production.url).get("/healthz")
    assert status == 200 and health["store_state"] == health["queue_state"] == "ok", health
    status, _, created = Http(production.url).post(
        "/v1/matches", {"game": "dead-apocalypse", "seats": [{"kind": "human"}]}
    )
    assert status == 201, created
    conn = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        keys = list(conn.scan_iter(f"{production.key_prefix}:*{created['match_id']}*", count=1000))
    finally:
        conn.close()
    assert keys, "the match is not in the real Redis under the stack's prefix"
