"""Issue 22 in a real Chromium: a player is created in the lobby (its key kept in the
browser), creates a rated Duel against a bot, the match is played with the player key,
the rating moves, the leaderboard lists the player linked to a profile page with the match
history and a rating curve."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.http_helpers import Http


@pytest.mark.e2e
def test_a_player_plays_a_rated_match_and_sees_the_rating_and_the_leaderboard(page, web_server):
    name = f"Web {uuid.uuid4().hex[:6]}"
    page.goto(web_server + "/#/")
    page.fill("#player-name", name)
    page.click("#create-player-button")
    page.wait_for_selector("#forget-player")
    kept = json.loads(page.evaluate("() => localStorage.getItem('arena.player')"))
    assert kept["name"] == name and kept["key"].startswith("pk.")
    page.select_option("#game", "duel")
    page.fill("#seat-count", "2")
    page.dispatch_event("#seat-count", "change")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "bot:high")
    page.fill("#opt-tricks", "1")
    page.check("#rated")
    page.click("#create-match")
    page.wait_for_selector("#open-match")
    match_id = page.get_attribute("#open-match", "href").rsplit("/", 1)[-1]

    http = Http(web_server)  # the player key acts for the player's seat
    status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions?wait=20", kept["key"])
    assert status == 200 and legal["actions"], legal
    status, _, moved = http.post(
        f"/v1/matches/{match_id}/actions", legal["actions"][0], kept["key"]
    )
    assert status == 200, moved

    link = f"#leaderboard a[href='#/player/{kept['player_id']}']"
    page.goto(web_server + "/#/leaderboard/duel/2p")
    for _ in range(120):  # the end-of-match job runs on the worker thread
        page.wait_for_selector("#leaderboard, #leaderboard-empty")
        if page.locator(link).count():
            break
        page.wait_for_timeout(500)
        page.reload()
    assert page.inner_text(link) == name
    assert page.locator("#leaderboard tr.bot").count() >= 1  # the bot level is rated too
    page.click(link)
    page.wait_for_selector("#player-ratings .rating svg.rating-curve circle")
    assert page.locator("#player-ratings .rating svg.rating-curve circle").count() == 1
    assert page.inner_text("h1") == name
    assert page.locator(f"#player-history li[data-match='{match_id}']").count() == 1
    assert "rated" in page.inner_text(f"#player-history li[data-match='{match_id}']")
    page.console_guard.check()
