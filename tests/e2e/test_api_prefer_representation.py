"""One request per move (issue 13 item 4): ``Prefer: return=representation`` (RFC 7240) on
``POST .../actions`` and ``views=true`` on the seat's SSE stream.

All seats human and no worker involved, so nothing moves between a POST and the GETs that
check it: the representation equals what ``GET /v1/matches/{id}`` and ``GET
.../legal-actions`` answer right after, for every game, until the end of a match played
only from the answers (one request per move)."""

from __future__ import annotations

import json
import random
import threading

import pytest

from api.prefer import _preferences
from api.waits import EXTENSION
from domain.games import registry
from tests.e2e.http_helpers import GAME_OPTIONS, Http, create, tokens_of
from tests.support.game_settings import e2e_seats

PREFER = {"Prefer": "return=representation"}
FIELDS = ("view", "pending", "status", "result", "legal_actions")
#: game id -> seats of its matches here (each game's own ``testing.py``)
SEATS = e2e_seats()


def _seats(game: str) -> list[dict]:
    return [{"kind": "human"} for _ in range(SEATS[game])]


def _now(http, mid: str, token: str) -> dict:
    """What the two GETs say for the seat now, in the representation's shape."""
    status, _, match = http.get(f"/v1/matches/{mid}", token)
    assert status == 200, match
    status, _, legal = http.get(f"/v1/matches/{mid}/legal-actions", token)
    assert status == 200, legal
    return {
        "game": match["game"],
        "view": match["view"],
        "pending": match["pending"],
        "status": match["status"],
        "result": match["result"],
        "legal_actions": legal,
    }


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_match_played_from_the_answers_alone_equals_the_gets(http, game):
    assert set(SEATS) == set(registry())
    created = create(http, _seats(game), game, options=GAME_OPTIONS[game])
    mid, tokens = created["match_id"], tokens_of(created)
    rng = random.Random(13)
    legal = {
        seat: http.get(f"/v1/matches/{mid}/legal-actions", tok)[2] for seat, tok in tokens.items()
    }
    moves = 0
    for _ in range(3000):
        ready = [s for s, la in legal.items() if la["actions"]]
        if not ready:
            break
        seat = rng.choice(ready)
        command = dict(rng.choice(legal[seat]["actions"]), decision_id=legal[seat]["decision_id"])
        status, headers, body = http.post(
            f"/v1/matches/{mid}/actions",
            command,
            tokens[seat],
            headers={**PREFER, "Idempotency-Key": f"k{moves}"},
        )
        assert status == 200, (command, body)
        assert headers["Preference-Applied"] == "return=representation"
        assert "Prefer" in headers["Vary"]
        assert set(FIELDS) <= set(body) and body["legal_actions"]["version"] == body["version"]
        assert {k: body[k] for k in ("game", *FIELDS)} == _now(http, mid, tokens[seat])
        moves += 1
        legal[seat] = body["legal_actions"]
        for other in legal:  # another seat's next actions changed with this move
            if other != seat:
                legal[other] = http.get(f"/v1/matches/{mid}/legal-actions", tokens[other])[2]
        if body["status"] != "running":
            break
    assert moves > 10
    status, _, final = http.get(f"/v1/matches/{mid}")
    assert final["status"] == "finished", final["status"]


def test_without_the_preference_the_answer_is_minimal_and_a_replay_represents_the_head(http):
    created = create(
        http, _seats("ai-100-human"), "ai-100-human", options=GAME_OPTIONS["ai-100-human"]
    )
    mid, tokens = created["match_id"], tokens_of(created)
    first = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]["actions"][0]
    for prefer in (
        {},
        {"Prefer": "return=minimal"},
        {"Prefer": "respond-async, wait=5"},
        {"Prefer": "return=minimal, return=representation"},
    ):
        status, headers, body = http.post(
            f"/v1/matches/{mid}/actions",
            first,
            tokens[0],
            headers={**prefer, "Idempotency-Key": "same"},
        )
        assert status == 200, body
        assert set(body) == {"game", "version", "events"} and "Preference-Applied" not in headers
    # seat 1 acts, then seat 0 repeats its request asking for the representation: the
    # stored answer (same version and events) plus the seat's state at the head
    other = http.get(f"/v1/matches/{mid}/legal-actions", tokens[1])[2]["actions"][0]
    assert http.post(f"/v1/matches/{mid}/actions", other, tokens[1])[0] == 200
    status, headers, body = http.post(
        f"/v1/matches/{mid}/actions",
        first,
        tokens[0],
        headers={"Prefer": 'wait=1, RETURN="representation"; x=1', "Idempotency-Key": "same"},
    )
    assert status == 200 and headers["Idempotent-Replayed"] == "true"
    assert headers["Preference-Applied"] == "return=representation"
    assert body["version"] < body["legal_actions"]["version"]
    assert {k: body[k] for k in ("game", *FIELDS)} == _now(http, mid, tokens[0])


