"""The lobby, unlisted and spectator-less matches, resign and rematch over HTTP (embedded
app with its worker threads)."""

from __future__ import annotations

import threading

from tests.e2e.http_helpers import Http, create, tokens_of
from tests.support.polling import wait_for

GAME = "ai-100-human"


def test_lobby_endpoint_filters_pages_and_never_lists_unlisted(client):
    http = Http(client)
    listed = create(http, [{"kind": "human"}, {"kind": "open"}], game="dead-apocalypse")
    hidden = create(
        http, [{"kind": "human"}, {"kind": "open"}], game="dead-apocalypse", unlisted=True
    )
    status, _, page = http.get("/v1/matches?game=dead-apocalypse&status=open&limit=100")
    assert status == 200
    ids = [i["match_id"] for i in page["items"]]
    assert listed["match_id"] in ids and hidden["match_id"] not in ids
    item = page["items"][ids.index(listed["match_id"])]
    assert item["open_seats"] == [1] and item["status"] == "open"
    assert "token" not in str(item) and "seed" not in item
    create(http, [{"kind": "human"}], game="dead-apocalypse")
    status, _, one = http.get("/v1/matches?limit=1")
    assert status == 200 and len(one["items"]) == 1 and one["next_cursor"]
    status, _, two = http.get(f"/v1/matches?limit=1&cursor={one['next_cursor']}")
    assert status == 200 and two["items"][0]["match_id"] != one["items"][0]["match_id"]
    assert http.get(f"/v1/matches/{hidden['match_id']}")[0] == 200  # reachable by id
    for bad in ("status=lost", "limit=0", "cursor=%21%21", "open_seat=yes", "colour=red"):
        status, _, problem = http.get(f"/v1/matches?{bad}")
        assert status == 400 and problem["code"] in ("validation_error", "invalid_cursor"), bad
    assert http.get("/v1/matches?game=chess")[2]["code"] == "unknown_game"


def test_spectators_false_is_403_for_every_tokenless_read_while_running(client):
    http = Http(client)
    match = create(http, [{"kind": "human"}, {"kind": "human"}], spectators=False)
    mid, tokens = match["match_id"], tokens_of(match)
    for path in ("", "/events", "/events/stream", "/state?version=1"):
        status, _, problem = http.get(f"/v1/matches/{mid}{path}")
        assert status == 403 and problem["code"] == "spectators_disabled", path
    assert http.get(f"/v1/matches/{mid}", tokens[0])[0] == 200
    assert http.get(f"/v1/matches/{mid}/export")[2]["code"] == "match_running"
    status, _, body = http.post(f"/v1/matches/{mid}/resign", token=tokens[0])
    assert status == 200 and [e["type"] for e in body["events"]] == ["SeatResigned", "MatchEnded"]
    view = http.get(f"/v1/matches/{mid}")[2]  # public after the end, like the seed
    assert view["status"] == "finished" and view["result"]["winners"] == [1]
    status, _, log = http.get(f"/v1/matches/{mid}/export")
    assert status == 200 and http.post("/v1/replays", log)[2]["valid"] is True


def test_resign_needs_a_seat_token_and_a_resigned_seat_is_played_by_the_worker(client):
    http = Http(client)
    match = create(http, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    mid, tokens = match["match_id"], tokens_of(match)
    # seat 0 has a decision when it resigns (read before: once it resigned, the worker may
    # play it at any moment, and then it waits for the others with nothing to do)
    legal = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]
    assert legal["actions"] and "0" in http.get(f"/v1/matches/{mid}")[2]["pending"]
    assert http.post(f"/v1/matches/{mid}/resign")[2]["code"] == "missing_token"
    assert http.post(f"/v1/matches/{mid}/resign", token=tokens[0])[0] == 200
    assert http.post(f"/v1/matches/{mid}/resign", token=tokens[0])[2]["code"] == "seat_resigned"

    def played_for_seat_0():
        events = http.get(f"/v1/matches/{mid}/events?after=0")[2]["events"]
        return [e for e in events if e.get("actor") == 0 and e["type"] != "SeatResigned"]

    played = wait_for(played_for_seat_0, 60)
    assert played and played[0]["cause"] == "timeout"


def test_rematch_over_http_once_per_seat_and_concurrent_calls_make_one_match(client):
    http = Http(client)
    match = create(
        http,
        [
            {"kind": "human", "name": "a"},
            {"kind": "human", "name": "b"},
            {"kind": "bot", "bot": "greedy"},
        ],
    )
    mid, tokens = match["match_id"], tokens_of(match)
    assert http.post(f"/v1/matches/{mid}/rematch", token=tokens[0])[2]["code"] == "match_running"
    for seat in (
        0,
        1,
    ):  # (the worker plays resigned seat 0 meanwhile: resign re-decides a lost race)
        status, _, body = http.post(f"/v1/matches/{mid}/resign", token=tokens[seat])
        assert status == 200, body
    assert http.get(f"/v1/matches/{mid}")[2]["status"] == "finished"
    # a body is empty or {} (as a resign's): another one creates nothing
    rematch = f"/v1/matches/{mid}/rematch"
    for raw, content_type, code in (
        (b"{", None, "malformed_json"),
        (b'{"seed": 1}', None, "validation_error"),
        (b"{}", "text/plain", "unsupported_media_type"),
    ):
        status, _, body = http.call("POST", rematch, tokens[0], raw=raw, content_type=content_type)
        assert body["code"] == code and status in (400, 415), body
    assert "rematch" not in http.get(f"/v1/matches/{mid}")[2]
    answers = []

    def call(seat):
        answers.append(http.post(f"/v1/matches/{mid}/rematch", token=tokens[seat]))

    threads = [threading.Thread(target=call, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(a[0] for a in answers) == [200, 201]
    rematch_id = {a[2]["match_id"] for a in answers}
    assert len(rematch_id) == 1 and mid not in rematch_id
    rid = rematch_id.pop()
    for _status, _, body in answers:
        assert http.get(f"/v1/matches/{rid}/legal-actions", body["token"])[0] == 200
    again = http.post(f"/v1/matches/{mid}/rematch", token=tokens[0])
    assert again[0] == 409 and again[2]["code"] == "rematch_seat_claimed"


def test_a_log_with_a_join_verifies_at_replays_and_fails_once_a_name_is_edited(client):
    http = Http(client)
    match = create(http, [{"kind": "human", "name": "ann"}, {"kind": "open"}])
    mid, tokens = match["match_id"], tokens_of(match)
    assert http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "bob"})[0] == 200
    http.post(f"/v1/matches/{mid}/resign", token=tokens[0])
    log = http.get(f"/v1/matches/{mid}/export")[2]
    assert [e["cause"] for e in log["events"]].count("join") == 1
    assert http.post("/v1/replays", log)[2]["valid"] is True
    log["seats"][1]["name"] = "mallory"
    report = http.post("/v1/replays", log)[2]
    assert report["valid"] is False and "roster" in report["errors"][0]
