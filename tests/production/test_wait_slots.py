"""Open streams and long-polls cannot take every gunicorn thread (api.waits; session 6
probe: 16 tokenless SSE streams made ``/readyz`` take 17.7 s, every thread held).

On the production topology — gunicorn with the shipped settings (48 threads, the default
``ARENA_RESERVED_THREADS`` of 8) run as one worker process, so that every request meets the
same cap, on the real test Redis — 56 tokenless SSE streams (more than the 48 threads) are
opened at once on a running match: exactly 40 (48 - 8) are served and held open, and the 16
others answer 503 ``too_many_waits`` (problem+json, ``Retry-After``, ``limit: 40``). While
the 40 are held, ``/healthz`` answers 200, a ``POST .../actions`` is accepted and reaches
the streams, a long-poll (``wait=1``) answers ``too_many_waits`` and the same request
without a wait answers 200. Once the clients close the streams, the slots come back (the
server notices a closed stream at its next write) and a long-poll is served again.

Nothing asserts a duration: the waits are generous bounds for a condition on a busy machine,
far shorter than the streams' ``max_s`` (a server whose threads all hold streams would not
answer within them).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tests.e2e.http_helpers import Http
from tests.production.helpers import CLIENT_TIMEOUT_S, two_humans
from tests.support.production import ProductionStack

THREADS = 48  # the shipped --threads (Dockerfile)
HELD = THREADS - 8  # minus the default ARENA_RESERVED_THREADS
OPENED = THREADS + 8
#: bound for "the server answers at all" (the streams last 300 s: a server with every
#: thread held would not answer before it)
ANSWER_BOUND_S = 60


@pytest.fixture
def one_worker(redis_url, tmp_path) -> Any:
    """The shipped gunicorn as a single worker process (no ``arena worker``: humans only)."""
    stack = ProductionStack(redis_url, tmp_path, workers=0, gunicorn_args=["--workers", "1"])
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()


def test_streams_beyond_the_cap_answer_too_many_waits_and_leave_threads_free(one_worker):
    server = one_worker
    http = Http(server.url)
    match_id, mover, waiter, version = two_humans(http)
    base = f"{server.url}/v1/matches/{match_id}"
    opened: list[requests.Response] = []
    lock = threading.Lock()

    def open_stream(_: int) -> requests.Response:
        session = requests.Session()
        response = session.get(
            f"{base}/events/stream?after={version}&max_s=300",
            stream=True,
            timeout=(10, CLIENT_TIMEOUT_S),
        )
        with lock:
            opened.append(response)
        return response

    try:
        with ThreadPoolExecutor(OPENED) as pool:
            answers = list(pool.map(open_stream, range(OPENED), timeout=CLIENT_TIMEOUT_S))
        served = [r for r in answers if r.status_code == 200]
        refused = [r for r in answers if r.status_code != 200]
        assert len(served) == HELD, [r.status_code for r in answers]
        assert len(refused) == OPENED - HELD
        for response in refused:
            assert response.status_code == 503, response.text
            assert response.headers["Content-Type"].startswith("application/problem+json")
            assert int(response.headers["Retry-After"]) >= 1
            problem = response.json()
            assert problem["code"] == "too_many_waits" and problem["limit"] == HELD, problem
        for response in served:
            assert response.headers["Content-Type"].startswith("text/event-stream")

        # every stream is held open now: requests that do not wait still find a thread
        health = requests.get(f"{server.url}/healthz", timeout=ANSWER_BOUND_S)
        assert health.status_code == 200, health.text
        status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", mover)
        assert status == 200 and legal["actions"], legal
        command = next(a for a in legal["actions"] if a["type"] != "resign")
        status, _, moved = http.post(
            f"/v1/matches/{match_id}/actions",
            {**command, "decision_id": legal["decision_id"]},
            mover,
        )
        assert status == 200, moved
        status, _, refused_wait = http.get(f"/v1/matches/{match_id}/legal-actions?wait=1", waiter)
        assert (status, refused_wait["code"]) == (503, "too_many_waits"), refused_wait
        status, _, at_once = http.get(f"/v1/matches/{match_id}/legal-actions", waiter)
        assert status == 200 and "actions" in at_once, at_once

        # a held stream delivers the move made meanwhile
        lines = served[0].iter_lines(decode_unicode=True)
        assert any(line == f"id: {version + 1}" for line in lines)
    finally:
        for response in opened:
            response.close()

    # the closed streams' slots come back (each at the server's next write to it: a
    # keep-alive every SSE_POLL_S); a long-poll is served again
    deadline = time.monotonic() + 4 * CLIENT_TIMEOUT_S
    status = 0
    while time.monotonic() < deadline:
        status, _, page = http.get(f"/v1/matches/{match_id}/events?after=0&wait=0.1")
        if status == 200:
            break
        assert (status, page["code"]) == (503, "too_many_waits"), page
        time.sleep(1)
    assert status == 200
    log = server.log_text()
    assert "Traceback" not in log, log[-3000:]
    assert f"{THREADS} threads, at most {HELD} open streams and long-polls" in log, log[-3000:]
