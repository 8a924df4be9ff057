"""Compaction of finished matches (service/upkeep/compaction.py) on fakeredis with the test games:
what stays in Redis, and that every read answers exactly as before the compaction."""

import json

import pytest

from domain.engine import MatchFinished
from service import errors
from tests.support.compaction import failing_compaction
from tests.support.reads import every_read
from tests.support.reads import finish_by_hand as _finish
from tests.support.runtime import drain

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_finished_match_is_compacted_into_one_key_and_every_read_answers_as_before(service):
    service.compactor.enabled = False
    created = service.create_match("high-card", HUMANS, {"rounds": 2})
    mid, keys, redis = created["match_id"], service.keys, service.redis
    _finish(service, mid)
    before = every_read(service, mid, 2)
    assert redis.exists(keys.events(mid)) and redis.sismember(keys.compact_pending(), mid)

    assert service.compact(mid) is True
    assert not redis.exists(keys.events(mid), keys.snap(mid), keys.deadlines(mid))
    assert redis.exists(keys.log(mid), keys.meta(mid), keys.tokens(mid)) == 3
    assert int(redis.hget(keys.meta(mid), "compacted")) == redis.strlen(keys.log(mid)) > 0
    assert not redis.sismember(keys.compact_pending(), mid)
    assert redis.zscore(keys.compacted(), mid) is not None
    assert redis.zscore(keys.matches(service.stores.index.shard(mid)), mid) is None
    after = every_read(service, mid, 2)
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key
    assert after["verify"]["valid"] is True
    assert service.compact(mid) is False  # once only


def test_compaction_runs_when_the_match_ends_and_idempotency_records_expire(service):
    service.compactor.idem_ttl_s = 120
    created = service.create_match("high-card", HUMANS, {"rounds": 1})
    mid, keys, redis = created["match_id"], service.keys, service.redis
    seat, command, key = _finish(service, mid, key_prefix="retry")[-1]
    assert service._record(mid).compacted > 0
    assert not redis.exists(keys.events(mid))
    assert 0 < redis.ttl(keys.idem(mid)) <= 120
    # a retry of the last command within the TTL still gets its first answer
    replay = service.act(mid, seat, command, idempotency_key=key)
    assert replay["replayed"] is True
    # once the records expired, the same retry is a command on a finished match
    redis.delete(keys.idem(mid))
    service.folds.clear()
    with pytest.raises(MatchFinished):
        service.act(mid, seat, command, idempotency_key=key)


def test_a_reader_holding_a_record_from_before_the_compaction_reads_the_compacted_log(service):
    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    stale = service._record(mid)
    full = service.ctx.envelopes(mid, stale)
    service.compact(mid)
    assert service.ctx.envelopes(mid, stale) == full
    assert service.ctx.envelopes(mid, stale, after=2, upto=5) == full[2:5]
    service.folds.clear()
    assert service.ctx.load(mid, upto=stale.version, record=stale).version == stale.version


def test_a_reader_holding_a_record_from_while_it_ran_reads_the_compacted_log(service):
    """A reader read the record while the match ran; the match then ended and was compacted
    before the reader read the stream (gunicorn, 80 SSE streams on a match resigned: one
    stream was cut by 'stream ... is missing events')."""
    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    stale = service._record(mid)
    assert not stale.finished and stale.version > 0
    _finish(service, mid)
    full = service.ctx.envelopes(mid, service._record(mid))
    service.compact(mid)
    assert service.ctx.envelopes(mid, stale) == full  # to the end, as the stream would
    assert service.ctx.envelopes(mid, stale, after=1, upto=stale.version) == full[1 : stale.version]
    service.folds.clear()
    assert service.ctx.load(mid, upto=stale.version, record=stale).version == stale.version


def test_fork_rematch_and_lobby_work_on_a_compacted_match(service):
    created = service.create_match("high-card", HUMANS, {"rounds": 1})
    mid = created["match_id"]
    _finish(service, mid)
    assert service._record(mid).compacted
    at = next(i for i, e in enumerate(service.log(mid)) if "command" in e)  # set-up's end
    fork = service.fork(mid, at)
    assert fork["version"] == at and service.match_view(fork["match_id"], 0)["version"] == at
    assert service.log(fork["match_id"])[-1]["data"] == service.log(mid)[at - 1]["data"]
    rematch = service.rematch(mid, 0)
    assert rematch["created"] is True and rematch["rematch_of"] == mid
    assert service.match_view(mid, None)["rematch"] == rematch["match_id"]
    assert service.rematch(mid, 1)["match_id"] == rematch["match_id"]
    listed = service.list_matches(status="finished")["items"]
    assert [item["match_id"] for item in listed] == [mid]
    assert listed[0]["result"]["winners"] == service.match_view(mid, None)["result"]["winners"]
    seat0 = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    assert service.authenticate(mid, seat0) == 0


