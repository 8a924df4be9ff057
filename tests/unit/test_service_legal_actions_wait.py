"""``legal_actions(..., wait_s)`` long-polls on the seat's OWN decision (issue 13 item 2):
another seat's move wakes the wait but does not answer it; the seat's turn coming does; a
finished match answers at once; an expired wait answers ``actions: []``.

The other seats' moves are made from inside the store's ``wait_after`` (each call first
plays the next scripted move, then waits for real), so the order of events is fixed and
nothing depends on timing.
"""

from __future__ import annotations

import pytest

THREE = [{"kind": "human"}] * 3


def _race_after_first_move(service):
    """A 3-seat race after its first mover moved: ``(match id, that seat)``; the other two
    seats move next, in turn order (the first mover is drawn by the game)."""
    mid = service.create_match("race", THREE, {"target": 30})["match_id"]
    first = next(s for s in range(3) if service.legal_actions(mid, s)["actions"])
    service.act(mid, first, service.legal_actions(mid, first)["actions"][0])
    return mid, first


def _scripted_waits(service, monkeypatch, moves):
    """Make each ``wait_after`` call first play the next of ``moves`` (``(seat,)``: that
    seat plays its first legal action); returns the list of the calls' ``after``."""
    events = service.ctx.stores.events
    real = events.wait_after
    calls: list[int] = []

    def wait_after(match_id, after, wait_s):
        calls.append(after)
        if moves:
            seat = moves.pop(0)
            service.act(match_id, seat, service.legal_actions(match_id, seat)["actions"][0])
        return real(match_id, after, min(wait_s, 0.2))

    monkeypatch.setattr(events, "wait_after", wait_after)
    return calls


def test_another_seats_move_does_not_answer_the_wait_the_seats_own_turn_does(service, monkeypatch):
    mid, me = _race_after_first_move(service)
    idle = service.legal_actions(mid, me)
    assert idle["actions"] == [] and idle["decision_id"] is None
    calls = _scripted_waits(service, monkeypatch, [(me + 1) % 3, (me + 2) % 3])
    got = service.legal_actions(mid, me, wait_s=10)
    # woken by seat 1's move (not answered: seat 0 still waits), answered after seat 2's
    assert calls == [idle["version"], idle["version"] + 1]
    assert got["actions"] and got["decision_id"] is not None
    assert got["version"] == idle["version"] + 2
    assert got == service.legal_actions(mid, me)


def test_a_seat_with_something_to_do_is_answered_without_waiting(service, monkeypatch):
    mid, me = _race_after_first_move(service)
    calls = _scripted_waits(service, monkeypatch, [])
    got = service.legal_actions(mid, (me + 1) % 3, wait_s=10)
    assert got["actions"] and calls == []


def test_a_finished_match_answers_at_once_and_an_expired_wait_answers_no_actions(
    service, monkeypatch
):
    mid, me = _race_after_first_move(service)
    calls = _scripted_waits(service, monkeypatch, [])
    expired = service.legal_actions(mid, me, wait_s=0.05)  # nobody moves: the wait ends
    assert expired["actions"] == [] and calls == [expired["version"]]
    done = service.create_match("high-card", [{"kind": "human"}] * 2, {"rounds": 1})["match_id"]
    for seat in (0, 1):
        service.act(done, seat, service.legal_actions(done, seat)["actions"][0])
    assert service.match_view(done, 0)["status"] == "finished"
    calls.clear()
    assert service.legal_actions(done, 0, wait_s=10)["actions"] == [] and calls == []


@pytest.mark.parametrize("wait", [0, 0.0])
def test_no_wait_is_the_plain_answer(service, wait):
    mid, me = _race_after_first_move(service)
    assert service.legal_actions(mid, me, wait_s=wait) == service.legal_actions(mid, me)
