"""The running-bot-match cap (``ARENA_MAX_BOT_MATCHES_PER_CLIENT``) when Redis fails in the
middle of a capped create, on the real Redis (``real_config``), over HTTP.

A capped create (service/store/quotas.py, :class:`ClientSets`) sets the in-flight mark
``P:{<id>}:reserving`` (60 s), runs the reservation script on the client's set, writes the
match (one append script: meta, stream, index, tokens) and then deletes the mark. A Redis
error is injected (redis-py's ``ConnectionError``, as an outage or a reset socket raises it)
right after the mark's ``SET``: the script fails before it ran, or it ran and its reply was
lost; or the record write fails; or the mark's ``DEL`` after the write does. Each time:

- the client gets a 503 ``store_unavailable`` problem+json with ``Retry-After``, never a 500
  (a created match answers 201: the mark is only a hint that expires by itself);
- no match record is half-written: the failed match's id has no meta, stream or lobby entry
  (only its in-flight mark may be left, expiring after 60 s), and ``GET`` answers 404;
- nothing stays counted against the client beyond the mark's TTL: the next create is
  accepted at once, or (the script ran, its reply was lost: the id was counted and the mark
  protects it from the pruning) once the mark expired, simulated by deleting it - never by
  sleeping.
"""

from __future__ import annotations

import uuid

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from api.app import create_app
from service import bootstrap
from service.bootstrap import build_service
from tests.e2e.http_helpers import Http

pytestmark = pytest.mark.integration

CLIENT = "addr:127.0.0.1"  # the Flask test client's address: the quota client
RACE_BOT = {
    "game": "race",
    "options": {"target": 3},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
}


@pytest.fixture
def capped(real_config):
    """``(http, service)``: the API on the real Redis with a cap of one running bot match
    per client (rate limits off)."""
    service = bootstrap.install(build_service(real_config.with_(max_bot_matches_per_client=1)))
    app = create_app(service, {"TESTING": True, "ARENA_RATE_LIMITS_ENABLED": "0"})
    yield Http(app.test_client()), service
    bootstrap.reset()


def _fail_once(owner, name: str, seen: list[str], *, after: bool):
    """Replace ``owner.name`` so that its next call raises ``ConnectionError`` (``after``:
    once the real call ran, its reply lost) and records the match id it was about."""
    real = getattr(owner, name)

    def failing(*args, **kwargs):
        item = kwargs["args"][0] if "args" in kwargs else args[0]
        seen.append(item)
        setattr(owner, name, real)  # once
        if after:
            real(*args, **kwargs)
        raise RedisConnectionError("Connection reset by peer (injected)")

    setattr(owner, name, failing)


def _keys_of(service, match_id: str) -> set[str]:
    """Every key of the test's prefix that names ``match_id`` (its hash tag)."""
    redis = service.stores.redis
    return {
        k.decode() if isinstance(k, bytes) else k
        for k in redis.scan_iter(f"{service.keys.prefix}:*{match_id}*", count=1000)
    }


def _assert_503(status, headers, body) -> None:
    assert status == 503, body
    assert headers["Content-Type"] == "application/problem+json"
    assert body["code"] == "store_unavailable" and body["status"] == 503
    assert int(headers["Retry-After"]) >= 1


def _assert_nothing_written(http, service, match_id: str) -> None:
    """No record of ``match_id``: no meta, stream, lobby entry or token; only its in-flight
    mark may be left (with its TTL)."""
    mark = service.keys.reserving(match_id)
    assert _keys_of(service, match_id) <= {mark}
    if service.stores.redis.exists(mark):
        assert 0 < service.stores.redis.ttl(mark) <= 60
    assert not service.stores.events.meta(match_id)
    assert http.get(f"/v1/matches/{match_id}")[0] == 404
    status, _, lobby = http.get("/v1/matches?limit=100")
    assert status == 200 and match_id not in [m["match_id"] for m in lobby["items"]]


@pytest.mark.parametrize("after", [False, True], ids=["script-not-run", "script-reply-lost"])
def test_redis_failing_after_the_in_flight_mark_answers_503_and_counts_nothing_for_good(
    capped, after
):
    http, service = capped
    sets, seen = service.stores.bot_matches, []
    _fail_once(sets, "_reserve", seen, after=after)
    _assert_503(*http.post("/v1/matches", RACE_BOT))
    [failed] = seen
    _assert_nothing_written(http, service, failed)
    if after:
        # the script added the id before its reply was lost: counted while its mark lives
        # (a request between mark and write looks the same: the pruning must spare it)
        assert sets.members(CLIENT) == {failed}
        status, _, body = http.post("/v1/matches", RACE_BOT)
        assert (status, body["code"]) == (429, "too_many_bot_matches")
        service.stores.redis.delete(service.keys.reserving(failed))  # the mark expired
    status, _, made = http.post("/v1/matches", RACE_BOT)
    assert status == 201, made
    assert sets.members(CLIENT) == {made["match_id"]}
    assert not service.stores.redis.exists(service.keys.reserving(made["match_id"]))
    assert http.post("/v1/matches", RACE_BOT)[0] == 429  # the cap still holds


def test_redis_failing_in_the_record_write_answers_503_and_gives_the_count_back(capped):
    http, service = capped
    seen: list[str] = []
    _fail_once(service.stores.events, "append", seen, after=False)
    _assert_503(*http.post("/v1/matches", RACE_BOT))
    [failed] = seen
    _assert_nothing_written(http, service, failed)
    assert not service.stores.redis.exists(service.keys.reserving(failed))
    assert service.stores.bot_matches.members(CLIENT) == set()
    status, _, made = http.post("/v1/matches", RACE_BOT)
    assert status == 201, made
    assert service.stores.bot_matches.members(CLIENT) == {made["match_id"]}


def test_redis_failing_to_clear_the_mark_of_a_stored_match_still_answers_201(capped):
    """The match is stored and counted; only the mark's ``DEL`` failed: the mark expires on
    its own (it matters only to an id without a record), so the creation stands - a 503
    would make a client without an Idempotency-Key create a second match."""
    http, service = capped
    sets, seen = service.stores.bot_matches, []
    _fail_once(sets, "written", seen, after=False)
    status, _, made = http.post("/v1/matches", RACE_BOT)
    assert status == 201, made
    assert seen == [made["match_id"]]
    assert sets.members(CLIENT) == {made["match_id"]}
    mark = service.keys.reserving(made["match_id"])
    assert 0 < service.stores.redis.ttl(mark) <= 60  # left to expire
    assert http.get(f"/v1/matches/{made['match_id']}")[2]["status"] == "running"
    assert http.post("/v1/matches", RACE_BOT)[0] == 429  # counted: the cap holds


def test_a_keyed_create_retried_after_a_lost_reservation_reply_is_accepted_at_once(capped):
    """The script counted the id and its reply was lost; the client repeats its create with
    the same ``Idempotency-Key``: the same id, held already, is created (counted once), with
    no wait for the mark to expire."""
    http, service = capped
    sets, seen = service.stores.bot_matches, []
    _fail_once(sets, "_reserve", seen, after=True)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    _assert_503(*http.post("/v1/matches", RACE_BOT, headers=key))
    status, _, made = http.post("/v1/matches", RACE_BOT, headers=key)
    assert status == 201, made
    assert [made["match_id"]] == seen and sets.members(CLIENT) == set(seen)
    assert http.post("/v1/matches", RACE_BOT)[0] == 429  # counted once: the cap holds
