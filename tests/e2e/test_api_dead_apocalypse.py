"""A whole Dead Apocalypse match over HTTP: two humans (picking from legal-actions) and a
``cooperative`` bot in the embedded workers, on the same match service as every game.

Both humans Call for Help whenever it is legal (Call for Help: only while attacked) and
answer every Call for Help with ``assist``; a match counts once a human's Call for Help was
answered by the other human, who then played cards whose damage is marked ``ally``. The
match is played to its end (won or lost together); the export verifies on POST /v1/replays
and a tampered export does not; no response to one human shows the other human's hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from service import bootstrap
from tests.e2e.http_helpers import Http, tokens_of

GAME = "dead-apocalypse"
SEATS = [
    {"kind": "human", "name": "Ada"},
    {"kind": "human", "name": "Bo"},
    {"kind": "bot", "bot": "cooperative"},
]
HUMANS = (0, 1)
MAX_MATCHES = 6
MAX_STEPS = 6000


def pick(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A human's command: answer help with ``assist``, claim an Adept Survivor, play every
    card, defeat what it can, Call for Help when it may, then end the turn/assist."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    for kind in ("assist", "play", "defeat", "call_for_help"):
        if kind in by_type:
            return rng.choice(by_type[kind])
    if "claim" in by_type:
        return next((a for a in by_type["claim"] if a["choice"] == "adept"), by_type["claim"][0])
    if "choose" in by_type and "location" in by_type["choose"][0]:
        return by_type["choose"][0]  # Recruiter: occupy a Location
    for kind in ("skip", "end_assist", "end_turn"):
        if kind in by_type:
            return by_type[kind][0]
    return actions[0]


class Table:
    """One match driven over HTTP by the two humans; the bot plays in the workers."""

    def __init__(self, http: Http, rng: random.Random):
        self.http, self.rng = http, rng
        status, _, body = http.post("/v1/matches", {"game": GAME, "seats": SEATS})
        assert status == 201, body
        self.created = body
        self.match_id = body["match_id"]
        self.tokens = tokens_of(body)
        assert sorted(self.tokens) == list(HUMANS)
        self.own_hands: dict[int, set[str]] = {0: set(), 1: set()}

    def path(self, suffix: str = "") -> str:
        return f"/v1/matches/{self.match_id}{suffix}"

    def check_view(self, seat: int, view: dict[str, Any]) -> None:
        """A seat's view shows its own hand and no other seat's hand."""
        for entry in view["view"]["seats"]:
            if entry["seat"] == seat:
                assert len(entry["hand"]) == entry["hand_count"]
                self.own_hands[seat] |= set(entry["hand"])
            else:
                assert "hand" not in entry

    def step(self) -> bool:
        """Each human with a decision sends one command; True when one was accepted."""
        acted = False
        for seat, token in sorted(self.tokens.items()):
            status, _, legal = self.http.get(self.path("/legal-actions"), token)
            assert status == 200, legal
            if not legal["actions"]:
                continue
            status, _, view = self.http.get(self.path(), token)
            assert status == 200, view
            self.check_view(seat, view)
            command = pick(legal["actions"], self.rng)
            status, _, body = self.http.post(
                self.path("/actions"), command, token, headers={"If-Match": str(legal["version"])}
            )
            if status in (409, 412) and body.get("code") in (
                "not_your_turn",
                "version_conflict",
                "match_finished",
            ):
                continue
            assert status == 200, (command, body)
            acted = True
        return acted

    def play(self) -> dict[str, Any]:
        """Play to the end; returns the final spectator view."""
        for _ in range(MAX_STEPS):
            status, _, view = self.http.get(self.path())
            assert status == 200, view
            if view["status"] == "finished":
                return view
            if not self.step():
                self.http.get(self.path(f"/events?after={view['version']}&wait=2"))
        raise AssertionError(f"match {self.match_id} did not finish")


def human_help_exchanges(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """``(caller, helper)`` pairs where a human's Call for Help was answered ``assist`` by
    the other human and that helper then gained ally damage."""
    pairs = []
    caller = None
    for i, e in enumerate(events):
        if e["type"] == "TurnStarted":
            caller = None
        elif e["type"] == "HelpCalled":
            caller = e["data"]["seat"]
        elif (
            e["type"] == "HelpAnswered"
            and e["data"]["assist"]
            and caller in HUMANS
            and e["data"]["seat"] in HUMANS
            and e["data"]["seat"] != caller
        ):
            helper = e["data"]["seat"]
            rest = events[i + 1 :]
            end = next((k for k, x in enumerate(rest) if x["type"] == "AssistEnded"), len(rest))
            if any(
                x["type"] == "DamageGained" and x["data"]["seat"] == helper and x["data"]["ally"]
                for x in rest[:end]
            ):
                pairs.append((caller, helper))
    return pairs


@pytest.fixture(scope="module")
def finished(app, embedded_service):
    """``(http, table, final view, export)`` of the first match (of up to MAX_MATCHES)
    in which one human Called for Help and the other assisted."""
    bootstrap.install(embedded_service)
    http = Http(app.test_client())
    rng = random.Random(2026)
    for _ in range(MAX_MATCHES):
        table = Table(http, rng)
        view = table.play()
        status, _, log = http.get(table.path("/export"))
        assert status == 200, log
        if human_help_exchanges(log["events"]):
            return http, table, view, log
    raise AssertionError("no match had a human Call for Help answered by the other human")


def test_match_ends_won_or_lost_together(finished):
    _, table, view, _ = finished
    result = view["result"]
    assert view["status"] == "finished" and result["outcome"] in ("won", "lost")
    if result["outcome"] == "won":
        assert result["reason"] == "cdc_gained" and result["winners"] == [0, 1, 2]
        assert view["view"]["cdc_holder"] in (0, 1, 2)
    else:
        assert (
            result["reason"] in ("resource_stack_empty", "turn_limit") and result["winners"] == []
        )
    assert result["scores"] == [result["scores"][0]] * 3


def test_a_human_called_for_help_and_the_other_human_assisted(finished):
    _, _, _, log = finished
    pairs = human_help_exchanges(log["events"])
    assert pairs and all(caller != helper for caller, helper in pairs)
    bot_turns = [e for e in log["events"] if e["type"] == "TurnStarted" and e["data"]["seat"] == 2]
    assert bot_turns, "the cooperative bot took turns in the workers"
    assert any(e.get("cause") == "bot" for e in log["events"])


def test_export_verifies_on_replay_and_a_tampered_log_does_not(finished):
    http, _, view, log = finished
    assert log["format"] == "apocalypse-arena/log@3" and log["game"] == GAME
    assert [e["version"] for e in log["events"]] == list(range(1, view["version"] + 1))
    status, _, report = http.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report
    assert report["version"] == view["version"] and report["result"] == view["result"]

    tampered = json.loads(json.dumps(log))
    defeat = next(e for e in tampered["events"] if e["type"] == "ZombieDefeated")
    defeat["data"]["column"] = (defeat["data"]["column"] + 1) % 5
    status, _, report = http.post("/v1/replays", tampered)
    assert status == 200 and report["valid"] is False and report["errors"]


def test_no_response_shows_one_human_the_other_humans_hand(finished):
    http, table, _, log = finished
    # The humans' own views showed their hands (check_view), never the other's; the event
    # feed of one human carries the other's draws only as counts.
    assert table.own_hands[0] and table.own_hands[1]
    status, _, page = http.get(table.path("/events?limit=500"), table.tokens[1])
    assert status == 200
    draws = [e for e in page["events"] if e["type"] == "CardsDrawn"]
    assert any(e["data"]["seat"] == 1 and "cards" in e["data"] for e in draws)
    for e in draws:
        if e["data"]["seat"] != 1:
            assert "cards" not in e["data"] and e["data"]["count"] >= 0
    shuffles = [
        e
        for e in page["events"]
        if e["type"] in ("DeckShuffled", "ZombieStackFormed", "ResourceStackFormed")
    ]
    assert shuffles and all("order" not in e["data"] for e in shuffles)
