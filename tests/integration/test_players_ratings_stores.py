"""Issue 22 on a real Redis and on a real Redis Cluster (``BOTH_STORES``): players, a rated
match whose end-of-match job runs on an RQ worker, the leaderboard read with its players'
names in one round trip (a script on the ratings slot), and ``rebuild`` equal to the live table. Every ratings key
shares one hash tag and every player's keys another (:mod:`service.store.keys`), so the
checkpoint script and the counters work on a cluster."""

from __future__ import annotations

import pytest

from service import bootstrap
from service.bootstrap import build_service
from tests.support.cluster import BOTH_STORES
from tests.support.round_trips import count_round_trips
from tests.support.runtime import drain

pytestmark = [pytest.mark.integration, BOTH_STORES]


def test_a_rated_match_is_counted_rated_and_listed_once_by_its_job(real_config):
    service = build_service(real_config.with_(engines_path=None))
    bootstrap.install(service)
    ann = service.create_player("Ann")
    ids = []
    for _ in range(3):
        mid = service.create_match(
            "duel",
            [{"kind": "human"}, {"kind": "bot", "bot": "high"}],
            {"tricks": 1},
            player_key=ann["key"],
            rated=True,
        )["match_id"]
        seat = service.authenticate(mid, ann["key"])
        legal = service.legal_actions(mid, seat)
        service.act(mid, seat, legal["actions"][0])
        drain(service, rounds=50)  # the bot's card, then the end-of-match job
        assert service._record(mid).finished
        ids.append(mid)
    drain(service, rounds=20)
    service.leaderboard("duel", "2p")  # a node's first EVALSHA of the script loads it
    trips = count_round_trips(service)
    board = service.leaderboard("duel", "2p")
    assert trips.count == 1, trips.calls  # the board, the ratings and the names: one script
    entries = {e["participant"]: e for e in board["items"]}
    assert entries[f"player:{ann['player_id']}"]["name"] == "Ann"
    assert "name" not in entries["bot:duel:high"]
    assert entries[f"player:{ann['player_id']}"]["matches"] == 3
    assert entries["bot:duel:high"]["matches"] == 3 and entries["bot:duel:high"]["kind"] == "bot"
    assert service.player_profile(ann["player_id"])["played"] == 3
    for mid in ids:  # a repeated job changes nothing
        assert service.match_ended(mid)["folded"] == 0
    assert service.ratings_rebuild()["same"] is True
    assert service.player_matches(ann["player_id"], rated=True)["items"][0]["match_id"] == ids[-1]
