"""A.I.Pokalypse's other modes over HTTP, played to the end on the embedded service:

- a solo match (one human seat) against the A.I.Toma;
- a 6-seat match (5-8 Player Variant: the second copy's cards) with two humans and four bots.

Each export verifies on POST /v1/replays. Every response a seat or a spectator received is
recorded with its version and checked afterwards against the exported log folded to that
version by the shared hidden-information checker (``tests.support.leaks.Knowledge``): no
response shows a viewer a card that lay in the A.I.Toma's health stack, a deck or face down,
nor one another seat keeps private (hand, offered or drafted cards, a choice's options),
unless the viewer legitimately saw it (face up, or in its own events: a batch counts inner
event by inner event, each for its own seat); and another seat's hidden Recruitment move is
only a ``RecruitmentMoveMade``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.cards import SECOND_COPY_SUFFIX
from service import bootstrap
from tests.e2e.http_helpers import Http, tokens_of
from tests.e2e.test_api_aipokalypse import strings
from tests.support.leaks import Knowledge

GAME = "aipokalypse"


class Driver:
    """Humans pick from legal-actions; bots play in the workers; every response is recorded."""

    def __init__(self, http: Http, rng: random.Random, body: dict[str, Any]):
        self.http, self.rng = http, rng
        status, _, created = http.post("/v1/matches", body)
        assert status == 201, created
        self.match_id = created["match_id"]
        self.tokens = tokens_of(created)
        self.seat_count = len(body["seats"])
        self.seen: list[tuple[int | None, int, Any]] = []  # (viewer, version, response)

    def path(self, suffix: str = "") -> str:
        return f"/v1/matches/{self.match_id}{suffix}"

    def get(self, suffix: str, viewer: int | None) -> Any:
        status, _, body = self.http.get(
            self.path(suffix), self.tokens.get(viewer) if viewer is not None else None
        )
        assert status == 200, body
        self.seen.append((viewer, body["version"], body))
        return body

    def pick(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        kinds = {a["type"] for a in actions}
        if kinds & {"react_card", "react_ammo"}:
            return self.rng.choice([a for a in actions if a["type"] != "pass"])
        ready = [a for a in actions if a["type"] == "ready"]
        if ready and (len(actions) == 1 or self.rng.random() < 0.3):
            return ready[0]
        building = [
            a
            for a in actions
            if a["type"] in ("recruit", "open_slot", "triple", "spend_ammo", "choose_special")
        ]
        return self.rng.choice(building or [a for a in actions if a["type"] != "ready"] or actions)

    def step(self) -> bool:
        acted = False
        for seat, token in sorted(self.tokens.items()):
            legal = self.get("/legal-actions", seat)
            if not legal["actions"]:
                continue
            command = self.pick(legal["actions"])
            status, _, body = self.http.post(
                self.path("/actions"),
                command,
                token,
                headers={"Idempotency-Key": f"{seat}-{legal['version']}"},
            )
            if status == 409 and body["code"] in (
                "not_your_turn",
                "version_conflict",
                "match_finished",
            ):
                continue
            if status == 422 and body["code"] in ("reaction_not_allowed", "card_not_in_hand"):
                continue
            assert status == 200, (seat, command, body)
            self.seen.append((seat, body["version"], body))
            acted = True
        return acted

    def look(self) -> None:
        """Every viewer's match view and event log now."""
        for viewer in [None, *sorted(self.tokens)]:
            self.get("", viewer)
            after = 0
            while True:  # paged: 500 events per answer
                page = self.get(f"/events?after={after}&limit=500", viewer)
                after += len(page["events"])
                if not page["events"] or after >= page["version"]:
                    break

    def play(self, max_steps: int = 4000) -> dict[str, Any]:
        for step in range(max_steps):
            status, _, view = self.http.get(self.path())
            assert status == 200, view
            if view["status"] == "finished":
                self.look()
                return view
            if step % 10 == 0:
                self.look()
            if not self.step():
                self.http.get(self.path(f"/events?after={view['version']}&wait=1"))
        raise AssertionError("the match did not finish")


