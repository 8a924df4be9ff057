"""The preconditions of ``act`` (issue 10 items 8 and 10), on the test games.

- ``decision_id`` from ``legal_actions`` fails only when the seat's *own* pending decision
  moved: another seat acting in a simultaneous step (``high-card``) does not move it; the
  seat acting, or its turn coming back with the very same legal actions (``race``), does.
- An Idempotency-Key is bound to the command *and* its preconditions.
- A finished match answers ``match_finished`` before any check of the command.
"""

from __future__ import annotations

import fakeredis
import pytest

from domain.engine import MatchFinished
from service import errors
from service.match_service import MatchService
from tests.support.games import ENGINES

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def _other_process(service, fake_redis_server) -> MatchService:
    """Another process's service on the same store (no fold cache: it reads the store)."""
    return MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        service.keys,
        None,
        ENGINES,
        blocking_reads=False,
        fold_cache_size=0,
    )


def _card(service, mid, seat):
    return service.legal_actions(mid, seat)["actions"][0]


def test_another_seat_acting_in_a_simultaneous_step_does_not_move_my_decision(service):
    mid = service.create_match("high-card", HUMANS2, {"rounds": 2})["match_id"]
    mine = service.legal_actions(mid, 0)
    assert mine["decision_id"] is not None
    service.act(mid, 1, _card(service, mid, 1))  # the other seat plays first
    with pytest.raises(errors.VersionConflict):  # the strict precondition fails
        service.act(mid, 0, mine["actions"][0], expected_version=mine["version"])
    got = service.act(mid, 0, mine["actions"][0], decision_id=mine["decision_id"])
    assert got["version"] > mine["version"] + 1 and got["events"]


def test_a_decision_id_moves_when_the_seat_acted(service):
    mid = service.create_match("high-card", HUMANS2, {"rounds": 2})["match_id"]
    first = service.legal_actions(mid, 0)
    service.act(mid, 0, first["actions"][0], decision_id=first["decision_id"])
    assert service.legal_actions(mid, 0)["decision_id"] is None  # nothing pending until the reveal
    with pytest.raises(errors.DecisionMoved) as exc:
        service.act(mid, 0, first["actions"][1], decision_id=first["decision_id"])
    assert exc.value.code == "decision_moved" and exc.value.status == 409
    assert exc.value.extra["current_decision_id"] is None
    service.act(mid, 1, _card(service, mid, 1))  # round 2 begins
    second = service.legal_actions(mid, 0)
    assert second["decision_id"] not in (None, first["decision_id"])
    with pytest.raises(errors.DecisionMoved) as exc:
        service.act(mid, 0, second["actions"][0], decision_id=first["decision_id"])
    assert exc.value.extra["current_decision_id"] == second["decision_id"]


def test_a_turn_coming_back_with_the_same_legal_actions_is_a_new_decision(service):
    mid = service.create_match("race", HUMANS2, {"target": 50})["match_id"]
    turn = next(iter(service.match_view(mid, None)["pending"]))
    seat, other = int(turn), 1 - int(turn)
    before = service.legal_actions(mid, seat)
    service.act(mid, seat, {"type": "add", "amount": 1})
    service.act(mid, other, {"type": "add", "amount": 1})
    again = service.legal_actions(mid, seat)
    assert again["actions"] == before["actions"] and again["decision_id"] != before["decision_id"]
    with pytest.raises(errors.DecisionMoved):
        service.act(mid, seat, {"type": "add", "amount": 1}, decision_id=before["decision_id"])
    assert (
        service.act(mid, seat, {"type": "add", "amount": 1}, decision_id=again["decision_id"])[
            "version"
        ]
        == 4
    )


def test_decision_ids_survive_a_cold_process(service, fake_redis_server):
    """A process that never saw the match reads the same decision id from the store."""
    mid = service.create_match("high-card", HUMANS2, {"rounds": 2})["match_id"]
    service.act(mid, 1, _card(service, mid, 1))
    cold = _other_process(service, fake_redis_server)
    assert cold.legal_actions(mid, 0)["decision_id"] == service.legal_actions(mid, 0)["decision_id"]


def test_a_decision_closed_by_another_process_answers_decision_moved_not_a_rule_error(
    service, fake_redis_server
):
    """The race the HTTP tests met (a bot or a timeout in a worker moves the match between a
    client's read and its post), made deterministic: this process's fold cache holds the
    match at seat 0's decision; another process (a worker) plays seat 0's turn; the stale
    client's command with the old ``decision_id`` is 409 ``decision_moved`` naming the new
    decision — never ``not_your_turn`` (a rule error of the old state) nor an append."""
    mid = service.create_match("race", HUMANS2, {"target": 50})["match_id"]
    seat = int(next(iter(service.match_view(mid, None)["pending"])))
    stale = service.legal_actions(mid, seat)  # folded and cached here
    worker = _other_process(service, fake_redis_server)
    worker.act(mid, seat, {"type": "add", "amount": 1})  # the turn passes to the other seat
    with pytest.raises(errors.DecisionMoved) as exc:
        service.act(mid, seat, {"type": "add", "amount": 1}, decision_id=stale["decision_id"])
    assert exc.value.extra["current_decision_id"] is None
    assert exc.value.extra["current_version"] == stale["version"] + 1
    assert service.match_view(mid, None)["version"] == stale["version"] + 1  # nothing appended


def test_an_idempotency_key_is_bound_to_the_command_and_its_preconditions(service):
    mid = service.create_match("race", HUMANS2, {"target": 50})["match_id"]
    seat = int(next(iter(service.match_view(mid, None)["pending"])))
    first = service.act(mid, seat, {"type": "add", "amount": 2}, "k-1", expected_version=1)
    again = service.act(mid, seat, {"type": "add", "amount": 2}, "k-1", expected_version=1)
    assert again == {**first, "replayed": True}
    for other in (
        {"expected_version": 2},
        {"expected_version": None},
        {"expected_version": 1, "decision_id": "1-x"},
    ):
        with pytest.raises(errors.IdempotencyKeyReused):
            service.act(mid, seat, {"type": "add", "amount": 2}, "k-1", **other)
    with pytest.raises(errors.IdempotencyKeyReused):
        service.act(mid, seat, {"type": "add", "amount": 3}, "k-1", expected_version=1)
    assert service.match_view(mid, None)["version"] == 2  # nothing appended


def test_a_finished_match_answers_match_finished_before_any_command_check(service):
    mid = service.create_match("race", HUMANS2, {"target": 3})["match_id"]
    while service.match_view(mid, None)["status"] != "finished":
        seat = int(next(iter(service.match_view(mid, None)["pending"])))
        service.act(mid, seat, {"type": "add", "amount": 3})
    for command in (
        {"type": "no_such_move"},
        {"no": "type"},
        "not an object",
        {"type": "add", "amount": 99},
    ):
        with pytest.raises(MatchFinished):
            service.act(mid, 0, command)
    with pytest.raises(MatchFinished):
        service.act(mid, 0, {"type": "add", "amount": 1}, "x" * 300)  # a bad key too
    with pytest.raises(MatchFinished):
        service.check_running(mid)
