"""Screenshots of each game and mode at desktop (1280 x 800) and phone (390 x 844) width.

``take_screenshots(browser, base_url, out_dir)`` creates a match per game and mode over the
public API, plays the human seat over the API (preferring moves that fill the board) and
opens the seat's page three times: at a **decision** (its first choices), **mid-game**
(after the board's ``moves``) and at the **end** (played out); each is saved as
``<name>-<stage>-desktop.png`` / ``<name>-<stage>-phone.png`` (the mid-game ones also as
``<name>-desktop.png`` / ``<name>-phone.png``, the docs' pictures); also the lobby and a
replay. ``./scripts/screenshots`` (this module's ``main``) runs it against an embedded
server and writes ``docs/screenshots/``; ``test_screenshots.py`` runs it on every test run.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from tests.e2e.browser.helpers import Api

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: name -> (game, seats, options, human moves to make, preferred command types)
BOARDS: dict[str, tuple[str, list[dict], dict, int, tuple[str, ...]]] = {
    "ai-100-human": (
        "ai-100-human",
        [
            {"kind": "human", "name": "ann"},
            {"kind": "bot", "bot": "greedy"},
            {"kind": "bot", "bot": "greedy"},
        ],
        {},
        14,
        ("place", "draft"),
    ),
    "ai-100-human-duo": (
        "ai-100-human",
        [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}],
        {},
        10,
        ("place", "draft"),
    ),
    "ai-100-human-solo": (
        "ai-100-human",
        [{"kind": "human", "name": "ann"}],
        {},
        8,
        ("place", "draft"),
    ),
    "aipokalypse": (
        "aipokalypse",
        [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "tactician"}],
        {},
        9,
        ("recruit", "open_slot", "spend_ammo", "choose_faction"),
    ),
    "aipokalypse-solo": (
        "aipokalypse",
        [{"kind": "human", "name": "ann"}],
        {"difficulty": "boss"},
        7,
        ("recruit", "open_slot", "choose_faction"),
    ),
    "aipokalypse-coop": (
        "aipokalypse",
        [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "tactician"}],
        {"mode": "coop", "difficulty": "handy_man"},
        9,
        ("recruit", "open_slot", "choose_faction"),
    ),
    "dead-apocalypse": (
        "dead-apocalypse",
        [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "cooperative"}],
        {},
        12,
        ("occupy", "play", "defeat"),
    ),
    "dead-apocalypse-solo": (
        "dead-apocalypse",
        [{"kind": "human", "name": "ann"}],
        {"difficulty": "easy"},
        12,
        ("defeat", "occupy", "play"),
    ),
}
#: the moments of a match each board is shot at: stage -> human moves made before it
#: (``None``: the board's ``moves``; ``-1``: played to its end)
STAGES = {"decision": 0, "mid": None, "end": -1}
#: boards also shot at a moment of their own: name -> (stage, the match view's condition)
EXTRA_STAGES = {
    "aipokalypse": ("battle", lambda view: view.get("phase") == "battle"),
    "aipokalypse-solo": ("battle", lambda view: view.get("phase") == "battle"),
}
SETTLED = """() => { const b = document.querySelector('#board');
  return b && b.dataset.busy === 'false' && b.querySelector('.board'); }"""


class _Patient:
    """``Api`` calls that wait out a 429 (the API's request rate limits: a whole match
    played over HTTP makes many requests) as ``Retry-After`` asks, then ask again."""

    def __init__(self, api: Api):
        self.api = api

    def _again(self, call, *args):
        for _ in range(120):
            try:
                out = call(*args)
            except AssertionError as error:  # Api.get asserts a 200
                if "429" not in str(error.args[0][1:2]):
                    raise
                time.sleep(1.0)
                continue
            if isinstance(out, tuple) and out[0] == 429:
                time.sleep(1.0)
                continue
            return out
        raise AssertionError("rate limited for two minutes")

    def get(self, path: str, token: str | None = None) -> Any:
        return self._again(self.api.get, path, token)

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        return self._again(self.api.post, path, body, token)


def _play(
    api: Api,
    match_id: str,
    token: str,
    moves: int,
    prefer: tuple[str, ...],
    rng: random.Random,
    budget_s: float = 300,
) -> int:
    """Make ``moves`` moves of the human seat over the API, waiting (long-poll) for bots, then
    wait until the seat has a decision again (or the match ended); returns the moves made."""
    made = 0
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        match = api.get(f"/v1/matches/{match_id}", token)
        if match["status"] == "finished":
            return made
        if made >= moves and str(0) in (match.get("pending") or {}):
            return made
        actions = api.get(f"/v1/matches/{match_id}/legal-actions", token)["actions"]
        if not actions:
            api.get(f"/v1/matches/{match_id}/events?after={match['version']}&wait=5", token)
            continue
        liked = [a for a in actions if a["type"] in prefer]
        api.post(f"/v1/matches/{match_id}/actions", rng.choice(liked or actions), token)
        made += 1
    return made


def _play_until(
    api: Any,
    match_id: str,
    token: str,
    until: Any,
    prefer: tuple[str, ...],
    rng: random.Random,
    budget_s: float = 300,
) -> int:
    """Play the human seat (as :func:`_play`) until ``until(view)`` holds for its view while
    it has a decision (or the match ended); returns the moves made."""
    made = 0
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        match = api.get(f"/v1/matches/{match_id}", token)
        if match["status"] == "finished":
            return made
        actions = api.get(f"/v1/matches/{match_id}/legal-actions", token)["actions"]
        if actions and until(match.get("view") or {}):
            return made
        if not actions:
            api.get(f"/v1/matches/{match_id}/events?after={match['version']}&wait=5", token)
            continue
        liked = [a for a in actions if a["type"] in prefer]
        api.post(f"/v1/matches/{match_id}/actions", rng.choice(liked or actions), token)
        made += 1
    return made


def _shoot(page: Any, out: Path, name: str, also: str | None = None) -> list[Path]:
    files = []
    page.wait_for_function(SETTLED)
    # a person tells every move apart: no two buttons say the same (js/alike.js)
    words = page.eval_on_selector_all(
        ".action-list button.action", "bs => bs.map(b => b.textContent)"
    )
    assert len(words) == len(set(words)), (name, [w for w in words if words.count(w) > 1])
    # A.I.Pokalypse: the board head counts the battle's points as its battle panel does
    # (from 1; it said "card 4, point 1" over "point 2 of 4", and "point 0" in Recruitment)
    head, panel = page.evaluate(
        "() => [document.querySelector('.board-head')?.textContent || '',"
        " document.querySelector('section.zone.battle h3')?.textContent || '']"
    )
    if panel:
        fought = re.search(r"point (\d+) of (\d+)", panel)
        assert fought and f"Battle: point {fought[1]} of {fought[2]}" in head, (name, head, panel)
    assert "Battle: card" not in head and "point 0" not in head, (name, head)
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_function(SETTLED)
        page.evaluate("() => window.scrollTo(0, 0)")
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"], f"{name} is {wide} px wide at {size['width']} px"
        path = out / f"{name}-{suffix}.png"
        page.screenshot(path=str(path))
        files.append(path)
        if also:
            shutil.copyfile(path, out / f"{also}-{suffix}.png")
            files.append(out / f"{also}-{suffix}.png")
    return files


def take_screenshots(browser: Any, base_url: str, out: Path, seed: int = 11) -> list[Path]:
    """Save every board's screenshots into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    api = _Patient(Api(base_url))
    rng = random.Random(seed)
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(90_000)
    page = context.new_page()
    files: list[Path] = []
    try:
        page.goto(base_url + "/#/")
        page.wait_for_selector("#create-match")
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(out / "lobby-desktop.png"))
        files.append(out / "lobby-desktop.png")
        for name, (game, seats, options, moves, prefer) in BOARDS.items():
            status, created = api.post(
                "/v1/matches", {"game": game, "seats": seats, "options": options}
            )
            assert status == 201, created
            match_id, token = created["match_id"], created["seats"][0]["token"]
            made = 0
            stages = list(STAGES.items())
            if name in EXTRA_STAGES:  # e.g. a point being fought, before the end
                stages.insert(2, (EXTRA_STAGES[name][0], EXTRA_STAGES[name][1]))
            for stage, upto in stages:
                if callable(upto):
                    made += _play_until(api, match_id, token, upto, prefer, rng)
                    page.goto(f"{base_url}/#/seat/{match_id}/0/{token}")
                    page.wait_for_url(f"**/#/m/{match_id}")
                    page.wait_for_function(SETTLED)
                    files += _shoot(page, out, f"{name}-{stage}")
                    page.goto(f"{base_url}/#/")
                    continue
                target = moves if upto is None else 100_000 if upto < 0 else upto
                made += _play(
                    api,
                    match_id,
                    token,
                    max(0, target - made),
                    prefer,
                    rng,
                    budget_s=900 if upto == -1 else 300,
                )
                page.goto(f"{base_url}/#/seat/{match_id}/0/{token}")
                page.wait_for_url(f"**/#/m/{match_id}")
                page.wait_for_function(SETTLED)
                if stage == "end":
                    page.wait_for_selector("#result .result")
                files += _shoot(page, out, f"{name}-{stage}", also=name if stage == "mid" else None)
                page.goto(f"{base_url}/#/")
        status, created = api.post(
            "/v1/matches", {"game": "ai-100-human", "seats": [{"kind": "bot", "bot": "greedy"}] * 2}
        )
        match_id = created["match_id"]
        while (match := api.get(f"/v1/matches/{match_id}"))["status"] != "finished":
            api.get(f"/v1/matches/{match_id}/events?after={match['version']}&wait=10")
        page.goto(f"{base_url}/#/replay/{match_id}")
        page.wait_for_selector("#verify-result .verify")
        page.wait_for_function(SETTLED)
        files += _shoot(page, out, "replay")
    finally:
        context.close()
    return files


def main() -> None:
    """Run an embedded server and Chromium; write the screenshots (default docs/screenshots)."""
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from api.app import create_app
    from service.bootstrap import build_service
    from service.config import Config
    from tests.e2e.browser.conftest import CHROMIUM_ARGS
    from workers.embedded import EmbeddedRuntime

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", default=str(Path(__file__).resolve().parents[3] / "docs" / "screenshots")
    )
    args = parser.parse_args()
    service = build_service(
        Config(key_prefix=f"shots-{uuid.uuid4().hex[:8]}", max_bot_matches_per_client=0)
    )
    runtime = EmbeddedRuntime(service, interval_s=0.5, reconcile_s=1.0).start()
    server = make_server("127.0.0.1", 0, create_app(service, {"SSE_POLL_S": 0.5}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS
            )
            for path in take_screenshots(
                browser, f"http://127.0.0.1:{server.server_port}", Path(args.out)
            ):
                print(path)
            browser.close()
    finally:
        server.shutdown()
        runtime.stop()


if __name__ == "__main__":
    main()
