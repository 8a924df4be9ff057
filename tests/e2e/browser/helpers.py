"""What the browser tests read from a page and from the API, and how they play by clicking.

The board's contract with the tests (``api/web/js``): ``#board`` carries ``data-version``
(the version of the view it draws), ``data-status`` and ``data-busy``; every drawn card is
an element with ``data-card`` (its id as the view names it); clickable things carry
``data-target`` (``card:<id>``, ``cell:<r>,<c>``, ``slot:<n>``, ``column:<n>``) and the
class ``actionable``; each legal action is a ``button.action`` with its command as JSON in
``data-action``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SETTLED = """() => { const b = document.querySelector('#board');
  return b && b.dataset.busy === 'false' && b.querySelector('.board') &&
    (b.dataset.status === 'finished' || document.querySelectorAll('.actions button.action').length > 0); }"""


class Api:
    """The public API over HTTP (``requests``), for comparing the page with it."""

    def __init__(self, base: str):
        self.base = base
        self.session = requests.Session()

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.session.get(self.base + path, headers=headers, timeout=60)
        assert response.status_code == 200, (path, response.status_code, response.text[:300])
        return response.json()

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.session.post(self.base + path, json=body, headers=headers, timeout=60)
        return response.status_code, response.json()

    def catalogue(self, game: str) -> set[str]:
        """Every card id of ``game`` (``GET /v1/games/{game}/cards``)."""
        data = self.get(f"/v1/games/{game}/cards")
        return {c["id"] for c in data["cards"]} | {o["id"] for o in data.get("objectives", [])}


def base_id(value: str, catalogue: set[str]) -> str | None:
    """The catalogue id a view's card string names (instance ``x#3``, second copy ``B017-2``)."""
    for candidate in (value, value.split("#", 1)[0], value[:-2] if value.endswith("-2") else value):
        if candidate in catalogue:
            return candidate
    return None


