"""Lobby, unlisted/spectators, resign, abandonment, rematch and the verifiable roster at
the service level (the installed games on a private fakeredis, no worker: bot turns run
through :func:`tests.support.runtime.drain` where needed)."""

from __future__ import annotations

import base64
import copy
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

from domain.games import registry
from service import errors
from service.log.codec import genesis_hash
from service.log.envelopes import rechain
from service.match_service import MatchService
from service.store.keys import Keys

GAME = "ai-100-human"


class Clock:
    """A controlled clock (abandonment is measured on it; no sleeps)."""

    def __init__(self):
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def svc(key_prefix, clock):
    server = fakeredis.FakeServer()
    return MatchService(
        fakeredis.FakeRedis(server=server, decode_responses=True),
        Keys(key_prefix),
        None,
        registry(),
        blocking_reads=False,
        clock=clock,
        index_shards=4,
        abandon_after_s=3600,
    )


def humans(n, **extra):
    return [{"kind": "human", "name": f"p{i}", **extra} for i in range(n)]


def token(created, seat):
    return next(s["token"] for s in created["seats"] if s["seat"] == seat)


# ---------------------------------------------------------------- lobby
def test_lobby_lists_newest_first_with_filters_and_a_cursor_over_every_shard(svc, clock):
    made = []
    for i in range(7):
        clock.now += timedelta(seconds=1)
        seats = [{"kind": "human"}, {"kind": "open"}] if i % 2 else humans(2)
        made.append(svc.create_match(GAME, seats)["match_id"])
    clock.now += timedelta(seconds=1)
    hidden = svc.create_match(GAME, humans(2), unlisted=True)["match_id"]
    page = svc.list_matches(limit=3)
    ids = [i["match_id"] for i in page["items"]]
    assert ids == made[::-1][:3] and page["next_cursor"]
    rest = svc.list_matches(limit=10, cursor=page["next_cursor"])
    assert ids + [i["match_id"] for i in rest["items"]] == made[::-1]
    assert rest["next_cursor"] is None and hidden not in ids
    opened = svc.list_matches(status="open")["items"]
    assert [i["match_id"] for i in opened] == [m for k, m in enumerate(made) if k % 2][::-1]
    assert all(i["open_seats"] == [1] for i in opened)
    assert [i["match_id"] for i in svc.list_matches(open_seat=True)["items"]] == [
        i["match_id"] for i in opened
    ]
    running = svc.list_matches(status="running")["items"]
    assert {i["match_id"] for i in running} == {m for k, m in enumerate(made) if k % 2 == 0}
    assert svc.list_matches(game="aipokalypse")["items"] == []


def test_a_lobby_item_holds_only_public_facts_and_moves_with_joins_and_the_end(svc):
    mid = svc.create_match(GAME, [{"kind": "human", "name": "ann"}, {"kind": "open"}])["match_id"]
    item = svc.list_matches()["items"][0]
    assert set(item) == {
        "match_id",
        "game",
        "status",
        "seats",
        "open_seats",
        "version",
        "created_at",
        "spectators",
    }
    assert item["status"] == "open" and item["seats"][0] == {
        "seat": 0,
        "kind": "human",
        "name": "ann",
    }
    joined = svc.join(mid, 1, "bob")
    assert svc.list_matches(status="open")["items"] == []
    assert svc.list_matches(status="running")["items"][0]["seats"][1]["name"] == "bob"
    svc.resign(mid, 0)
    done = svc.list_matches(status="finished")["items"][0]
    assert done["status"] == "finished" and done["result"]["winners"] == [1]
    assert done["finished_at"] and joined["version"] < done["version"]


