"""Session 18 newcomer probe of players and ratings (docs/players-and-ratings.md): an
aborted match in a player's history, a history cursor of another player, a rated bot seat
with ``bot_options: {}``, and the seat names a rematch (or a fork's default seats) copies.
In-process fakeredis with the example game Duel and the built-in games' bot levels."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from service import errors
from service.ratings.inputs import RatingInput, rating_input
from service.usecases.lobby import encode_cursor
from tests.support import exports
from tests.support.exports import new_service, play


@pytest.fixture()
def svc(monkeypatch):
    monkeypatch.setitem(exports.LEVEL, "duel", "high")
    return new_service()


def _duel(svc, a, b=None, *, rated=True, tricks=3, bot=None):
    """A Duel (not played yet) of player ``a`` against player ``b`` or a bot level."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot} if bot else {"kind": "open"}]
    mid = svc.create_match("duel", seats, {"tricks": tricks}, player_key=a["key"], rated=rated)
    if not bot:
        svc.join(mid["match_id"], 1, player_key=b["key"])
    return mid["match_id"]


def _entry(svc, player, match_id, **filters):
    items = svc.player_matches(player["player_id"], **filters)["items"]
    found = [i for i in items if i["match_id"] == match_id]
    return found[0] if found else None


# ---------------------------------------------------------------- 1. aborted in the history
def test_an_aborted_rated_match_says_in_the_history_it_was_aborted_and_not_rated(svc, monkeypatch):
    """Bob played a card, Ann resigned before any decision of hers: the match is aborted
    (counted for nobody, not rated), but both histories listed it ``rated: true``."""
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    mid = _duel(svc, ann, bob)
    running = _entry(svc, ann, mid)
    assert (running["status"], running["rated"], running["aborted"]) == ("running", True, None)
    svc.act(mid, 1, svc.legal_actions(mid, 1)["actions"][0])
    svc.resign(mid, 0)
    for job_ran in (False, True):  # from the log before the end job, from its counters after
        if job_ran:
            assert svc.match_ended(mid)["rated"] == "aborted"
        for player in (ann, bob):
            item = _entry(svc, player, mid)
            assert (item["status"], item["rated"], item["aborted"]) == ("finished", False, True)
            assert _entry(svc, player, mid, rated=True) is None
            assert _entry(svc, player, mid, rated=False)["match_id"] == mid
    assert svc.player_profile(ann["player_id"])["played"] == 0


def test_a_decided_rated_match_stays_rated_and_needs_no_log_read_once_its_job_ran(svc, monkeypatch):
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    mid = _duel(svc, ann, bob)
    for seat in (0, 1):
        svc.act(mid, seat, svc.legal_actions(mid, seat)["actions"][0])
    svc.resign(mid, 0)
    item = _entry(svc, ann, mid)
    assert (item["rated"], item["aborted"], item["won"]) == (True, False, False)
    ended = svc.match_ended(mid)
    assert (ended["rated"], ended["counted"]) == (True, 2)

    def no_log(*args, **kwargs):
        raise AssertionError("the end job's counters and filed input say it")

    monkeypatch.setattr(svc.ctx, "envelopes", no_log)
    for player, won in ((ann, False), (bob, True)):
        item = _entry(svc, player, mid, rated=True)
        assert (item["rated"], item["aborted"], item["won"]) == (True, False, won)


# ---------------------------------------------------------------- 2. a cursor of another player
def _three_each(svc, monkeypatch):
    start = datetime(2026, 12, 5, tzinfo=UTC)
    ticks = iter(range(10_000))
    monkeypatch.setattr(svc.ctx, "clock", lambda: start + timedelta(seconds=next(ticks)))
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    for player in (ann, bob):
        for _ in range(3):
            _duel(svc, player, rated=False, bot="random")
    return ann, bob


