"""The computer analysis on the replay page, in a real Chromium (issue 23 item 3): a
finished match is analysed on request (the embedded worker runs the job), the value curve
has a dot per valued decision, every mistake is listed with the better move the API names,
and a listed decision's button shows that version on the board. Each move is said in the
game's words (its phrasebook, as the play page's buttons) with its command beside it; in a
fork, the decisions copied from the match it was forked from are that match's."""

from __future__ import annotations

import random
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
    for decision in marked:  # Duel has no phrasebook: its type and card, then the command
        assert (
            f"better: Play: {decision['best']['card']} [play card={decision['best']['card']}]"
            in text
        )
    # a phone: the page never scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # ... and the seat table's last column (Blunders) is on the screen, not scrolled off
    # inside its box (it was, at 390 px)
    table = page.locator(".analysis-seats").bounding_box()
    blunders = page.locator(".analysis-seats th", has_text="Blunders").bounding_box()
    assert table and blunders and blunders["x"] + blunders["width"] <= table["x"] + table["width"]
    target = marked[0]["version"]
    page.click(f"#analysis-mistakes li[data-version='{target}'] button")
    wait_for_version(page, target)
    page.console_guard.check()


def _finished_aipokalypse(service, seed: int = 3) -> str:
    from tests.e2e.test_api_aipokalypse_analysis import _finished_match

    return _finished_match(service, seed)


def _play_out(service, mid: str, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        if service.match_view(mid, None)["status"] == "finished":
            return
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
                break
    raise AssertionError(f"{mid} did not finish")


def _dot_order(result: dict) -> list[dict]:
    """The valued decisions in the order of the curve's dots: seat by seat, by version."""
    valued = [d for d in result["decisions"] if d["played_value"] is not None]
    return sorted(valued, key=lambda d: d["seat"])  # stable: by version within a seat


def _analyse_on_the_page(page, web_server, mid: str, last: int) -> None:
    page.goto(f"{web_server}/#/replay/{mid}")
    wait_for_version(page, last)
    page.fill("#analysis-budget", "4")
    page.click("#analyse")
    page.wait_for_selector("#analysis[data-status=done]", timeout=120_000)


@pytest.mark.e2e
def test_moves_are_in_the_games_words_and_a_forks_copied_moves_are_the_parents(
    page, web_server, embedded_service
):
    """A.I.Pokalypse (a phrasebook game): every dot of the curve says its move as the
    phrasebook does (card names), the command beside it in the list (the probe saw only
    raw commands). Its fork at the middle, with new seat names, marks the decisions copied
    from it as that match's (dim dots, "of match <id> (before the fork)", never the new
    names) and says they are left out of the seats' figures."""
    from cli.render.cards import CardBook
    from service.usecases.analysis import turns_of

    api = Api(web_server)
    mid = _finished_aipokalypse(embedded_service)
    match = api.get(f"/v1/matches/{mid}")
    _analyse_on_the_page(page, web_server, mid, match["version"])
    result = api.get(f"/v1/matches/{mid}/analysis?budget=4")["result"]
    phrases = CardBook(api.get("/v1/games/aipokalypse/cards")).phrases
    valued = _dot_order(result)
    titles = page.locator("#analysis-curve circle.dot title").all_text_contents()
    assert len(titles) == len(valued)
    for decision, title in zip(valued, titles, strict=True):
        words = phrases.command(decision["played"], match["seats"], decision["seat"])
        assert f"v{decision['version']} · " in title and words in title, (words, title)
    for item in page.locator("#analysis-mistakes li").all_inner_texts():
        assert "better: " in item and item.count(" [") >= 2  # each move, then its command
    # a fork of it at the middle, played on by two new seats
    _, turns = turns_of(api.get(f"/v1/matches/{mid}/export"))
    at = turns[len(turns) // 2].version  # the end of a command's events
    names = [{"kind": "human", "name": "cat"}, {"kind": "human", "name": "dan"}]
    fork = embedded_service.fork(mid, at, names)["match_id"]
    _play_out(embedded_service, fork, seed=4)
    _analyse_on_the_page(page, web_server, fork, api.get(f"/v1/matches/{fork}")["version"])
    result = api.get(f"/v1/matches/{fork}/analysis?budget=4")["result"]
    assert result["forked_from"] == {"match_id": mid, "version": at}
    assert f"a fork of {mid} at version {at}" in page.inner_text("#analysis-fork")
    valued = _dot_order(result)
    dots = page.locator("#analysis-curve circle.dot")
    assert dots.count() == len(valued)
    for index, decision in enumerate(valued):
        dot = dots.nth(index)
        title = dot.locator("title").text_content() or ""
        copied = "from-parent" in (dot.get_attribute("class") or "")
        assert copied == decision["from_parent"] == (decision["version"] < at)
        if copied:
            assert f"of match {mid} (before the fork)" in title
            assert "cat" not in title and "dan" not in title
        else:
            assert ("cat" in title) != ("dan" in title)
    page.console_guard.check()
