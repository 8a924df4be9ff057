"""The fold cache is only a cache: on fakeredis, two MatchService instances (two API
processes) share one store; every answer must equal a cache-less instance's answer."""

import random

import fakeredis
import pytest

from domain.engine import IllegalMove, NotYourTurn
from service import errors
from service.log.codec import bot_rng, dumps, loads, sha256_hex
from service.match_service import MatchService
from tests.support.games import ENGINES, Race

HUMANS3 = [{"kind": "human"}] * 3


@pytest.fixture
def instance(service, fake_redis_server):
    """``instance(engines=ENGINES, fold_cache_size=1024)``: another process's service (own
    connection and caches) on the same fake Redis server and key prefix."""

    def make(engines=ENGINES, fold_cache_size=1024):
        return MatchService(
            fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
            service.keys,
            None,
            engines,
            snapshot_every=5,
            blocking_reads=False,
            fold_cache_size=fold_cache_size,
        )

    return make


def _answers(svc, mid, seats=3):
    return (
        [svc.match_view(mid, s) for s in [*range(seats), None]],
        [svc.legal_actions(mid, s) for s in range(seats)],
    )


def _turn(svc, mid):
    return svc.match_view(mid, None)["view"]["turn"]


def test_an_instance_sees_appends_made_by_another_one(service, instance):
    other = instance()
    fresh = instance(fold_cache_size=0)
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    for _ in range(4):
        service.act(mid, _turn(service, mid), {"type": "add", "amount": 1})
    assert _answers(other, mid) == _answers(fresh, mid)  # other caches version 5
    for _ in range(3):
        other.act(mid, _turn(other, mid), {"type": "add", "amount": 2})
    assert service.match_view(mid, None)["view"]["total"] == 4 + 6
    assert _answers(service, mid) == _answers(fresh, mid)  # folded the 3-event tail
    # acting on a stale cache continues from the real head, with gap-free versions
    got = service.act(mid, _turn(fresh, mid), {"type": "add", "amount": 3})
    assert got["version"] == 9 and got["events"][0]["data"] == {"amount": 3, "total": 13}
    assert [e["version"] for e in service.log(mid)] == list(range(1, 10))


def test_a_rewritten_stream_is_detected_by_the_hash_link(service, instance):
    """A store that lost its last events (failover) and then got different ones at the
    same versions: the cached fold must not be reused."""
    fresh = instance(fold_cache_size=0)
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    for _ in range(3):
        service.act(mid, _turn(service, mid), {"type": "add", "amount": 1})
    assert service.match_view(mid, None)["view"]["total"] == 3  # cached at version 4
    # roll back to version 2 (versions 3-4 lost), then other facts up to version 5
    _roll_back(service, mid, 2)
    writer = instance(fold_cache_size=0)
    for _ in range(3):
        writer.act(mid, _turn(writer, mid), {"type": "add", "amount": 3})
    assert writer.match_view(mid, None)["version"] == 5
    assert _answers(service, mid) == _answers(fresh, mid)
    assert service.match_view(mid, None)["view"]["total"] == 1 + 9
    # the same version as the cached one, other content: still detected
    mid2 = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    service.act(mid2, _turn(service, mid2), {"type": "add", "amount": 1})
    assert service.match_view(mid2, None)["view"]["total"] == 1  # cached at version 2
    _roll_back(service, mid2, 1)
    writer.act(mid2, _turn(writer, mid2), {"type": "add", "amount": 2})
    assert service.match_view(mid2, None)["view"]["total"] == 2
    assert _answers(service, mid2) == _answers(fresh, mid2)


def _roll_back(service, mid, version):
    """What a failover to a lagging replica does: the stream and meta as at ``version``."""
    kept = service.log(mid, upto=version)
    service.redis.delete(service.keys.events(mid))
    for env in kept:
        service.redis.xadd(service.keys.events(mid), {"e": dumps(env)}, id=f"0-{env['version']}")
    service.redis.hset(
        service.keys.meta(mid), mapping={"version": version, "head_hash": kept[-1]["hash"]}
    )


class _CorruptingRace(Race):
    """A defective decide: mutates the state it was given, then rejects the command."""

    def decide(self, state, seat, command, rng):
        if command.get("amount") == 3:
            state["total"] += 100
            raise IllegalMove("three is forbidden here", "three_forbidden")
        return super().decide(state, seat, command, rng)