def test_a_history_cursor_of_another_players_history_is_400_invalid_cursor(svc, monkeypatch):
    ann, bob = _three_each(svc, monkeypatch)
    anns = svc.player_matches(ann["player_id"], limit=2)
    bobs = svc.player_matches(bob["player_id"], limit=2)
    with pytest.raises(errors.InvalidCursor) as caught:
        svc.player_matches(bob["player_id"], limit=2, cursor=anns["next_cursor"])
    assert (caught.value.status, caught.value.code) == (400, "invalid_cursor")
    assert "match history" in caught.value.detail
    assert svc.player_matches(bob["player_id"], limit=2) == bobs  # nothing changed
    for player, page in ((ann, anns), (bob, bobs)):  # each one's own cursor pages on
        rest = svc.player_matches(player["player_id"], limit=2, cursor=page["next_cursor"])
        assert len(rest["items"]) == 1 and rest["next_cursor"] is None


def test_a_cursor_naming_no_player_is_taken_only_at_the_players_own_entry(svc, monkeypatch):
    """A cursor handed out before cursors named their player (``[created_at, match_id]``,
    as the lobby's) still pages its own history; at another player's entry it is 400."""
    ann, bob = _three_each(svc, monkeypatch)
    score = svc._players.store.filed_at
    first = svc.player_matches(ann["player_id"], limit=1)["items"][0]["match_id"]
    old = encode_cursor((score(ann["player_id"], first), first))
    page = svc.player_matches(ann["player_id"], limit=5, cursor=old)
    assert len(page["items"]) == 2 and first not in [i["match_id"] for i in page["items"]]
    with pytest.raises(errors.InvalidCursor):
        svc.player_matches(bob["player_id"], cursor=old)
    with pytest.raises(errors.InvalidCursor):  # the right match at another time: no entry
        svc.player_matches(ann["player_id"], cursor=encode_cursor((1.0, first)))
    with pytest.raises(errors.InvalidCursor):  # and the lobby takes no history cursor
        svc.list_matches(cursor=svc.player_matches(ann["player_id"], limit=1)["next_cursor"])


