"""The Verify button checks the export in the browser (``api/web/js/verify.js``), trusting
nothing the server says about that check (issue 20 item 1): a tampered export fails in the
page even when the server's replay answer is forged to say "valid", and a genuine one is
verified while it is forged to say "not valid"."""

from __future__ import annotations

import json

import pytest

from tests.e2e.browser.helpers import Api
from tests.e2e.browser.test_replay_in_browser import finished_match


def _tampered(text: str) -> str:
    log = json.loads(text)
    log["events"][3]["data"]["tampered"] = True
    return json.dumps(log)


def _lying_server(valid: bool):
    """A handler of POST /v1/replays that answers ``valid`` for every log."""

    def handle(route) -> None:
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps(
                {
                    "valid": valid,
                    "version": 1,
                    "result": None,
                    "errors": [] if valid else ["the server says no"],
                }
            ),
        )

    return handle


@pytest.mark.e2e
def test_the_verify_button_checks_in_the_browser_and_a_tampered_export_fails(page, web_server):
    api = Api(web_server)
    match = finished_match(api, "ai-100-human")
    match_id = match["match_id"]
    export = f"{web_server}/v1/matches/{match_id}/export"
    text = api.session.get(export, timeout=60).text
    assert json.loads(text)["format"] == "apocalypse-arena/log@3"

    # a genuine export verifies though the server's replay answer says it does not
    page.route("**/v1/replays", _lying_server(False))
    page.goto(f"{web_server}/#/watch/{match_id}")
    page.click("#verify")
    page.wait_for_selector("#verify-result .verify.ok[data-checked-by=browser]")
    page.wait_for_selector("#verify-result .verify-server.bad")
    assert "Verified in your browser" in page.inner_text("#verify-result")
    page.unroute("**/v1/replays")

    # the export is tampered with on its way and the server claims it is valid
    page.route("**/v1/replays", _lying_server(True))
    page.route(
        f"**/v1/matches/{match_id}/export",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=_tampered(text)
        ),
    )
    page.goto(f"{web_server}/#/")
    page.goto(f"{web_server}/#/watch/{match_id}")
    page.click("#verify")
    page.wait_for_selector("#verify-result .verify.bad[data-checked-by=browser]")
    shown = page.inner_text("#verify-result")
    assert "Not verified" in shown and "event 4: hash does not match its content" in shown
    # the server's claim is shown apart, as the server's, and changes nothing
    page.wait_for_selector("#verify-result .verify-server.ok")
    assert page.locator("#verify-result .verify.ok").count() == 0

    # the replay page gives the same verdict on the same tampered export
    page.goto(f"{web_server}/#/")
    page.goto(f"{web_server}/#/replay/{match_id}")
    page.wait_for_selector("#verify-result .verify.bad")
    assert "event 4" in page.inner_text("#verify-result")
    page.console_guard.check()