def test_a_state_touched_by_a_failed_decide_is_never_served(service, instance):
    corrupting = {"race": _CorruptingRace()}
    svc = instance(engines=corrupting)
    fresh = instance(engines=corrupting, fold_cache_size=0)
    mid = svc.create_match("race", HUMANS3, {"target": 500})["match_id"]
    svc.act(mid, _turn(svc, mid), {"type": "add", "amount": 2})
    with pytest.raises(IllegalMove):
        svc.act(mid, _turn(svc, mid), {"type": "add", "amount": 3})
    assert svc.match_view(mid, None)["view"]["total"] == 2
    assert _answers(svc, mid) == _answers(fresh, mid)
    got = svc.act(mid, _turn(svc, mid), {"type": "add", "amount": 1})
    assert got["events"][0]["data"] == {"amount": 1, "total": 3}


def test_a_lost_append_race_does_not_leave_its_state_in_the_cache(service, instance, monkeypatch):
    fresh = instance(fold_cache_size=0)
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    turn = _turn(service, mid)
    original = service.store.append
    raced = []

    def append_after_a_rival(match_id, expected, envelopes, *args, **kwargs):
        if not raced:
            raced.append(True)  # another process appends first
            instance(fold_cache_size=0).act(mid, turn, {"type": "add", "amount": 3})
        return original(match_id, expected, envelopes, *args, **kwargs)

    monkeypatch.setattr(service.store, "append", append_after_a_rival)
    with pytest.raises(NotYourTurn):  # re-decided on the new state: no longer its turn
        service.act(mid, turn, {"type": "add", "amount": 1})
    monkeypatch.setattr(service.store, "append", original)
    assert _answers(service, mid) == _answers(fresh, mid)
    assert service.match_view(mid, None)["view"]["total"] == 3


def test_random_interleaving_of_two_instances_matches_a_cacheless_one(service, instance):
    """300 random commands, each sent by one of two caching instances; after each one
    both answer exactly like an instance without cache."""
    a, b = service, instance()
    fresh = instance(fold_cache_size=0)
    rng = random.Random(7)
    mid = a.create_match("high-card", HUMANS3[:2], {"rounds": 5})["match_id"]
    steps = 0
    while a.match_view(mid, None)["status"] == "running" and steps < 300:
        acting = rng.choice([a, b])
        seat = rng.choice([int(s) for s in fresh.match_view(mid, None)["pending"]])
        action = rng.choice(acting.legal_actions(mid, seat)["actions"])
        acting.act(mid, seat, action, idempotency_key=f"k{steps}")
        steps += 1
        if steps % 3 == 0:
            assert _answers(rng.choice([a, b]), mid, 2) == _answers(fresh, mid, 2)
    assert a.match_view(mid, None)["status"] == "finished"
    assert _answers(a, mid, 2) == _answers(fresh, mid, 2) == _answers(b, mid, 2)
    assert a.verify(a.export(mid))["valid"] is True


def test_idempotent_repeat_is_answered_from_the_record_by_any_instance(service, instance):
    other = instance()
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    turn = _turn(service, mid)
    first = service.act(mid, turn, {"type": "add", "amount": 2}, idempotency_key="k")
    assert other.act(mid, turn, {"type": "add", "amount": 2}, idempotency_key="k") == {
        **first,
        "replayed": True,
    }
    with pytest.raises(errors.IdempotencyKeyReused):
        other.act(mid, turn, {"type": "add", "amount": 1}, idempotency_key="k")
    assert service.match_view(mid, None)["version"] == 2


def test_error_order_is_match_then_seat_then_command(service, instance):
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    with pytest.raises(errors.MatchNotFound):
        service.act("nope", 9, "not a command")
    with pytest.raises(errors.SeatNotFound):
        service.act(mid, 9, "not a command")
    with pytest.raises(errors.SeatNotFound):
        service.act(mid, True, {"type": "add", "amount": 1})
    with pytest.raises(Exception) as exc:
        service.act(mid, 0, "not a command")
    assert getattr(exc.value, "code", None) == "invalid_command"
    with pytest.raises(Exception) as exc:
        service.act(mid, 0, {"type": "add", "amount": 1}, idempotency_key="")
    assert getattr(exc.value, "code", None) == "invalid_command"
    assert service.match_view(mid, None)["version"] == 1


