"""MatchService use cases on fakeredis with the test games (tests/support/games.py)."""

import json
import threading

import pytest

from domain.engine import IllegalMove, InvalidCommand, NotYourTurn, RuleError
from service import errors
from service.log.codec import seed_commitment

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _play(service, mid, seat, **kw):
    """Play seat's lowest legal card."""
    action = service.legal_actions(mid, seat)["actions"][0]
    return service.act(mid, seat, action, **kw)


def _finish_high_card(service, mid):
    while service.match_view(mid, None)["status"] == "running":
        for seat in map(int, service.match_view(mid, None)["pending"]):
            _play(service, mid, seat)


def test_games_lists_the_registry(service):
    games = {g["id"]: g for g in service.games()}
    assert set(games) == {"high-card", "race"}
    assert games["race"]["min_seats"] == 2 and games["race"]["max_seats"] == 4
    assert games["high-card"]["bots"] == ["greedy", "random", "slow"]
    assert "play" in games["high-card"]["commands"]


def test_create_match_returns_tokens_once_and_a_seed_commitment(service):
    created = service.create_match("high-card", HUMANS + [], {"rounds": 1})
    assert created["version"] == 4  # MatchSetUp, DeckShuffled, 2 x HandDealt
    assert [s.get("token") is not None for s in created["seats"]] == [True, True]
    mid = created["match_id"]
    record = service._record(mid)
    assert created["seed_commitment"] == seed_commitment(record.seed)
    stored = service.redis.hgetall(service.keys.tokens(mid))
    assert created["seats"][0]["token"] not in stored.values()
    assert service.authenticate(mid, created["seats"][1]["token"]) == 1
    view = service.match_view(mid, 0)
    assert "token" not in json.dumps(view) and "seed" not in view


def test_create_match_validation(service):
    with pytest.raises(errors.UnknownGame):
        service.create_match("chess", HUMANS, {})
    with pytest.raises(errors.InvalidSeats):
        service.create_match("high-card", HUMANS * 2, {})
    with pytest.raises(errors.InvalidSeats):
        service.create_match("race", [{"kind": "bot", "bot": "genius"}, {"kind": "human"}], {})
    with pytest.raises(InvalidCommand):
        service.create_match("high-card", HUMANS, {"rounds": 9})
    with pytest.raises(errors.ServiceError) as exc:
        service.create_match("race", HUMANS, {}, turn_timeout_s=-1)
    assert exc.value.code == "invalid_turn_timeout"


def test_join_open_seat_once(service):
    mid = service.create_match("race", [{"kind": "human"}, {"kind": "open"}], {})["match_id"]
    assert service.match_view(mid, None)["seats"][1]["kind"] == "open"
    joined = service.join(mid, 1, "Ada")
    assert service.authenticate(mid, joined["token"]) == 1
    assert service.match_view(mid, None)["seats"][1] == {"seat": 1, "kind": "human", "name": "Ada"}
    with pytest.raises(errors.SeatTaken):
        service.join(mid, 1, None)
    with pytest.raises(errors.SeatTaken):
        service.join(mid, 0, None)
    with pytest.raises(errors.SeatNotFound):
        service.join(mid, 2, None)
    with pytest.raises(errors.InvalidToken):
        service.authenticate(mid, "nope")
    with pytest.raises(errors.MatchNotFound):
        service.authenticate("missing", joined["token"])


def test_rule_errors_pass_through_and_append_nothing(service):
    mid = service.create_match("race", HUMANS, {"target": 5})["match_id"]
    turn = service.match_view(mid, None)["view"]["turn"]
    with pytest.raises(NotYourTurn):
        service.act(mid, 1 - turn, {"type": "add", "amount": 1})
    with pytest.raises(InvalidCommand):
        service.act(mid, turn, {"type": "add", "amount": 4})
    with pytest.raises(InvalidCommand):
        service.act(mid, turn, ["not", "an", "object"])
    assert service.match_view(mid, None)["version"] == 1
    assert 'arena_actions_rejected_total{code="not_your_turn"} 1' in service.metrics()
    assert 'arena_actions_rejected_total{code="invalid_command"} 2' in service.metrics()


