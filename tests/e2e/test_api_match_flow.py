"""A whole ai-100-human match over HTTP, humans picking from legal-actions, bots in the
embedded workers: result, seed reveal (sha256(seed) == commitment), export -> replay
verification, time travel, fork, SSE and long-poll."""

from __future__ import annotations

import hashlib
import json
import random
import time
from itertools import pairwise

import pytest

from tests.e2e.http_helpers import create, open_table, play_until_finished, verified_export

SEATS = [
    {"kind": "human", "name": "Ada"},
    {"kind": "human"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "greedy"},
]


@pytest.fixture(scope="module")
def finished(app, embedded_service):
    """``(http, match_id, tokens, final view)`` of one match played to the end."""
    http, created, tokens = open_table(
        app, embedded_service, SEATS, options={"objectives": "starter"}
    )
    assert sorted(tokens) == [0, 1]
    assert [s["kind"] for s in created["seats"]] == ["human", "human", "bot", "bot"]
    view = play_until_finished(http, created["match_id"], tokens, random.Random(7))
    return http, created["match_id"], tokens, view, created


def test_match_finishes_with_a_result_and_reveals_the_committed_seed(finished):
    http, match_id, _, view, created = finished
    assert view["status"] == "finished"
    result = view["result"]
    assert sorted(r["seat"] for r in result["ranking"]) == [0, 1, 2, 3]
    assert max(result["scores"]) == result["ranking"][0]["score"]
    assert view["seed_commitment"] == created["seed_commitment"]
    assert hashlib.sha256(bytes.fromhex(view["seed"])).hexdigest() == view["seed_commitment"]


def test_a_finished_match_accepts_no_command(finished):
    http, match_id, tokens, view, _ = finished
    status, _, body = http.post(
        f"/v1/matches/{match_id}/actions", {"type": "draft", "card": "001"}, tokens[0]
    )
    assert (status, body["code"]) == (409, "match_finished")
    assert http.get(f"/v1/matches/{match_id}")[2]["version"] == view["version"]
    assert http.get(f"/v1/matches/{match_id}/legal-actions", tokens[1])[2]["actions"] == []


def test_export_verifies_on_replay_and_a_tampered_log_does_not(finished):
    http, match_id, _, view, _ = finished
    log, report = verified_export(http, match_id)
    assert log["format"] == "apocalypse-arena/log@3"
    assert [e["version"] for e in log["events"]] == list(range(1, view["version"] + 1))
    assert log["seed"] == view["seed"]
    assert report["version"] == view["version"] and report["result"] == view["result"]

    tampered = json.loads(json.dumps(log))
    tampered["events"][-1]["data"] = {"forged": True}
    status, _, report = http.post("/v1/replays", tampered)
    assert status == 200 and report["valid"] is False and report["errors"]

    status, _, problem = http.post("/v1/replays", {**log, "format": "other@9"})
    assert (status, problem["code"]) == (400, "validation_error")


def test_state_at_a_past_version_and_fork(finished):
    http, match_id, _, view, _ = finished
    status, _, first = http.get(f"/v1/matches/{match_id}/state?version=10")
    assert status == 200 and first["version"] == 10 and first["view"]["phase"] == 1
    status, _, problem = http.get(f"/v1/matches/{match_id}/state?version={view['version'] + 1}")
    assert (status, problem["code"]) == (422, "version_out_of_range")

    _, _, log = http.get(f"/v1/matches/{match_id}/export")
    events = log["events"]
    inside = next(
        e["version"]
        for e, nxt in pairwise(events)
        if e["cause"] != "setup" and e["command_id"] == nxt["command_id"]
    )
    status, _, problem = http.post(f"/v1/matches/{match_id}/fork", {"version": inside})
    assert (status, problem["code"]) == (422, "not_a_batch_boundary")
    boundary = next(
        e["version"]
        for e, nxt in pairwise(events)
        if e["version"] >= 20 and e["command_id"] != nxt["command_id"]
    )
    status, headers, forked = http.post(f"/v1/matches/{match_id}/fork", {"version": boundary})
    assert status == 201 and headers["Location"].endswith(f"/v1/matches/{forked['match_id']}")
    assert forked["match_id"] != match_id and forked["version"] == boundary
    assert {s["seat"] for s in forked["seats"] if "token" in s} == {0, 1}
    assert http.get(f"/v1/matches/{forked['match_id']}")[2]["status"] == "running"


def test_long_poll_and_events_page(finished):
    http, match_id, _, view, _ = finished
    status, _, page = http.get(f"/v1/matches/{match_id}/events?after=5&limit=3")
    assert status == 200 and [e["version"] for e in page["events"]] == [6, 7, 8]
    assert page["version"] == view["version"]
    # past the end of a finished match no event can come: the long-poll answers at once
    # (tests/unit/test_service_events_views.py shows it does not wait)
    status, _, page = http.get(f"/v1/matches/{match_id}/events?after={view['version']}&wait=1")
    assert status == 200 and page["events"] == [] and page["version"] == view["version"]


def sse_frames(text: str) -> list[dict[str, str]]:
    """Parse an SSE body into messages (``id``, ``event``, ``data``); comments dropped."""
    frames = []
    for block in text.split("\n\n"):
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if line and not line.startswith(":") and ": " in line
        )
        if "data" in fields:
            frames.append(fields)
    return frames


def test_sse_stream_delivers_every_event_in_order_and_resumes(finished, client):
    http, match_id, tokens, view, _ = finished
    response = client.get(
        f"/v1/matches/{match_id}/events/stream?max_s=5",
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    frames = sse_frames(response.get_data(as_text=True))
    assert [int(f["id"]) for f in frames] == list(range(1, view["version"] + 1))
    _, _, page = http.get(f"/v1/matches/{match_id}/events?limit=500", tokens[0])
    assert [json.loads(f["data"]) for f in frames][: len(page["events"])] == page["events"]
    assert all(f["event"] == json.loads(f["data"])["type"] for f in frames)

    resumed = client.get(
        f"/v1/matches/{match_id}/events/stream", headers={"Last-Event-ID": str(view["version"] - 3)}
    )
    ids = [int(f["id"]) for f in sse_frames(resumed.get_data(as_text=True))]
    assert ids == [view["version"] - 2, view["version"] - 1, view["version"]]


def test_sse_on_a_running_match_ends_after_max_s(client, http):
    created = create(http, [{"kind": "human"}] * 3)
    started = time.monotonic()
    response = client.get(f"/v1/matches/{created['match_id']}/events/stream?max_s=1")
    body = response.get_data(as_text=True)
    assert 0.9 <= time.monotonic() - started < 10
    assert [int(f["id"]) for f in sse_frames(body)] == list(range(1, created["version"] + 1))


def test_catalogue_lists_the_game_with_its_schemas(http):
    status, _, body = http.get("/v1/games")
    game = next(g for g in body["games"] if g["id"] == "ai-100-human")
    assert (game["min_seats"], game["max_seats"]) == (1, 6)
    assert {"draft", "place"} <= set(game["commands"]) and "random" in game["bots"]
    assert http.get("/v1/games/ai-100-human")[2] == game


def test_ops_endpoints(http, client):
    status, _, health = http.get("/healthz")
    assert status == 200 and health["status"] == "ok"
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert "# TYPE" in response.get_data(as_text=True)
