"""A.I.Pokalypse on the unchanged match service (fakeredis, own key prefix): bot matches
finish through the workers' job path, a human seat sees only redacted events, the exported
log verifies."""

from __future__ import annotations

import pytest

from domain.engine import Engine
from domain.games.aipokalypse import ENGINE


@pytest.fixture
def apk_service(fake_redis_server, key_prefix):
    import fakeredis
    from rq import Queue

    from service import bootstrap
    from service.match_service import MatchService
    from service.store.keys import Keys
    from workers.scheduling import TurnScheduler

    keys = Keys(key_prefix)
    queue = Queue(f"{key_prefix}-turns", connection=fakeredis.FakeRedis(server=fake_redis_server))
    svc = MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        keys,
        TurnScheduler(queue, keys, job_timeout_s=30),
        {"aipokalypse": ENGINE},
        snapshot_every=25,
        blocking_reads=False,
    )
    bootstrap.install(svc)
    yield svc
    bootstrap.reset()


def test_engine_satisfies_the_protocol():
    assert isinstance(ENGINE, Engine)
    assert ENGINE.game_id == "aipokalypse" and (ENGINE.min_seats, ENGINE.max_seats) == (1, 8)
    assert {"random", "tactician"} <= set(ENGINE.bots) and ENGINE.timeout_bot in ENGINE.bots


def test_bot_match_finishes_and_its_export_verifies(apk_service):
    from tests.support.runtime import drain

    created = apk_service.create_match(
        "aipokalypse",
        [
            {"kind": "bot", "bot": "tactician"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        {},
    )
    mid = created["match_id"]
    drain(apk_service, rounds=2000)
    view = apk_service.match_view(mid, None)
    assert view["status"] == "finished" and view["result"]["winners"]
    log = apk_service.export(mid)
    report = apk_service.verify(log)
    assert report["valid"], report["errors"]


def test_a_human_seat_gets_only_its_own_secrets(apk_service):
    created = apk_service.create_match("aipokalypse", [{"kind": "human"}, {"kind": "human"}], {})
    mid = created["match_id"]
    view0 = apk_service.match_view(mid, 0)
    me, other = view0["view"]["seats"][0], view0["view"]["seats"][1]
    assert len(me["hand"]) == 6 and "hand" not in other and other["hand_count"] == 6
    offered = apk_service.legal_actions(mid, 0)["actions"]
    assert [a["type"] for a in offered] == ["choose_faction", "choose_faction"]
    out = apk_service.act(mid, 0, offered[0])
    assert out["events"][0]["data"]["faction"] == offered[0]["faction"]
    seen_by_1 = apk_service.events(mid, 1)["events"]
    assert seen_by_1[-1]["type"] == "FactionChosen" and seen_by_1[-1]["data"] == {}