def test_tokens_of_seats_joined_after_caching_are_accepted(service, instance):
    other = instance()
    created = service.create_match("race", [{"kind": "human"}, {"kind": "open"}], {})
    mid, token0 = created["match_id"], created["seats"][0]["token"]
    assert other.authenticate(mid, token0) == 0  # caches seat 0's digest only
    joined = service.join(mid, 1)
    assert other.authenticate(mid, joined["token"]) == 1  # a miss re-reads the store
    with pytest.raises(errors.InvalidToken):
        other.authenticate(mid, "not-a-token")
    with pytest.raises(errors.InvalidToken):
        other.authenticate(mid, "")
    with pytest.raises(errors.MatchNotFound):
        other.authenticate("missing", token0)


def test_a_head_read_by_the_seat_check_is_reused_only_within_its_request(service, instance):
    created = service.create_match("race", [{"kind": "human"}] * 2, {"target": 500})
    mid, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    other = instance()
    turn = _turn(service, mid)
    # request 1 on the other process: the seat check reads the head, the view reuses it
    request1 = other.for_request()
    assert request1.authenticate(mid, tokens[0]) == 0
    reads = []
    original = other.store.head
    other.store.head = lambda *a, **k: reads.append(a) or original(*a, **k)
    assert request1.match_view(mid, 0)["version"] == 1 and reads == []
    # another process appends; request 2 on the other process must see it
    service.act(mid, turn, {"type": "add", "amount": 1})
    assert other.for_request().match_view(mid, 0)["version"] == 2 and len(reads) == 1
    # the kept head serves one read of its own request only, on no other thread's request
    assert request1.match_view(mid, 0)["version"] == 2 and len(reads) == 2
    # outside a request (no reads passed) a seat check marks nothing for later reads
    third = instance()
    assert third.authenticate(mid, tokens[0]) == 0
    service.act(mid, 1 - turn, {"type": "add", "amount": 1})
    assert third.match_view(mid, 0)["version"] == 3


def test_request_reads_are_explicit_and_shared_by_nothing_else(service, instance):
    """The seat check's head goes into the request's own RequestReads, not into state of
    the thread: another request on the same thread (no reads passed) reads the store."""
    created = service.create_match("race", [{"kind": "human"}] * 2, {"target": 500})
    mid, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    other = instance()
    request = other.for_request()
    assert request.authenticate(mid, tokens[0]) == 0
    assert request.reads.fresh is not None and request.reads.fresh.match_id == mid
    service.act(mid, _turn(service, mid), {"type": "add", "amount": 1})
    reads = []
    original = other.store.head
    other.store.head = lambda *a, **k: reads.append(a) or original(*a, **k)
    assert other.match_view(mid, 0)["version"] == 2 and len(reads) == 1
    assert request.reads.fresh is not None  # untouched by the other call


def test_bot_rng_is_the_one_the_service_and_the_cli_share():
    import cli.bot_match

    seed = bytes(range(32))
    assert cli.bot_match.bot_rng is bot_rng
    expected = random.Random(
        int.from_bytes(
            __import__("hashlib")
            .sha256(sha256_hex(seed + b":bot:2").encode() + (17).to_bytes(8, "big"))
            .digest(),
            "big",
        )
    )
    assert bot_rng(seed, 17, 2).random() == expected.random()
    assert bot_rng(seed, 17, 2).random() != bot_rng(seed, 17, 1).random()


def test_storage_json_round_trips_plain_values():
    value = {"a": [1, 2.5, None, True], "b": {"c": "é\n"}, 3: (4, 5)}
    assert loads(dumps(value)) == {"a": [1, 2.5, None, True], "b": {"c": "é\n"}, "3": [4, 5]}
    assert loads(dumps({"big": 2**70})) == {"big": 2**70}  # beyond orjson's 64 bits
    with pytest.raises(TypeError):
        dumps({"s": {1, 2}})


