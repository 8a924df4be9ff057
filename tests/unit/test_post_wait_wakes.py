"""``Reads.representation_when_pending`` (the answer of ``POST .../actions?wait=``): woken by
other seats' moves that leave the seat with nothing to do, it waits on; once the seat has
its next decision it answers the representation at the head, from one head read per wake."""

from __future__ import annotations

import threading
import uuid

from service.bootstrap import build_service
from service.config import Config


def _play_first(service, match_id: str, seat: int) -> None:
    legal = service.legal_actions(match_id, seat)
    service.act(match_id, seat, dict(legal["actions"][0]), decision_id=legal["decision_id"])


def _pending(service, match_id: str) -> list[int]:
    return sorted(int(s) for s in service.match_view(match_id, None)["pending"])


def test_a_held_wait_sleeps_through_other_seats_moves_and_answers_its_own_decision():
    service = build_service(Config(key_prefix=f"postwake-{uuid.uuid4().hex[:8]}"))
    created = service.create_match("ai-100-human", [{"kind": "human"}] * 3)
    match_id = created["match_id"]
    # AI: 100% Human, 3 seats: all three seats have decisions in turn 1; once seat 0 has
    # made its own it waits while seats 1 and 2 make theirs (two each)
    assert _pending(service, match_id) == [0, 1, 2]
    while 0 in _pending(service, match_id):
        _play_first(service, match_id, 0)
    assert _pending(service, match_id) == [1, 2]
    after = service.match_view(match_id, None)["version"]
    ctx = service._reads.ctx
    heads, plain_head = [], ctx.head

    def counting_head(*args, **kwargs):  # the held wait's head reads (not this thread's)
        loaded = plain_head(*args, **kwargs)
        if threading.get_ident() == held.ident:
            heads.append((loaded.loaded.version, sorted(loaded.loaded.record.pending)))
        return loaded

    ctx.head = counting_head
    answer: dict = {}
    held = threading.Thread(
        target=lambda: answer.update(
            out=service.representation_when_pending(match_id, 0, after, 30)
        )
    )
    held.start()
    _play_first(service, match_id, 1)  # wakes the wait: seat 0 still has nothing to do
    for _ in range(600):  # the wait reads the head after seat 1's move, then waits on
        if heads:
            break
        held.join(0.05)
    assert heads and 0 not in heads[0][1], heads
    assert held.is_alive()
    while held.is_alive() and 0 not in _pending(service, match_id):
        _play_first(service, match_id, min(_pending(service, match_id)))
    held.join(30)
    assert not held.is_alive()
    out = answer["out"]
    view = service.match_view(match_id, 0)
    assert 0 in {int(s) for s in view["pending"]}
    legal = out["legal_actions"]
    assert legal["version"] == view["version"] > heads[0][0] > after
    assert {k: out[k] for k in ("view", "pending")} == {k: view[k] for k in ("view", "pending")}
    assert legal == service.legal_actions(match_id, 0) and legal["actions"]
    assert 2 <= len(heads) and heads[-1][0] == legal["version"]
