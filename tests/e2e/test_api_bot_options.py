"""Per-seat bot options over HTTP: the catalogue lists each level's options schema, an
AI: 100% Human solo match played by an ``expert`` seat with ``{"budget": 8,
"time_budget_ms": 300}`` runs to the end through the embedded RQ worker with a bot built
from exactly those options, and refused options are a 400 ``validation_error`` naming the
seat and the option, with nothing stored."""

from __future__ import annotations

import threading

import pytest

from domain.games.ai_100_human.expert import ExpertBot
from service import bootstrap
from tests.e2e.http_helpers import GAME, Http, create, play_until_finished
from tests.support.polling import wait_for

OPTIONS = {"budget": 8, "time_budget_ms": 300}


@pytest.fixture
def counted_expert(embedded_service, monkeypatch):
    """The expert bot the service builds for :data:`OPTIONS`, its ``choose`` wrapped to
    record the rollouts of every decision it makes (one list entry per decision)."""
    engine = embedded_service.engines[GAME]
    bot = embedded_service.bot_cache.get(engine, "expert", OPTIONS)
    decisions: list[int] = []
    lock = threading.Lock()
    original = bot.choose

    def choose(state, seat, rng):
        command = original(state, seat, rng)
        with lock:
            decisions.append(bot.last_rollouts)
        return command

    monkeypatch.setattr(bot, "choose", choose)
    return bot, decisions


def test_the_catalogue_lists_each_bot_levels_options_schema(http):
    status, _, game = http.get(f"/v1/games/{GAME}")
    assert status == 200
    assert set(game["bot_options"]) == set(game["bots"]) == {"random", "greedy", "expert", "idle"}
    expert = game["bot_options"]["expert"]
    assert expert["additionalProperties"] is False
    assert {
        k: (p["type"], p["minimum"], p["maximum"]) for k, p in expert["properties"].items()
    } == {
        "budget": ("integer", 0, 4096),
        "candidates": ("integer", 1, 24),
        "time_budget_ms": ("integer", 50, 10000),
    }
    assert game["bot_options"]["greedy"]["properties"] == {}
    status, _, catalogue = http.get("/v1/games")
    assert status == 200
    for entry in catalogue["games"]:
        assert set(entry["bot_options"]) == set(entry["bots"])


def test_dead_apocalypse_lists_its_expert_level_and_options(http):
    """Issue 23: Dead Apocalypse's ``expert`` is in the catalogue with its options."""
    status, _, game = http.get("/v1/games/dead-apocalypse")
    assert status == 200
    assert (
        set(game["bot_options"]) == set(game["bots"]) == {"random", "cooperative", "idle", "expert"}
    )
    expert = game["bot_options"]["expert"]
    assert {
        k: (p["type"], p["minimum"], p["maximum"]) for k, p in expert["properties"].items()
    } == {
        "budget": ("integer", 0, 4096),
        "candidates": ("integer", 1, 12),
        "time_budget_ms": ("integer", 50, 10000),
    }
    assert game["bot_options"]["cooperative"]["properties"] == {}


def test_a_solo_expert_seat_with_options_plays_to_the_end_with_those_options(
    app, embedded_service, counted_expert
):
    bootstrap.install(embedded_service)
    http = Http(app.test_client())
    bot, decisions = counted_expert
    assert isinstance(bot, ExpertBot) and (bot.budget, bot.time_cap_s) == (8, 0.3)
    created = create(http, [{"kind": "bot", "bot": "expert", "bot_options": OPTIONS}])
    assert created["seats"] == [{"seat": 0, "kind": "bot", "bot": "expert", "bot_options": OPTIONS}]
    view = play_until_finished(http, created["match_id"], {}, rng=None)
    assert view["status"] == "finished" and view["view"]["mode"] == "solo"
    assert "rating" in view["result"]
    assert view["seats"][0]["bot_options"] == OPTIONS
    status, _, log = http.get(f"/v1/matches/{created['match_id']}/export")
    assert status == 200 and log["seats"][0]["bot_options"] == OPTIONS
    bot_commands = [e for e in log["events"] if e.get("command")]
    assert bot_commands and {e["cause"] for e in bot_commands} == {"bot"}
    # Every bot decision of the match was made by the bot built from these options (the
    # shared default expert would have left this list empty) ...
    assert len(decisions) == len(bot_commands)
    # ... and within its budget: solo runs 4 x budget rollouts, times at most
    # HORIZON_BUDGET_MAX near the end of the match (8 -> 192; the default budget 48
    # would allow 1152).
    from domain.games.ai_100_human.expert import HORIZON_BUDGET_MAX, MODE_BUDGET_FACTOR

    most = int(OPTIONS["budget"] * MODE_BUDGET_FACTOR["solo"] * HORIZON_BUDGET_MAX)
    assert max(decisions) <= most < 48 * MODE_BUDGET_FACTOR["solo"] * HORIZON_BUDGET_MAX
    assert max(decisions) > 0
    status, _, report = http.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report


