"""``Idempotency-Key`` on every POST that creates or claims something: create, join,
rematch, fork (issue 18, item 7). A client whose answer was lost repeats the request and
gets the same answer — the same match, the same seat tokens — with
``Idempotent-Replayed: true``; nothing is created or claimed twice; the same key with
another body is 422 ``idempotency_key_reused``; tokens are never stored (only derived from
the key: :mod:`service.usecases.idempotency`)."""

from __future__ import annotations

import threading
import uuid

import pytest

from tests.e2e.http_helpers import Http, create, tokens_of

GAME = "ai-100-human"
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def finished_match(http: Http, seats=None) -> tuple[str, dict[int, str]]:
    """A finished match (every human seat resigned): ``(match id, tokens)``."""
    match = create(http, seats or [{"kind": "human", "name": "a"}, {"kind": "human"}])
    mid, tokens = match["match_id"], tokens_of(match)
    for seat in sorted(tokens):
        if http.get(f"/v1/matches/{mid}")[2]["status"] == "finished":
            break
        status, _, body = http.post(f"/v1/matches/{mid}/resign", token=tokens[seat])
        assert status in (200, 409), body
    assert http.get(f"/v1/matches/{mid}")[2]["status"] == "finished"
    return mid, tokens


def setup_end(http: Http, mid: str) -> int:
    """The version at the end of ``mid``'s set-up (the lowest a fork may take)."""
    status, _, page = http.get(f"/v1/matches/{mid}/events?after=0")
    assert status == 200, page
    return sum(1 for e in page["events"] if e["cause"] == "setup")