@pytest.mark.parametrize(
    "raw", [None, b'["x","y"]', b'[1e999,"a"]', b'[-1e999,"a"]', b'[NaN,"a"]', b"[1,2]"]
)
def test_a_cursor_the_lobby_did_not_give_is_a_400(svc, raw):
    """Not base64 JSON, or a position no match has (newcomer probe: ``[1e999, "a"]``
    parsed as infinity and answered a page)."""
    cursor = "not-a-cursor!" if raw is None else base64.urlsafe_b64encode(raw).decode()
    with pytest.raises(errors.InvalidCursor):
        svc.list_matches(cursor=cursor.rstrip("="))


# ---------------------------------------------------------------- spectators
def test_spectators_false_makes_tokenless_reads_403_while_running_and_public_after(svc):
    created = svc.create_match(GAME, humans(2), spectators=False)
    mid = created["match_id"]
    for read in (
        lambda: svc.match_view(mid, None),
        lambda: svc.events(mid, None),
        lambda: svc.state_at(mid, None, 1),
    ):
        with pytest.raises(errors.SpectatorsDisabled):
            read()
    assert svc.match_view(mid, 0)["spectators"] is False
    assert svc.events(mid, 1)["events"]
    svc.resign(mid, 0)
    assert svc.match_view(mid, None)["status"] == "finished"
    assert svc.events(mid, None)["events"] and svc.export(mid)["events"]


# ---------------------------------------------------------------- resign
def test_a_resigned_seat_cannot_act_nor_resign_again_and_a_finished_match_refuses(svc):
    mid = svc.create_match(GAME, humans(3))["match_id"]
    legal = svc.legal_actions(mid, 0)["actions"]
    assert legal
    answer = svc.resign(mid, 0)
    assert [e["type"] for e in answer["events"]] == ["SeatResigned"]
    assert answer["events"][0]["cause"] == "player"
    view = svc.match_view(mid, 1)
    assert view["resigned"] == [0] and view["status"] == "running"
    assert svc.legal_actions(mid, 0) == {
        "game": view["game"],
        "version": view["version"],
        "status": "running",
        "actions": [],
        "decision_id": None,
    }
    # the Prefer: return=representation answer and the SSE seat_state say the same
    assert svc.representation(mid, 0)["legal_actions"] == svc.legal_actions(mid, 0)
    last = svc.events(mid, 0, views=True)["events"][-1]
    assert last["seat_state"]["legal_actions"] == svc.legal_actions(mid, 0)
    with pytest.raises(errors.SeatResigned):
        svc.act(mid, 0, legal[0])
    with pytest.raises(errors.SeatResigned):
        svc.resign(mid, 0)
    svc.resign(mid, 1)
    assert svc.match_view(mid, None)["result"]["winners"] == [2]
    with pytest.raises(Exception) as finished:
        svc.resign(mid, 2)
    assert getattr(finished.value, "code", None) == "match_finished"


# ---------------------------------------------------------------- abandonment
def test_a_match_no_human_acted_in_for_abandon_after_s_ends_abandoned(svc, clock):
    mid = svc.create_match(GAME, humans(2))["match_id"]
    fresh = svc.create_match(GAME, humans(2))["match_id"]
    clock.now += timedelta(seconds=3000)
    svc.act(fresh, 0, svc.legal_actions(fresh, 0)["actions"][0])  # a human acts in one
    clock.now += timedelta(seconds=601)
    assert svc.reconcile(full=True)["abandoned"] == 1
    view = svc.match_view(mid, None)
    assert view["status"] == "abandoned"
    assert view["result"]["outcome"] == "abandoned" and view["result"]["winners"] == []
    last = svc.events(mid, None)["events"][-1]
    assert last["type"] == "MatchEnded" and last["cause"] == "abandon" and last["actor"] is None
    assert svc.match_view(fresh, None)["status"] == "running"
    assert svc.verify(svc.export(mid))["valid"] is True
    assert svc.list_matches(status="finished")["items"][0]["status"] == "abandoned"