def _matches_stored(service) -> int:
    return service.stores.index.match_count()


@pytest.mark.parametrize(
    "seat, where",
    [
        ({"kind": "bot", "bot": "expert", "bot_options": {"budget": 4097}}, ("budget",)),
        (
            {"kind": "bot", "bot": "expert", "bot_options": {"time_budget_ms": 49}},
            ("time_budget_ms",),
        ),
        ({"kind": "bot", "bot": "expert", "bot_options": {"candidates": 0}}, ("candidates",)),
        ({"kind": "bot", "bot": "expert", "bot_options": {"budget": "8"}}, ("budget",)),
        ({"kind": "bot", "bot": "expert", "bot_options": {"budget": True}}, ("budget",)),
        ({"kind": "bot", "bot": "expert", "bot_options": {"depth": 3}}, ("depth",)),
        ({"kind": "bot", "bot": "greedy", "bot_options": {"budget": 8}}, ("budget",)),
        ({"kind": "bot", "bot": "expert", "bot_options": [8]}, ()),
        ({"kind": "bot", "bot": "expert", "bot_options": None}, ()),
    ],
)
def test_invalid_bot_options_are_a_400_naming_the_seat_and_option(
    http, embedded_service, seat, where
):
    before = _matches_stored(embedded_service)
    status, headers, problem = http.post(
        "/v1/matches", {"game": GAME, "seats": [{"kind": "human"}, seat]}
    )
    assert status == 400, problem
    assert headers["Content-Type"].startswith("application/problem+json")
    assert problem["code"] == "validation_error"
    errors = problem["errors"]["seats"]["1"]["bot_options"]
    for key in where:
        errors = errors[key]
    assert errors and all(isinstance(m, str) for m in errors)
    assert _matches_stored(embedded_service) == before


@pytest.mark.parametrize("kind", ["human", "open"])
def test_bot_options_on_a_seat_that_is_not_a_bot_are_a_400(http, embedded_service, kind):
    before = _matches_stored(embedded_service)
    for options in ({}, OPTIONS):
        status, _, problem = http.post(
            "/v1/matches", {"game": GAME, "seats": [{"kind": kind, "bot_options": options}]}
        )
        assert status == 400 and problem["code"] == "validation_error", problem
        assert problem["errors"]["seats"]["0"]["bot_options"] == [
            "Only a bot seat has bot options."
        ]
    assert _matches_stored(embedded_service) == before


def test_a_fork_with_new_seats_checks_their_bot_options(app, embedded_service):
    bootstrap.install(embedded_service)
    http = Http(app.test_client())
    created = create(http, [{"kind": "bot", "bot": "greedy"}] * 2)
    view = play_until_finished(http, created["match_id"], {}, rng=None)
    # the worker that ended the match compacts it right after (it then leaves the index):
    # count once that is done, or the count drops by itself (a flake seen in CI)
    assert wait_for(lambda: embedded_service._record(created["match_id"]).compacted, 60)
    before = _matches_stored(embedded_service)
    status, _, problem = http.post(
        f"/v1/matches/{created['match_id']}/fork",
        {
            "version": view["version"],
            "seats": [
                {"kind": "bot", "bot": "expert", "bot_options": {"budget": -1}},
                {"kind": "human"},
            ],
        },
    )
    assert status == 400 and problem["code"] == "validation_error", problem
    assert "budget" in problem["errors"]["seats"]["0"]["bot_options"]
    assert _matches_stored(embedded_service) == before


def test_the_catalogue_lists_the_aipokalypse_expert_and_its_options(http):
    status, _, game = http.get("/v1/games/aipokalypse")
    assert status == 200
    assert "expert" in game["bots"] and set(game["bot_options"]) == set(game["bots"])
    expert = game["bot_options"]["expert"]
    assert expert["additionalProperties"] is False
    assert {
        k: (p["type"], p["minimum"], p["maximum"]) for k, p in expert["properties"].items()
    } == {
        "budget": ("integer", 0, 4096),
        "candidates": ("integer", 1, 12),
        "time_budget_ms": ("integer", 50, 10000),
    }
    assert game["bot_options"]["tactician"]["properties"] == {}