def check_no_leaks(driver: Driver, log: dict[str, Any]) -> int:
    """Check every recorded response (see module doc) with the shared hidden-information
    checker (:class:`tests.support.leaks.Knowledge`, which folds a ``RecruitmentMoves``
    batch inner event by inner event, each for its own seat): the exported log is folded
    to each response's version, and the response must show the viewer none of the cards
    another seat (or the A.I.Toma's health stack, a deck, a face-down card) keeps secret
    then and the viewer never legitimately saw. Returns how many were checked."""
    knowledge = Knowledge(ENGINE, driver.seat_count)
    envelopes = log["events"]
    checked = 0
    for viewer, version, response in sorted(driver.seen, key=lambda seen: seen[1]):
        knowledge.advance(envelopes[knowledge.version : version])
        leaks = knowledge.leaks(response, viewer)
        assert not leaks, (viewer, version, leaks)
        for envelope in response.get("events", []):
            if envelope["seat"] != viewer and envelope["data"] == {"hidden": True}:
                assert envelope["type"] in ("RecruitmentMoveMade",), envelope
        checked += 1
    return checked


def _verify(http: Http, driver: Driver, view: dict[str, Any]) -> dict[str, Any]:
    status, _, log = http.get(driver.path("/export"))
    assert status == 200 and log["game"] == GAME
    status, _, report = http.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report
    assert report["result"] == view["result"]
    return log


@pytest.fixture(scope="module")
def http(app, embedded_service):
    bootstrap.install(embedded_service)
    return Http(app.test_client())


def test_a_solo_match_against_the_toma_plays_to_the_end_and_verifies(http):
    driver = Driver(
        http,
        random.Random(5),
        {
            "game": GAME,
            "seats": [{"kind": "human", "name": "Solo"}],
            "options": {"mode": "solo", "difficulty": "handy_man"},
        },
    )
    view = driver.play()
    result = view["result"]
    assert result["outcome"] in ("won", "lost") and result["winners"] in ([0], [])
    assert view["view"]["mode"] == "solo" and view["view"]["toma"]["difficulty"] == "handy_man"
    log = _verify(http, driver, view)
    assert check_no_leaks(driver, log) > 20
    toma_seat = view["view"]["toma"]["seat"]
    revealed = [e for e in log["events"] if e["type"] == "HealthLost" and e["seat"] == toma_seat]
    # a won solo match took every health point of the A.I.Toma (a lost one may end before
    # the solo seat won a single battle: the match's seed decides)
    assert revealed or result["outcome"] == "lost", (
        "the A.I.Toma lost health points (its stack was revealed card by card)"
    )
    status, _, spectator = http.get(driver.path("/events?after=0&limit=5"))
    assert spectator["events"][0]["data"]["toma"]["health"] == 6


def test_a_coop_match_is_created_with_two_seats_and_rejected_with_three(http):
    status, _, created = http.post(
        "/v1/matches",
        {
            "game": GAME,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "tactician"}],
            "options": {"mode": "coop", "difficulty": "untamed"},
        },
    )
    assert status == 201, created
    status, _, problem = http.post(
        "/v1/matches", {"game": GAME, "seats": [{"kind": "human"}] * 3, "options": {"mode": "coop"}}
    )
    assert status == 400 and problem["code"] == "invalid_command"
    status, _, problem = http.post(
        "/v1/matches",
        {"game": GAME, "seats": [{"kind": "human"}], "options": {"difficulty": "impossible"}},
    )
    assert status == 400


def test_a_six_seat_match_with_the_second_copy_plays_to_the_end_and_verifies(http):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}] + [
        {"kind": "bot", "bot": level} for level in ("tactician", "random", "tactician", "random")
    ]
    driver = Driver(http, random.Random(6), {"game": GAME, "seats": seats})
    view = driver.play()
    assert (
        sorted(r["seat"] for r in view["result"]["ranking"]) == list(range(6))
        and view["result"]["winners"]
    )
    assert view["view"]["second_copy"] is True and view["view"]["toma"] is None
    log = _verify(http, driver, view)
    ids = set(strings(log["events"][0]["data"]["draw"]))
    assert any(c.endswith(SECOND_COPY_SUFFIX) for c in ids)
    assert check_no_leaks(driver, log) > 20
