"""``POST /v1/replays`` refuses huge or malformed logs cheaply: more than
``ARENA_MAX_LOG_EVENTS`` events is a 413 ``too_many_events`` before any per-event work, and
a bad envelope list is a 400 naming the first bad envelope only (issue 12: 100,000 empty
events took ~18 s and answered 42 MB of per-event errors)."""

from __future__ import annotations

import pytest

from api.app import create_app
from api.schemas import DEFAULT_MAX_LOG_EVENTS
from tests.e2e.http_helpers import Http

LOG_HEAD = {
    "format": "apocalypse-arena/log@1",
    "match_id": "m",
    "game": "ai-100-human",
    "seats": [{"kind": "human"}],
    "options": {},
    "seed": "00" * 32,
    "seed_commitment": "0" * 64,
}


def _finished_log(service) -> dict:
    """The export of a small finished match (a seat resigns: the other wins)."""
    mid = service.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}])["match_id"]
    service.resign(mid, 0)
    return service.export(mid)


def test_a_log_of_100000_empty_events_is_a_413_without_per_event_errors(client):
    response = client.post("/v1/replays", json={**LOG_HEAD, "events": [{}] * 100_000})
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["code"] == "too_many_events"
    assert (problem["cap"], problem["count"]) == (DEFAULT_MAX_LOG_EVENTS, 100_000)
    assert "errors" not in problem and len(response.data) < 2000


def test_a_bad_envelope_list_names_the_first_bad_envelope_only(client):
    response = client.post("/v1/replays", json={**LOG_HEAD, "events": [{}] * 5000})
    problem = response.get_json()
    assert (response.status_code, problem["code"]) == (400, "validation_error")
    assert problem["errors"] == {"events": {"0": {"version": ["Is required."]}}}
    assert "events[0].version" in problem["detail"]


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda e: e.update(version=True), "version"),
        (lambda e: e.update(seat="1"), "seat"),
        (lambda e: e.update(cause="cheat"), "cause"),
        (lambda e: e.update(hash="xyz"), "hash"),
        (lambda e: e.pop("data"), "data"),
    ],
)
def test_each_envelope_member_is_checked(client, embedded_service, edit, field):
    log = _finished_log(embedded_service)
    edit(log["events"][-1])
    problem = client.post("/v1/replays", json=log).get_json()
    last = str(len(log["events"]) - 1)
    assert problem["code"] == "validation_error" and list(problem["errors"]["events"]) == [last]
    assert list(problem["errors"]["events"][last]) == [field]


def test_the_cap_is_a_setting_and_a_log_at_the_cap_verifies(embedded_service):
    log = _finished_log(embedded_service)
    count = len(log["events"])
    at_cap = Http(
        create_app(
            embedded_service,
            {"TESTING": True, "ARENA_MAX_LOG_EVENTS": count, "ARENA_RATE_LIMITS_ENABLED": "0"},
        ).test_client()
    )
    status, _, report = at_cap.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report
    below = Http(
        create_app(
            embedded_service,
            {
                "TESTING": True,
                "ARENA_MAX_LOG_EVENTS": str(count - 1),
                "ARENA_RATE_LIMITS_ENABLED": "0",
            },
        ).test_client()
    )
    status, _, problem = below.post("/v1/replays", log)
    assert (status, problem["code"], problem["cap"]) == (413, "too_many_events", count - 1)


@pytest.mark.parametrize("bad", ["0", "-3", "many", True])
def test_a_bad_cap_setting_fails_at_start_up(embedded_service, bad):
    with pytest.raises(ValueError, match="ARENA_MAX_LOG_EVENTS"):
        create_app(embedded_service, {"ARENA_MAX_LOG_EVENTS": bad})
