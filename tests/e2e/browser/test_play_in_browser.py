"""Every game played to its result in a real Chromium, from the lobby, by clicking.

For each game a match is created in the lobby with one human seat (you) and a bot; then
the test makes every decision of the human seat by clicking — board things (cards, cells,
slots, zombie columns) when they name one action alone, else the action's button — and
after each move checks the board against the API's view at the version the board shows.
At the end the result screen shows the scores, winners and revealed seed, and Verify
verifies the match. Console errors fail the test.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.browser.helpers import Api, check_board, make_move, page_version, settle

#: game -> (seat choices after "you", options typed into the lobby form)
LOBBY = {
    "ai-100-human": (["bot:greedy"], {}),
    "aipokalypse": (["bot:tactician"], {}),
    "dead-apocalypse": (["bot:cooperative"], {"turn_limit": "20"}),
}
MAX_MOVES = 600


def create_in_lobby(page, base: str, game: str) -> str:
    """Create a match of ``game`` in the lobby; open its board; return the match id."""
    others, options = LOBBY[game]
    page.goto(base + "/#/")
    page.select_option("#game", game)
    page.fill("#seat-count", str(1 + len(others)))
    page.dispatch_event("#seat-count", "change")
    page.select_option("#seat-0", "you")
    for i, choice in enumerate(others, start=1):
        page.select_option(f"#seat-{i}", choice)
    for name, value in options.items():
        page.fill(f"#opt-{name}", value)
    page.click("#create-match")
    page.wait_for_selector("#created")
    page.click("#open-match")
    page.wait_for_selector("#board .board")
    match_id = re.search(r"#/m/([0-9a-f]+)", page.url).group(1)
    return match_id


@pytest.mark.e2e
@pytest.mark.parametrize("game", sorted(LOBBY))
def test_a_match_is_played_to_its_result_by_clicking(page, web_server, game):
    api = Api(web_server)
    catalogue = api.catalogue(game)
    match_id = create_in_lobby(page, web_server, game)
    token = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('arena.seats'))['{match_id}'].token"
    )
    rng = random.Random(f"browser-{game}")
    moves = checks = board_clicks = piles_noted = 0
    while True:
        settle(page)
        check_board(page, api, game, match_id, token, 0, catalogue)
        checks += 1
        if game == "aipokalypse":
            # in Recruitment the shared piles are shown as the phase began (R-PRIVACY): said
            head = page.inner_text("#board .board-head")
            recruiting = "Phase 1: Recruitment" in head
            assert recruiting == ("(piles as Recruitment began)" in head), head
            piles_noted += recruiting
        if page.get_attribute("#board", "data-status") == "finished":
            break
        before = page_version(page)
        made = make_move(page, rng, prefer_board=rng.random() < 0.7)
        if made is not None:
            moves += 1
            board_clicks += page_version(page) > before
        assert moves < MAX_MOVES, "the match did not end"
    assert moves > 5 and checks > moves / 2
    assert piles_noted or game != "aipokalypse"
    final = api.get(f"/v1/matches/{match_id}", token)
    assert final["status"] == "finished"
    result = page.inner_text("#result")
    scores = final["result"]["scores"]
    if (
        final["result"].get("outcome") in ("won", "lost")
        and len(set(scores)) == 1
        and "breakdown" not in final["result"]
    ):
        # a co-operative ending (won or lost together): said in words, no table of equal scores
        assert re.search(r"(The players (won|lost)|The A.I.Toma won)[: ]", result), result
        assert "\t" not in result, result
    else:
        for seat, score in enumerate(scores):
            assert re.search(rf"Seat {seat}[^\n]*\t{score}\t", result), (seat, score, result)
    for seat, parts in enumerate(final["result"].get("breakdown") or []):
        # AI: 100% Human: each seat's VP by source, adding up to its score
        assert sum(parts.values()) == scores[seat]
        cells = "\t".join(str(v) for v in parts.values())
        assert re.search(rf"Seat {seat}[^\n]*\t{cells}\t{scores[seat]}\t", result), (seat, result)
    assert final["seed"] in page.inner_text("#result .seed")
    page.click("#verify")
    page.wait_for_selector("#verify-result .verify")
    assert page.locator("#verify-result .verify.ok").count(), page.inner_text(
        "#result"
    ) + page.inner_text("#problem")
    assert "Verified" in page.inner_text("#verify-result")
    page.console_guard.check()


@pytest.mark.e2e
def test_a_seat_link_with_a_bad_token_says_so_not_that_the_match_is_missing(page, web_server):
    """A newcomer probe opened ``#/seat/<id>/0/notatoken``: the page said "Match not found"
    over the detail "The seat token is not valid for this match." The heading now says the
    link does not open the match; a match id nobody made is still "Match not found"."""
    api = Api(web_server)
    status, created = api.post(
        "/v1/matches",
        {"game": "duel", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "high"}]},
    )
    assert status == 201, created
    page.console_guard.allowed |= {(created["match_id"], 401), ("0" * 32, 404)}  # as asked
    page.goto(f"{web_server}/#/seat/{created['match_id']}/0/notatoken")
    page.wait_for_selector("h1")
    assert page.inner_text("h1") == "This seat link does not open the match"
    assert "not valid" in page.inner_text(".problem")
    page.goto(f"{web_server}/#/watch/{'0' * 32}")
    page.wait_for_function("() => document.querySelector('h1')?.textContent === 'Match not found'")
