"""MatchService on a real Redis: racing processes, long-poll, full match + export/verify."""

import threading
import time

import pytest

from domain.engine import NotYourTurn
from service import errors
from service.bootstrap import build_service
from tests.support.cluster import BOTH_STORES
from tests.support.games import ENGINES

pytestmark = [pytest.mark.integration, BOTH_STORES]


def test_separate_service_instances_racing_lose_and_duplicate_nothing(real_service, real_config):
    """Four API processes (own connections) hammer one match, with and without expected_version."""
    mid = real_service.create_match("race", [{"kind": "human"}] * 4, {"target": 1000})["match_id"]
    accepted, conflicts = [], []

    def client(seat):
        svc = build_service(real_config, engines=ENGINES)
        for i in range(12):
            try:
                if i % 2:
                    current = svc.match_view(mid, seat)["version"]
                    got = svc.act(mid, seat, {"type": "add", "amount": 1}, expected_version=current)
                else:
                    got = svc.act(mid, seat, {"type": "add", "amount": 1})
                accepted.append(got["version"])
            except NotYourTurn:
                pass
            except errors.VersionConflict as exc:
                conflicts.append(exc.extra["current_version"])

    threads = [threading.Thread(target=client, args=(s,)) for s in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    log = real_service.log(mid)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert sorted(accepted) == [e["version"] for e in log[1:]]
    assert log[-1]["data"]["total"] == len(accepted)
    assert not real_service.verify({**real_service.store.meta(mid), "events": log})[
        "valid"
    ]  # running: no seed


def test_long_poll_with_xread_block_returns_as_soon_as_an_event_exists(real_service):
    mid = real_service.create_match("race", [{"kind": "human"}, {"kind": "human"}], {})["match_id"]
    turn = real_service.match_view(mid, None)["view"]["turn"]
    threading.Timer(0.4, lambda: real_service.act(mid, turn, {"type": "add", "amount": 2})).start()
    t0 = time.monotonic()
    got = real_service.events(mid, 1 - turn, after=1, wait_s=10)
    assert time.monotonic() - t0 < 2
    assert [(e["version"], e["data"]) for e in got["events"]] == [(2, {"amount": 2, "total": 2})]


def test_full_match_export_verify_and_idempotency_on_real_redis(real_service):
    created = real_service.create_match(
        "high-card", [{"kind": "human"}, {"kind": "human"}], {"rounds": 3}
    )
    mid = created["match_id"]
    while real_service.match_view(mid, None)["status"] == "running":
        for seat in map(int, real_service.match_view(mid, None)["pending"]):
            action = real_service.legal_actions(mid, seat)["actions"][-1]
            key = f"k{real_service.match_view(mid, None)['version']}"
            first = real_service.act(mid, seat, action, idempotency_key=key)
            assert real_service.act(mid, seat, action, idempotency_key=key) == {
                **first,
                "replayed": True,
            }
    exported = real_service.export(mid)
    assert real_service.verify(exported)["valid"] is True
    assert (
        len(exported["events"]) == 4 + 3 * (2 + 1) + 2 * 2 + 1
    )  # setup, 3 x (2 plays + reveal), 2 deals x 2, end
