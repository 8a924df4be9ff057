"""The web client on the production topology: a match made in the lobby of the page gunicorn
serves, played to its result in a real Chromium by clicking, the bot seat played by the
``arena worker`` processes, the board drawn from the SSE stream of gunicorn (keep-alives
every 15 s, the shipped ``SSE_POLL_S``) and checked against the API after every move;
at the end Verify verifies the match (tests/e2e/browser/test_play_in_browser.py does the
same on the embedded server for every game)."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("playwright.sync_api")

from tests.e2e.browser.helpers import Api, check_board, make_move, page_version, settle  # noqa: E402
from tests.e2e.browser.test_play_in_browser import MAX_MOVES, create_in_lobby  # noqa: E402

GAME = "aipokalypse"


def test_a_match_is_played_to_its_result_in_the_browser(page, production):
    api = Api(production.url)
    catalogue = api.catalogue(GAME)
    match_id = create_in_lobby(page, production.url, GAME)
    token = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('arena.seats'))['{match_id}'].token"
    )
    rng = random.Random(f"production-browser-{GAME}")
    moves = 0
    while True:
        settle(page)
        check_board(page, api, GAME, match_id, token, 0, catalogue)
        if page.get_attribute("#board", "data-status") == "finished":
            break
        before = page_version(page)
        if make_move(page, rng, prefer_board=rng.random() < 0.7) is not None:
            moves += 1
        assert moves < MAX_MOVES, "the match did not end"
        assert page_version(page) >= before
    final = api.get(f"/v1/matches/{match_id}", token)
    assert final["status"] == "finished" and moves > 0
    result = page.inner_text("#result")
    for seat, score in enumerate(final["result"]["scores"]):
        assert re.search(rf"Seat {seat}[^\n]*\t{score}\t", result), (seat, score, result)
    page.click("#verify")
    page.wait_for_selector("#verify-result .verify")
    assert page.locator("#verify-result .verify.ok").count(), page.inner_text("#result")
    page.console_guard.check()