def test_idempotency_key_returns_first_answer_and_appends_nothing(service):
    mid = service.create_match("race", HUMANS, {"target": 50})["match_id"]
    turn = service.match_view(mid, None)["view"]["turn"]
    first = service.act(mid, turn, {"type": "add", "amount": 2}, idempotency_key="k")
    again = service.act(mid, turn, {"type": "add", "amount": 2}, idempotency_key="k")
    assert first["replayed"] is False and again["replayed"] is True
    assert again["events"] == first["events"] and again["version"] == first["version"] == 2
    assert service.match_view(mid, None)["version"] == 2
    with pytest.raises(errors.IdempotencyKeyReused):
        service.act(mid, turn, {"type": "add", "amount": 3}, idempotency_key="k")
    # keys are per seat: the other seat may use "k" for its own command
    other = service.act(mid, 1 - turn, {"type": "add", "amount": 1}, idempotency_key="k")
    assert other["replayed"] is False and other["version"] == 3


def test_stale_expected_version_raises_conflict_with_current_version(service):
    mid = service.create_match("race", HUMANS, {"target": 50})["match_id"]
    turn = service.match_view(mid, None)["view"]["turn"]
    service.act(mid, turn, {"type": "add", "amount": 1}, expected_version=1)
    with pytest.raises(errors.VersionConflict) as exc:
        service.act(mid, 1 - turn, {"type": "add", "amount": 1}, expected_version=1)
    assert (exc.value.status, exc.value.code, exc.value.extra) == (
        409,
        "version_conflict",
        {"current_version": 2},
    )
    assert 'arena_actions_rejected_total{code="version_conflict"} 1' in service.metrics()


def test_lost_race_without_expected_version_is_redecided(service, monkeypatch):
    """Another command lands between this command's load and append: re-decided, not lost."""
    mid = service.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    original = service.store.append
    injected = []

    def racing_append(match_id, expected, envelopes, *args, **kwargs):
        if not injected and envelopes[0].get("actor") == 0:
            injected.append(True)
            _play(service, mid, 1)  # seat 1 wins the race
        return original(match_id, expected, envelopes, *args, **kwargs)

    monkeypatch.setattr(service.store, "append", racing_append)
    answer = _play(service, mid, 0)
    log = service.log(mid)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert [e["type"] for e in log[4:]] == [
        "CardPlayed",
        "CardPlayed",
        "RoundRevealed",
        "HandDealt",
        "HandDealt",
    ]
    assert answer["version"] == 9 and "append_conflicts_total 1" in service.metrics()


def test_a_lost_race_is_counted_when_the_command_then_fails(service, monkeypatch):
    """A lost race is counted by the append that succeeds after it; a command that ends
    in an error after losing (here its stale ``expected_version``) counts it too."""
    mid = service.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    version = service.match_view(mid, None)["version"]
    original = service.store.append
    injected = []

    def racing_append(match_id, expected, envelopes, *args, **kwargs):
        if not injected and envelopes[0].get("actor") == 0:
            injected.append(True)
            _play(service, mid, 1)  # seat 1 wins the race
        return original(match_id, expected, envelopes, *args, **kwargs)

    monkeypatch.setattr(service.store, "append", racing_append)
    with pytest.raises(errors.VersionConflict):
        _play(service, mid, 0, expected_version=version)
    assert "append_conflicts_total 1" in service.metrics()


def test_threads_racing_on_one_match_lose_and_duplicate_nothing(service):
    mid = service.create_match("race", [{"kind": "human"}] * 4, {"target": 1000})["match_id"]
    accepted = []

    def player(seat):
        for _ in range(15):
            try:
                accepted.append(service.act(mid, seat, {"type": "add", "amount": 1})["version"])
            except NotYourTurn:
                pass

    threads = [threading.Thread(target=player, args=(s,)) for s in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    log = service.log(mid)
    assert sorted(accepted) == [e["version"] for e in log[1:]]
    assert log[-1]["data"]["total"] == len(accepted)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))


def test_hidden_information_never_reaches_another_seat(service):
    mid = service.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    state = service._load(mid).state
    hand0, hand1, deck = state["hands"]["0"], state["hands"]["1"], state["deck"]
    service.act(mid, 0, {"type": "play", "card": hand0[0]})
    for viewer in (1, None):
        view = service.match_view(mid, viewer)["view"]
        events = service.events(mid, viewer)["events"]
        blob = json.dumps([view, events])
        assert '"order"' not in blob and '"command"' not in blob
        assert all(e["data"] == {} for e in events if e["type"] == "CardPlayed" and e["seat"] == 0)
        assert all(
            "cards" not in e["data"] for e in events if e["type"] == "HandDealt" and e["seat"] == 0
        )
        assert view.get("hand") != hand0
    own = service.events(mid, 0)["events"]
    assert [e["data"] for e in own if e["type"] == "HandDealt" and e["seat"] == 0] == [
        {"cards": hand0}
    ]
    assert service.match_view(mid, 1)["view"]["hand"] == hand1
    assert service.state_at(mid, 1, 4)["view"]["hand"] == hand1
    with pytest.raises(errors.Forbidden):
        service.state_at(mid, None, 4)
    with pytest.raises(errors.MatchRunning):
        service.export(mid)
    assert len(deck) == 16


