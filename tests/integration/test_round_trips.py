"""Redis round trips per HTTP request, counted on the store client (tests/support/round_trips.py),
on a standalone Redis and on a Redis Cluster, for two API processes (two services with
their own caches over one store, as two gunicorn workers are):

- POST action, warm (this process holds the match's fold and tokens): 1 - the append
  script also writes counters, indexes, snapshot and the idempotency record;
- POST action after another process appended: 2 - the append refused as stale answers
  with the new head, the retry appends;
- POST action in a process that never saw the match (cold caches): 2 - the seat check
  reads the whole head (fold and tokens), then the append;
- GET view and GET legal-actions, warm: 1 each; cold: 1 each as well.
"""

from __future__ import annotations

import pytest

from api.app import create_app
from service.bootstrap import build_service
from tests.e2e.http_helpers import Http
from tests.support.cluster import BOTH_STORES
from tests.support.round_trips import count_round_trips

pytestmark = [pytest.mark.integration, BOTH_STORES]


def _process(config):
    service = build_service(config)
    return (
        service,
        Http(create_app(service, {"TESTING": True}).test_client()),
        count_round_trips(service),
    )


def _move(http: Http, match_id: str, token: str, key: str):
    status, _, body = http.post(
        f"/v1/matches/{match_id}/actions",
        {"type": "add", "amount": 1},
        token,
        headers={"Idempotency-Key": key},
    )
    assert status == 200, body
    return body


def _counted(trips, request):
    trips.reset()
    request()
    return trips.calls[:]


def test_round_trips_per_request(real_config):
    first, http_a, trips_a = _process(real_config)
    second, http_b, trips_b = _process(real_config)
    status, _, created = http_a.post(
        "/v1/matches",
        {
            "game": "race",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "options": {"target": 500},
        },
    )
    assert status == 201, created
    match_id = created["match_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    path = f"/v1/matches/{match_id}"

    def turn(http) -> int:
        return http.get(path, tokens[0])[2]["view"]["turn"]

    # scripts are loaded once per server (a NOSCRIPT reply loads them): warm them up
    _move(http_a, match_id, tokens[turn(http_a)], "warm-up")
    seat = turn(http_a)

    measured = {}
    measured["POST warm"] = _counted(trips_a, lambda: _move(http_a, match_id, tokens[seat], "a1"))
    seat = 1 - seat
    measured["GET view warm"] = _counted(trips_a, lambda: http_a.get(path, tokens[0]))
    measured["GET legal-actions warm"] = _counted(
        trips_a, lambda: http_a.get(f"{path}/legal-actions", tokens[seat])
    )
    # the second process has never seen the match
    measured["POST cold"] = _counted(trips_b, lambda: _move(http_b, match_id, tokens[seat], "b1"))
    seat = 1 - seat
    # the first process's fold is one move behind now
    measured["POST after another process appended"] = _counted(
        trips_a, lambda: _move(http_a, match_id, tokens[seat], "a2")
    )
    seat = 1 - seat
    third, http_c, trips_c = _process(real_config)
    measured["GET view cold"] = _counted(trips_c, lambda: http_c.get(path, tokens[0]))
    fourth, http_d, trips_d = _process(real_config)
    measured["GET legal-actions cold"] = _counted(
        trips_d, lambda: http_d.get(f"{path}/legal-actions", tokens[seat])
    )
    print("\nround trips per request:", {k: len(v) for k, v in measured.items()}, measured)
    assert {k: len(v) for k, v in measured.items()} == {
        "POST warm": 1,
        "GET view warm": 1,
        "GET legal-actions warm": 1,
        "POST cold": 2,
        "POST after another process appended": 2,
        "GET view cold": 1,
        "GET legal-actions cold": 1,
    }
    # the appends were the scripts, not a pipeline after them
    assert all(call == "EVALSHA" for call in measured["POST warm"])
