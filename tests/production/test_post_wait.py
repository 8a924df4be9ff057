"""``POST .../actions?wait=`` with ``Prefer: return=representation`` on the production
topology (gunicorn with the shipped settings, its waiting slots capped per process by
:mod:`api.waits`), read by a Node client (``fetch``) as a third-party JavaScript client
would, on the session's ``production`` stack (no server of its own).

- A seat whose command leaves it nothing to do (AI: 100% Human's set-up: once seat 0
  kept its reserve, it waits for seat 1's AI side) gets its answer once seat 1 moved: the
  representation carries seat 0's next decision (what ``GET .../legal-actions`` answers
  then) and ``Server-Timing: wait;dur=<ms>``, while ``version`` and ``events`` stay its
  own batch.
- With every waiting slot of every gunicorn process held (open SSE streams: the cap per
  process is in the log, ``at most N open streams and long-polls``), the command is still
  taken, and its answer comes at once with ``Server-Timing: wait;dur=0;desc="no free
  slot"``; the held streams end as soon as their match finishes (a finished match's
  stream ends after its last event), so the stack's slots are free again for the tests
  after this one.

Nothing asserts a duration: the loops wait for conditions under generous bounds.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tests.e2e.http_helpers import Http
from tests.production.helpers import CLIENT_TIMEOUT_S, Background
from tests.support.node import node_or_skip

PREFER = {"Prefer": "return=representation"}
FIELDS = ("view", "pending", "status", "result", "legal_actions")
#: A Node client: POSTs one command (argv: url, token, JSON body) and prints the status,
#: the Server-Timing header and the parsed body as one JSON line.
NODE_CLIENT = """
const [url, token, body] = process.argv.slice(2);
const response = await fetch(url, {
  method: "POST",
  headers: {"Authorization": `Bearer ${token}`, "Content-Type": "application/json",
            "Prefer": "return=representation"},
  body,
});
console.log(JSON.stringify({status: response.status,
  serverTiming: response.headers.get("server-timing"),
  preferenceApplied: response.headers.get("preference-applied"),
  body: await response.json()}));
"""


@pytest.fixture(scope="module")
def node() -> str:
    """The ``node`` executable (>= 18: ``fetch``); skipped without one outside CI."""
    return node_or_skip("the JavaScript clients' tests")


def _first_action(http: Http, match_id: str, token: str) -> dict[str, Any]:
    status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", token)
    assert status == 200 and legal["actions"], legal
    return {**legal["actions"][0], "decision_id": legal["decision_id"]}


def _two_drafters(http: Http) -> tuple[str, dict[int, str]]:
    """An AI: 100% Human match of two human seats where seat 0 chose its AI side and is
    to keep its reserve, after which it has nothing to do until seat 1 (still choosing its
    AI side) catches up: ``(match_id, seat -> token)``."""
    status, _, created = http.post(
        "/v1/matches", {"game": "ai-100-human", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    assert status == 201, created
    match_id, tokens = created["match_id"], {s["seat"]: s["token"] for s in created["seats"]}
    status, _, side = http.post(
        f"/v1/matches/{match_id}/actions", _first_action(http, match_id, tokens[0]), tokens[0]
    )
    assert status == 200, side
    status, _, view = http.get(f"/v1/matches/{match_id}", tokens[0])
    assert status == 200 and view["pending"] == {"0": "keep_reserve", "1": "choose_ai_side"}, view
    return match_id, tokens


def _wait_until_not_pending(http: Http, match_id: str, token: str, seat: int) -> None:
    """Until ``seat``'s command is in (it is no longer pending): a generous bound."""
    deadline = time.monotonic() + CLIENT_TIMEOUT_S
    while time.monotonic() < deadline:
        status, _, view = http.get(f"/v1/matches/{match_id}", token)
        assert status == 200, view
        if str(seat) not in view["pending"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"seat {seat}'s command was not taken")