def test_long_poll_returns_when_an_event_arrives(service):
    mid = service.create_match("race", HUMANS, {})["match_id"]
    turn = service.match_view(mid, None)["view"]["turn"]
    timer = threading.Timer(0.3, lambda: service.act(mid, turn, {"type": "add", "amount": 1}))
    timer.start()
    got = service.events(mid, None, after=1, wait_s=5)
    assert got["version"] == 2 and [e["version"] for e in got["events"]] == [2]
    empty = service.events(mid, None, after=2, wait_s=0.2)
    assert empty == {"game": service.match_view(mid, None)["game"], "version": 2, "events": []}


def test_finished_match_reveals_seed_exports_and_verifies(service):
    created = service.create_match("high-card", HUMANS, {"rounds": 2})
    mid = created["match_id"]
    _finish_high_card(service, mid)
    view = service.match_view(mid, None)
    assert view["status"] == "finished" and view["result"]["scores"] in ([2, 0], [1, 1], [0, 2])
    assert seed_commitment(bytes.fromhex(view["seed"])) == created["seed_commitment"]
    exported = service.export(mid)
    assert exported["format"] == "apocalypse-arena/log@3" and exported["seed"] == view["seed"]
    checked = service.verify(exported)
    assert checked == {
        "valid": True,
        "version": len(exported["events"]),
        "result": view["result"],
        "errors": [],
    }
    assert service.state_at(mid, None, 4)["view"]["round"] == 1


def test_verify_detects_tampering_and_a_wrong_seed(service):
    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish_high_card(service, mid)
    exported = service.export(mid)
    bad_seed = dict(exported, seed="00" * 32)
    result = service.verify(bad_seed)
    assert not result["valid"] and "seed does not match seed_commitment" in result["errors"]
    swapped = json.loads(json.dumps(exported))
    swapped["events"][4]["data"]["card"] = 99
    result = service.verify(swapped)
    assert not result["valid"] and any("hash" in e for e in result["errors"])
    with pytest.raises(errors.InvalidLog):
        service.verify(["not a log"])


def test_verify_catches_a_forged_but_rechained_log(service):
    """A log re-hashed after swapping dealt cards still fails: decide(seed) disagrees."""
    from service.log.codec import genesis_hash
    from service.log.envelopes import rechain

    mid = service.create_match("high-card", HUMANS, {"rounds": 1})["match_id"]
    _finish_high_card(service, mid)
    exported = service.export(mid)
    events = json.loads(json.dumps(exported["events"]))
    events[2]["data"]["cards"], events[3]["data"]["cards"] = (
        events[3]["data"]["cards"],
        events[2]["data"]["cards"],
    )
    forged = dict(exported, events=rechain(events, genesis_hash(mid)))
    result = service.verify(forged)
    assert not result["valid"] and result["errors"] == ["set-up events differ from new_match(seed)"]


def test_fork_continues_from_a_prefix_with_the_same_seed(service):
    created = service.create_match("high-card", HUMANS, {"rounds": 2})
    mid = created["match_id"]
    _finish_high_card(service, mid)
    original = service.export(mid)
    forked = service.fork(mid, 9)
    fid = forked["match_id"]
    assert (
        fid != mid
        and forked["version"] == 9
        and forked["seed_commitment"] == created["seed_commitment"]
    )
    fork_log = service.log(fid)
    assert [e["data"] for e in fork_log] == [e["data"] for e in original["events"][:9]]
    view = service.match_view(fid, 0)
    assert (
        view["status"] == "running"
        and "seed" not in view
        and view["forked_from"] == {"match_id": mid, "version": 9}
    )
    assert service.authenticate(fid, forked["seats"][0]["token"]) == 0
    _finish_high_card(service, fid)
    assert service.verify(service.export(fid))["valid"] is True
    with pytest.raises(errors.ServiceError) as exc:
        service.fork(mid, 6)
    assert exc.value.code == "not_a_batch_boundary"
    with pytest.raises(errors.VersionOutOfRange):
        service.fork(mid, 2)
    with pytest.raises(errors.MatchRunning):
        service.fork(service.create_match("race", HUMANS, {})["match_id"], 1)


