"""api.waits: the per-process cap on SSE streams and ``?wait=`` long-polls (the production
test, tests/production/test_wait_slots.py, runs it in gunicorn; here the mechanics on
werkzeug's threaded server, which closes every answer's body as gunicorn does).

An app told it is served by 4 threads (default ``ARENA_RESERVED_THREADS``, 8, capped at half)
holds 2 waiting requests: a third answers 503 ``too_many_waits``; requests without a wait
are not counted; a slot comes back when a stream's body is closed, and when a long-poll
fails (404) after taking one. Its 2 runner turns are all free while 2 streams are open
(a waiting request gives its turn back) and after every answer.
"""

from __future__ import annotations

import threading

import pytest
import requests
from werkzeug.serving import make_server

from api import waits
from api.app import create_app
from cli.serve import QuietRequestHandler
from service.bootstrap import build_service
from service.config import Config
from tests.support.polling import wait_for


@pytest.fixture()
def served():
    app = create_app(build_service(Config(key_prefix="waitslots")), {"SSE_POLL_S": 0.2})
    assert waits.configure(app, 4) == 2
    http = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietRequestHandler)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{http.server_port}"
    http.shutdown()
    http.server_close()


def _held(app) -> int:
    return app.extensions[waits.EXTENSION].held


def _free_turns(app) -> int:
    """How many runner turns are free now (taken without blocking, then given back)."""
    runners = app.extensions[waits.EXTENSION].runners
    taken = 0
    while runners.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        runners.release()
    return taken


def test_the_cap_is_the_threads_minus_the_reserved_ones_at_most_half():
    app = create_app(build_service(Config(key_prefix="waitcap")))
    assert app.extensions[waits.EXTENSION].limit is None  # never told: no cap
    assert waits.configure(app, 32) == 24
    assert waits.configure(app, 8) == 4
    assert waits.configure(app, 1) == 1
    app.config["ARENA_RESERVED_THREADS"] = "0"
    assert waits.configure(app, 8) == 8
    assert waits.configure(object(), 8) is None  # not this API's app


def test_streams_beyond_the_cap_are_refused_and_their_slots_come_back(served):
    app, url = served
    created = requests.post(
        f"{url}/v1/matches",
        json={"game": "ai-100-human", "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=30,
    ).json()
    match = f"{url}/v1/matches/{created['match_id']}"
    streams = [
        requests.get(f"{match}/events/stream?max_s=300", stream=True, timeout=30) for _ in range(2)
    ]
    assert [s.status_code for s in streams] == [200, 200]
    assert _held(app) == 2
    third = requests.get(f"{match}/events/stream", timeout=30)
    assert third.status_code == 503
    assert third.headers["Content-Type"] == "application/problem+json"
    assert third.headers["Retry-After"] == str(waits.RETRY_AFTER_S)
    assert third.json()["code"] == "too_many_waits" and third.json()["limit"] == 2
    poll = requests.get(f"{match}/events?wait=1", timeout=30)
    assert (poll.status_code, poll.json()["code"]) == (503, "too_many_waits")
    assert requests.get(f"{match}/events", timeout=30).status_code == 200  # no wait: no slot
    assert requests.get(f"{url}/healthz", timeout=30).status_code == 200
    # the held streams gave their runner turns back; every answered request returned its own
    assert _free_turns(app) == 2

    for stream in streams:
        stream.close()
    # the server closes a stream's body at its next write to the gone client (a keep-alive
    # every SSE_POLL_S): a bounded wait for the slots, not a duration
    assert wait_for(lambda: _held(app) == 0, 60)
    assert requests.get(f"{match}/events?wait=0.1", timeout=30).status_code == 200
    assert _held(app) == 0 and _free_turns(app) == 2


def test_a_failed_long_poll_gives_its_slot_back(served):
    app, url = served
    missing = requests.get(f"{url}/v1/matches/m-nope/events?wait=1", timeout=30)
    assert missing.status_code in (400, 404), missing.text
    for _ in range(3):  # more than the cap: none was kept
        answer = requests.get(f"{url}/v1/matches/m-nope/events?wait=1", timeout=30)
        assert answer.json()["code"] != "too_many_waits"
    assert _held(app) == 0 and _free_turns(app) == 2