# ---------------------------------------------------------------- rematch
def test_rematch_same_roster_fresh_seed_one_token_per_seat(svc):
    created = svc.create_match(
        GAME,
        [
            {"kind": "human", "name": "ann"},
            {"kind": "bot", "bot": "expert", "bot_options": {"budget": 8}},
            {"kind": "open"},
            {"kind": "human", "name": "cy"},
        ],
        {"objectives": "starter"},
        turn_timeout_s=30,
    )
    mid = created["match_id"]
    with pytest.raises(errors.MatchRunning):
        svc.rematch(mid, 0)
    svc.join(mid, 2, "bob")
    for seat in (0, 2):
        svc.resign(mid, seat)
    svc.resign(mid, 3)
    original = svc.match_view(mid, None)
    assert original["status"] == "finished"
    first = svc.rematch(mid, 0)
    assert first["created"] is True and first["match_id"] != mid
    again = svc.rematch(mid, 3)
    assert again["match_id"] == first["match_id"] and again["created"] is False
    assert first["token"] != again["token"]
    with pytest.raises(errors.RematchSeatClaimed):
        svc.rematch(mid, 0)
    with pytest.raises(errors.NotASeatOfTheMatch):
        svc.rematch(mid, 1)
    joined = svc.rematch(mid, 2)
    new = svc.match_view(first["match_id"], None)
    assert new["seed_commitment"] != original["seed_commitment"]
    assert new["turn_timeout_s"] == 30
    assert new["seats"] == [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "expert", "bot_options": {"budget": 8}},
        {"seat": 2, "kind": "human", "name": "bob"},
        {"seat": 3, "kind": "human", "name": "cy"},
    ]
    assert svc.authenticate(first["match_id"], joined["token"]) == 2
    assert svc.authenticate(first["match_id"], again["token"]) == 3
    assert svc.match_view(mid, None)["rematch"] == first["match_id"]


def test_the_call_that_stores_a_rematch_named_by_another_request_is_its_creator(svc):
    """Race of two seats' rematch calls: request A names the rematch id (HSETNX) and is
    slow; request B reads A's name, finds no match stored and stores it. B made the match:
    B answers ``created`` (201 over HTTP) and A, storing too late, ``created: False``
    (200). Exactly one of the two calls is the creator (found flaky over HTTP: both 200)."""
    mid = svc.create_match(GAME, humans(2))["match_id"]
    svc.resign(mid, 0)  # the other seat wins: finished
    svc.store.claim_meta_field(mid, "rematch", "named0by0request0a")  # A named it, stalled
    b = svc.rematch(mid, 1)
    assert b["match_id"] == "named0by0request0a" and b["created"] is True
    a = svc.rematch(mid, 0)
    assert a["match_id"] == b["match_id"] and a["created"] is False


# ---------------------------------------------------------------- verifiable roster
@pytest.fixture
def finished_log(svc):
    mid = svc.create_match(
        GAME,
        [{"kind": "human", "name": "ann"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}],
        turn_timeout_s=60,
    )["match_id"]
    svc.join(mid, 1, "bob")
    svc.resign(mid, 0)
    svc.resign(mid, 1)
    log = svc.export(mid)
    assert svc.verify(log)["valid"] is True, svc.verify(log)
    return log


def _rechained(log):
    log["events"] = rechain(log["events"], genesis_hash(log["match_id"]))
    return log


