"""Every game played to the end over HTTP, exported and verified, on a real Redis Cluster
(3 masters + 3 replicas, tests/support/cluster.py).

The same play on a standalone Redis is not repeated here (it was, until the suite's length
was cut): every game is played to the end, exported and verified on a standalone real Redis
with worker processes by tests/integration/test_soak_census.py and test_faults.py, and
every mode of every game over HTTP (export, verification, lobby) by
tests/e2e/test_contract_e2e.py; the store's scripts run on both kinds by the integration
tests marked ``BOTH_STORES``.

Seat 0 is a human client choosing a random legal action (never a resignation) through
``GET …/legal-actions`` and ``POST …/actions`` with the ``decision_id``; seat 1 is the
game's ``random`` bot, whose turn jobs run in this process (RQ on the standalone test
Redis). At the end: the export verifies (``POST /v1/replays``), the lobby lists the match
as finished, and the running index no longer holds it.
"""

from __future__ import annotations

import random

import pytest

from domain.games import registry
from service import bootstrap
from tests.e2e.http_helpers import Http, create, tokens_of
from tests.support.runtime import drain

pytestmark = [pytest.mark.e2e, pytest.mark.parametrize("store_kind", ["cluster"], indirect=True)]

GAMES = sorted(registry())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_to_the_end_exports_and_verifies(live_server, store_kind, game):
    bootstrap.install(live_server.service)  # the in-process bot jobs use it
    http = Http(live_server.url)
    created = create(http, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], game=game)
    match_id, token = created["match_id"], tokens_of(created)[0]
    rng = random.Random(f"{game}-{store_kind}")
    moves = 0
    for _ in range(5000):
        status, _, view = http.get(f"/v1/matches/{match_id}", token)
        assert status == 200, view
        if view["status"] != "running":
            break
        if "0" in view["pending"]:
            status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", token)
            assert status == 200, legal
            choices = [a for a in legal["actions"] if a.get("type") != "resign"] or legal["actions"]
            status, _, body = http.post(
                f"/v1/matches/{match_id}/actions",
                {**rng.choice(choices), "decision_id": legal["decision_id"]},
                token,
            )
            assert status in (200, 409), body  # 409: a bot moved first
            moves += status == 200
        else:
            drain(live_server.service, rounds=20)
    assert view["status"] == "finished" and moves > 0
    status, _, log = http.get(f"/v1/matches/{match_id}/export")
    assert status == 200
    assert len(log["events"]) == view["version"]
    status, _, verdict = http.post("/v1/replays", log)
    assert status == 200 and verdict["valid"] is True, verdict
    status, _, listing = http.get(f"/v1/matches?status=finished&game={game}")
    assert status == 200 and match_id in [m["match_id"] for m in listing["items"]]
    assert match_id not in live_server.service.stores.index.running_ids()