# ---------------------------------------------------------------- 3. bot_options {} when rated
def test_a_rated_bot_seat_with_empty_bot_options_is_the_level_at_its_defaults(svc):
    """The docs said to leave ``bot_options`` out; ``{}`` is the default options, so it is
    taken as left out everywhere: the roster in the hash chain holds no options, and the
    log check of the end job, ``rebuild`` and ``replay`` (:func:`rating_input`) rates such a
    seat even when a roster carries ``{}``. A budget is 422 ``rated_bot_options``."""
    ann = svc.create_player("Ann")
    rosters = []
    for bot in (
        {"kind": "bot", "bot": "expert"},
        {"kind": "bot", "bot": "expert", "bot_options": {}},
    ):
        mid = svc.create_match(
            "ai-100-human", [{"kind": "human"}, bot], {}, player_key=ann["key"], rated=True
        )["match_id"]
        assert svc.match_view(mid, None)["seats"][1] == {"seat": 1, "kind": "bot", "bot": "expert"}
        rosters.append(svc.log(mid)[0]["roster"]["seats"][1])
    assert rosters[0] == rosters[1] and "bot_options" not in rosters[0]
    with pytest.raises(errors.RatedMatchRefused) as caught:
        svc.create_match(
            "ai-100-human",
            [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": {"budget": 1}}],
            {},
            player_key=ann["key"],
            rated=True,
        )
    assert (caught.value.status, caught.value.code, caught.value.extra) == (
        422,
        "rated_bot_options",
        {"seat": 1},
    )
    mid = _duel(svc, ann, bot="high", tricks=1)
    play(svc, mid, random.Random(4))
    events = json.loads(json.dumps(svc.log(mid)))
    events[0]["roster"]["seats"][1]["bot_options"] = {}
    assert isinstance(rating_input({"match_id": mid, "events": events}), RatingInput)


# ---------------------------------------------------------------- 4. names a rematch copies
def _names(answer):
    return [s.get("name") for s in answer["seats"]]


def test_a_rematch_leaves_out_a_copied_name_create_and_join_refuse(svc, monkeypatch):
    """A match stored before the name rules (modelled by creating it with the checks off)
    seats ``Zed`` twice and a participant's id; ``Dora`` registered as a player since. Its
    rematch copied the names unchecked: two ``Zed``, ``bot:x``, ``Dora`` on guest seats."""
    monkeypatch.setattr(svc._create_join, "check_names", lambda *a, **k: None)
    twice = svc.create_match(
        "duel", [{"kind": "human", "name": "Zed"}, {"kind": "human", "name": " zED"}], {}
    )["match_id"]
    prefixed = svc.create_match(
        "duel", [{"kind": "human", "name": "bot:x"}, {"kind": "human", "name": "Dora"}], {}
    )["match_id"]
    monkeypatch.undo()
    svc.create_player("Dora")
    for mid in (twice, prefixed):
        svc.resign(mid, 0)
    assert _names(svc.rematch(twice, 1)) == ["Zed", None]
    assert _names(svc.rematch(prefixed, 0)) == [None, None]


def test_a_rematch_seat_claimed_by_token_takes_no_players_name(svc):
    """Ann (a player) created, Bob joined with his key (his seat named ``Bob``). The
    rematch binds nobody, so neither name may sit on its guest seats: Bob's seat, claimed
    with his old seat's token, joined the rematch as ``Bob`` and Ann's was ``Ann``."""
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    mid = _duel(svc, ann, bob, rated=False)
    assert _names(svc.match_view(mid, None)) == ["Ann", "Bob"]
    svc.resign(mid, 0)
    first = svc.rematch(mid, 1)  # Bob's seat: creates the rematch and joins its open seat
    assert first["created"] and _names(first) == [None, None]
    assert [s.get("player") for s in first["seats"]] == [None, None]
    again = svc.rematch(mid, 0)
    assert _names(svc.match_view(again["match_id"], None)) == [None, None]
    guest = svc.create_match("duel", [{"kind": "human"}, {"kind": "open"}], {})["match_id"]
    svc.join(guest, 1, name="Cleo")
    svc.resign(guest, 0)
    assert _names(svc.rematch(guest, 1)) == [None, "Cleo"]  # a guest's own name stays


def test_a_rematch_join_whose_name_another_join_took_meanwhile_joins_unnamed(svc, monkeypatch):
    """Both seats of the original were open and joined (``Kim``, ``Lee``). Between Lee's
    rematch claim checking ``Lee`` and appending its join, a stranger joins the rematch's
    other open seat as ``lee``: the claim joins unnamed instead of failing 422."""
    mid = svc.create_match("duel", [{"kind": "open"}, {"kind": "open"}], {})["match_id"]
    svc.join(mid, 0, name="Kim")
    svc.join(mid, 1, name="Lee")
    svc.resign(mid, 0)
    create_join = svc._create_join
    real = create_join.claim_and_join

    def stranger_first(rematch_id, seat, name, *args, **kwargs):
        monkeypatch.setattr(create_join, "claim_and_join", real)
        svc.join(rematch_id, 0, name="lee")
        return real(rematch_id, seat, name, *args, **kwargs)

    monkeypatch.setattr(create_join, "claim_and_join", stranger_first)
    answer = svc.rematch(mid, 1)
    assert answer["seat"] == 1 and _names(svc.match_view(answer["match_id"], None)) == ["lee", None]
    with pytest.raises(errors.RematchSeatClaimed):  # the stranger holds Kim's seat
        svc.rematch(mid, 0)


def test_a_fork_with_its_default_seats_leaves_a_players_name_out(svc):
    """Anyone may fork a finished match; its default seats are guests with new tokens, so
    the forker sat as ``Ann`` beside nobody's check."""
    ann = svc.create_player("Ann")
    mid = _duel(svc, ann, bot="high", rated=False, tricks=1)
    play(svc, mid, random.Random(5))
    setup = sum(1 for e in svc.log(mid) if e["cause"] == "setup")
    fork = svc.fork(mid, setup)
    assert [s.get("name") for s in fork["seats"]] == [None, None]
    assert "token" in fork["seats"][0] and "player" not in fork["seats"][0]
