"""The workers of a deployment share the periodic reconcile passes (service.upkeep.reconcile
.SharedPasses on service.store.pass_turn.PassTurn): one pass per ARENA_RECONCILE_S and one full
pass per ARENA_RECONCILE_FULL_S across all workers, not one per worker. Turns are taken and
expire in Redis; the tests open a turn by deleting its key instead of waiting for it."""

from __future__ import annotations

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from service.store.pass_turn import PassTurn
from service.upkeep.reconcile import SharedPasses

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


def _workers(service, count: int = 3) -> list[SharedPasses]:
    conn = service.scheduler.connection
    return [SharedPasses(service, conn, every_s=2.0, full_every_s=60.0) for _ in range(count)]


def test_of_three_workers_asking_at_once_one_runs_the_pass_and_it_is_full_first(service):
    service.create_match("race", BOTS, {"target": 12})
    first, *others = _workers(service)
    ran = first.attempt()
    assert ran is not None and ran["full"] == 1 and ran["checked"] == 1
    assert [w.attempt() for w in others] == [None, None]
    ttl_ms = service.scheduler.connection.pttl(service.keys.pass_turn("pass"))
    assert 0 < ttl_ms <= 2000


def test_when_the_pass_turn_opens_one_worker_runs_an_index_pass_not_a_full_one(service):
    mid = service.create_match("race", BOTS, {"target": 12})["match_id"]
    workers = _workers(service)
    assert workers[0].attempt()["full"] == 1
    service.scheduler.queue.empty()  # the match's turn job is lost
    service.scheduler.connection.delete(service.keys.pass_turn("pass"))  # as after 2 s
    answers = [w.attempt() for w in workers[1:]]
    assert answers[1] is None and answers[0] == {"checked": 1, "requeued": 1}
    assert service.scheduler.keys.match_of_job(service.scheduler.queue.job_ids[0]) == mid
    service.scheduler.connection.delete(
        service.keys.pass_turn("pass"), service.keys.pass_turn("full")
    )  # as after 60 s
    assert workers[2].attempt()["full"] == 1


def test_a_pass_that_fails_gives_its_turns_back(service, monkeypatch):
    worker, other = _workers(service, 2)

    def down(full=None):
        raise RedisConnectionError("store down")

    monkeypatch.setattr(service, "reconcile", down)
    with pytest.raises(RedisConnectionError):
        worker.attempt()
    monkeypatch.undo()
    assert other.attempt()["full"] == 1  # not skipped: the turns were given back


def test_a_pass_turn_needs_a_positive_period(service):
    with pytest.raises(ValueError):
        PassTurn(service.scheduler.connection, "k", 0)
