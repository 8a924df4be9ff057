"""The lobby in a real Chromium: an open seat's copyable join link, joining it from another
browser, the answer to a second join shown as the problem's detail, and the turn-timer
countdown of a timed match."""

from __future__ import annotations

import re

import pytest

from tests.e2e.browser.conftest import TIMEOUT_MS, ConsoleGuard


@pytest.mark.e2e
def test_an_open_seat_is_joined_by_its_link_and_a_second_join_shows_the_problem(
    page, browser, web_server
):
    page.goto(web_server + "/#/")
    page.select_option("#game", "ai-100-human")
    page.fill("#seat-count", "2")
    page.dispatch_event("#seat-count", "change")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "open")
    page.fill("#turn-timeout", "600")
    page.click("#create-match")
    link = page.get_attribute("#created input[aria-label='Seat 1 join link']", "value")
    assert re.search(r"#/join/[0-9a-f]+/1$", link), link
    page.click("#open-match")
    page.wait_for_selector("#board .board")
    # a timed match counts down the seat's turn
    page.wait_for_function(
        "() => /\\d+ s left to act/.test(document.querySelector('#timer').textContent)"
    )

    joiner = browser.new_context(viewport={"width": 390, "height": 844})
    joiner.set_default_timeout(TIMEOUT_MS)
    other = joiner.new_page()
    guard = ConsoleGuard(other)
    # another browser's lobby lists the match under "Open" with its join link (GET /v1/matches)
    match_id = link.rsplit("/", 2)[-2]
    other.goto(web_server + "/#/")
    other.wait_for_selector(f'ul[data-status="open"] li[data-match="{match_id}"] a[href$="/1"]')
    other.goto(link)
    other.fill("#join-name", "bob")
    other.click("#join")
    other.wait_for_selector("#board .board")
    assert "you are Seat 1 · bob" in other.inner_text(".match-head")

    late = browser.new_context()
    late.set_default_timeout(TIMEOUT_MS)
    third = late.new_page()
    late_guard = ConsoleGuard(third)
    late_guard.allowed.add(("/join", 409))  # the answer the page shows as its detail
    third.goto(link)
    third.click("#join")
    third.wait_for_function("() => document.querySelector('.problem').textContent.length > 0")
    assert "seat" in third.inner_text(".problem").lower()
    joiner.close()
    late.close()
    guard.check()
    late_guard.check()
    page.console_guard.check()
