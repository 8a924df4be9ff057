"""A finished A.I.Pokalypse match analysed over HTTP (issue 23 item 3): ``POST
/v1/matches/{id}/analysis`` queues the job, the embedded worker runs the expert's estimator
(``win_probability``) from each seat's view, and ``GET /v1/analyses/{id}`` answers every
decision of both seats, valid against ``openapi.yaml``'s ``Analysis`` schema."""

from __future__ import annotations

import random

from tests.e2e.test_api_analysis import _done, _two_seat_win_probability


def _finished_match(service, seed: int = 3) -> str:
    """A finished 2-seat A.I.Pokalypse match between two human seats playing random legal
    commands (the pending seats in seat order)."""
    mid = service.create_match("aipokalypse", [{"kind": "human"}, {"kind": "human"}], {})[
        "match_id"
    ]
    rng = random.Random(seed)
    for _ in range(2000):
        if service.match_view(mid, None)["status"] == "finished":
            return mid
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
                break
    raise AssertionError("the random match did not finish in 2000 commands")


def test_a_finished_aipokalypse_match_is_analysed_over_http(client, embedded_service):
    mid = _finished_match(embedded_service)
    response = client.post(f"/v1/matches/{mid}/analysis?budget=4")
    assert response.status_code == 202, response.get_json()
    done = _done(client, f"/v1/analyses/{response.get_json()['analysis_id']}")
    decisions = _two_seat_win_probability(done, mid)
    assert decisions and {d["seat"] for d in decisions} == {0, 1}
    assert all(d["label"] in (None, "inaccuracy", "mistake", "blunder") for d in decisions)
    # the same match and budget: the cached answer
    assert client.get(f"/v1/matches/{mid}/analysis?budget=4").get_json() == done
