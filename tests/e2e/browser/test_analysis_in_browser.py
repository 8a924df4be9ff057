"""The computer analysis on the replay page, in a real Chromium (issue 23 item 3): a
finished match is analysed on request (the embedded worker runs the job), the value curve
has a dot per valued decision, every mistake is listed with the better move the API names,
and a listed decision's button shows that version on the board."""

from __future__ import annotations

import types

import pytest

from service.usecases import create_join
from tests.e2e.browser.helpers import Api
from tests.e2e.browser.test_replay_in_browser import wait_for_version
from tests.support.duels import finished_duel

#: the match's seed: whether random play makes a labelled mistake depends on the deal
#: (a fresh random seed once dealt a 9-trick Duel whose random play had none)
SEED = bytes(range(32))


@pytest.mark.e2e
def test_the_replay_page_analyses_a_match_and_shows_its_mistakes(
    page, web_server, embedded_service, monkeypatch
):
    api = Api(web_server)
    # 9 tricks (the more free choices, the surer some are labelled), random seats, a
    # fixed deal
    monkeypatch.setattr(create_join, "secrets", types.SimpleNamespace(token_bytes=lambda n: SEED))
    mid = finished_duel(embedded_service, tricks=9, seed=3)
    last = api.get(f"/v1/matches/{mid}")["version"]
    page.goto(f"{web_server}/#/replay/{mid}")
    wait_for_version(page, last)
    page.fill("#analysis-budget", "40")
    page.click("#analyse")
    page.wait_for_selector("#analysis[data-status=done]", timeout=120_000)
    answer = api.get(f"/v1/matches/{mid}/analysis?budget=40")
    result = answer["result"]
    valued = [d for d in result["decisions"] if d["played_value"] is not None]
    assert page.locator("#analysis-curve circle.dot").count() == len(valued)
    marked = [d for d in valued if d["label"]]
    assert marked, "random players make labelled decisions"
    items = page.locator("#analysis-mistakes li")
    assert items.count() == len(marked)
    text = page.inner_text("#analysis-mistakes")
    for decision in marked:
        assert f"better: play card={decision['best']['card']}" in text
    # a phone: the page never scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    target = marked[0]["version"]
    page.click(f"#analysis-mistakes li[data-version='{target}'] button")
    wait_for_version(page, target)
    page.console_guard.check()
