"""Session 17 newcomer probe of players and ratings (docs/players-and-ratings.md): what a
rated match may seat, a key rotation racing another, replay counting a match twice, seat
names that pass for another seat or a player, keyset paging of a player's history, and
resignations before any decision (aborted: neither rated nor counted). In-process
fakeredis with the example game Duel and the built-in games' bot levels."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from cli.ratings import ratings as ratings_cli
from service import errors
from service.ratings.inputs import rating_input
from tests.support import exports
from tests.support.exports import new_service, play


@pytest.fixture()
def svc(monkeypatch):
    monkeypatch.setitem(exports.LEVEL, "duel", "high")
    return new_service()


def _duel(svc, a, b=None, *, rated=True, tricks=1, bot=None):
    """A Duel (not played yet) of player ``a`` against player ``b`` or a bot level."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot} if bot else {"kind": "open"}]
    mid = svc.create_match("duel", seats, {"tricks": tricks}, player_key=a["key"], rated=rated)
    if not bot:
        svc.join(mid["match_id"], 1, player_key=b["key"])
    return mid["match_id"]


# ---------------------------------------------------------------- 1. what a rated match seats
@pytest.mark.parametrize(
    "game,seats,code,seat",
    [
        # bots alone moved the calibrated bots' ratings
        (
            "duel",
            [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "high"}],
            "rated_match_without_player",
            None,
        ),
        # a budget of 1 was rated as the full-strength expert
        (
            "ai-100-human",
            [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": {"budget": 1}}],
            "rated_bot_options",
            1,
        ),
        ("ai-100-human", [{"kind": "human"}, {"kind": "bot", "bot": "idle"}], "unrated_bot_level", 1),
    ],
)  # fmt: skip
def test_a_rated_match_refuses_bots_alone_bot_options_and_the_idle_level(
    svc, game, seats, code, seat
):
    ann = svc.create_player("Ann")
    with pytest.raises(errors.RatedMatchRefused) as caught:
        svc.create_match(game, seats, {}, player_key=ann["key"], rated=True)
    assert (caught.value.status, caught.value.code) == (422, code)
    assert caught.value.extra == ({} if seat is None else {"seat": seat})
    assert svc.player_matches(ann["player_id"])["items"] == []  # nothing was created
    casual = svc.create_match(game, seats, {}, player_key=ann["key"])  # casual: fine
    assert casual["match_id"]


def test_a_log_of_such_a_match_is_not_rated_either(svc):
    """Rebuild and replay read the same rule from a log (a match rated before the rule
    counts no more once rebuilt): bots alone, bot options, the idle level."""
    mid = svc.create_match(
        "duel", [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "high"}], {"tricks": 1}
    )["match_id"]
    play(svc, mid, random.Random(1))
    events = json.loads(json.dumps(svc.log(mid)))
    events[0]["roster"]["rated"] = True
    assert rating_input({"match_id": mid, "events": events}) == "no_player"
    ann = svc.create_player("Ann")
    mid = _duel(svc, ann, bot="high", tricks=1)
    play(svc, mid, random.Random(2))
    events = json.loads(json.dumps(svc.log(mid)))
    assert rating_input({"match_id": mid, "events": events}).board == "duel:2p"
    events[0]["roster"]["seats"][1]["bot_options"] = {"budget": 1}
    assert rating_input({"match_id": mid, "events": events}) == "bot_options"
    del events[0]["roster"]["seats"][1]["bot_options"]
    events[0]["roster"]["seats"][1]["bot"] = "idle"
    assert rating_input({"match_id": mid, "events": events}) == "unrated_level"


# ---------------------------------------------------------------- 2. key rotation race
def test_of_two_rotations_racing_with_one_key_exactly_one_wins(svc, monkeypatch):
    """Both rotations pass the key check before either sets the new digest: the second
    request runs whole between the first one's check and its set. The first one's swap
    then finds the digest moved: 401 invalid_player_key, and the key the winner answered
    works (before, both answered 200 and the winner's key was dead)."""
    ann = svc.create_player("Ann")
    players = svc._players
    real = players.authenticate
    winner: list[dict] = []

    def check_then_race(key):
        owner = real(key)
        if not winner:
            winner.append({})
            winner[0] = svc.rotate_player_key(ann["player_id"], ann["key"])
        return owner

    monkeypatch.setattr(players, "authenticate", check_then_race)
    with pytest.raises(errors.InvalidPlayerKey) as caught:
        svc.rotate_player_key(ann["player_id"], ann["key"])
    assert caught.value.status == 401
    monkeypatch.setattr(players, "authenticate", real)
    assert svc.player_of_key(winner[0]["key"]) == ann["player_id"]
    with pytest.raises(errors.InvalidPlayerKey):
        svc.player_of_key(ann["key"])


