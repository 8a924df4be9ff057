"""Joins racing on the production topology: one player sends several joins of the same
rated match at once to the two gunicorn workers (each with its threads). One seat per
player holds: exactly one join answers 200, every other one 409 (``player_already_seated``,
or ``seat_taken`` when it raced another join for the same seat), the roster names the
player once, and the seats it lost give their claims back (other players join them)."""

from __future__ import annotations

import threading
import uuid
from typing import Any

from tests.e2e.http_helpers import Http

#: Open seats of each match, and joins sent at once by one player (two for each seat).
OPEN_SEATS = 3
JOINS = 2 * OPEN_SEATS
#: Matches raced one after the other (each race is a new chance for an interleaving).
ROUNDS = 4


def _player(http: Http, prefix: str) -> dict[str, Any]:
    status, _, body = http.post("/v1/players", {"name": f"{prefix} {uuid.uuid4().hex[:8]}"})
    assert status == 201, body
    return body


def _race(url: str, match_id: str, key: str) -> list[tuple[int, Any]]:
    """``JOINS`` joins of seats ``1..OPEN_SEATS`` (each twice) with player ``key``, sent
    together behind a barrier, each thread on its own connection: ``[(status, body)]``."""
    barrier = threading.Barrier(JOINS)
    answers: list[tuple[int, Any]] = [(0, None)] * JOINS

    def join(i: int) -> None:
        http = Http(url)
        barrier.wait(timeout=30)
        status, _, body = http.post(
            f"/v1/matches/{match_id}/seats/{1 + i % OPEN_SEATS}/join", {}, key
        )
        answers[i] = (status, body)

    threads = [threading.Thread(target=join, args=(i,), daemon=True) for i in range(JOINS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def test_racing_joins_of_one_player_take_one_seat_of_a_rated_match(production):
    http = Http(production.url)
    ann = _player(http, "Race Ann")
    for _round in range(ROUNDS):
        bob = _player(http, "Race Bob")
        status, _, created = http.post(
            "/v1/matches",
            {
                "game": "aipokalypse",
                "seats": [{"kind": "human"}] + [{"kind": "open"}] * OPEN_SEATS,
                "rated": True,
            },
            ann["key"],
        )
        assert status == 201, created
        mid = created["match_id"]
        answers = _race(production.url, mid, bob["key"])
        won = [body for status, body in answers if status == 200]
        lost = [body for status, body in answers if status != 200]
        assert len(won) == 1, answers
        assert all(
            status == 409 and body["code"] in ("player_already_seated", "seat_taken")
            for status, body in answers
            if status != 200
        ), lost
        seat = won[0]["seat"]
        status, _, view = http.get(f"/v1/matches/{mid}")
        assert status == 200, view
        players = [s.get("player") for s in view["seats"]]
        assert players.count(bob["player_id"]) == 1 and players[seat] == bob["player_id"]
        # the seats Bob's lost joins had claimed are open again: other players take them
        for other in range(1, 1 + OPEN_SEATS):
            if other != seat:
                cy = _player(http, "Race Cy")
                status, _, body = http.post(f"/v1/matches/{mid}/seats/{other}/join", {}, cy["key"])
                assert status == 200, (other, body)
        status, _, view = http.get(f"/v1/matches/{mid}")
        assert all(s["kind"] != "open" for s in view["seats"]), view["seats"]
