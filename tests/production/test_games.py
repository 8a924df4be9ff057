"""Each game played to its end on the production topology: gunicorn with the image's
settings, the real test Redis, separate ``arena worker`` processes playing the bot seats.

Human seats are threads of this test waiting on their own decisions with long-polls of
30 s (:mod:`tests.production.helpers`) and answering with one ``POST`` each; bots play in
the workers. At the end the seed is revealed, the export verifies, the lobby lists the match
as finished, and a rematch is made and claimed. The same play runs once on the Redis
Cluster stack (event store on the cluster, RQ on the test Redis).
"""

from __future__ import annotations

import hashlib

import pytest

from tests.e2e.http_helpers import GAME_OPTIONS, Http
from tests.production.helpers import play_to_the_end, verified_export

#: game -> seats of its match: humans and bots together
SEATS = {
    "ai-100-human": [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "bot": "random"},
        {"kind": "human"},
        {"kind": "bot", "bot": "greedy"},
    ],
    "aipokalypse": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "tactician"}],
    "dead-apocalypse": [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "bot": "cooperative"},
        {"kind": "human"},
    ],
}
OPTIONS = {**GAME_OPTIONS, "dead-apocalypse": {"turn_limit": 20}}


def _play(http: Http, base_url: str, game: str) -> tuple[dict, dict]:
    status, _, created = http.post(
        "/v1/matches", {"game": game, "seats": SEATS[game], "options": OPTIONS[game]}
    )
    assert status == 201, created
    view, seats = play_to_the_end(base_url, created, f"production-{game}")
    assert sum(seat.moves for seat in seats) > 0
    return created, view


def _check_finished(http: Http, created: dict, view: dict, game: str) -> None:
    match_id = created["match_id"]
    assert view["result"] is not None
    assert hashlib.sha256(bytes.fromhex(view["seed"])).hexdigest() == created["seed_commitment"]
    log, report = verified_export(http, match_id)
    assert len(log["events"]) == view["version"] == report["version"]
    assert report["result"] == view["result"]
    causes = {event["cause"] for event in log["events"]}
    assert {"player", "bot"} <= causes, causes
    status, _, listing = http.get(f"/v1/matches?status=finished&game={game}")
    assert status == 200 and match_id in [m["match_id"] for m in listing["items"]]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_game_with_bots_and_humans_is_played_to_its_end_and_verifies(production, game):
    http = Http(production.url)
    created, view = _play(http, production.url, game)
    _check_finished(http, created, view, game)

    # a rematch: the same roster, a new match, human seats claimed once each
    first = next(s for s in created["seats"] if "token" in s)
    status, _, rematch = http.post(f"/v1/matches/{created['match_id']}/rematch", {}, first["token"])
    assert status == 201, rematch
    assert rematch["rematch_of"] == created["match_id"] and rematch["token"]
    status, _, again = http.post(f"/v1/matches/{created['match_id']}/rematch", {}, first["token"])
    assert (status, again.get("code")) == (409, "rematch_seat_claimed"), again
    status, _, legal = http.get(
        f"/v1/matches/{rematch['match_id']}/legal-actions", rematch["token"]
    )
    assert status == 200, legal


def test_a_game_is_played_to_its_end_on_the_redis_cluster(production_cluster):
    http = Http(production_cluster.url)
    created, view = _play(http, production_cluster.url, "aipokalypse")
    _check_finished(http, created, view, "aipokalypse")
