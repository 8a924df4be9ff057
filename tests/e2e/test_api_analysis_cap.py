"""The cap on analyses per client (``ARENA_MAX_ANALYSES_PER_CLIENT``, default 3): a newcomer
probe queued 30 analyses from one client and bot turns waited 8-15 s behind them. A client
(its address, as for bot matches: player keys and seat tokens are free) with 3 analyses
queued or running is
refused a 4th with 429 ``too_many_analyses`` (``cap``, ``Retry-After``) and nothing is
queued; an analysis answered from the cache is never refused; one done or failed frees its
place. No worker runs here: the analyses stay queued until a test runs one. And the queues:
bot turns and timeouts wait on the turn queue, analyses on their own, which a worker takes
from only after the turn queue."""

from __future__ import annotations

import uuid

import pytest

from api.app import create_app
from service import bootstrap
from service.bootstrap import build_service
from service.config import Config
from tests.e2e.http_helpers import tokens_of
from tests.support.duels import finished_duel


def _finished_duel_with_tokens(service) -> tuple[str, dict[int, str]]:
    """A finished one-trick Duel (each seat plays its first card) and its seat tokens."""
    made = service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {"tricks": 1})
    for seat in (0, 1):
        service.act(
            made["match_id"], seat, service.legal_actions(made["match_id"], seat)["actions"][0]
        )
    return made["match_id"], tokens_of(made)


@pytest.fixture
def capped():
    """``(client, service)``: the API over a service with the default cap and no worker."""
    service = bootstrap.install(build_service(Config(key_prefix=f"cap-{uuid.uuid4().hex[:8]}")))
    assert service._analyses.per_client == 3  # the default
    yield create_app(service, {"TESTING": True}).test_client(), service
    bootstrap.reset()


def _refused(response) -> dict:
    assert response.status_code == 429, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "10"
    body = response.get_json()
    assert (body["code"], body["cap"]) == ("too_many_analyses", 3)
    return body


def test_a_client_has_at_most_three_analyses_queued_or_running(capped):
    client, service = capped
    mid, tokens = _finished_duel_with_tokens(service)
    url = f"/v1/matches/{mid}/analysis"
    made = [client.post(f"{url}?budget={b}").get_json()["analysis_id"] for b in (10, 11, 12)]
    queue = service.scheduler.analysis_queue
    assert len(set(made)) == 3 and queue.count == 3
    _refused(client.post(f"{url}?budget=13"))
    _refused(client.post("/v1/analyses?budget=13", json=service.export(mid)))  # uploads too
    assert queue.count == 3  # nothing queued
    assert client.post(f"{url}?budget=10").status_code == 202  # the cache: never refused
    # a seat token or a new player key is no new client (a probe queued 10 with three new
    # players); another address has its own count
    seat = {"Authorization": f"Bearer {tokens[0]}"}
    _refused(client.post(f"{url}?budget=20", headers=seat))
    key = client.post("/v1/players", json={"name": "Fresh"}).get_json()["key"]
    _refused(client.post(f"{url}?budget=20", headers={"Authorization": f"Bearer {key}"}))
    other = {"REMOTE_ADDR": "192.0.2.7"}
    assert client.post(f"{url}?budget=20", environ_base=other).status_code == 202
    # in-process callers (arena analyse, tools) are not capped
    assert service.request_analysis(mid, 21)[1] is True
    # one done frees its place
    assert service.run_analysis(made[0]) == {"status": "done"}
    assert client.post(f"{url}?budget=13").status_code == 202
    _refused(client.post(f"{url}?budget=14"))


def test_a_place_left_behind_is_pruned_at_the_cap(capped):
    """An analysis that ended without leaving its client's set (a process killed at that
    moment) is taken out when the cap is met."""
    client, service = capped
    mid = finished_duel(service, tricks=2, seed=2)
    url = f"/v1/matches/{mid}/analysis"
    made = [client.post(f"{url}?budget={b}").get_json()["analysis_id"] for b in (10, 11, 12)]
    service._analyses.store.update(made[1], status="failed", error="lost")  # no release
    answer = client.post(f"{url}?budget=13")
    assert answer.status_code == 202, answer.get_json()
    _refused(client.post(f"{url}?budget=14"))
    # the failed one asked for again is a new analysis: refused at the cap too
    _refused(client.post(f"{url}?budget=11"))


def test_an_analysis_being_created_is_not_pruned_by_another_request_at_the_cap(capped):
    """Two requests at once: one has reserved its place but not written its record yet
    when the other meets the cap. Pruning must leave the first (before the in-flight mark
    it took it out as gone: a probe sent 6 analyses at once and 4 were accepted)."""
    client, service = capped
    mid = finished_duel(service, tricks=2, seed=4)
    url = f"/v1/matches/{mid}/analysis"
    made = [client.post(f"{url}?budget={b}").get_json()["analysis_id"] for b in (10, 11)]
    store, who, racing = service._analyses.store, "addr:127.0.0.1", "e" * 32
    assert store.reserve(who, racing, 3) == 1  # the third place, its record not yet written
    _refused(client.post(f"{url}?budget=12"))
    assert store.clients.members(who) == {*made, racing}
    # its request died: once the mark has expired (IN_FLIGHT_S), the place is pruned
    service.stores.redis.delete(service.stores.keys.reserving(f"an-{racing}"))
    third = client.post(f"{url}?budget=12")
    assert third.status_code == 202, third.get_json()
    assert store.clients.members(who) == {*made, third.get_json()["analysis_id"]}
    assert not service.stores.redis.exists(
        service.stores.keys.reserving(f"an-{third.get_json()['analysis_id']}")
    )


def test_bot_turns_never_wait_behind_analyses(capped):
    """Turn jobs (bot turns, due timeouts) go to the turn queue (``ARENA_QUEUE``), analysis
    slices to ``<queue>-analysis``; a worker lists the turn queue first, and RQ takes the
    first non-empty queue of the list, so a queued bot turn runs before any queued slice."""
    from rq import Queue

    from workers.embedded import EmbeddedRuntime

    _, service = capped
    scheduler = service.scheduler
    name = service.config.queue
    assert [q.name for q in scheduler.queues] == [name, f"{name}-analysis"]
    assert EmbeddedRuntime(service).worker.queue_names() == [name, f"{name}-analysis"]
    mid = finished_duel(service, tricks=2, seed=3)
    service.request_analysis(mid, 10)  # queued first
    scheduler.enqueue_bot_turn("m1", 4, 1)
    job, queue = Queue.dequeue_any(scheduler.queues, None, connection=scheduler.connection)
    assert (queue.name, job.func_name) == (name, "workers.jobs.bot_turn")
    job, queue = Queue.dequeue_any(scheduler.queues, None, connection=scheduler.connection)
    assert (queue.name, job.func_name) == (f"{name}-analysis", "workers.jobs.analysis")
