"""Turn timeouts and resignation on the production topology: the deadlines are kept by the
RQ scheduler of the ``arena worker`` processes and the timeout bot plays in them.

A match of two human seats with ``turn_timeout_s`` of one second: seat 0 plays (a
:class:`HumanSeat` thread), seat 1 never does. Its deadlines pass and the timeout bot
decides for it (cause ``timeout``); after two such decisions seat 1 resigns (its one
command), a second resignation answers 409, its decisions stay the timeout bot's, the
match reaches its result and the export verifies.
"""

from __future__ import annotations

import time

from tests.e2e.http_helpers import Http
from tests.production.helpers import HumanSeat, verified_export

#: generous bound for a match to end on a loaded machine (never asserted as a duration)
END_TIMEOUT_S = 900


def wait_finished(http: Http, match_id: str, token: str) -> dict:
    """Long-poll the match's events until it is finished; its final view."""
    deadline = time.monotonic() + END_TIMEOUT_S
    while time.monotonic() < deadline:
        status, _, view = http.get(f"/v1/matches/{match_id}", token)
        assert status == 200, view
        if view["status"] != "running":
            return view
        status, _, page = http.get(
            f"/v1/matches/{match_id}/events?after={view['version']}&wait=30", token
        )
        assert status == 200, page
    raise AssertionError(f"match {match_id} did not end")


def timeouts_of(http: Http, match_id: str, token: str, seat: int, at_least: int) -> int:
    """Long-poll the match's events until ``seat`` has had ``at_least`` decisions made by
    the timeout bot (batches with cause ``timeout``); how many it has had."""
    after, count = 0, 0
    deadline = time.monotonic() + END_TIMEOUT_S
    while count < at_least and time.monotonic() < deadline:
        status, _, page = http.get(f"/v1/matches/{match_id}/events?after={after}&wait=30", token)
        assert status == 200, page
        for event in page["events"]:
            after = event["version"]
            count += event["cause"] == "timeout" and event.get("actor") == seat
    return count


def test_turn_timeouts_then_a_resignation_leave_an_idle_seat_to_its_bot(production):
    http = Http(production.url)
    status, _, created = http.post(
        "/v1/matches",
        {
            "game": "aipokalypse",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "turn_timeout_s": 1,
        },
    )
    assert status == 201, created
    match_id = created["match_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    status, _, view = http.get(f"/v1/matches/{match_id}", tokens[1])
    assert status == 200 and view["turn_timeout_s"] == 1 and view.get("deadlines"), view
    player = HumanSeat(production.url, match_id, 0, tokens[0], "timeouts")
    player.start()
    # seat 1 never acts: its deadlines pass and the workers' timeout bot decides for it
    assert timeouts_of(http, match_id, tokens[1], 1, at_least=2) >= 2
    status, _, resigned = http.post(f"/v1/matches/{match_id}/resign", None, tokens[1])
    assert status == 200, resigned
    status, _, again = http.post(f"/v1/matches/{match_id}/resign", None, tokens[1])
    assert (status, again["code"]) in ((409, "seat_resigned"), (409, "match_finished")), again
    status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[1])
    assert status == 200 and legal["actions"] == [], legal
    view = wait_finished(http, match_id, tokens[1])
    player.join(END_TIMEOUT_S)
    assert not player.is_alive() and player.error is None, player.error
    assert view["result"] is not None
    log, _ = verified_export(http, match_id)
    seat_1 = [e["cause"] for e in log["events"] if e.get("actor") == 1]
    resignation = seat_1.index("player")  # its one command: the resignation
    assert resignation >= 2 and set(seat_1[:resignation]) == {"timeout"}, seat_1
    assert set(seat_1[resignation + 1 :]) <= {"timeout"}, seat_1
    assert "player" in [e["cause"] for e in log["events"] if e.get("actor") == 0]