def test_a_node_client_gets_its_next_decision_from_a_held_post_with_server_timing(
    production, node, tmp_path
):
    http = Http(production.url)
    match_id, tokens = _two_drafters(http)
    script = tmp_path / "post.mjs"
    script.write_text(NODE_CLIENT, encoding="utf-8")
    command = _first_action(http, match_id, tokens[0])
    url = f"{production.url}/v1/matches/{match_id}/actions?wait=30"
    held = Background(
        lambda: subprocess.run(
            [node, str(script), url, tokens[0], json.dumps(command)],
            capture_output=True,
            text=True,
            timeout=CLIENT_TIMEOUT_S,
        )
    )
    held.start()
    # seat 1 catches up once seat 0's command is in (seat 0's answer waits for it)
    _wait_until_not_pending(http, match_id, tokens[1], 0)
    for _ in range(10):
        status, _, other = http.post(
            f"/v1/matches/{match_id}/actions",
            _first_action(http, match_id, tokens[1]),
            tokens[1],
            headers=PREFER,
        )
        assert status == 200, other
        if "0" in other["pending"]:
            break
    assert "0" in other["pending"], other
    proc = held.outcome()
    assert proc.returncode == 0, proc.stderr[-2000:]
    answer = json.loads(proc.stdout)
    body = answer["body"]
    assert answer["status"] == 200, body
    assert answer["preferenceApplied"] == "return=representation"
    timing = re.fullmatch(r"wait;dur=(\d+(?:\.\d+)?)", answer["serverTiming"] or "")
    assert timing, answer["serverTiming"]
    # its own batch, then the next decision the wait brought (after seat 1's batch)
    assert body["events"] and body["version"] < other["version"]
    assert body["legal_actions"]["actions"] and body["legal_actions"]["version"] >= other["version"]
    status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])
    status_view, _, view = http.get(f"/v1/matches/{match_id}", tokens[0])
    assert (status, status_view) == (200, 200)
    assert body["legal_actions"] == legal
    assert {k: body[k] for k in FIELDS if k != "legal_actions"} == {
        k: view[k] for k in FIELDS if k != "legal_actions"
    }


def _slots_per_process(production) -> list[int]:
    """The waiting-slot cap each gunicorn worker process logged at its start."""
    caps = re.findall(r"at most (\d+) open streams and long-polls", production.log_text())
    assert caps, production.log_text()[-3000:]
    return [int(c) for c in caps]


def test_a_post_whose_wait_finds_every_slot_held_answers_at_once_and_says_so(production):
    http = Http(production.url)
    match_id, tokens = _two_drafters(http)
    total = sum(_slots_per_process(production))
    log_start = len(production.log_text())
    stream_url = f"{production.url}/v1/matches/{match_id}/events/stream?after=0&max_s=300"
    opened: list[requests.Response] = []
    lock = threading.Lock()

    def open_stream(_: int) -> int:
        response = requests.Session().get(stream_url, stream=True, timeout=(10, CLIENT_TIMEOUT_S))
        with lock:
            opened.append(response)
        if response.status_code != 200:
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "too_many_waits"
            response.close()
        return response.status_code

    try:
        # every process's slots held: streams until ``total`` are served (a refusal only
        # says that the process which accepted it is full; the kernel may hand the full
        # one many connections in a row, and a slot may still be held by an earlier
        # test's client). A probe command of a fresh match asks each time: the held POST
        # finds no free slot once the process it reached is full (else it waits 1 s).
        served, probes = 0, 0
        while True:
            if served < total:
                with ThreadPoolExecutor(total - served) as pool:
                    served += list(pool.map(open_stream, range(total - served))).count(200)
            probe_id, probe_tokens = _two_drafters(http)
            probes += 1
            command = _first_action(http, probe_id, probe_tokens[0])
            status, headers, body = http.post(
                f"/v1/matches/{probe_id}/actions?wait=1", command, probe_tokens[0], headers=PREFER
            )
            http.post(f"/v1/matches/{probe_id}/resign", {}, probe_tokens[1])
            assert status == 200, body
            if headers["Server-Timing"] == 'wait;dur=0;desc="no free slot"':
                break
            assert re.fullmatch(r"wait;dur=\d+(\.\d+)?", headers["Server-Timing"]), headers
            assert probes < 200, (served, total)
        assert headers["Preference-Applied"] == "return=representation"
        # the command is in; seat 0 has nothing to do until seat 1 chose
        assert body["events"] and body["status"] == "running"
        assert body["legal_actions"]["actions"] == [] and "0" not in body["pending"]
        if served == total:
            # a long-poll is refused meanwhile (no slot anywhere)
            status, _, refused = http.get(f"/v1/matches/{match_id}/legal-actions?wait=1", tokens[1])
            assert (status, refused["code"]) == (503, "too_many_waits"), refused
    finally:
        # the match ends: every held stream delivers the last events and ends
        for seat in (0, 1):
            http.post(f"/v1/matches/{match_id}/resign", {}, tokens[seat])
        ended = Background(lambda: [_drain(r) for r in opened if r.status_code == 200])
        ended.start()
        ended.outcome()
        for response in opened:
            response.close()
    status, _, view = http.get(f"/v1/matches/{match_id}")
    assert status == 200 and view["status"] == "finished", view
    log = production.log_text()[log_start:]
    assert "Traceback" not in log, log[-3000:]


def _drain(response: requests.Response) -> None:
    """Read a stream to its end (the server ends it)."""
    for _ in response.iter_lines():
        pass
