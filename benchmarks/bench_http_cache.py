"""What the HTTP caching layer (``api/http_cache.py``: Cache-Control, Vary, the body-digest
ETag and the If-None-Match check) costs a GET, and what a 304 saves (target: the layer adds
<= 10% CPU to a seat's view).

Usage: python benchmarks/bench_http_cache.py [--requests 1000] [--rounds 5]
Serves the API over the embedded in-memory store (no Redis needed) through Flask's test
client. One 3-seat AI: 100% Human match; each round times ``--requests`` GETs of a seat's view
(``/v1/matches/{id}``, about 1.5 kB) and of its legal actions on two apps over the same
service, interleaved: the reference app with the caching hook removed, and the real one;
then the real one with the view's ETag in ``If-None-Match`` (304, no body). Process CPU
time per request (``time.process_time``), the best round of each, and their ratios. A 304
saves the bytes on the wire, not server CPU: the view is still computed to compare tags.
"""

from __future__ import annotations

import argparse
import time

import _common  # noqa: F401  (import path)
from _common import report


def cpu_per_request_us(client, path: str, headers: dict, count: int, status: int) -> float:
    """Process CPU microseconds per GET of ``path`` (each must answer ``status``)."""
    start = time.process_time()
    for _ in range(count):
        response = client.get(path, headers=headers)
        assert response.status_code == status, response.status_code
    return (time.process_time() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from api import http_cache
    from api.app import create_app
    from service.bootstrap import build_service
    from service.config import Config

    service = build_service(Config(key_prefix="bench-http-cache"))
    created = service.create_match(
        "ai-100-human", [{"kind": "human"}] * 3, {"objectives": "starter"}
    )
    match_id, token = created["match_id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    settings = {"ARENA_RATE_LIMITS_ENABLED": "0"}
    real = create_app(service, settings).test_client()
    bare_app = create_app(service, settings)
    bare_app.after_request_funcs[None] = [
        f for f in bare_app.after_request_funcs[None] if f is not http_cache.finish
    ]
    bare = bare_app.test_client()
    view = f"/v1/matches/{match_id}"
    legal = f"{view}/legal-actions"
    first = real.get(view, headers=auth)
    etag, size = first.headers["ETag"], len(first.get_data())
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, client, path, headers, status in (
            ("view_bare", bare, view, auth, 200),
            ("view", real, view, auth, 200),
            ("view_304", real, view, {**auth, "If-None-Match": etag}, 304),
            ("legal_bare", bare, legal, auth, 200),
            ("legal", real, legal, auth, 200),
        ):
            value = cpu_per_request_us(client, path, headers, args.requests, status)
            best[name] = min(best.get(name, value), value)
    ratio = best["view"] / best["view_bare"]
    report(
        "bench_http_cache",
        "view_cpu_ratio_with_caching",
        round(ratio, 3),
        "x",
        "<=",
        1.10,
        requests=args.requests,
        rounds=args.rounds,
        view_bytes=size,
        cpu_us={k: round(v, 1) for k, v in best.items()},
        legal_cpu_ratio=round(best["legal"] / best["legal_bare"], 3),
        view_304_cpu_ratio=round(best["view_304"] / best["view"], 3),
    )


if __name__ == "__main__":
    main()
