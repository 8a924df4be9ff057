"""Replays in a real Chromium: a finished match stepped through with the slider and the
arrow keys, the board checked at several versions against ``GET …/state?version=`` (the
spectator's and a seat's view), the events of each step and the verification shown; and an
uploaded export file replayed and verified."""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.browser.helpers import Api, check_board, page_version

#: game -> (bot seats, options) of a quick all-bot match
BOT_MATCHES = {
    "ai-100-human": ([{"kind": "bot", "bot": "greedy"}] * 2, {}),
    "aipokalypse": ([{"kind": "bot", "bot": "tactician"}] * 2, {}),
    "dead-apocalypse": ([{"kind": "bot", "bot": "cooperative"}] * 2, {"turn_limit": 20}),
}


def finished_match(api: Api, game: str) -> dict:
    """Create an all-bot match of ``game`` and long-poll its events until it is finished."""
    seats, options = BOT_MATCHES[game]
    status, created = api.post("/v1/matches", {"game": game, "seats": seats, "options": options})
    assert status == 201, created
    match_id, after = created["match_id"], 0
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        match = api.get(f"/v1/matches/{match_id}")
        if match["status"] == "finished":
            return match
        page = api.get(f"/v1/matches/{match_id}/events?after={match['version']}&wait=10")
        after = page["version"]
    pytest.fail(f"the bot match {match_id} did not finish (at version {after})")


def show_version(page, version: int) -> None:
    """Move the slider to ``version`` (as a user dragging it) and wait for the board."""
    page.eval_on_selector(
        "#version-slider",
        """(el, v) => { el.value = String(v);
        el.dispatchEvent(new Event('input', {bubbles: true})); }""",
        version,
    )
    wait_for_version(page, version)


def wait_for_version(page, version: int) -> None:
    page.wait_for_function(
        """(v) => { const b = document.querySelector('#board');
        return b && b.dataset.busy === 'false' && Number(b.dataset.version) === v; }""",
        arg=version,
    )


@pytest.mark.e2e
@pytest.mark.parametrize("game", sorted(BOT_MATCHES))
def test_a_finished_match_is_stepped_through_and_each_view_matches_the_api(page, web_server, game):
    api = Api(web_server)
    catalogue = api.catalogue(game)
    match = finished_match(api, game)
    match_id, last = match["match_id"], match["version"]
    page.goto(f"{web_server}/#/replay/{match_id}")
    wait_for_version(page, last)
    page.wait_for_selector("#verify-result .verify.ok")
    assert match["seed"] in page.inner_text("body")
    versions = sorted({1, max(1, last // 3), max(1, 2 * last // 3), last})
    for version in versions:
        show_version(page, version)
        check_board(page, api, game, match_id, None, None, catalogue)
        steps = page.inner_text("#step-events")
        assert f"v{version} ·" in steps, (version, steps[:200])
    page.select_option("#view-as", "1")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '1'")
    wait_for_version(page, last)
    check_board(page, api, game, match_id, None, 1, catalogue, seat_param=1)
    # the arrow keys step one version at a time (focus outside the slider)
    page.focus("h1")
    page.keyboard.press("ArrowLeft")
    wait_for_version(page, last - 1)
    check_board(page, api, game, match_id, None, 1, catalogue, seat_param=1)
    page.keyboard.press("ArrowRight")
    wait_for_version(page, last)
    assert page_version(page) == last
    page.console_guard.check()


@pytest.mark.e2e
def test_an_uploaded_export_file_is_replayed_and_verified(page, web_server, tmp_path):
    api = Api(web_server)
    match = finished_match(api, "aipokalypse")
    text = api.session.get(f"{web_server}/v1/matches/{match['match_id']}/export", timeout=60).text
    path = tmp_path / "match.json"
    path.write_text(text, encoding="utf-8")
    page.goto(f"{web_server}/#/replay-file")
    page.set_input_files("#log-file", str(path))
    page.wait_for_selector("#verify-result .verify.ok")
    wait_for_version(page, match["version"])
    check_board(
        page, api, "aipokalypse", match["match_id"], None, None, api.catalogue("aipokalypse")
    )
    # a tampered file is not verified, and says why
    log = json.loads(text)
    log["events"][3]["data"]["tampered"] = True
    path.write_text(json.dumps(log), encoding="utf-8")
    page.goto(f"{web_server}/#/")
    page.goto(f"{web_server}/#/replay-file")
    page.set_input_files("#log-file", str(path))
    page.wait_for_selector("#verify-result .verify.bad")
    assert "event 4" in page.inner_text("#verify-result")
    page.console_guard.check()