def test_a_bot_match_played_by_jobs_is_compacted_and_exports_a_valid_log(service):
    mid = service.create_match("race", [{"kind": "bot", "bot": "greedy"}] * 3, {"target": 30})[
        "match_id"
    ]
    drain(service)
    record = service._record(mid)
    assert record.finished and record.compacted
    assert service.verify(service.export(mid))["valid"] is True
    assert service.events(mid, None)["events"][-1]["version"] == record.version


def test_a_failed_compaction_stays_pending_and_a_full_reconcile_pass_retries_it(
    service, monkeypatch
):
    failing_compaction(service, monkeypatch, RuntimeError("injected"))
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    assert not service._record(mid).compacted
    assert service.redis.sismember(service.keys.compact_pending(), mid)
    assert service.export(mid)["events"]  # reads work uncompacted
    assert service.reconcile(full=True).get("compacted") == 1
    assert service._record(mid).compacted and not service.redis.exists(service.keys.events(mid))


def test_a_stream_that_does_not_verify_is_never_compacted(service):
    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    key = service.keys.events(mid)
    entries = service.redis.xrange(key)
    service.redis.delete(key)
    for entry_id, fields in entries:  # the same stream, one event's type changed
        env = json.loads(fields["e"])
        if entry_id == "0-5":
            env["type"] += "Forged"
        service.redis.xadd(key, {"e": json.dumps(env)}, id=entry_id)
    with pytest.raises(RuntimeError):
        service.compact(mid)
    assert service.redis.exists(key) and not service._record(mid).compacted


def test_without_compaction_the_stream_stays_and_reads_use_it(service):
    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    assert service.reconcile(full=True).get("compacted") is None
    assert service.redis.exists(service.keys.events(mid))
    assert not service._record(mid).compacted


def test_a_vanished_pending_match_leaves_the_pending_set(service):
    service.redis.sadd(service.keys.compact_pending(), "nosuchmatch")
    assert service.compact("nosuchmatch") is False
    assert not service.redis.sismember(service.keys.compact_pending(), "nosuchmatch")
    with pytest.raises(errors.MatchNotFound):
        service.export("nosuchmatch")


def test_rq_finished_and_failed_registries_lose_expired_ids_at_a_full_pass(service):
    from rq.registry import FailedJobRegistry, FinishedJobRegistry

    queue = service.scheduler.queue
    finished, failed = FinishedJobRegistry(queue=queue), FailedJobRegistry(queue=queue)
    conn = queue.connection
    conn.zadd(finished.key, {"expired-ok": 1.0, "kept-ok": 4e9})  # scores: expiry times
    conn.zadd(failed.key, {"expired-failed": 1.0})
    service.reconcile(full=True)
    assert [m.decode() for m in conn.zrange(finished.key, 0, -1)] == ["kept-ok"]
    assert conn.zcard(failed.key) == 0


def test_an_export_whose_match_is_compacted_between_its_reads_is_whole(service, monkeypatch):
    """The export read the record (finished, not yet compacted), then the worker that ended
    the match compacted it (stream deleted) before the export read the stream: the answer
    is the whole compacted export, never a log cut short (seen once in an integration
    run: an export with only its first event)."""
    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    whole = service.export(mid)
    ctx, read_record = service.ctx, service.ctx.record
    calls = []

    def record_then_compact(match_id):
        record = read_record(match_id)
        if not calls:
            calls.append(match_id)
            service.compact(match_id)  # after this read, before the stream's
        return record

    monkeypatch.setattr(ctx, "record", record_then_compact)
    got = service.export(mid)
    assert calls == [mid] and got["events"] == whole["events"] and len(got["events"]) > 1
    assert service.verify(got)["valid"] is True


