"""MatchService and per-seat bot options, on fakeredis with ``step-race``
(tests/support/bot_options_game.py: its ``stepper`` bot adds its ``step`` option every turn,
so the events show which options decided them). Bot turns run through the RQ job path
(``workers.jobs.bot_turn`` in a burst worker, :func:`tests.support.runtime.drain`)."""

from __future__ import annotations

import json

import fakeredis
import pytest
from rq import Queue

from service import bootstrap, errors
from service.match_service import MatchService
from service.store.keys import Keys
from tests.support.bot_options_game import ENGINES, StepperBot
from tests.support.runtime import drain
from workers.scheduling import TurnScheduler


@pytest.fixture
def svc(fake_redis_server, key_prefix):
    """A MatchService with the test games plus ``step-race``; jobs on the same fake server."""
    keys = Keys(key_prefix)
    queue = Queue(f"{key_prefix}-turns", connection=fakeredis.FakeRedis(server=fake_redis_server))
    service = MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        keys,
        TurnScheduler(queue, keys, job_timeout_s=5),
        ENGINES,
        snapshot_every=5,
        blocking_reads=False,
    )
    bootstrap.install(service)
    yield service
    bootstrap.reset()


def _added(service, match_id):
    """``(seat, amount)`` of every Added event, in order."""
    log = service.export(match_id)
    return [(e["seat"], e["data"]["amount"]) for e in log["events"] if e["type"] == "Added"]


def test_games_list_each_levels_options_schema(svc):
    games = {g["id"]: g for g in svc.games()}
    step = games["step-race"]["bot_options"]
    assert set(step) == {"greedy", "random", "slow", "stepper"}
    assert step["stepper"]["properties"]["step"] == {"type": "integer", "minimum": 1, "maximum": 3}
    assert step["greedy"] == {"type": "object", "properties": {}, "additionalProperties": False}
    assert all(s["properties"] == {} for s in games["race"]["bot_options"].values())


def test_the_record_keeps_a_bot_seats_options_and_shows_them(svc):
    created = svc.create_match(
        "step-race",
        [
            {"kind": "human"},
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3.0}},
            {"kind": "bot", "bot": "stepper", "bot_options": {}},
            {"kind": "bot", "bot": "greedy"},
        ],
        {"target": 1000},
    )
    assert created["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "bot": "stepper",
        "bot_options": {"step": 3},
    }  # normalised to int
    assert "bot_options" not in created["seats"][2]  # {} = the defaults
    record = svc._record(created["match_id"])
    assert json.loads(svc.redis.hget(svc.keys.meta(created["match_id"]), "seats"))[1][
        "bot_options"
    ] == {"step": 3}
    assert (record.bot_options(1), record.bot_options(2), record.bot_options(0)) == (
        {"step": 3},
        {},
        {},
    )
    seats = svc.match_view(created["match_id"], None)["seats"]
    assert seats[1]["bot_options"] == {"step": 3} and "bot_options" not in seats[3]


def test_each_bot_seat_is_played_by_a_bot_with_its_own_options(svc):
    # Fails if the options were ignored: the default stepper adds 1, the configured one 3.
    created = svc.create_match(
        "step-race",
        [
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
            {"kind": "bot", "bot": "stepper"},
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 2}},
        ],
        {"target": 60},
    )
    drain(svc)
    view = svc.match_view(created["match_id"], None)
    assert view["status"] == "finished"
    added = _added(svc, created["match_id"])
    assert len(added) >= 9
    assert {seat: {a for s, a in added if s == seat} for seat in range(3)} == {
        0: {3},
        1: {1},
        2: {2},
    }
    causes = {e["cause"] for e in svc.export(created["match_id"])["events"] if e.get("command")}
    assert causes == {"bot"}


def test_a_configured_bot_is_built_once_per_options_and_shared_between_matches(svc):
    StepperBot.built.clear()
    options = {"step": 2, "label": "shared"}
    for _ in range(2):
        created = svc.create_match(
            "step-race",
            [{"kind": "bot", "bot": "stepper", "bot_options": options}] * 2,
            {"target": 9},
        )
        drain(svc)
        assert svc.match_view(created["match_id"], None)["status"] == "finished"
        assert {a for _, a in _added(svc, created["match_id"])} == {2}
    assert StepperBot.built == [options]