# ---------------------------------------------------------------- 3. replay counts a match once
def test_replay_of_one_match_given_twice_counts_it_once_and_says_so(svc, tmp_path):
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    mid = _duel(svc, ann, bob)
    play(svc, mid, random.Random(3))
    svc.match_ended(mid)
    path = tmp_path / "m1.json"
    path.write_text(json.dumps(svc.export(mid)), encoding="utf-8")
    copy = tmp_path / "m1-copy.json"
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(ratings_cli, ["replay", str(path), str(path), str(copy)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rated"] == 1 and doc["duplicates"] == {mid: 2}
    assert f"match {mid}: given 3 times, counted once" in result.stderr
    assert all(e["matches"] == 1 for e in doc["boards"]["duel:2p"])
    live, _ = svc._ratings.live_table()
    assert {e["participant"]: (e["mu"], e["sigma"]) for e in doc["boards"]["duel:2p"]} == {
        p: (r["mu"], r["sigma"]) for p, r in live["duel:2p"].items()
    }


# ---------------------------------------------------------------- 4. seat names
def test_a_seat_name_another_seat_of_the_match_carries_is_refused(svc):
    with pytest.raises(errors.SeatNameTaken) as caught:
        svc.create_match(
            "duel", [{"kind": "human", "name": "Zed"}, {"kind": "human", "name": " zED "}], {}
        )
    assert (caught.value.status, caught.value.code, caught.value.extra) == (
        422,
        "seat_name_taken",
        {"seat": 1},
    )
    mid = svc.create_match(
        "aipokalypse",
        [{"kind": "human", "name": "Zed"}, {"kind": "open"}, {"kind": "open"}],
        {},
    )["match_id"]
    before = svc.match_view(mid, None)["version"]
    for twin in ("ZED", "Z\u0435d"):  # a Cyrillic е
        with pytest.raises(errors.SeatNameTaken):
            svc.join(mid, 1, name=twin)
    assert svc.match_view(mid, None)["version"] == before
    assert svc.join(mid, 1, name="Zoe")["seat"] == 1
    with pytest.raises(errors.SeatNameTaken):  # a joined seat's name counts too
        svc.join(mid, 2, name="zoe")


def test_racing_joins_with_one_name_take_it_once(svc, monkeypatch):
    """Two guests join two seats as ``Zed`` at once: both pass the check before either
    appended. Modelled exactly: the second join runs whole inside the first one's append;
    the first one's append conflicts, its retry sees ``Zed`` taken (422
    ``seat_name_taken``) and gives its seat's claim back."""
    mid = svc.create_match(
        "aipokalypse", [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}], {}
    )["match_id"]
    events = svc.stores.events
    real_append = events.append

    def racing_append(*args, **kwargs):
        monkeypatch.setattr(events, "append", real_append)
        svc.join(mid, 2, name="Zed")
        return real_append(*args, **kwargs)

    monkeypatch.setattr(events, "append", racing_append)
    with pytest.raises(errors.SeatNameTaken):
        svc.join(mid, 1, name="zed")
    assert svc.join(mid, 1, name="Amy")["seat"] == 1  # the claim was given back
    names = [s.get("name") for s in svc.match_view(mid, None)["seats"]]
    assert names == [None, "Amy", "Zed"]


def test_a_guest_seat_may_not_carry_a_registered_players_name(svc):
    """``ProbeAnn`` (registered, never rated) twice: a guest took her name beside her. Any
    registered player's name is now refused to a seat not bound to that player (one read
    of the name index); her own seat carries it."""
    ann = svc.create_player("ProbeAnn")
    for name in ("ProbeAnn", " probeann", "Pr\u043ebeAnn"):  # Cyrillic о
        with pytest.raises(errors.SeatNameReserved) as caught:
            svc.create_match("duel", [{"kind": "human", "name": name}, {"kind": "open"}], {})
        assert (caught.value.status, caught.value.code) == (422, "seat_name_reserved")
    mid = svc.create_match("duel", [{"kind": "human", "name": "Cy"}, {"kind": "open"}], {})
    with pytest.raises(errors.SeatNameReserved):
        svc.join(mid["match_id"], 1, name="ProbeAnn")
    bob = svc.create_player("Bob")
    with pytest.raises(errors.SeatNameReserved):  # Bob's seat named after Ann
        svc.join(mid["match_id"], 1, name="ProbeAnn", player_key=bob["key"])
    assert svc.join(mid["match_id"], 1, player_key=ann["key"])["seat"] == 1  # her own name
    assert svc.match_view(mid["match_id"], None)["seats"][1]["name"] == "ProbeAnn"


@pytest.mark.parametrize(
    "name", ["player:0123456789abcdef", "bot:x", "BOT : x", "Game:easy", "\u0440layer:x"]
)
def test_a_participants_prefix_is_no_name(svc, name):
    with pytest.raises(errors.SeatNameReserved):
        svc.create_match("duel", [{"kind": "human", "name": name}, {"kind": "human"}], {})
    with pytest.raises(errors.InvalidPlayerName) as caught:
        svc.create_player(name)
    assert caught.value.code == "player_name_reserved"
    assert svc.create_player("Botany")["name"] == "Botany"  # no prefix: fine


# ---------------------------------------------------------------- 5. history paging
def test_history_pages_by_keyset_so_a_new_match_repeats_nothing(svc, monkeypatch):
    start = datetime(2026, 12, 4, tzinfo=UTC)
    ticks = iter(range(10_000))
    monkeypatch.setattr(svc.ctx, "clock", lambda: start + timedelta(seconds=next(ticks)))
    ann = svc.create_player("Ann")
    made = [_duel(svc, ann, rated=False, bot="random") for _ in range(3)]
    first = svc.player_matches(ann["player_id"], limit=2)
    assert [i["match_id"] for i in first["items"]] == made[::-1][:2]
    newer = _duel(svc, ann, rated=False, bot="random")  # lands between the two pages
    second = svc.player_matches(ann["player_id"], limit=2, cursor=first["next_cursor"])
    assert [i["match_id"] for i in second["items"]] == [made[0]]  # offsets repeated made[1]
    assert second["next_cursor"] is None
    assert svc.player_matches(ann["player_id"], limit=1)["items"][0]["match_id"] == newer


@pytest.mark.parametrize("cursor", ["0", "2", "nope", "WzEsMl0"])  # WzEsMl0: [1,2]
def test_a_history_cursor_it_did_not_give_is_400_invalid_cursor(svc, cursor):
    ann = svc.create_player("Ann")
    with pytest.raises(errors.InvalidCursor) as caught:
        svc.player_matches(ann["player_id"], cursor=cursor)
    assert (caught.value.status, caught.value.code) == (400, "invalid_cursor")
    assert "match history" in caught.value.detail and "lobby" not in caught.value.detail


# ---------------------------------------------------------------- 6. aborted matches
def test_a_resignation_as_a_seats_first_command_aborts_the_match(svc):
    """Bob decided (played a card); Ann resigned before any decision of hers. The docs
    say a match where a seat never decided is aborted: not rated, and counted for nobody
    (it was rated and counted as Ann's loss)."""
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    mid = _duel(svc, ann, bob, tricks=3)
    svc.act(mid, 1, svc.legal_actions(mid, 1)["actions"][0])
    svc.resign(mid, 0)
    assert svc._record(mid).finished
    assert rating_input({"match_id": mid, "events": svc.log(mid)}) == "aborted"
    ended = svc.match_ended(mid)
    assert (ended["rated"], ended["counted"]) == ("aborted", 0)
    for player in (ann, bob):
        assert svc.player_profile(player["player_id"])["played"] == 0


def test_an_aborted_casual_match_counts_for_nobody_and_a_decided_one_does(svc):
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    aborted = _duel(svc, ann, bob, rated=False, tricks=3)
    svc.resign(aborted, 0)
    assert svc.match_ended(aborted)["counted"] == 0
    played = _duel(svc, ann, bob, rated=False, tricks=3)
    for seat in (0, 1):
        svc.act(played, seat, svc.legal_actions(played, seat)["actions"][0])
    svc.resign(played, 0)
    assert svc.match_ended(played)["counted"] == 2
    profile = svc.player_profile(bob["player_id"])
    assert (profile["played"], profile["won"]) == (1, 1)