def card_ids(doc: Any, catalogue: set[str]) -> set[str]:
    """Every string in ``doc`` (recursively) that names a card of the catalogue."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str) and base_id(node, catalogue):
            found.add(node)

    walk(doc)
    return found


def required_cards(game: str, view: dict[str, Any], viewer: int | None) -> set[str]:
    """The cards of a view the board must draw (tableaux, hands, slots, rows, Locations)."""
    need: list[Any] = []
    if game == "ai-100-human":
        for seat in view.get("seats", []):
            need += [c["card"] for c in seat.get("tableau", [])]
        you = view.get("you") or {}
        need += you.get("hand", []) + you.get("reserve", []) + you.get("dealt", [])
        need += [c["card"] for c in view.get("neutral_grid") or []]
        need += [c["card"] for c in (view.get("solo") or {}).get("draft_grid", [])]
    elif game == "aipokalypse":
        for seat in view.get("seats", []):
            need += [s.get("unit") for s in seat.get("slots", [])] + list(seat.get("pool", []))
            if seat.get("seat") == viewer:
                need += seat.get("hand", [])
        need += [s.get("unit") for s in (view.get("toma") or {}).get("slots", [])]
    elif game == "dead-apocalypse":
        need += [c["card"] for c in view.get("zombie_row", []) if c]
        need += [c["card"] for c in view.get("resource_row", []) if c]
        for seat in view.get("seats", []):
            need += [loc["card"] for loc in seat.get("locations", [])] + list(
                seat.get("played", [])
            )
            if seat.get("seat") == viewer:
                need += seat.get("hand", [])
    return {c for c in need if isinstance(c, str)}


def drawn_cards(page: Any) -> set[str]:
    """The ``data-card`` ids drawn on the board."""
    return set(
        page.eval_on_selector_all("#board [data-card]", "els => els.map(e => e.dataset.card)")
    )


SNAPSHOT = """() => { const b = document.querySelector('#board');
  const seats = {};
  b.querySelectorAll('.board [data-seat]').forEach(s => { seats[s.dataset.seat] = s.innerText; });
  const logged = [...document.querySelectorAll('ol.log li[data-version]')].map(li => Number(li.dataset.version));
  return {version: Number(b.dataset.version), cards: [...b.querySelectorAll('[data-card]')].map(e => e.dataset.card),
          board: b.innerText, seats,
          page: document.body.innerText + ' '
            + [...document.querySelectorAll('[data-cards]')].map(e => e.dataset.cards).join(' '),
          log_version: Math.max(0, ...logged)}; }"""


def snapshot(page: Any) -> dict[str, Any]:
    """What the page shows, read at one instant (one script run: live updates may redraw
    it any time, but not within it): ``{"version" (the board's data-version), "cards"
    (set), "board", "page" (texts, with the card ids each log line's sentence names: its
    ``data-cards``), "seats" (seat -> its section's text), "log_version"}``.

    ``log_version`` is the highest version the event log shows (0 when empty). The log is
    appended as soon as an event arrives over SSE, the board only at the end of its batch
    (``js/play.js`` ``logEvent`` then ``take`` of the batch end's ``seat_state``), so it may be ahead of
    ``version``: what the page's words may name is what the viewer was sent up to
    ``max(version, log_version)``."""
    shot = page.evaluate(SNAPSHOT)
    shot["cards"] = set(shot["cards"])
    return shot


def page_version(page: Any) -> int:
    return int(page.get_attribute("#board", "data-version"))


def check_board(
    page: Any,
    api: Api,
    game: str,
    match_id: str,
    token: str | None,
    viewer: int | None,
    catalogue: set[str],
    seat_param: int | None = None,
) -> dict:
    """The board drawn at its ``data-version`` shows exactly what the API's view at that
    version holds: every required card drawn, no card drawn the view does not name, and
    each seat's score. Returns the API's view."""
    shot = snapshot(page)
    version = shot["version"]
    query = f"?version={version}" + (f"&seat={seat_param}" if seat_param is not None else "")
    state = api.get(f"/v1/matches/{match_id}/state{query}", token)
    view = state["view"]
    drawn = shot["cards"]
    named = card_ids(view, catalogue)
    assert drawn <= named, f"v{version}: drawn cards not in the view: {sorted(drawn - named)}"
    missing = required_cards(game, view, viewer) - drawn
    assert not missing, (
        f"v{version}: cards of the view not drawn: {sorted(missing)} at {paths(view, missing)}"
    )
    for seat in view.get("seats", []):
        if "score" in seat:
            section = shot["seats"].get(str(seat["seat"]), "").replace("\n", " ")
            # A.I.Pokalypse's seat "score" is the points of the battle; its total strength
            # (the result's score) is shown too
            label = "Points this battle" if game == "aipokalypse" else "Score"
            assert f"{label}: {seat['score']}" in section, (version, seat["seat"], section[:200])
            if "total_strength" in seat:
                assert f"Total strength: {seat['total_strength']}" in section, (
                    version,
                    seat["seat"],
                    section[:200],
                )
    assert shot["board"]
    return view


def targets(action: dict[str, Any]) -> list[str]:
    """The board keys a command names (the client's ``actionTargets``, ``js/targets.js``)."""
    keys: list[str] = []
    for field, value in action.items():
        if field == "type":
            continue
        if field == "cell" and isinstance(value, list):
            keys.append(f"cell:{value[0]},{value[1]}")
        elif field == "cells" and isinstance(value, list):
            keys += [f"cell:{c[0]},{c[1]}" for c in value]
        elif field in ("slot", "column") and isinstance(value, int) and not isinstance(value, bool):
            keys.append(f"{field}:{value}")
        elif isinstance(value, str) and field not in ("option", "source"):
            keys.append(f"card:{value}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            keys += [f"card:{v}" for v in value]
    return keys


def click_plan(action: dict[str, Any], actions: list[dict[str, Any]]) -> list[str] | None:
    """The board clicks that select ``action`` alone among ``actions`` (None: use its button)."""
    keys = targets(action)
    chosen: list[str] = []
    for key in keys:
        if key in chosen:
            continue
        chosen.append(key)
        left = [a for a in actions if all(k in targets(a) for k in chosen)]
        if len(left) == 1:
            return chosen
    left = [a for a in actions if set(targets(a)) == set(chosen)]
    return chosen if len(chosen) > 1 and len(left) == 1 else None


def settle(page: Any) -> None:
    """Wait until the board is drawn, idle, and either offers moves or shows the result."""
    page.wait_for_function(SETTLED)


def rendered_actions(page: Any) -> list[dict[str, Any]]:
    return [
        json.loads(a)
        for a in page.eval_on_selector_all(
            ".actions button.action", "bs => bs.map(b => b.dataset.action)"
        )
    ]


def make_move(page: Any, rng: random.Random, prefer_board: bool = True) -> dict[str, Any] | None:
    """Pick one of the offered actions and make it by clicking — on the board when the
    card/cell/slot/column clicks name it alone, else its button — and wait until it is
    taken (a newer version drawn, or the problem shown). ``None`` when the offer changed
    under the click (another seat moved first): the caller settles and tries again."""
    actions = rendered_actions(page)
    if not actions:
        return None
    action = rng.choice(actions)
    before = page_version(page)
    plan = click_plan(action, actions) if prefer_board else None
    try:
        if plan and all(
            page.locator(f"#board [data-target='{k}'].actionable").count() for k in plan
        ):
            for key in plan:
                page.locator(f"#board [data-target='{key}'].actionable").first.click(timeout=15_000)
        else:
            page.locator(".actions button.action").nth(actions.index(action)).click(timeout=15_000)
        page.wait_for_function(
            """(v) => { const b = document.querySelector('#board');
               return (b && Number(b.dataset.version) > v && b.dataset.busy === 'false')
                      || document.querySelector('#problem').textContent !== ''; }""",
            arg=before,
            timeout=30_000,
        )
    except PlaywrightTimeout:
        return None
    return action


def ids_in_text(text: str, ids: Iterable[str]) -> set[str]:
    """The ids that occur in ``text`` as whole words."""
    import re

    return {i for i in ids if re.search(rf"(?<![\w#.-]){re.escape(i)}(?![\w#.-])", text)}


def paths(doc: Any, wanted: set[str], where: str = "") -> list[str]:
    """Where in ``doc`` the strings ``wanted`` occur (for failure messages)."""
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in paths(v, wanted, f"{where}.{k}")]
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in paths(v, wanted, f"{where}[{i}]")]
    return [where] if doc in wanted else []
