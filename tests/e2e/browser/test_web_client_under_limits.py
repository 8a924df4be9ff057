"""The web client under the API's request rate limits (issue 18 item 8).

- One request per move: a whole match played by clicking costs at most 1.5 requests to
  ``/v1`` per move, counted with Playwright's request events from the lobby to the result
  (the page plays from ``Prefer: return=representation`` answers and the SSE stream's
  ``seat_state``, not from GETs after every move and every event).
- Recovery: against a server limited to 30 requests per 15 seconds (:data:`LIMIT`: the
  shortest window whose budget a page still loads in and the test still spends before it
  turns over; a one-minute window made the test wait up to a minute), a page whose budget
  is spent shows a note while it waits for the ``Retry-After`` the 429 gave, sends the move
  again by itself, and plays on without a reload; a 503 with ``Retry-After`` is honoured the same way,
  for a move and for the event stream (refused ``too_many_waits`` when every waiting slot of
  a server process is held: the note says the server is busy, the stream is opened again).

No test waits for a time: each waits for a condition of the page (generous timeouts).
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from api.app import create_app
from tests.e2e.browser.helpers import Api, make_move, page_version, settle
from tests.e2e.browser.test_play_in_browser import create_in_lobby

MAX_MOVES = 600
#: the limited server's limit (every request, and making a match): 30 requests in a fixed
#: 15-second window, so a 429's Retry-After is at most 15 s
LIMIT = "30/15 seconds"
#: the page's wait for a Retry-After (at most 15 s) and its retry; the machine is slow
RECOVERY_MS = 180_000


def _v1_requests(page: Any, base: str) -> list[str]:
    """A live list of ``METHOD path`` of every request the page sends to ``base``'s /v1."""
    seen: list[str] = []

    def count(request: Any) -> None:
        if request.url.startswith(base + "/v1"):
            seen.append(f"{request.method} {request.url[len(base) :]}")

    page.on("request", count)
    return seen


@pytest.mark.e2e
def test_a_whole_match_costs_at_most_one_and_a_half_requests_per_move(page, web_server):
    seen = _v1_requests(page, web_server)
    match_id = create_in_lobby(page, web_server, "ai-100-human")
    rng = random.Random("requests-per-move")
    moves = 0
    while True:
        settle(page)
        if page.get_attribute("#board", "data-status") == "finished":
            break
        if make_move(page, rng, prefer_board=False) is not None:
            moves += 1
        assert moves < MAX_MOVES, "the match did not end"
    page.wait_for_selector("#result .seed")
    posts = [r for r in seen if r.startswith("POST ") and r.endswith("/actions")]
    ratio = len(seen) / moves
    print(
        f"\n{len(seen)} requests to /v1 for {moves} moves ({len(posts)} POSTs): {ratio:.2f} per move;"
        f" besides the POSTs: {[r for r in seen if r not in posts]}"
    )
    assert moves > 10
    assert ratio <= 1.5, (ratio, seen)
    final = Api(web_server).get(f"/v1/matches/{match_id}")
    assert final["seed"] in page.inner_text("#result .seed")
    page.console_guard.check()