EDITS = {
    "human seat made an expert bot": lambda d: d["seats"][0].update(kind="bot", bot="expert"),
    "bot level changed": lambda d: d["seats"][2].update(bot="expert"),
    "seat renamed": lambda d: d["seats"][0].update(name="mallory"),
    "joined seat renamed": lambda d: d["seats"][1].update(name="eve"),
    "bot options added": lambda d: d["seats"][2].update(bot_options={"budget": 4}),
    "game options edited": lambda d: d["options"].update(objectives="advanced"),
    "turn timeout edited": lambda d: d.update(turn_timeout_s=5.0),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_editing_the_roster_of_an_export_fails_verification(svc, finished_log, edit):
    log = copy.deepcopy(finished_log)
    EDITS[edit](log)
    report = svc.verify(log)
    assert report["valid"] is False and any("roster" in e for e in report["errors"]), report


def test_editing_the_roster_inside_the_chain_breaks_the_chain_or_the_rules_version(
    svc, finished_log
):
    log = copy.deepcopy(finished_log)
    log["events"][0]["roster"]["seats"][2]["bot"] = "expert"
    assert svc.verify(log)["valid"] is False
    log = copy.deepcopy(finished_log)
    log["events"][0]["roster"]["rules_version"] = "0"
    report = svc.verify(_rechained(log))
    assert report["valid"] is False and any("rules version" in e for e in report["errors"])


def test_a_rechained_log_whose_seat_kind_and_causes_disagree_fails(svc, finished_log):
    """Both copies of the roster edited (human seat 0 made a bot) and the chain recomputed:
    seat 0's own command (cause player) no longer fits its kind; a player command relabelled
    as a bot's does not fit a human seat."""
    log = copy.deepcopy(finished_log)
    for item in (log["seats"][0], log["events"][0]["roster"]["seats"][0]):
        item.update(kind="bot", bot="greedy")
    report = svc.verify(_rechained(log))
    assert report["valid"] is False and any("cause 'player'" in e for e in report["errors"])
    log = copy.deepcopy(finished_log)
    next(e for e in log["events"] if e.get("actor") == 0)["cause"] = "bot"
    report = svc.verify(_rechained(log))
    assert report["valid"] is False and any("cause 'bot'" in e for e in report["errors"])
    log = copy.deepcopy(finished_log)
    join = next(e for e in log["events"] if e["cause"] == "join")
    log["events"].remove(join)
    assert svc.verify(log)["valid"] is False


def test_a_fork_carries_its_own_roster_and_verifies(svc, finished_log):
    mid = finished_log["match_id"]
    join_version = next(e["version"] for e in finished_log["events"] if e["cause"] == "join")
    fork = svc.fork(mid, join_version)
    first = svc.events(fork["match_id"], None)["events"][0]
    assert first["roster"]["forked_from"] == {"match_id": mid, "version": join_version}
    assert svc.join(fork["match_id"], 1)["version"] == join_version + 1
    svc.resign(fork["match_id"], 0)
    svc.resign(fork["match_id"], 1)
    report = svc.verify(svc.export(fork["match_id"]))
    assert report["valid"] is True, report


def test_a_fork_keeps_the_seat_names_it_had_at_its_version(svc, finished_log):
    """The names given at creation stay; an open seat claimed within the copied part keeps
    its joiner's name (and is open again); a claim after the fork's version gives none."""
    mid = finished_log["match_id"]
    join_version = next(e["version"] for e in finished_log["events"] if e["cause"] == "join")
    after = svc.fork(mid, join_version)
    names = {s["seat"]: s.get("name") for s in after["seats"]}
    assert names == {0: "ann", 1: "bob", 2: None}
    view = svc.match_view(after["match_id"], None)
    assert [s.get("name") for s in view["seats"]] == ["ann", "bob", None]
    assert [s["kind"] for s in view["seats"]] == ["human", "open", "bot"]
    before = svc.fork(mid, join_version - 1)
    assert [s.get("name") for s in before["seats"]] == ["ann", None, None]
    svc.join(after["match_id"], 1, "cy")  # a new claim names the seat anew
    assert [s.get("name") for s in svc.match_view(after["match_id"], None)["seats"]] == [
        "ann",
        "cy",
        None,
    ]
    svc.resign(after["match_id"], 0)
    svc.resign(after["match_id"], 1)
    exported = svc.export(after["match_id"])
    assert [s.get("name") for s in exported["seats"]] == ["ann", "cy", None]
    assert svc.verify(exported)["valid"] is True
    given = svc.fork(
        mid, join_version, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}]
    )
    assert [s.get("name") for s in given["seats"]] == [None, None, None]  # as given
