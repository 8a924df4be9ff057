"""Session 18 newcomer probe of players and ratings (docs/players-and-ratings.md): an
aborted match in a player's history, a history cursor of another player, a rated bot seat
with ``bot_options: {}``, and the seat names a rematch (or a fork's default seats) copies.
In-process fakeredis with the example game Duel and the built-in games' bot levels."""

from __future__ import annotations

import json
import random

import pytest

from service import errors
from service.ratings.inputs import RatingInput, rating_input
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