@pytest.fixture
def limited_server(embedded_service) -> Iterator[str]:
    """The API and web client over the session's embedded service, limited to :data:`LIMIT`
    per client (its own in-memory counters); yields the base URL."""
    app = create_app(
        embedded_service,
        {
            "SSE_POLL_S": 0.5,
            "ARENA_RATE_LIMITS_ENABLED": "1",
            "ARENA_RATE_LIMITS": LIMIT,
            "ARENA_CREATE_RATE_LIMITS": LIMIT,
            "ARENA_RATE_LIMIT_STORAGE": "memory://",
        },
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="limited-web-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


def _spend_budget(base: str, match_id: str, token: str) -> None:
    """Spend the seat's budget (its requests are its token's client) until a 429."""
    with requests.Session() as session:
        for _ in range(100):
            answer = session.get(
                f"{base}/v1/matches/{match_id}/legal-actions",
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
            if answer.status_code == 429:
                assert int(answer.headers["Retry-After"]) >= 1
                return
        raise AssertionError(f"no 429 after 100 requests under a {LIMIT} limit")


RETRY_NOTE = """() => { const n = document.querySelector('#retry-note');
  return n && !n.hidden && /again in \\d+ s/.test(n.textContent); }"""
NOTE_GONE = "() => { const n = document.querySelector('#retry-note'); return !n || n.hidden; }"


#: whether the shown retry note has a background of its own and ends above the board
NOTE_LAYOUT = """() => { const n = document.querySelector('#retry-note');
  const b = document.querySelector('#board');
  const bg = getComputedStyle(n).backgroundColor;
  return bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent'
    && n.getBoundingClientRect().bottom <= b.getBoundingClientRect().top; }"""


def _seat_page(page: Any, base: str, match_id: str, token: str, seat: int = 0) -> None:
    """Open the seat's play page (its token handed over as a seat link does)."""
    page.goto(f"{base}/#/seat/{match_id}/{seat}/{token}")
    page.wait_for_selector("#board .board")


@pytest.mark.e2e
def test_a_page_over_its_rate_limit_waits_and_recovers_without_a_reload(
    page, web_server, limited_server
):
    api = Api(web_server)  # the test's own reads: unlimited, same matches
    status, created = api.post(
        "/v1/matches",
        {"game": "ai-100-human", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
    )
    assert status == 201, created
    match_id, token = created["match_id"], created["seats"][0]["token"]
    limited: list[tuple[str, int]] = []
    page.on("response", lambda r: r.status == 429 and limited.append((r.request.method, r.url)))
    # the browser logs each 429 the page then waits out (its move, its reads, its stream)
    page.console_guard.allowed |= {
        ("/actions", 429),
        ("/legal-actions", 429),
        (f"/v1/matches/{match_id}", 429),
        ("views=true", 429),
    }
    _seat_page(page, limited_server, match_id, token)
    rng = random.Random("limited")
    page.evaluate("() => { window.notReloaded = true; }")  # gone if the page reloads
    # spend the budget, then click: the move's POST is answered 429 (if the window turned
    # over in between and the move went through, spend again and click again)
    for _ in range(20):
        settle(page)
        assert page.get_attribute("#board", "data-status") != "finished"
        _spend_budget(limited_server, match_id, token)
        before = page_version(page)
        buttons = page.locator(".actions button.action")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"""() => ({RETRY_NOTE})() ||
            Number(document.querySelector('#board').dataset.version) > {before}""")
        if any(method == "POST" for method, _ in limited):
            break
    else:
        raise AssertionError("the page's move was never answered 429")
    # while it waits: the note says when it tries again, nothing is shown as broken
    page.wait_for_function(RETRY_NOTE)
    assert page.inner_text("#retry-note").strip()
    # by itself: the move is sent again after Retry-After, the note goes, the board moves
    # on and offers buttons again
    page.wait_for_function(NOTE_GONE, timeout=RECOVERY_MS)
    page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.version) > {before}",
        timeout=RECOVERY_MS,
    )
    settle(page)
    assert "rate_limited" not in page.inner_text("#problem")  # no error: it was waited out
    # and it plays on (more moves, still the same page: no reload)
    for _ in range(3):
        if page.get_attribute("#board", "data-status") == "finished":
            break
        made = make_move(page, rng, prefer_board=False)
        settle(page)
        if made is None:
            continue
        assert page.locator(".actions button.action:disabled").count() == 0
    assert page.evaluate("() => window.notReloaded === true")
    page.console_guard.check()


#: what a server whose waiting slots are all held answers a stream (api/waits.py)
TOO_MANY_WAITS = {
    "type": "https://apocalypse-arena.dev/problems/too_many_waits",
    "title": "Too many open streams and long-polls",
    "status": 503,
    "code": "too_many_waits",
    "detail": "This server process already holds its 40 open streams and long-polls; "
    "retry after Retry-After seconds, or ask without waiting (wait=0).",
    "limit": 40,
}
#: the query of the page's event stream (stream.js)
STREAM_QUERY = "/events/stream?max_s=300&views=true"
#: records every text the retry note shows (none is missed, however short it shows)
NOTES_SEEN = """window.notesSeen = [];
new MutationObserver(() => {
  const n = document.getElementById('retry-note');
  if (n && !n.hidden && n.textContent) window.notesSeen.push(n.textContent);
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});"""


