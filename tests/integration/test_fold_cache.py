"""The fold cache on a real Redis: separate service instances (API processes, own
connections and caches) never answer from a stale fold."""

import random
import threading

import pytest

from domain.engine import NotYourTurn
from service import errors
from service.bootstrap import build_service
from tests.support.cluster import BOTH_STORES
from tests.support.games import ENGINES

pytestmark = [pytest.mark.integration, BOTH_STORES]


def _answers(svc, mid, seats):
    return (
        [svc.match_view(mid, s) for s in [*range(seats), None]],
        [svc.legal_actions(mid, s) for s in range(seats)],
        svc.events(mid, 0, after=max(0, svc.match_view(mid, None)["version"] - 3)),
    )


def test_a_stale_cache_never_serves_a_wrong_answer(real_service, real_config):
    """Two caching instances take turns at random on one match; after every command each
    of them answers exactly like an instance without any cache."""
    a, b = real_service, build_service(real_config, engines=ENGINES)
    fresh = build_service(real_config.with_(fold_cache_size=0), engines=ENGINES)
    rng = random.Random(11)
    mid = a.create_match("race", [{"kind": "human"}] * 3, {"target": 80})["match_id"]
    steps = 0
    while a.match_view(mid, None)["status"] == "running":
        acting, reader = rng.sample([a, b], 2)
        seat = acting.match_view(mid, None)["view"]["turn"]
        acting.act(mid, seat, {"type": "add", "amount": rng.choice([1, 2])})
        steps += 1
        assert _answers(reader, mid, 3) == _answers(fresh, mid, 3)
    assert steps >= 40
    assert a.verify(a.export(mid))["valid"] is True


def test_racing_instances_with_caches_lose_and_duplicate_nothing(real_service, real_config):
    mid = real_service.create_match("race", [{"kind": "human"}] * 4, {"target": 1000})["match_id"]
    accepted = []
    lock = threading.Lock()

    def client(seat):
        svc = build_service(real_config, engines=ENGINES)
        for _ in range(15):
            try:
                current = svc.match_view(mid, seat)["version"]
                got = svc.act(mid, seat, {"type": "add", "amount": 1}, expected_version=current)
            except (NotYourTurn, errors.VersionConflict):
                continue
            with lock:
                accepted.append(got["version"])

    threads = [threading.Thread(target=client, args=(s,)) for s in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    log = real_service.log(mid)
    assert sorted(accepted) == [e["version"] for e in log[1:]]
    assert log[-1]["data"]["total"] == len(accepted) > 0
    assert real_service.match_view(mid, None)["view"]["total"] == len(accepted)