def test_a_repeated_join_answers_the_same_token_and_claims_once(client, embedded_service):
    http = Http(client)
    match = create(http, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    mid = match["match_id"]
    headers = key()
    status, first_headers, first = http.post(
        f"/v1/matches/{mid}/seats/1/join", {"name": "Ann"}, headers=headers
    )
    assert status == 200 and "Idempotent-Replayed" not in first_headers
    version = http.get(f"/v1/matches/{mid}")[2]["version"]
    # the answer was lost: the same request again
    status, again_headers, again = http.post(
        f"/v1/matches/{mid}/seats/1/join", {"name": "Ann"}, headers=headers
    )
    assert status == 200, again
    assert again == first and again_headers["Idempotent-Replayed"] == "true"
    assert http.get(f"/v1/matches/{mid}")[2]["version"] == version  # one SeatJoined
    assert http.get(f"/v1/matches/{mid}/legal-actions", first["token"])[0] == 200
    # the same key with another body: 422; another key: the seat is taken
    status, _, problem = http.post(
        f"/v1/matches/{mid}/seats/1/join", {"name": "Bob"}, headers=headers
    )
    assert (status, problem["code"]) == (422, "idempotency_key_reused")
    status, _, problem = http.post(
        f"/v1/matches/{mid}/seats/1/join", {"name": "Ann"}, headers=key()
    )
    assert (status, problem["code"]) == (409, "seat_taken")
    # the key is bound to its seat: on seat 2 it is a new join (another name: one name
    # per match, seat_name_taken)
    status, _, other = http.post(f"/v1/matches/{mid}/seats/2/join", {"name": "Cy"}, headers=headers)
    assert status == 200 and other["token"] != first["token"]
    # the token is stored nowhere in Redis, only its digest
    redis = embedded_service.redis
    for name in redis.scan_iter(f"*{mid}*"):
        dump = str(redis.dump(name))
        assert first["token"] not in dump and headers["Idempotency-Key"] not in dump, name


def test_a_join_repeated_after_the_match_finished_still_answers(client):
    http = Http(client)
    match = create(http, [{"kind": "human"}, {"kind": "open"}])
    mid, tokens = match["match_id"], tokens_of(match)
    headers = key()
    status, _, first = http.post(f"/v1/matches/{mid}/seats/1/join", headers=headers)
    assert status == 200
    assert http.post(f"/v1/matches/{mid}/resign", token=tokens[0])[0] == 200
    status, replay_headers, again = http.post(f"/v1/matches/{mid}/seats/1/join", headers=headers)
    assert status == 200 and again == first and replay_headers["Idempotent-Replayed"] == "true"


def test_racing_repeats_of_one_join_both_get_the_seat(client):
    http = Http(client)
    match = create(http, [{"kind": "human"}, {"kind": "open"}])
    mid = match["match_id"]
    headers, answers = key(), []

    def call():
        answers.append(
            http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "Zed"}, headers=headers)
        )

    threads = [threading.Thread(target=call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [a[0] for a in answers] == [200] * 4, answers
    assert len({a[2]["token"] for a in answers}) == 1
    assert len({a[2]["version"] for a in answers}) == 1
    joined = [
        e for e in http.get(f"/v1/matches/{mid}/events")[2]["events"] if e["type"] == "SeatJoined"
    ]
    assert len(joined) == 1


def test_a_repeated_create_answers_the_same_match_and_tokens(client):
    http = Http(client)
    headers = key()
    body = {"game": GAME, "seats": HUMANS, "options": {"objectives": "starter"}}
    status, first_headers, first = http.post("/v1/matches", body, headers=headers)
    assert status == 201 and "Idempotent-Replayed" not in first_headers
    status, again_headers, again = http.post("/v1/matches", body, headers=headers)
    assert status == 201 and again == first
    assert again_headers["Idempotent-Replayed"] == "true"
    assert again_headers["Location"] == first_headers["Location"]
    for seat in first["seats"]:
        assert http.get(f"/v1/matches/{first['match_id']}/legal-actions", seat["token"])[0] == 200
    status, _, problem = http.post("/v1/matches", {**body, "unlisted": True}, headers=headers)
    assert (status, problem["code"]) == (422, "idempotency_key_reused")
    # without a key, or with another, a new match
    assert http.post("/v1/matches", body, headers=key())[2]["match_id"] != first["match_id"]


def test_a_used_key_with_a_body_the_schema_refuses_is_judged_on_the_key(client):
    """As on ``POST .../actions``: the key is judged before the body (a probe got 400
    ``validation_error`` here, the walkthrough says 422 ``idempotency_key_reused``)."""
    http = Http(client)
    headers = key()
    body = {"game": GAME, "seats": HUMANS, "options": {"objectives": "starter"}}
    made = http.post("/v1/matches", body, headers=headers)[2]
    bad = {"game": GAME, "seats": [{"kind": "alien"}]}
    status, _, problem = http.post("/v1/matches", bad, headers=headers)
    assert (status, problem["code"]) == (422, "idempotency_key_reused"), problem
    assert http.post("/v1/matches", bad, headers=key())[2]["code"] == "validation_error"
    options = {**body, "options": {"objectives": "nonsense"}}  # refused by the game
    assert http.post("/v1/matches", options, headers=headers)[2]["code"] == (
        "idempotency_key_reused"
    )
    # join: a seat's key used, then a body the schema refuses
    match = create(http, [{"kind": "human"}, {"kind": "open"}])
    join = f"/v1/matches/{match['match_id']}/seats/1/join"
    assert http.post(join, {"name": "Ann"}, headers=headers)[0] == 200
    version = http.get(f"/v1/matches/{match['match_id']}")[2]["version"]
    status, _, problem = http.post(join, {"name": 5}, headers=headers)
    assert (status, problem["code"]) == (422, "idempotency_key_reused"), problem
    assert http.post(join, {"name": 5}, headers=key())[2]["code"] == "validation_error"
    assert http.get(f"/v1/matches/{match['match_id']}")[2]["version"] == version
    assert made["match_id"] != match["match_id"]


def test_racing_repeats_of_one_create_make_one_match(client):
    http = Http(client)
    headers, answers = key(), []
    body = {"game": GAME, "seats": HUMANS, "options": {"objectives": "starter"}}

    def call():
        answers.append(http.post("/v1/matches", body, headers=headers))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [a[0] for a in answers] == [201] * 4, answers
    assert len({a[2]["match_id"] for a in answers}) == 1
    assert len({tuple(s["token"] for s in a[2]["seats"]) for a in answers}) == 1
    assert sum(1 for a in answers if "Idempotent-Replayed" not in a[1]) >= 1


@pytest.mark.parametrize("path", ["/v1/matches", "join", "fork"])
def test_a_short_key_that_would_keep_tokens_is_refused(client, path):
    http = Http(client)
    short = {"Idempotency-Key": "1"}
    if path == "join":
        mid = create(http, [{"kind": "human"}, {"kind": "open"}])["match_id"]
        status, _, problem = http.post(f"/v1/matches/{mid}/seats/1/join", headers=short)
    elif path == "fork":
        mid, _ = finished_match(http)
        end = setup_end(http, mid)  # a fork takes a version before the last
        status, _, problem = http.post(f"/v1/matches/{mid}/fork", {"version": end}, headers=short)
    else:
        status, _, problem = http.post(path, {"game": GAME, "seats": HUMANS}, headers=short)
    assert (status, problem["code"]) == (400, "validation_error"), problem
    assert "Idempotency-Key" in problem["errors"]


def test_a_repeated_fork_answers_the_same_match(client):
    http = Http(client)
    mid, _ = finished_match(http)
    end = setup_end(http, mid)  # a fork takes a version before the last
    headers = key()
    status, first_headers, first = http.post(
        f"/v1/matches/{mid}/fork", {"version": end}, headers=headers
    )
    assert status == 201, first
    assert any("token" in seat for seat in first["seats"])
    status, again_headers, again = http.post(
        f"/v1/matches/{mid}/fork", {"version": end}, headers=headers
    )
    assert status == 201 and again == first and again_headers["Idempotent-Replayed"] == "true"
    status, _, problem = http.post(
        f"/v1/matches/{mid}/fork",
        {"version": end, "seats": [{"kind": "human"}, {"kind": "bot"}]},
        headers=headers,
    )
    assert (status, problem["code"]) == (422, "idempotency_key_reused")


@pytest.mark.parametrize("kind", ["human", "open"])
def test_a_repeated_rematch_answers_the_same_token(client, kind):
    http = Http(client)
    seats = (
        [{"kind": "human"}, {"kind": "human"}]
        if kind == "human"
        else [{"kind": "human"}, {"kind": "open"}]
    )
    match = create(http, seats)
    mid, tokens = match["match_id"], tokens_of(match)
    if kind == "open":
        status, _, joined = http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "Jo"})
        tokens[1] = joined["token"]
    for seat in (0, 1):
        if http.get(f"/v1/matches/{mid}")[2]["status"] != "finished":
            assert http.post(f"/v1/matches/{mid}/resign", token=tokens[seat])[0] == 200
    headers = {"Idempotency-Key": "r"}  # scoped by the bearer's seat: any length
    status, first_headers, first = http.post(
        f"/v1/matches/{mid}/rematch", token=tokens[1], headers=headers
    )
    assert status == 201 and "Idempotent-Replayed" not in first_headers, first
    version = http.get(f"/v1/matches/{first['match_id']}")[2]["version"]
    status, again_headers, again = http.post(
        f"/v1/matches/{mid}/rematch", token=tokens[1], headers=headers
    )
    assert status == 201 and again == first, again
    assert again_headers["Idempotent-Replayed"] == "true"
    assert http.get(f"/v1/matches/{first['match_id']}")[2]["version"] == version
    assert http.get(f"/v1/matches/{first['match_id']}/legal-actions", first["token"])[0] == 200
    # without the key the seat has claimed its rematch token already
    status, _, problem = http.post(f"/v1/matches/{mid}/rematch", token=tokens[1])
    assert (status, problem["code"]) == (409, "rematch_seat_claimed")
    # another seat with the same key gets its own seat
    status, _, other = http.post(f"/v1/matches/{mid}/rematch", token=tokens[0], headers=headers)
    assert status == 200 and other["token"] != first["token"] and other["seat"] == 0


