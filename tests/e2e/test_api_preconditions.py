"""The action preconditions over HTTP (issue 10 items 8 and 10).

The A.I.Pokalypse case: a client reads legal actions, a bot acts in the same simultaneous
step, then the client posts. With the ``expected_version`` it read it gets ``409
version_conflict``; with the ``decision_id`` it read its command is accepted. Here no worker
thread runs: the test runs each bot turn itself, so the bot acts exactly between the GET and
the POST, every time both seats are pending.

Also: a repeated Idempotency-Key with another ``expected_version`` is ``422
idempotency_key_reused``, and a finished match answers ``409 match_finished`` before any
check of the command (unknown, malformed or invalid).
"""

from __future__ import annotations

import random
import uuid

import pytest

from api.app import create_app
from domain.games import registry
from service import bootstrap
from service.bootstrap import build_service
from service.config import Config
from tests.e2e.http_helpers import GAME_OPTIONS, Http, tokens_of
from tests.support.games import ENGINES

MAX_COMMANDS = 3000


@pytest.fixture
def quiet():
    """``(http, service)``: the API over an embedded service whose bot jobs nobody runs
    (own key prefix and queue; the session's worker threads serve another queue)."""
    service = build_service(
        Config(key_prefix=f"pre-{uuid.uuid4().hex[:8]}", max_bot_matches_per_client=0),
        engines={**registry(), **ENGINES},
    )
    bootstrap.install(service)
    app = create_app(service, {"TESTING": True})
    yield Http(app.test_client()), service
    bootstrap.reset()


def _pending(http, mid):
    status, _, view = http.get(f"/v1/matches/{mid}")
    assert status == 200, view
    return view


def test_a_bot_acting_between_legal_actions_and_the_post_does_not_refuse_a_decision_id(quiet):
    http, service = quiet
    status, _, created = http.post(
        "/v1/matches",
        {
            "game": "aipokalypse",
            "options": GAME_OPTIONS["aipokalypse"],
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        },
    )
    assert status == 201, created
    mid, token = created["match_id"], tokens_of(created)[0]
    rng, between = random.Random(7), 0
    for _ in range(MAX_COMMANDS):
        view = _pending(http, mid)
        if view["status"] == "finished":
            break
        pending = {int(s) for s in view["pending"]}
        if 0 not in pending:  # only the bot: let it act
            assert service.run_bot_turn(mid, view["version"], 1)["status"] == "acted"
            continue
        status, _, legal = http.get(f"/v1/matches/{mid}/legal-actions", token)
        assert status == 200 and legal["decision_id"], legal
        command = rng.choice(legal["actions"])
        if 1 in pending:  # a simultaneous step: the bot acts now
            assert service.run_bot_turn(mid, legal["version"], 1)["status"] == "acted"
            moved = _pending(http, mid)
            if moved["status"] == "finished" or "0" not in moved["pending"]:
                continue  # the bot's move closed the step
            between += 1
            status, _, body = http.post(
                f"/v1/matches/{mid}/actions",
                {**command, "expected_version": legal["version"]},
                token,
            )
            assert (status, body["code"]) == (409, "version_conflict"), body
        status, _, body = http.post(
            f"/v1/matches/{mid}/actions", {**command, "decision_id": legal["decision_id"]}, token
        )
        assert status == 200, body
        status, _, body = http.post(
            f"/v1/matches/{mid}/actions", {**command, "decision_id": legal["decision_id"]}, token
        )
        assert (status, body["code"]) in ((409, "decision_moved"), (409, "match_finished")), body
        if body["code"] == "decision_moved":
            assert body["current_version"] >= legal["version"] and "current_decision_id" in body
    assert _pending(http, mid)["status"] == "finished"
    assert between >= 3, "the match had too few simultaneous steps to show the case"


def _race(http, target=3):
    status, _, created = http.post(
        "/v1/matches",
        {
            "game": "race",
            "options": {"target": target},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert status == 201, created
    return created["match_id"], tokens_of(created)


def test_a_repeated_idempotency_key_with_another_expected_version_is_refused(quiet):
    http, _ = quiet
    mid, tokens = _race(http, target=50)
    seat = int(next(iter(_pending(http, mid)["pending"])))
    key = {"Idempotency-Key": "move-1"}
    path, move = f"/v1/matches/{mid}/actions", {"type": "add", "amount": 1}
    status, _, first = http.post(path, {**move, "expected_version": 1}, tokens[seat], headers=key)
    assert status == 200, first
    status, headers, again = http.post(
        path, {**move, "expected_version": 1}, tokens[seat], headers=key
    )
    assert status == 200 and headers.get("Idempotent-Replayed") == "true" and again == first
    for body in (
        {**move, "expected_version": 0},
        move,
        {**move, "decision_id": "2-0123456789abcdef"},
        {"type": "add", "amount": 2, "expected_version": 1},
    ):
        status, _, problem = http.post(path, body, tokens[seat], headers=key)
        assert (status, problem["code"]) == (422, "idempotency_key_reused"), (body, problem)
    # session 9 probe: a body the command schema refuses answered its own code (422
    # unknown_action), not the reuse a valid other command gets; the key comes first now
    for body in ({"type": "no_such_move"}, {"amount": 1}, ["not", "an", "object"]):
        status, _, problem = http.post(path, body, tokens[seat], headers=key)
        assert (status, problem["code"]) == (422, "idempotency_key_reused"), (body, problem)
    # a fresh key (or none) leaves the body's own error
    fresh = {"Idempotency-Key": "move-2"}
    status, _, problem = http.post(path, {"type": "no_such_move"}, tokens[seat], headers=fresh)
    assert (status, problem["code"]) == (422, "unknown_action"), problem
    status, _, problem = http.post(path, {"amount": 1}, tokens[seat])
    assert (status, problem["code"]) == (400, "validation_error"), problem
    assert _pending(http, mid)["version"] == 2


def test_a_finished_match_answers_match_finished_before_any_command_check(quiet):
    http, _ = quiet
    mid, tokens = _race(http)
    while (view := _pending(http, mid))["status"] != "finished":
        seat = int(next(iter(view["pending"])))
        status, _, body = http.post(
            f"/v1/matches/{mid}/actions", {"type": "add", "amount": 3}, tokens[seat]
        )
        assert status == 200, body
    for body in (
        {"type": "no_such_move"},
        {"type": "add", "amount": 99},
        {"amount": 1},
        {"type": "add", "amount": 1},
        ["not", "an", "object"],
        {"type": "add", "amount": 1, "expected_version": "x"},
    ):
        status, _, problem = http.post(f"/v1/matches/{mid}/actions", body, tokens[0])
        assert (status, problem["code"]) == (409, "match_finished"), (body, problem)
    status, _, problem = http.call(
        "POST", f"/v1/matches/{mid}/actions", tokens[0], raw=b"{not json"
    )
    assert (status, problem["code"]) == (409, "match_finished"), problem
