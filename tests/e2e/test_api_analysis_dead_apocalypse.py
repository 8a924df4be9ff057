"""A finished Dead Apocalypse match analysed over HTTP (issue 23 item 3): two human seats
play 24 seeded legal commands through the match service, then both resign (the team loses
at once, RULINGS R-RESIGN), and ``POST /v1/matches/{id}/analysis`` is answered by the
embedded worker with the ``win_probability`` estimator of the game (``expert.py``'s
rollouts from each seat's view). The resignations are not decisions; every other command
is, valued when it had alternatives (a turn the worker played for the resigned seat
before the second resignation is one more, cause ``timeout``)."""

from __future__ import annotations

import random

from tests.e2e.test_api_analysis import _done, _two_seat_win_probability

COMMANDS = 24  # game commands before the resignations (short: every rollout is a whole match)


def _resigned_match(service, seed: int = 5) -> str:
    mid = service.create_match("dead-apocalypse", [{"kind": "human"}, {"kind": "human"}], {})[
        "match_id"
    ]
    rng = random.Random(seed)
    for _ in range(COMMANDS):
        seat = next(s for s in (0, 1) if service.legal_actions(mid, s)["actions"])
        service.act(mid, seat, rng.choice(service.legal_actions(mid, seat)["actions"]))
    for seat in (0, 1):
        service.resign(mid, seat)
    assert service.match_view(mid, None)["status"] == "finished"
    return mid


def test_a_finished_dead_apocalypse_match_is_analysed(client, embedded_service):
    mid = _resigned_match(embedded_service)
    response = client.post(f"/v1/matches/{mid}/analysis?budget=2")
    assert response.status_code == 202, response.get_json()
    done = _done(client, response.headers["Location"])
    decisions = _two_seat_win_probability(done, mid)
    # the players' own commands; once seat 0 resigned, the embedded worker may play its
    # turn for the team (R-RESIGN, cause timeout) before seat 1's resignation lands
    assert len([d for d in decisions if d["cause"] == "player"]) == COMMANDS
    assert all(d["cause"] in ("player", "timeout") for d in decisions), decisions
