"""``Reads.events(..., views=True)`` (the SSE stream's ``seat_state``): each one is the seat's
view on the fold right after its own event, not a later one.

A.I.Pokalypse's seat view hands out pieces of the fold (a seat's ``current`` battle card)
that the fold of the page's later events changed in place before the page was sent: about
one ``seat_state`` in eight showed the battle cards of a later placement (probe finding)."""

from __future__ import annotations

import random

import fakeredis
import pytest

from domain.games import registry
from service.match_service import MatchService
from service.store.keys import Keys
from tests.support.game_settings import games, settings

#: (game, seats, options): each game's first view set-up (its own ``testing.py``)
SETUPS = [(game, *settings(game).view_setups[0]) for game in games()]


@pytest.fixture
def svc(key_prefix):
    return MatchService(
        fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True),
        Keys(key_prefix),
        None,
        registry(),
        blocking_reads=False,
    )


def _play_to_the_end(svc, mid: str, seats: int, rng: random.Random) -> None:
    for _ in range(3000):
        if svc.match_view(mid, None)["status"] == "finished":
            return
        for seat in range(seats):
            actions = svc.legal_actions(mid, seat)["actions"]
            if actions:
                svc.act(mid, seat, rng.choice(actions))
                break
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize("game,seats,options", SETUPS, ids=[s[0] for s in SETUPS])
def test_every_seat_state_is_the_view_right_after_its_event(svc, game, seats, options):
    mid = svc.create_match(game, [{"kind": "human"} for _ in range(seats)], options=options)[
        "match_id"
    ]
    _play_to_the_end(svc, mid, seats, random.Random(3))
    for viewer in range(seats):
        page = svc.events(mid, viewer, after=0, limit=1000, views=True)
        states = [e for e in page["events"] if "seat_state" in e]
        assert len(states) > 10
        for event in states:
            expected = svc.state_at(mid, viewer, event["version"])["view"]
            assert event["seat_state"]["view"] == expected, (viewer, event["version"])


def test_a_long_poll_past_the_end_of_a_finished_match_answers_at_once(svc, monkeypatch):
    """No event can follow ``MatchEnded``: ``events(after=last, wait_s=30)`` must not block
    (it waited the whole 30 s before, holding a server thread)."""
    mid = svc.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}])["match_id"]
    svc.resign(mid, 1)
    last = svc.match_view(mid, None)["version"]
    assert svc.match_view(mid, None)["status"] == "finished"

    def no_wait(*args, **kwargs):
        raise AssertionError("waited on a finished match")

    monkeypatch.setattr(svc.ctx.stores.events, "wait_after", no_wait)
    assert svc.events(mid, 0, after=last, wait_s=30) == {
        "game": svc.match_view(mid, None)["game"],
        "version": last,
        "events": [],
    }


@pytest.mark.parametrize("views", [False, True])
def test_a_page_holds_no_event_past_the_version_it_reports(svc, monkeypatch, views):
    """An event appended between reading the match record and reading the stream (a bot's
    move in a worker) waits for the next page: the page's events end at its ``version``
    (they reached past it, so a client holding "version 2" saw event 3's cards)."""
    mid = svc.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}])["match_id"]
    stale = svc.ctx.record(mid)
    seat = next(s for s in range(2) if svc.legal_actions(mid, s)["actions"])
    svc.act(mid, seat, svc.legal_actions(mid, seat)["actions"][0])
    assert svc.ctx.record(mid).version > stale.version
    monkeypatch.setattr(svc.ctx, "record", lambda match_id: stale)
    page = svc.events(mid, 0, after=0, views=views)
    assert page["version"] == stale.version
    assert [e["version"] for e in page["events"]] == list(range(1, stale.version + 1))
