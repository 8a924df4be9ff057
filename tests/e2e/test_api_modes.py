"""AI: 100% Human's 2-player mode (human vs bot) and solo mode over HTTP, played to the
end: the mode follows the seat count, the views show the neutral grid / the solo draft
grid and rating, the discard step is an ordinary command, and both exports verify on
POST /v1/replays."""

from __future__ import annotations

import random

import pytest

from domain.games.ai_100_human.spec import rating
from tests.e2e.http_helpers import open_table, play_until_finished, verified_export


@pytest.fixture(scope="module")
def duo(app, embedded_service):
    """``(http, match_id, tokens, final view)`` of a 2-player match: a human vs greedy."""
    http, created, tokens = open_table(
        app,
        embedded_service,
        [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}],
        options={"objectives": "starter"},
    )
    status, _, first = http.get(f"/v1/matches/{created['match_id']}", tokens[0])
    assert status == 200 and first["view"]["mode"] == "duo"
    assert len(first["view"]["neutral_grid"]) == 6
    view = play_until_finished(http, created["match_id"], tokens, random.Random(3))
    return http, created["match_id"], tokens, view


@pytest.fixture(scope="module")
def solo(app, embedded_service):
    """``(http, match_id, tokens, final view)`` of a solo match played by a human."""
    http, created, tokens = open_table(app, embedded_service, [{"kind": "human", "name": "Solo"}])
    status, _, first = http.get(f"/v1/matches/{created['match_id']}", tokens[0])
    assert status == 200 and first["view"]["mode"] == "solo"
    assert len(first["view"]["solo"]["draft_grid"]) == 9
    assert first["view"]["solo"]["timer_count"] == 18
    view = play_until_finished(http, created["match_id"], tokens, random.Random(4))
    return http, created["match_id"], tokens, view


def test_the_game_accepts_one_to_six_seats_and_lists_the_discard_command(http):
    status, _, game = http.get("/v1/games/ai-100-human")
    assert status == 200 and (game["min_seats"], game["max_seats"]) == (1, 6)
    assert game["commands"]["discard"]["required"] == ["type", "card"]


def test_duo_match_finishes_and_its_export_verifies(duo):
    http, match_id, _, view = duo
    assert view["status"] == "finished"
    result = view["result"]
    assert sorted(r["seat"] for r in result["ranking"]) == [0, 1] and "rating" not in result
    assert len(view["view"]["neutral_grid"]) == 12
    log, report = verified_export(http, match_id)
    assert sum(1 for e in log["events"] if e["type"] == "CardDiscarded") == 24
    assert report["result"] == result


def test_duo_discards_stay_hidden_from_the_bot_and_spectators(duo):
    http, match_id, tokens, _ = duo
    status, _, page = http.get(f"/v1/matches/{match_id}/events?limit=500")
    assert status == 200
    discards = [e for e in page["events"] if e["type"] == "CardDiscarded"]
    assert discards and all(set(e["data"]) == {"forced"} for e in discards)
    status, _, own = http.get(f"/v1/matches/{match_id}/events?limit=500", tokens[0])
    mine = [e for e in own["events"] if e["type"] == "CardDiscarded" and e["seat"] == 0]
    theirs = [e for e in own["events"] if e["type"] == "CardDiscarded" and e["seat"] == 1]
    assert mine and all("card" in e["data"] for e in mine)
    assert theirs and all("card" not in e["data"] for e in theirs)


def test_solo_match_finishes_with_its_rating_and_its_export_verifies(solo):
    http, match_id, _, view = solo
    assert view["status"] == "finished"
    result = view["result"]
    assert result["rating"] == rating(result["scores"][0])
    assert view["view"]["solo"]["rating"] == result["rating"]
    assert result["winners"] == ([] if result["rating"] == "Failure" else [0])
    log, report = verified_export(http, match_id)
    assert sum(1 for e in log["events"] if e["type"] == "GridCardTaken") == 14
    assert report["result"] == result