def test_a_refused_command_with_the_preference_is_the_same_problem(http):
    created = create(
        http, _seats("ai-100-human"), "ai-100-human", options=GAME_OPTIONS["ai-100-human"]
    )
    mid, tokens = created["match_id"], tokens_of(created)
    status, headers, body = http.post(
        f"/v1/matches/{mid}/actions",
        {"type": "choose_ai_side", "card": "AI-99"},
        tokens[0],
        headers=PREFER,
    )
    assert status == 422 and headers["Content-Type"].startswith("application/problem+json")
    assert "Preference-Applied" not in headers and "legal_actions" not in body


def _stream(http, mid: str, token: str | None, query: str) -> list[dict]:
    status, headers, text = http.get(f"/v1/matches/{mid}/events/stream?max_s=0&{query}", token)
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
    return [
        json.loads(line[len("data: ") :]) for line in text.splitlines() if line.startswith("data: ")
    ]


def test_the_seat_stream_with_views_carries_the_seat_state_after_each_batch(http):
    game = "aipokalypse"
    created = create(http, _seats(game), game, options=GAME_OPTIONS[game])
    mid, tokens = created["match_id"], tokens_of(created)
    rng = random.Random(5)
    for _ in range(6):
        for token in tokens.values():
            legal = http.get(f"/v1/matches/{mid}/legal-actions", token)[2]
            if legal["actions"]:
                assert (
                    http.post(f"/v1/matches/{mid}/actions", rng.choice(legal["actions"]), token)[0]
                    == 200
                )
    plain = _stream(http, mid, tokens[0], "after=0")
    assert plain and not any("seat_state" in e for e in plain)
    viewed = _stream(http, mid, tokens[0], "after=0&views=true")
    assert [{k: v for k, v in e.items() if k != "seat_state"} for e in viewed] == plain
    ends = [e for e in viewed if "seat_state" in e]
    # one per command batch: the last envelope of each command_id
    batches = {e["command_id"]: e["version"] for e in plain}
    assert sorted(e["version"] for e in ends) == sorted(batches.values())
    last = viewed[-1]
    assert "seat_state" in last
    assert last["seat_state"] == _now(http, mid, tokens[0])  # the head: decision_id too
    for e in ends[:-1]:
        assert e["seat_state"]["legal_actions"]["version"] == e["version"]
        status, _, past = http.get(f"/v1/matches/{mid}/state?version={e['version']}", tokens[0])
        assert status == 200 and past["view"] == e["seat_state"]["view"]
        assert past["pending"] == e["seat_state"]["pending"]
    spectator = _stream(http, mid, None, "after=0&views=1")
    assert spectator[-1]["seat_state"]["legal_actions"] is None
    assert spectator[-1]["seat_state"]["view"] == http.get(f"/v1/matches/{mid}")[2]["view"]


def test_prefer_header_parsing_follows_rfc_7240():
    assert _preferences(["return=representation"]) == [("return", "representation")]
    assert _preferences(['Return = "minimal" ; a=1, wait=10', "handling=strict"]) == [
        ("return", "minimal"),
        ("wait", "10"),
        ("handling", "strict"),
    ]
    assert _preferences(['foo="a,b;c", respond-async', " , "]) == [
        ("foo", "a,b;c"),
        ("respond-async", ""),
    ]


