"""A turn deadline follows its seat's decision (service/usecases/after_append.py): when another seat's
command changes what a waiting seat must decide (its decision kind, so its ``decision_id``
restarts, service/usecases/decisions.py), the waiting seat gets a new deadline for the new decision
instead of the old one, which may already be past — else the timeout bot answers a decision
the player never had time to see (A.I.Pokalypse: a reaction window turning into a
battle-card placement while the seat waited; the e2e reaction-timeout test could see a
``place_card`` where it expected the window's ``pass``).

A two-seat "relay" game: seat 0 must ``go`` while seat 1 ``watch``es; once seat 0 went,
seat 1 (still pending, never having acted) must ``answer``.
"""

from __future__ import annotations

import copy
import time
from datetime import datetime

import fakeredis
import pytest
from rq import Queue

from domain.engine import EngineBase, Event, IllegalMove, NotYourTurn
from service import bootstrap
from service.match_service import MatchService
from service.store.keys import Keys
from tests.support.games import ENGINES
from workers.scheduling import TurnScheduler


class _First:
    name = "first"

    def choose(self, state, seat, rng):
        return RELAY.legal_actions(state, seat)[0]


class Relay(EngineBase):
    """Seat 0 goes while seat 1 watches; then seat 1 answers (see module docstring)."""

    game_id = "relay"
    title = "Relay"
    min_seats = max_seats = 2
    schema_version = 1
    options_schema = {"type": "object", "properties": {}, "additionalProperties": False}
    command_schemas = {
        k: {"type": "object", "required": ["type"], "properties": {"type": {"const": k}}}
        for k in ("go", "watch", "answer")
    }
    timeout_bot = "first"
    bots = {"first": _First()}
    _KINDS = {0: {0: "go", 1: "watch"}, 1: {1: "answer"}, 2: {}}

    def validate_options(self, seats, options):
        return {}

    def new_match(self, setup, rng):
        return [Event("RelayStarted", {})]

    def decide(self, state, seat, command, rng):
        kind = self.pending(state).get(seat)
        if kind is None:
            raise NotYourTurn()
        if command.get("type") != kind:
            raise IllegalMove(f"Now {kind}.", "wrong_step")
        return [Event({"go": "Went", "watch": "Watched", "answer": "Answered"}[kind], {}, seat)]

    def evolve(self, state, event):
        if event.type == "RelayStarted":
            return {"stage": 0}
        return {"stage": state["stage"] + (event.type != "Watched")}

    def view(self, state, viewer):
        return dict(state)

    def redact(self, event, viewer, state=None):
        return dict(event.data)

    def pending(self, state):
        return dict(self._KINDS[state["stage"]]) if state else {}

    def legal_actions(self, state, seat):
        kind = self.pending(state).get(seat)
        return [] if kind is None else [{"type": kind}]

    def result(self, state):
        if not state or state["stage"] < 2:
            return None
        return {"scores": [0, 0], "ranking": [0, 1], "winners": [0, 1]}

    def dump_state(self, state):
        return copy.deepcopy(state)

    def load_state(self, data):
        return copy.deepcopy(dict(data))


RELAY = Relay()


@pytest.fixture
def relay_service(fake_redis_server, key_prefix):
    """The ``service`` fixture's MatchService with the relay game added."""
    keys = Keys(key_prefix)
    queue = Queue(f"{key_prefix}-turns", connection=fakeredis.FakeRedis(server=fake_redis_server))
    svc = MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        keys,
        TurnScheduler(queue, keys, job_timeout_s=5),
        {**ENGINES, "relay": RELAY},
        snapshot_every=5,
        blocking_reads=False,
    )
    bootstrap.install(svc)
    yield svc
    bootstrap.reset()


def _humans():
    return [{"kind": "human"}, {"kind": "human"}]


def test_a_waiting_seats_deadline_restarts_when_its_decision_changes(relay_service):
    service = relay_service
    mid = service.create_match("relay", _humans(), {}, turn_timeout_s=60)["match_id"]
    first = service.match_view(mid, 1)["deadlines"]["1"]
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 1, 1)) is not None
    before = service.legal_actions(mid, 1)["decision_id"]
    service.act(mid, 0, {"type": "go"})  # seat 1 now must answer
    assert service.legal_actions(mid, 1)["decision_id"] != before  # a new decision ...
    view = service.match_view(mid, 1)
    assert view["pending"] == {"1": "answer"}
    assert view["deadlines"]["1"] > first  # ... with a new deadline
    assert service.stores.deadlines.get(mid, 1)["version"] == 2
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 1, 1)) is None
    assert service.scheduler.scheduled_at(service.keys.timeout_job_id(mid, 1, 2)) is not None
    assert service.run_turn_timeout(mid, 1, 1) == {"status": "stale"}  # the old job is void


def test_a_past_deadline_of_the_old_decision_does_not_answer_the_new_one(relay_service):
    service = relay_service
    mid = service.create_match("relay", _humans(), {}, turn_timeout_s=0.5)["match_id"]
    old = service.stores.deadlines.get(mid, 1)
    while service.clock() <= datetime.fromisoformat(old["deadline"]):
        time.sleep(0.05)  # seat 1's first deadline passed
    service.act(mid, 0, {"type": "go"})  # before its job ran
    assert service.run_turn_timeout(mid, 1, old["version"]) == {"status": "stale"}
    assert [e["type"] for e in service.store.read(mid)] == ["RelayStarted", "Went"]
    assert service.stores.deadlines.get(mid, 1)["version"] == 2  # the answer's own deadline


def test_a_waiting_seat_whose_decision_is_unchanged_keeps_its_deadline(relay_service):
    service = relay_service
    mid = service.create_match("relay", _humans(), {}, turn_timeout_s=60)["match_id"]
    first = service.stores.deadlines.get(mid, 0)
    service.act(mid, 1, {"type": "watch"})  # seat 0 still must go
    assert service.stores.deadlines.get(mid, 0) == first
    assert service.stores.deadlines.get(mid, 1)["version"] == 2  # seat 1 acted: restarted