def test_run_bot_turn_uses_the_seats_options(svc):
    created = svc.create_match(
        "step-race",
        [
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
        ],
        {"target": 100},
    )
    mid = created["match_id"]
    version = svc.match_view(mid, None)["version"]
    seat = int(next(iter(svc.match_view(mid, None)["pending"])))
    assert svc.run_bot_turn(mid, version, seat) == {
        "status": "acted",
        "seat": seat,
        "version": version + 1,
    }
    assert _added_running(svc, mid) == [(seat, 3)]


def _added_running(service, match_id):
    page = service.events(match_id, None, after=0)
    return [(e["seat"], e["data"]["amount"]) for e in page["events"] if e["type"] == "Added"]


@pytest.mark.parametrize(
    "seat, field, message",
    [
        ({"kind": "bot", "bot": "stepper", "bot_options": {"step": 4}}, "step", "between 1 and 3"),
        ({"kind": "bot", "bot": "stepper", "bot_options": {"speed": 1}}, "speed", "Unknown"),
        ({"kind": "bot", "bot": "stepper", "bot_options": {"step": True}}, "step", "integer"),
        ({"kind": "bot", "bot": "stepper", "bot_options": {"label": "refuse"}}, None, "refused"),
        ({"kind": "bot", "bot": "stepper", "bot_options": [3]}, None, "object"),
        ({"kind": "bot", "bot": "greedy", "bot_options": {"step": 2}}, "step", "Unknown"),
        ({"kind": "human", "bot_options": {}}, None, "Only a bot seat"),
        ({"kind": "open", "bot_options": {"step": 2}}, None, "Only a bot seat"),
    ],
)
def test_refused_options_are_a_400_validation_error_naming_the_seat_and_nothing_is_stored(
    svc, seat, field, message
):
    with pytest.raises(errors.ServiceError) as exc:
        svc.create_match("step-race", [{"kind": "human"}, seat], {})
    error = exc.value
    assert (error.code, error.status) == ("validation_error", 400)
    where = error.extra["errors"]["seats"]["1"]["bot_options"]
    if field is None:
        assert message in where[0]
    else:
        assert message in where[field][0]
    assert svc.stores.index.match_count() == 0
    # nothing of a match is stored; the metrics counters are left out: a stray job of an
    # earlier test in this process (run through the process-wide service) may count one
    stored = [k for k in svc.redis.scan_iter(f"{svc.keys.prefix}:*") if not k.endswith(":metrics")]
    assert not stored, stored


def test_fork_keeps_the_seats_options_and_validates_new_ones(svc):
    created = svc.create_match(
        "step-race",
        [
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
            {"kind": "bot", "bot": "stepper"},
        ],
        {"target": 12},
    )
    drain(svc)
    mid = created["match_id"]
    log = svc.export(mid)
    assert log["seats"][0]["bot_options"] == {"step": 3}
    setup_len = sum(1 for e in log["events"] if e["cause"] == "setup")
    fork = svc.fork(mid, setup_len)
    assert fork["seats"][0]["bot_options"] == {"step": 3}
    drain(svc)
    assert {s: a for s, a in _added(svc, fork["match_id"])} == {0: 3, 1: 1}
    with pytest.raises(errors.ServiceError) as exc:
        svc.fork(
            mid,
            setup_len,
            [{"kind": "bot", "bot": "stepper", "bot_options": {"step": 9}}, {"kind": "human"}],
        )
    assert exc.value.code == "validation_error"


def test_stored_options_a_newer_schema_refuses_fall_back_to_the_levels_defaults(svc, caplog):
    created = svc.create_match(
        "step-race",
        [
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
            {"kind": "bot", "bot": "stepper", "bot_options": {"step": 3}},
        ],
        {"target": 100},
    )
    mid = created["match_id"]
    seats = json.loads(svc.redis.hget(svc.keys.meta(mid), "seats"))
    for seat in seats:
        seat["bot_options"] = {"step": 7}  # as if the schema had narrowed since
    svc.redis.hset(svc.keys.meta(mid), "seats", json.dumps(seats))
    version = svc.match_view(mid, None)["version"]
    seat = int(next(iter(svc.match_view(mid, None)["pending"])))
    assert svc.run_bot_turn(mid, version, seat)["status"] == "acted"
    assert _added_running(svc, mid) == [(seat, 1)]
    assert "stored bot options refused" in caplog.text