def test_a_post_with_wait_answers_once_the_seat_has_its_next_decision(http):
    """``POST .../actions?wait=`` with the representation: Duel's tricks are simultaneous,
    so after seat 0 plays it has nothing to do until seat 1 plays; its answer is held
    until then and carries the next trick's legal actions (the long-poll a client would
    send next is saved), while ``version`` and ``events`` stay its own batch."""

    created = create(http, [{"kind": "human"}, {"kind": "human"}], "duel", options={"tricks": 3})
    mid, tokens = created["match_id"], tokens_of(created)
    first = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]["actions"][0]
    answers: dict[str, tuple] = {}
    # the held request gets a client of its own (a Flask test client is not shared by threads)
    own = Http(
        http.target if isinstance(http.target, str) else http.target.application.test_client()
    )

    def seat_0_plays() -> None:
        answers["seat 0"] = own.post(
            f"/v1/matches/{mid}/actions?wait=30", first, tokens[0], headers=PREFER
        )

    held = threading.Thread(target=seat_0_plays)
    held.start()
    # seat 1 plays once seat 0's card is in (its legal actions do not depend on it)
    for _ in range(600):
        _, _, match = http.get(f"/v1/matches/{mid}", tokens[1])
        if "0" not in match["pending"]:
            break
        held.join(0.05)
    assert "0" not in match["pending"], "seat 0's card was not taken"
    other = http.get(f"/v1/matches/{mid}/legal-actions", tokens[1])[2]["actions"][0]
    status, _, body_1 = http.post(f"/v1/matches/{mid}/actions", other, tokens[1], headers=PREFER)
    assert status == 200, body_1
    held.join(60)
    status, headers, body = answers["seat 0"]
    assert status == 200, body
    assert headers["Preference-Applied"] == "return=representation"
    assert headers["Server-Timing"].startswith("wait;dur=")  # how long it was held
    assert body["version"] < body_1["version"] <= body["legal_actions"]["version"]
    assert body["legal_actions"]["actions"], "the next trick's cards"
    assert {k: body[k] for k in ("game", *FIELDS)} == _now(http, mid, tokens[0])
    # without the representation the wait is ignored: the answer is the batch at once
    card = body["legal_actions"]["actions"][0]
    status, _, minimal = http.post(f"/v1/matches/{mid}/actions?wait=30", card, tokens[0])
    assert status == 200 and set(minimal) == {"game", "version", "events"}


@pytest.mark.parametrize("wait", ["-1", "31", "nan", "abc"])
def test_a_bad_wait_on_a_post_is_refused_and_changes_nothing(http, wait):
    created = create(http, [{"kind": "human"}, {"kind": "human"}], "duel", options={"tricks": 3})
    mid, tokens = created["match_id"], tokens_of(created)
    legal = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]
    status, headers, body = http.post(
        f"/v1/matches/{mid}/actions?wait={wait}", legal["actions"][0], tokens[0], headers=PREFER
    )
    assert status == 400 and body["code"] == "validation_error", body
    assert headers["Content-Type"].startswith("application/problem+json")
    assert http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2] == legal


def test_a_post_whose_wait_finds_no_free_slot_answers_at_once_and_says_so(http, client):
    """Every waiting slot of the process held (its cap at 0 here): the command is in, the
    answer comes at once, and ``Server-Timing`` tells the client it did not wait."""
    slots = client.application.extensions[EXTENSION]
    created = create(http, [{"kind": "human"}, {"kind": "human"}], "duel", options={"tricks": 3})
    mid, tokens = created["match_id"], tokens_of(created)
    first = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]["actions"][0]
    before = slots.limit
    slots.limit = 0
    try:
        status, headers, body = http.post(
            f"/v1/matches/{mid}/actions?wait=30", first, tokens[0], headers=PREFER
        )
    finally:
        slots.limit = before
    assert status == 200, body
    assert body["legal_actions"]["actions"] == [] and body["status"] == "running"
    assert headers["Server-Timing"] == 'wait;dur=0;desc="no free slot"'


def test_a_prefer_header_over_its_documented_length_is_refused_and_changes_nothing(http):
    """Session 9 probe: a ``Prefer`` over openapi.yaml's ``maxLength`` (1,024) was read.
    Now 400 ``validation_error`` (``errors.Prefer``), as an over-long Idempotency-Key;
    at the limit it is still honoured."""
    created = create(http, [{"kind": "human"}, {"kind": "human"}], "duel", options={"tricks": 3})
    mid, tokens = created["match_id"], tokens_of(created)
    legal = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]
    padded = "return=representation, " + "x" * (1024 - len("return=representation, "))
    status, headers, body = http.post(
        f"/v1/matches/{mid}/actions",
        legal["actions"][0],
        tokens[0],
        headers={"Prefer": padded + "x"},
    )
    assert (status, body["code"]) == (400, "validation_error") and "Prefer" in body["errors"]
    assert headers["Content-Type"].startswith("application/problem+json")
    assert http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2] == legal
    status, headers, body = http.post(
        f"/v1/matches/{mid}/actions", legal["actions"][0], tokens[0], headers={"Prefer": padded}
    )
    assert status == 200 and headers["Preference-Applied"] == "return=representation", body
