"""The end-of-match job (player counters, ratings; ``Ratings.on_match_ended``) counts a
match exactly once when Redis fails in the middle of it and comes back: the job is cut at
each of its Redis round trips in turn, either before the command reaches Redis or after
Redis ran it and the answer was lost, then run again as the worker's reconcile pass runs
a filed job (``end-jobs``, :mod:`service.store.end_jobs`). Every cut leaves the players
counted once, rated once with one history point, the match out of ``end-jobs``, and the
rebuild from the logs equal to the live table. In process, on fakeredis: no timing."""

from __future__ import annotations

import pytest
import redis

from tests.support.duels import rated_duel
from tests.support.exports import new_service
from tests.support.round_trips import redis_fails_at


def _counted_once(svc, mid: str, players) -> None:
    table, history = svc._ratings.live_table()
    for player in players:
        who = f"player:{player['player_id']}"
        assert svc.player_profile(player["player_id"])["played"] == 1
        assert table["duel:2p"][who]["matches"] == 1
        assert [p["match_id"] for p in history[who]] == [mid]
    assert not svc.stores.end_jobs.filed(mid)


@pytest.mark.parametrize("lost_answer", [False, True], ids=["before-send", "answer-lost"])
def test_the_end_job_counts_once_when_redis_fails_at_any_trip_and_recovers(lost_answer):
    svc = new_service()
    cuts = 0
    for trip in range(100):
        ann, bob = svc.create_player(f"Ann{trip}"), svc.create_player(f"Bob{trip}")
        mid = rated_duel(svc, ann, bob)  # no worker here: the job is filed, not run
        assert svc.stores.end_jobs.filed(mid)
        assert svc.player_profile(ann["player_id"])["played"] == 0
        cut = False
        with redis_fails_at(trip, lost_answer) as seen:
            try:
                svc.match_ended(mid)
            except redis.exceptions.ConnectionError:
                cut = True
        if not cut:  # the job has fewer trips: it ran whole
            assert len(seen) <= trip, "the fault fired but the job did not fail"
            _counted_once(svc, mid, (ann, bob))
            break
        cuts += 1
        # Redis is back: reconcile runs the job again while it is filed (a job cut after
        # its last trip ran, ZREM's answer lost, is done and no longer filed)
        for _ in range(3):
            if not svc.stores.end_jobs.filed(mid):
                break
            svc.match_ended(mid)
        _counted_once(svc, mid, (ann, bob))
        again = svc.match_ended(mid)  # a duplicate run changes nothing
        assert (again.get("counted"), again.get("folded")) in ((0, 0), (None, None)), again
        _counted_once(svc, mid, (ann, bob))
    else:
        raise AssertionError("the job never ran to its end")
    assert cuts >= 10  # every trip of the job was cut once (16 when this was written)
    assert svc.ratings_rebuild()["same"] is True
