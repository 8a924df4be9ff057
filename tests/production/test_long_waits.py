"""Waits longer than any socket timeout of the store client hold on the production
topology (issue 18, item 1), on a standalone Redis and on a Redis Cluster.

Before the fix, one ``XREAD BLOCK`` lasted the whole wait on a client whose socket times
out after 5 s: ``GET …/events?wait=12`` and ``GET …/legal-actions?wait=12`` answered 503
``store_unavailable`` after ~5 s, and the SSE stream was cut after 5 s with an ERROR
traceback in the log (a move made later never arrived).

One test opens, at the same moment, on a match of two human seats where one is to move:
a long-poll for events of 12 s and a legal-actions long-poll of 12 s for the other (nothing
happens in that time: both answer 200 with nothing), a long-poll for events of 30 s and
an SSE stream. The first seat moves once the stream has sent its first keep-alive (the shipped
``SSE_POLL_S``, 15 s, after it started); the 30 s long-poll answers with that move, and
the stream delivers it after the keep-alive. The log holds no traceback. Nothing asserts a
duration: the waits only order the move after the socket timeout.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import requests

from tests.e2e.http_helpers import Http
from tests.production.helpers import CLIENT_TIMEOUT_S, Background, read_stream, two_humans


@pytest.mark.parametrize("stack", ["production", "production_cluster"])
def test_long_polls_and_sse_outlast_the_store_socket_timeout(request, stack):
    server = request.getfixturevalue(stack)
    http = Http(server.url)
    match_id, mover, waiter, version = two_humans(http)
    base = f"{server.url}/v1/matches/{match_id}"
    log_start = len(server.log_text())

    def get(path: str, token: str) -> tuple[int, Any]:
        response = requests.get(
            base + path, headers={"Authorization": f"Bearer {token}"}, timeout=CLIENT_TIMEOUT_S
        )
        return response.status_code, response.json()

    quiet_events = Background(lambda: get(f"/events?after={version}&wait=12", waiter))
    quiet_legal = Background(lambda: get("/legal-actions?wait=12", waiter))
    events = Background(lambda: get(f"/events?after={version}&wait=30", waiter))
    kept_alive = threading.Event()
    stream = Background(
        lambda: read_stream(
            f"{base}/events/stream?after={version}&max_s=120", waiter, version + 1, kept_alive
        )
    )
    for thread in (quiet_events, quiet_legal, events, stream):
        thread.start()

    # The first seat moves once the stream has sent its first keep-alive (SSE_POLL_S after it
    # started: every wait has outlasted the 5 s socket timeout by then). Not a timing
    # assertion: the wait is bounded generously and only orders the move after it.
    assert kept_alive.wait(CLIENT_TIMEOUT_S), "the stream sent no keep-alive"
    status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", mover)
    assert status == 200 and legal["actions"], legal
    command = next(a for a in legal["actions"] if a["type"] != "resign")
    status, _, moved = http.post(
        f"/v1/matches/{match_id}/actions", {**command, "decision_id": legal["decision_id"]}, mover
    )
    assert status == 200, moved

    # 200 after 12 s (a loaded machine may start them late enough to see the move)
    status, body = quiet_events.outcome()
    assert status == 200 and [e["version"] for e in body["events"]][:1] in ([], [version + 1]), body
    status, body = quiet_legal.outcome()
    assert status == 200 and isinstance(body["actions"], list), body
    status, body = events.outcome()
    assert status == 200, body
    assert body["events"] and body["events"][0]["version"] == version + 1, body
    lines = stream.outcome()
    assert ": keep-alive" in lines, lines
    assert f"id: {version + 1}" in lines, lines
    assert lines.index(": keep-alive") < lines.index(f"id: {version + 1}")
    data = next(line for line in lines if line.startswith("data: "))
    assert json.loads(data[len("data: ") :])["version"] == version + 1
    log = server.log_text()[log_start:]
    assert "Traceback" not in log and "store_unavailable" not in log, log[-3000:]