def test_the_compaction_check_decodes_without_rehashing_and_refuses_another_document(service):
    """``decodes_to`` (the check before a compacted log is stored) answers as ``unpack(blob)
    == doc`` did for a verified document, small (LZMA2 preset 1) or large (preset 6), and
    refuses a blob of another document or a damaged one."""
    from service.store.compact_store import SMALL_LOG_BYTES, decodes_to, pack, unpack

    created = service.create_match("high-card", HUMANS, {"rounds": 2})
    mid = created["match_id"]
    _finish(service, mid)
    assert service.stores.metrics.totals().get("matches_compacted") == 1  # in filed's pipeline
    doc = service.export(mid)
    big = {**doc, "options": {**doc["options"], "note": "x" * SMALL_LOG_BYTES}}
    for one in (doc, big):
        blob = pack(one)
        assert unpack(blob) == one and decodes_to(blob, one)
    assert len(pack(big)) < SMALL_LOG_BYTES // 4  # compressed, whichever preset
    assert not decodes_to(pack(big), doc)
    other = {**doc, "events": [*doc["events"][:-1], {**doc["events"][-1], "seat": 9}]}
    assert not decodes_to(pack(other), doc)
    assert not decodes_to(pack(doc)[:-4], doc)


def test_the_compaction_seal_check_is_the_chain_and_the_seed_commitment(service):
    """Compaction checks the seal of the log it stores (every hash of the chain, the seed
    against its commitment) and no longer re-decides every command inside the request that
    ends the match (each event was decided by this engine when it was appended)."""
    import copy

    from service.upkeep.compaction import sealed_errors

    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    doc = service.export(mid)
    assert sealed_errors(doc) == []
    other_seed = copy.deepcopy(doc)
    other_seed["seed"] = ("0" if doc["seed"][0] != "0" else "1") + doc["seed"][1:]
    assert sealed_errors(other_seed) == ["seed does not match seed_commitment"]
    forged = copy.deepcopy(doc)
    forged["events"][3]["data"] = {**forged["events"][3]["data"], "forged": 1}
    assert sealed_errors(forged) == ["event 4: hash does not match its content"]
    service.compactor.enabled = True
    assert service.compact(mid) and service._record(mid).compacted


def test_compacting_a_finished_match_takes_three_round_trips(service):
    """One ``MULTI`` reads meta, stream, token holders and idempotency fields; one ``MULTI``
    stores the log and drops the service's own turn-timeout records; one pipeline files
    the match (issue 21: six round trips before). A client's key holding ``#`` is the
    client's: its record stays until its TTL."""
    from tests.support.round_trips import count_round_trips

    service.compactor.enabled = False
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish(service, mid)
    keys, redis = service.keys, service.redis
    own, clients = keys.timeout_idem_field(1, 3), keys.idem_field(0, "retry#7")
    redis.hset(keys.idem(mid), mapping={own: "{}", clients: "{}"})
    before = service.export(mid)
    service.compactor.enabled = True
    trips = count_round_trips(service)

    assert service.compact(mid) is True
    assert trips.calls == ["pipeline:4", "pipeline:5", "pipeline:5"], trips.calls
    assert not redis.hexists(keys.idem(mid), own) and redis.hexists(keys.idem(mid), clients)
    service.folds.clear()
    assert service._record(mid).compacted and service.export(mid) == before
    assert service.stores.metrics.totals().get("matches_compacted") == 1


@pytest.mark.parametrize("lost_answer", [False, True], ids=["before-send", "answer-lost"])
def test_a_compaction_cut_at_any_round_trip_loses_nothing_and_a_full_pass_finishes_it(
    service, lost_answer
):
    """Redis fails at each of the compaction's three round trips in turn (before the trip
    reaches Redis, or after it ran with its answer lost): the match reads as before, and
    the next full reconcile pass compacts and files it."""
    import redis as redis_py

    from tests.support.round_trips import redis_fails_at

    service.compactor.enabled = False
    keys, redis = service.keys, service.redis
    for trip in range(3):
        mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
        _finish(service, mid)
        before = service.export(mid)
        service.compactor.enabled = True
        with redis_fails_at(trip, lost_answer) as seen:
            with pytest.raises(redis_py.exceptions.ConnectionError):
                service.compact(mid)
        assert len(seen) == trip + 1, seen
        service.folds.clear()
        assert service.export(mid) == before  # readable meanwhile, stream or compacted log
        assert redis.sismember(keys.compact_pending(), mid) or (lost_answer and trip == 2)

        service.reconcile(full=True)

        assert not redis.sismember(keys.compact_pending(), mid)
        assert service._record(mid).compacted and not redis.exists(keys.events(mid))
        assert redis.zscore(keys.compacted(), mid) is not None
        assert redis.zscore(keys.matches(service.stores.index.shard(mid)), mid) is None
        service.folds.clear()
        after = service.export(mid)
        assert after == before and service.verify(after)["valid"] is True
        service.compactor.enabled = False