def test_act_on_a_current_fold_skips_the_store_read(service, monkeypatch):
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    turn = _turn(service, mid)  # caches the fold at version 1
    reads = []
    original = service.ctx.head
    monkeypatch.setattr(service.ctx, "head", lambda *a, **k: reads.append(a) or original(*a, **k))
    got = service.act(mid, turn, {"type": "add", "amount": 2}, expected_version=1)
    assert got["version"] == 2 and reads == []  # decided on the cached fold
    assert service.log(mid)[-1]["prev_hash"] == service.log(mid)[0]["hash"]


def test_a_rule_error_is_never_answered_from_an_unverified_fold(service, instance):
    """The cached fold says "not your turn" but another process moved the turn on."""
    other = instance()
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    first = _turn(service, mid)  # service caches version 1
    other.act(mid, first, {"type": "add", "amount": 1})
    second = (first + 1) % 3
    got = service.act(mid, second, {"type": "add", "amount": 2})
    assert got["version"] == 3 and got["events"][0]["data"] == {"amount": 2, "total": 3}
    with pytest.raises(NotYourTurn):
        service.act(mid, second, {"type": "add", "amount": 2})


def test_a_stale_fold_loses_the_append_and_the_command_is_redecided(service, instance):
    other = instance()
    fresh = instance(fold_cache_size=0)
    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    turn = _turn(service, mid)
    service.legal_actions(mid, turn)  # cached at version 1
    other.act(mid, turn, {"type": "add", "amount": 1})
    other.act(mid, (turn + 1) % 3, {"type": "add", "amount": 1})
    other.act(mid, (turn + 2) % 3, {"type": "add", "amount": 1})
    # the same seat's turn again at version 4: the cached fold (version 1) would accept
    # the command too, but the append script refuses a stale version/head
    got = service.act(mid, turn, {"type": "add", "amount": 3})
    assert got["version"] == 5 and got["events"][0]["data"] == {"amount": 3, "total": 6}
    assert "arena_append_conflicts_total 1" in service.metrics()
    assert _answers(service, mid) == _answers(fresh, mid)
    with pytest.raises(errors.VersionConflict):  # a stale expected_version is still refused
        service.act(mid, (turn + 1) % 3, {"type": "add", "amount": 1}, expected_version=4)


def test_append_refuses_a_batch_that_does_not_continue_the_stored_head(service):
    from domain.engine import Event
    from service.log.codec import genesis_hash
    from service.log.envelopes import build_envelopes

    store = service.store
    first = build_envelopes([Event("A", {})], 1, genesis_hash("m"), "setup")
    assert store.append("m", 0, first, {"head_hash": first[-1]["hash"]}).status == "ok"
    forked = build_envelopes([Event("B", {})], 2, "f" * 64, "player")
    outcome = store.append(
        "m", 1, forked, {"head_hash": forked[-1]["hash"]}, expected_head="f" * 64
    )
    assert (outcome.status, outcome.version) == ("conflict", 1)
    linked = build_envelopes([Event("B", {})], 2, first[-1]["hash"], "player")
    assert (
        store.append(
            "m", 1, linked, {"head_hash": linked[-1]["hash"]}, expected_head=first[-1]["hash"]
        ).status
        == "ok"
    )
    assert [e["type"] for e in store.read("m")] == ["A", "B"]


def test_a_lost_race_of_a_game_that_copies_its_fold_folds_only_the_missed_events(
    service, instance, monkeypatch
):
    """AI: 100% Human folds an append into a copy (``copy_state``): the fold it decided on
    is still whole when the append loses, so the retry folds the events it missed into it
    (no snapshot is loaded) and the answers are a cache-less instance's."""
    from domain.games import registry

    engines = {"ai-100-human": registry()["ai-100-human"]}
    mine, other, fresh = instance(engines), instance(engines), instance(engines, 0)
    mid = mine.create_match("ai-100-human", HUMANS3, {})["match_id"]
    rng = random.Random(7)
    pending: list[int] = []
    for move in range(300):  # play into the match (past a snapshot), both instances acting
        svc = (mine, other)[move % 2]
        view = svc.match_view(mid, None)
        pending = sorted(int(s) for s in view["pending"])
        if view["version"] >= 12 and len(pending) >= 2:
            break  # a simultaneous step: two seats owe a decision
        seat = pending[0]
        svc.act(mid, seat, rng.choice(svc.legal_actions(mid, seat)["actions"]))
    assert len(pending) >= 2
    loads_ = []
    engine = engines["ai-100-human"]
    monkeypatch.setattr(engine, "load_state", lambda data: loads_.append(1) or None)
    first, second = pending[0], pending[1]
    command = rng.choice(mine.legal_actions(mid, second)["actions"])  # mine: cached here
    other.act(mid, first, rng.choice(other.legal_actions(mid, first)["actions"]))
    got = mine.act(mid, second, command)  # decided on the stale fold, lost, re-decided
    assert got["events"][0]["seat"] == second
    assert loads_ == []  # the missed event was folded into the held fold
    assert "arena_append_conflicts_total 1" in mine.metrics()
    monkeypatch.undo()
    assert _answers(mine, mid) == _answers(fresh, mid)


