"""Issue 22 in a real Chromium: a player is created in the lobby (its key kept in the
browser), creates a rated Duel against a bot, the match is played with the player key,
the rating moves, the leaderboard lists the player linked to a profile page with the match
history and a rating curve; and two people, each with a player made in a browser of their
own, play a rated match to its end by clicking on the board and both see their ratings
move and both names on the leaderboard."""

from __future__ import annotations

import json
import random
import re
import uuid

import pytest

from tests.e2e.browser.conftest import TIMEOUT_MS, ConsoleGuard
from tests.e2e.browser.helpers import SETTLED, Api, make_move
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

    # a rated match the player resigns before deciding anything is aborted: it says so
    status, _, created = http.post(
        "/v1/matches",
        {
            "game": "duel",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "high"}],
            "options": {"tricks": 1},
            "rated": True,
        },
        kept["key"],
    )
    assert status == 201, created
    gone = created["match_id"]
    status, _, resigned = http.post(f"/v1/matches/{gone}/resign", None, kept["key"])
    assert status == 200, resigned
    page.reload()
    item = f"#player-history li[data-match='{gone}']"
    page.wait_for_selector(item)
    words = page.inner_text(item)
    assert "aborted" in words and "rated" not in words, words
    assert not page.is_visible("#more-history")  # two entries: no more page to ask for
    page.console_guard.check()


def _player(page, base: str, name: str) -> dict:
    """Create a player in the lobby of ``page``; its ``{"player_id", "name", "key"}`` as the
    browser keeps it."""
    page.goto(base + "/#/")
    page.fill("#player-name", name)
    page.click("#create-player-button")
    page.wait_for_selector("#forget-player")
    return json.loads(page.evaluate("() => localStorage.getItem('arena.player')"))


def _idle_with_moves(page) -> bool:
    """True when ``page``'s board is drawn, idle, and offers moves (no waiting)."""
    return bool(page.evaluate(SETTLED)) and page.get_attribute("#board", "data-status") != (
        "finished"
    )


def _finished(page) -> bool:
    return page.get_attribute("#board", "data-status") == "finished"


@pytest.mark.e2e
def test_two_players_play_a_rated_match_by_clicking_and_both_ratings_move(
    page, browser, web_server
):
    """Two people, each in a browser of their own with a player made in the lobby: one
    creates a rated Duel (three tricks) with an open seat, the other joins it through its
    join link, and both play it to its end on the board by clicking, a move at a time at
    a person's pace, under the default rate limits. Then each profile page shows the rating
    moved off the start (and one dot on its curve), and the leaderboard lists both."""
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    other.set_default_timeout(TIMEOUT_MS)
    bob_page = other.new_page()
    bob_page.console_guard = ConsoleGuard(bob_page)
    try:
        tag = uuid.uuid4().hex[:6]
        ann = _player(page, web_server, f"Ann {tag}")
        bob = _player(bob_page, web_server, f"Bob {tag}")
        page.select_option("#game", "duel")
        page.fill("#seat-count", "2")
        page.dispatch_event("#seat-count", "change")
        page.select_option("#seat-0", "you")
        page.select_option("#seat-1", "open")
        page.fill("#opt-tricks", "3")
        page.check("#rated")
        page.click("#create-match")
        page.wait_for_selector("#created")
        match_id = page.get_attribute("#open-match", "href").rsplit("/", 1)[-1]
        created = page.inner_text("#created") + " ".join(
            page.eval_on_selector_all(
                "#created input, #created a", "els => els.map(e => e.value || e.href)"
            )
        )
        # the open seat's join link, passed on to the other person
        join = re.search(rf"\S*#/join/{match_id}/1", created)
        assert join, created
        bob_page.goto(
            join.group(0)
            if join.group(0).startswith("http")
            else f"{web_server}/#/join/{match_id}/1"
        )
        bob_page.click("#join")
        bob_page.wait_for_selector("#board .board")
        page.click("#open-match")
        page.wait_for_selector("#board .board")

        rng = random.Random("two-players")
        moves = 0
        for _ in range(400):  # bounded: each round waits for one move to arrive at most
            if _finished(page) and _finished(bob_page):
                break
            moved = False
            for tab in (page, bob_page):
                if _idle_with_moves(tab) and make_move(tab, rng, prefer_board=False):
                    moves += 1
                    moved = True
                    tab.wait_for_timeout(400)  # a person's pace between two clicks
            if not moved:
                page.wait_for_timeout(250)  # the other's move is on its way over SSE
        assert _finished(page) and _finished(bob_page), f"not over after {moves} moves"
        assert moves >= 6  # three tricks, a card each

        names = {ann["player_id"]: ann["name"], bob["player_id"]: bob["name"]}
        page.goto(web_server + "/#/leaderboard/duel/2p")
        links = [f"#leaderboard a[href='#/player/{pid}']" for pid in names]
        for _ in range(120):  # the end-of-match job runs on the embedded worker thread
            page.wait_for_selector("#leaderboard, #leaderboard-empty")
            if all(page.locator(link).count() for link in links):
                break
            page.wait_for_timeout(500)
            page.reload()
        for pid, link in zip(names, links, strict=True):
            assert page.inner_text(link) == names[pid]
        api = Api(web_server)
        for tab, player in ((page, ann), (bob_page, bob)):
            tab.goto(f"{web_server}/#/player/{player['player_id']}")
            rating = "#player-ratings .rating[data-board='duel:2p']"
            tab.wait_for_selector(f"{rating} svg.rating-curve circle")
            assert tab.inner_text("h1") == player["name"]
            assert tab.locator(f"{rating} svg.rating-curve circle").count() == 1
            shown = tab.inner_text(rating)
            assert "mu 25.00 · sigma 8.33" not in shown  # moved off the starting rating
            assert "1 rated match" in shown
            live = next(
                r
                for r in api.get(f"/v1/players/{player['player_id']}")["ratings"]
                if r["board"] == "duel:2p"
            )
            assert f"{live['ordinal']:.1f}" == tab.inner_text(f"{rating} .ordinal")
            assert tab.locator(f"#player-history li[data-match='{match_id}']").count() == 1
        bob_page.console_guard.check()
        page.console_guard.check()
    finally:
        other.close()