def test_a_fork_takes_a_version_from_the_end_of_set_up_to_before_the_last(service):
    """A fork at a finished match's last version made an already-finished copy (201), and
    one inside the set-up named 1..N as the range (session 6 and 8 probes)."""
    mid = service.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    setup = service.match_view(mid, None)["version"]
    _finish_high_card(service, mid)
    last = service.match_view(mid, None)["version"]
    for version in (last, last + 1, setup - 1, 0):
        with pytest.raises(errors.VersionOutOfRange) as caught:
            service.fork(mid, version)
        assert caught.value.status == 422
        assert caught.value.extra == {
            "current_version": last,
            "min_version": setup,
            "max_version": last - 1,
        }
        assert f"outside {setup}..{last - 1}" in caught.value.detail
    assert service.fork(mid, setup)["version"] == setup  # the lowest one is taken


def test_forked_from_outside_the_chain_must_equal_the_roster_in_it(service):
    """``POST /v1/replays`` took an export whose ``forked_from`` had wrong types as valid
    (the field is outside the hash chain): it must now equal the roster's, which is
    inside the chain and must itself name a match id and a version of the log."""
    from service.log.codec import genesis_hash
    from service.log.envelopes import rechain

    mid = service.create_match("high-card", HUMANS, {"rounds": 2})["match_id"]
    _finish_high_card(service, mid)
    fid = service.fork(mid, 9)["match_id"]
    _finish_high_card(service, fid)
    doc = service.export(fid)
    assert doc["forked_from"] == {"match_id": mid, "version": 9}
    assert service.verify(doc)["valid"] is True
    differs = "forked_from differs from the roster in the hash chain"
    for forked_from in ({"match_id": 5, "version": "x"}, {"match_id": mid, "version": 8}, None):
        edited = dict(doc, forked_from=forked_from)
        if forked_from is None:
            del edited["forked_from"]
        result = service.verify(edited)
        assert not result["valid"] and differs in result["errors"], forked_from
    plain = service.export(mid)
    result = service.verify(dict(plain, forked_from={"match_id": mid, "version": 1}))
    assert not result["valid"] and differs in result["errors"]
    # a forged roster in the chain (re-hashed) naming no match or a version past the log
    for fork, reason in (
        ({"match_id": 5, "version": "x"}, "roster: forked_from must be"),
        ({"match_id": mid, "version": 10_000}, "roster: forked_from version 10000 is outside"),
    ):
        events = json.loads(json.dumps(doc["events"]))
        events[0]["roster"]["forked_from"] = fork
        forged = dict(doc, forked_from=fork, events=rechain(events, genesis_hash(fid)))
        result = service.verify(forged)
        assert not result["valid"] and any(e.startswith(reason) for e in result["errors"]), result[
            "errors"
        ]


def test_deleting_snapshots_changes_no_answer(service):
    mid = service.create_match("race", HUMANS, {"target": 60})["match_id"]
    for _ in range(12):
        turn = service.match_view(mid, None)["view"]["turn"]
        service.act(mid, turn, {"type": "add", "amount": 1})
    assert (
        service.redis.hget(service.keys.snap(mid), "version") == "10"
    )  # 13 events, snapshot every 5
    with_snap = [
        service.match_view(mid, 0),
        service.state_at(mid, 1, 7),
        service.events(mid, 1, after=3),
    ]
    service.snapshots.delete(mid)
    service.folds.clear()  # nor the in-process fold cache: fold from the first event
    without = [
        service.match_view(mid, 0),
        service.state_at(mid, 1, 7),
        service.events(mid, 1, after=3),
    ]
    assert with_snap == without


def test_snapshot_with_another_schema_version_is_ignored(service):
    mid = service.create_match("race", HUMANS, {"target": 60})["match_id"]
    for _ in range(6):
        turn = service.match_view(mid, None)["view"]["turn"]
        service.act(mid, turn, {"type": "add", "amount": 1})
    service.redis.hset(
        service.keys.snap(mid), mapping={"schema_version": 99, "state": '{"bogus": 1}'}
    )
    service.folds.clear()  # load through the snapshot store, not the fold cache
    assert service.match_view(mid, None)["view"]["total"] == 6


def test_health_and_metrics(service):
    assert service.health() == {
        "status": "ok",
        "store": True,
        "queue": True,
        "store_state": "ok",
        "queue_state": "ok",
    }
    service.create_match("race", HUMANS, {})
    text = service.metrics()
    assert "arena_matches_created_total 1" in text and "arena_running_matches 1" in text
    assert "# TYPE arena_actions_rejected_total counter" in text


def test_rule_error_is_a_domain_error_not_a_service_error():
    assert issubclass(IllegalMove, RuleError) and not issubclass(RuleError, errors.ServiceError)