@pytest.mark.parametrize("store_kind", ["standalone", "cluster"], indirect=True)
def test_keyed_create_join_rematch_fork_on_real_redis_and_cluster(live_server, store_kind):
    """The records live under hash tags (the match's, the pointer's own): every script and
    pipeline stays in one slot of a Redis Cluster."""
    http = Http(live_server.url)
    headers = key()
    body = {
        "game": GAME,
        "seats": [{"kind": "human"}, {"kind": "open"}],
        "options": {"objectives": "starter"},
    }
    first = http.post("/v1/matches", body, headers=headers)
    again = http.post("/v1/matches", body, headers=headers)
    assert first[0] == again[0] == 201 and first[2] == again[2]
    assert again[1]["Idempotent-Replayed"] == "true"
    mid, tokens = first[2]["match_id"], tokens_of(first[2])
    join_key = key()
    joined = http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "J"}, headers=join_key)
    rejoined = http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "J"}, headers=join_key)
    assert joined[0] == rejoined[0] == 200 and joined[2] == rejoined[2]
    tokens[1] = joined[2]["token"]
    for seat in (0, 1):
        if http.get(f"/v1/matches/{mid}")[2]["status"] != "finished":
            assert http.post(f"/v1/matches/{mid}/resign", token=tokens[seat])[0] == 200
    for seat in (0, 1):
        answers = [
            http.post(
                f"/v1/matches/{mid}/rematch",
                token=tokens[seat],
                headers={"Idempotency-Key": f"rematch-{seat}"},
            )
            for _ in range(2)
        ]
        assert answers[0][2] == answers[1][2] and answers[0][2]["seat"] == seat, answers
        assert answers[1][1]["Idempotent-Replayed"] == "true"
    end = setup_end(http, mid)  # a fork takes a version before the last
    fork_key = key()
    forks = [
        http.post(f"/v1/matches/{mid}/fork", {"version": end}, headers=fork_key) for _ in range(2)
    ]
    assert forks[0][0] == forks[1][0] == 201 and forks[0][2] == forks[1][2]