@pytest.mark.e2e
def test_a_503_with_retry_after_is_waited_out_and_the_move_sent_again(page, web_server):
    api = Api(web_server)
    status, created = api.post(
        "/v1/matches",
        {"game": "ai-100-human", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
    )
    assert status == 201, created
    match_id, token = created["match_id"], created["seats"][0]["token"]
    answered: list[int] = []

    def busy_once(route: Any) -> None:
        if not answered:
            answered.append(503)
            route.fulfill(
                status=503,
                headers={"Retry-After": "2", "Content-Type": "application/problem+json"},
                body='{"type":"about:blank","title":"Busy","status":503,"code":"busy",'
                '"detail":"The match is busy; try again."}',
            )
        else:
            answered.append(0)
            route.continue_()

    # the page's event stream is first refused as a server whose waiting slots are all
    # held refuses it (api/waits.py): the page waits the Retry-After out, saying so, and
    # opens it again
    streams: list[int] = []

    def no_free_slot_once(route: Any) -> None:
        if not streams:
            streams.append(503)
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/problem+json"},
                body=json.dumps(TOO_MANY_WAITS),
            )
        else:
            streams.append(0)
            route.continue_()

    page.add_init_script(NOTES_SEEN)
    page.route(f"**/v1/matches/{match_id}/events/stream*", no_free_slot_once)
    page.console_guard.allowed |= {("/actions", 503), (f"{STREAM_QUERY}", 503)}
    with page.expect_response(lambda r: "/events/stream" in r.url and r.status == 200):
        _seat_page(page, web_server, match_id, token)
    assert streams[:2] == [503, 0], streams
    notes = page.evaluate("() => window.notesSeen")
    assert any("The server is busy" in note for note in notes), notes
    settle(page)
    page.route(f"**/v1/matches/{match_id}/actions", busy_once)
    before = page_version(page)
    page.locator(".actions button.action").first.click()
    page.wait_for_function(RETRY_NOTE)
    # worded for a person, styled (its own band) and above the table, not over it
    note = page.inner_text("#retry-note")
    assert "The server is busy." in note and "tries again by itself" in note, note
    assert page.evaluate(NOTE_LAYOUT), "the note is unstyled or overlaps the board"
    sending = page.inner_text(".actions .sending")
    assert sending.startswith("Sending your move: ") and ".…" not in sending, sending
    page.wait_for_function(NOTE_GONE, timeout=RECOVERY_MS)
    page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.version) > {before}"
    )
    settle(page)
    assert answered[:2] == [503, 0]
    assert page.inner_text("#problem") == ""
    page.console_guard.check()


TIMER_AT = """() => { const t = document.querySelector('#timer');
  return {version: Number(document.querySelector('#board').dataset.version),
          deadline: t && t.dataset.deadline ? Number(t.dataset.deadline) : null}; }"""


@pytest.mark.e2e
def test_the_turn_timer_follows_the_deadlines_without_reading_the_match(page, web_server):
    """The page reads no match per move, so it moves a timed match's deadlines on as the
    server does (a seat's starts when it becomes pending, ends when it acted): at every
    version where the page and the API agree, the page's deadline is the API's (within
    the few milliseconds between an append and its deadline's start)."""
    api = Api(web_server)
    status, created = api.post(
        "/v1/matches",
        {
            "game": "ai-100-human",
            "turn_timeout_s": 600,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        },
    )
    assert status == 201, created
    match_id, token = created["match_id"], created["seats"][0]["token"]
    seen = _v1_requests(page, web_server)
    _seat_page(page, web_server, match_id, token)
    rng = random.Random("timer")
    compared = moves = 0
    while compared < 6 and moves < 40:
        settle(page)
        shown = page.evaluate(TIMER_AT)
        match = api.get(f"/v1/matches/{match_id}", token)
        if match["status"] == "finished":
            break
        if match["version"] == shown["version"] and "deadline" in match:
            assert shown["deadline"] is not None, match
            exact = datetime.fromisoformat(match["deadline"]).timestamp() * 1000
            assert abs(shown["deadline"] - exact) < 2000, (
                shown,
                match["deadline"],
                match["deadlines"],
            )
            compared += 1
        if make_move(page, rng, prefer_board=False) is not None:
            moves += 1
    assert compared >= 3
    assert sum(1 for r in seen if r == f"GET /v1/matches/{match_id}") == 1