def test_a_fold_cached_before_the_match_was_compacted_takes_only_the_missed_events(
    service, instance, monkeypatch
):
    """Another process finished (and compacted) the match after this one cached its fold:
    the events after the cached version come from the compacted log, folded into the
    cached fold (no fold of the whole log), and the answers are a cache-less instance's."""
    other = instance()
    fresh = instance(fold_cache_size=0)
    mid = service.create_match("race", HUMANS3, {"target": 12})["match_id"]
    service.act(mid, _turn(service, mid), {"type": "add", "amount": 3})
    assert other.legal_actions(mid, 0)["version"] == 2  # other caches version 2
    while service.match_view(mid, None)["status"] == "running":
        service.act(mid, _turn(service, mid), {"type": "add", "amount": 3})
    assert service.ctx.record(mid).compacted
    whole_log_folds = []
    original = other.ctx.load
    monkeypatch.setattr(
        other.ctx, "load", lambda *a, **k: whole_log_folds.append(1) or original(*a, **k)
    )
    assert _answers(other, mid) == _answers(fresh, mid)
    assert whole_log_folds == []


class _ReadsOutsideTheCache(Race):
    """Race whose ``legal_actions`` records whether the fold it reads was in the fold
    cache meanwhile (there another request could take it and fold into it in place)."""

    def __init__(self):
        super().__init__()
        self.cache = None
        self.shared: list[bool] = []

    def legal_actions(self, state, seat):
        self.shared.append(any(e.state is state for e in self.cache._map._items.values()))
        return super().legal_actions(state, seat)


def test_a_legal_actions_read_gives_its_fold_back_only_once_read(instance):
    """The fold a ``GET .../legal-actions`` reads is given back to the cache after the
    engine read it, never before (an A.I.Pokalypse read once met a battle card taken away
    under it by a request that took the given-back fold: a 500)."""
    engine = _ReadsOutsideTheCache()
    svc = instance(engines={"race": engine})
    engine.cache = svc.ctx.folds
    mid = svc.create_match("race", HUMANS3, {"target": 500})["match_id"]
    for seat in range(3):
        svc.legal_actions(mid, seat)
    assert engine.shared and not any(engine.shared), engine.shared


def test_a_fold_read_or_kept_again_after_it_was_given_back_raises(service):
    """``MatchContext.keep`` is the last touch of a held fold: from there its ``state`` is a
    ``GivenBack`` (the fold itself is the cache's), so a read after the give-back raises
    ``FoldGivenBack`` instead of reading a state another request may be folding into, and a
    second ``keep`` raises without putting anything in the cache."""
    from service.usecases.context import FoldGivenBack, GivenBack

    mid = service.create_match("race", HUMANS3, {"target": 500})["match_id"]
    ctx = service.ctx
    loaded, _ = ctx.head(mid)
    state = loaded.state
    ctx.keep(loaded)
    assert isinstance(loaded.state, GivenBack) and ctx.folds.take(mid).state is state
    for read in (
        lambda: loaded.engine.legal_actions(loaded.state, 0),
        lambda: loaded.state.scores,
        lambda: loaded.state["scores"],
        lambda: bool(loaded.state),
        lambda: ctx.keep(loaded),
    ):
        with pytest.raises(FoldGivenBack, match=f"{mid}@{loaded.version}"):
            read()
    assert ctx.folds.take(mid) is None  # the second keep put nothing back
