"""Abuse limits over HTTP (issue 12 item 6): per-client request rate limits (429
``rate_limited`` with ``Retry-After``), the caps on bot options (422 ``bot_options_capped``)
and on running bot matches per client (429 ``too_many_bot_matches``), freed when a match ends.

The limits are tiny per-hour windows: a test exhausts one in a few requests and never waits
for a window to pass. The rest of the suite runs with rate limits off (tests/conftest.py).
"""

from __future__ import annotations

import uuid

import pytest
import redis

from api.app import create_app
from domain.games import registry
from service import bootstrap
from service.bootstrap import build_service
from service.config import Config
from tests.e2e.http_helpers import GAME_OPTIONS, Http, tokens_of
from tests.support.games import ENGINES
from tests.support.runtime import drain

RACE_BOT = {
    "game": "race",
    "options": {"target": 3},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
}
RACE_HUMANS = {
    "game": "race",
    "options": {"target": 3},
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def _service(**config):
    """An embedded service (own prefix; nobody runs its bot jobs unless a test drains them)."""
    return build_service(
        Config(key_prefix=f"lim-{uuid.uuid4().hex[:8]}", **config),
        engines={**registry(), **ENGINES},
    )


@pytest.fixture
def limited():
    """``make(settings, **config) -> (http, service)``: the API with rate limits on."""

    def make(settings=None, **config):
        service = bootstrap.install(_service(**config))
        app = create_app(
            service,
            {
                "TESTING": True,
                "ARENA_RATE_LIMITS_ENABLED": "1",
                "ARENA_RATE_LIMITS": "1000/hour",
                "ARENA_CREATE_RATE_LIMITS": "1000/hour",
                **(settings or {}),
            },
        )
        return Http(app.test_client()), service

    yield make
    bootstrap.reset()


def _assert_rate_limited(status, headers, body, window_s=3600):
    assert status == 429, body
    assert headers["Content-Type"] == "application/problem+json"
    assert body["code"] == "rate_limited" and body["status"] == 429
    assert body["type"].endswith("/rate_limited")
    retry = int(headers["Retry-After"])  # RFC 9110 10.2.3: delay-seconds
    assert 1 <= retry <= window_s


def test_a_client_over_the_limit_gets_429_problem_json_with_retry_after(limited):
    http, _ = limited({"ARENA_RATE_LIMITS": "3/hour"})
    for _ in range(3):
        assert http.get("/v1/games")[0] == 200
    status, headers, body = http.get("/v1/games")
    _assert_rate_limited(status, headers, body)
    assert body["limit"] == "3 per 1 hour"
    assert http.get("/v1/matches")[0] == 429  # one budget over every /v1 endpoint


def test_ops_endpoints_are_not_limited(limited):
    http, _ = limited({"ARENA_RATE_LIMITS": "1/hour"})
    assert http.get("/v1/games")[0] == 200
    assert http.get("/v1/games")[0] == 429
    for _ in range(3):
        assert http.get("/healthz")[0] == 200
        assert http.get("/openapi.yaml")[0] == 200


def test_disabled_limits_let_everything_through(limited):
    http, _ = limited({"ARENA_RATE_LIMITS_ENABLED": "0", "ARENA_RATE_LIMITS": "1/hour"})
    assert all(http.get("/v1/games")[0] == 200 for _ in range(5))


def test_making_matches_has_its_own_stricter_limit_shared_with_fork(limited):
    http, _ = limited({"ARENA_CREATE_RATE_LIMITS": "2/hour"})
    for _ in range(2):
        assert http.post("/v1/matches", RACE_HUMANS)[0] == 201
    _assert_rate_limited(*http.post("/v1/matches", RACE_HUMANS))
    # fork shares the creation budget: refused before the view looks for the match
    _assert_rate_limited(*http.post(f"/v1/matches/{'0' * 20}/fork", {"version": 1}))
    assert http.get("/v1/games")[0] == 200  # reads keep their own budget


def test_each_seat_token_is_its_own_client_and_wrong_tokens_count_for_the_address(limited):
    http, _ = limited({"ARENA_RATE_LIMITS": "4/hour"})
    status, _, created = http.post("/v1/matches", RACE_HUMANS)  # address: 1 of 4
    assert status == 201
    mid, tokens = created["match_id"], tokens_of(created)
    a, b = tokens[0], tokens[1]
    for _ in range(4):
        assert http.get(f"/v1/matches/{mid}", a)[0] == 200
    _assert_rate_limited(*http.get(f"/v1/matches/{mid}", a))
    assert http.get(f"/v1/matches/{mid}", b)[0] == 200  # another seat, own budget
    # random tokens buy no fresh budgets: each counts for the address (3 left)
    answers = [http.get(f"/v1/matches/{mid}", uuid.uuid4().hex)[0] for _ in range(4)]
    assert answers == [401, 401, 401, 429]
    assert http.get("/v1/games")[0] == 429


def test_forwarded_for_is_ignored_without_trusted_proxies(limited):
    http, _ = limited({"ARENA_RATE_LIMITS": "2/hour"})
    assert http.get("/v1/games", headers={"X-Forwarded-For": "198.51.100.1"})[0] == 200
    assert http.get("/v1/games", headers={"X-Forwarded-For": "198.51.100.2"})[0] == 200
    assert http.get("/v1/games", headers={"X-Forwarded-For": "198.51.100.3"})[0] == 429


def test_a_trusted_proxy_count_takes_the_client_from_x_forwarded_for(limited):
    http, _ = limited({"ARENA_RATE_LIMITS": "2/hour", "ARENA_TRUSTED_PROXIES": "1"})
    # one trusted proxy: the right-most address is the client (what the proxy appended)
    first = {"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}
    assert http.get("/v1/games", headers=first)[0] == 200
    assert http.get("/v1/games", headers=first)[0] == 200
    assert http.get("/v1/games", headers=first)[0] == 429
    assert http.get("/v1/games", headers={"X-Forwarded-For": "198.51.100.2"})[0] == 200


def test_counters_live_in_the_store_redis_under_the_key_prefix(real_config):
    service = build_service(real_config)
    app = create_app(service, {"ARENA_RATE_LIMITS_ENABLED": "1", "ARENA_RATE_LIMITS": "2/hour"})
    http = Http(app.test_client())
    assert [http.get("/v1/games")[0] for _ in range(2)] == [200, 200]
    _assert_rate_limited(*http.get("/v1/games"))
    conn = redis.Redis.from_url(real_config.redis_url, decode_responses=True)
    keys = list(conn.scan_iter(f"{real_config.key_prefix}:*", count=1000))
    assert keys and all(k.startswith(f"{real_config.key_prefix}:limits:") for k in keys), keys
    assert all(0 < conn.ttl(k) <= 3600 for k in keys)  # each expires with its window


# ------------------------------------------------------------------------ bot caps
def test_six_expert_bots_at_the_largest_budgets_are_refused_naming_seat_and_option(limited):
    http, service = limited()
    seats = [
        {"kind": "bot", "bot": "expert", "bot_options": {"budget": 4096, "time_budget_ms": 10000}}
    ] * 6
    status, headers, body = http.post(
        "/v1/matches",
        {"game": "ai-100-human", "options": GAME_OPTIONS["ai-100-human"], "seats": seats},
    )
    assert status == 422, body
    assert headers["Content-Type"] == "application/problem+json"
    assert body["code"] == "bot_options_capped"
    assert (body["seat"], body["option"], body["cap"]) == (0, "budget", 512)
    assert "512" in body["detail"] and "budget" in body["detail"]
    assert service.stores.index.running_count() == 0  # nothing stored


@pytest.mark.parametrize(
    "options, option, cap",
    [
        ({"budget": 513}, "budget", 512),
        ({"time_budget_ms": 2001}, "time_budget_ms", 2000),
    ],
)
def test_each_capped_bot_option_is_refused_just_above_its_cap(limited, options, option, cap):
    http, _ = limited()
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": options}]
    status, _, body = http.post(
        "/v1/matches",
        {"game": "ai-100-human", "options": GAME_OPTIONS["ai-100-human"], "seats": seats},
    )
    assert status == 422, body
    assert (body["code"], body["seat"], body["option"], body["cap"]) == (
        "bot_options_capped",
        1,
        option,
        cap,
    )


def test_bot_options_at_the_caps_are_accepted(limited):
    http, _ = limited()
    seats = [
        {"kind": "human"},
        {"kind": "bot", "bot": "expert", "bot_options": {"budget": 512, "time_budget_ms": 2000}},
    ]
    status, _, body = http.post(
        "/v1/matches",
        {"game": "ai-100-human", "options": GAME_OPTIONS["ai-100-human"], "seats": seats},
    )
    assert status == 201, body


def test_caps_set_by_the_environment_are_the_ones_applied(limited):
    config = Config.from_env({"ARENA_MAX_BOT_BUDGET": "64", "ARENA_MAX_BOT_TIME_MS": "0"})
    http, _ = limited(max_bot_budget=config.max_bot_budget, max_bot_time_ms=config.max_bot_time_ms)

    def create(options):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": options}]
        return http.post(
            "/v1/matches",
            {"game": "ai-100-human", "options": GAME_OPTIONS["ai-100-human"], "seats": seats},
        )

    assert create({"budget": 65})[2]["cap"] == 64
    assert create({"time_budget_ms": 10000})[0] == 201  # 0: no cap


# ------------------------------------------------------------------------ running bot matches
def _play_to_the_end(http, service, mid, token):
    """Race to 3: whoever moves first adds 3 and wins (the bot's turn is run here)."""
    for _ in range(10):
        status, _, view = http.get(f"/v1/matches/{mid}", token)
        assert status == 200
        if view["status"] == "finished":
            return
        if 0 in {int(s) for s in view.get("pending", {})}:
            assert (
                http.post(f"/v1/matches/{mid}/actions", {"type": "add", "amount": 3}, token)[0]
                == 200
            )
        else:
            drain(service)
    raise AssertionError(f"match {mid} did not finish")


def test_running_bot_matches_per_client_are_capped_and_freed_when_a_match_ends(limited):
    http, service = limited(max_bot_matches_per_client=2)
    made = [http.post("/v1/matches", RACE_BOT)[2] for _ in range(2)]
    assert all("match_id" in m for m in made), made
    status, headers, body = http.post("/v1/matches", RACE_BOT)
    assert status == 429, body
    assert headers["Content-Type"] == "application/problem+json"
    assert body["code"] == "too_many_bot_matches" and body["cap"] == 2
    assert int(headers["Retry-After"]) >= 1
    assert http.post("/v1/matches", RACE_HUMANS)[0] == 201  # no bot seat: not counted
    client = "addr:127.0.0.1"
    assert service.quotas.running(client) == 2
    _play_to_the_end(http, service, made[0]["match_id"], tokens_of(made[0])[0])
    # draining the bot jobs may have played (and ended) the other match too
    running = sum(http.get(f"/v1/matches/{m['match_id']}")[2]["status"] == "running" for m in made)
    assert running <= 1 and service.quotas.running(client) == running  # released by their end
    for _ in range(2 - running):
        status, _, third = http.post("/v1/matches", RACE_BOT)
        assert status == 201, third
    assert http.post("/v1/matches", RACE_BOT)[0] == 429


def test_a_count_left_behind_by_a_lost_release_is_repaired_at_the_cap(limited):
    http, service = limited(max_bot_matches_per_client=1)
    status, _, made = http.post("/v1/matches", RACE_BOT)
    assert status == 201
    mid = made["match_id"]
    _play_to_the_end(http, service, mid, tokens_of(made)[0])
    # a process died between the final append and the release: the id is still counted
    service.stores.bot_matches.reserve("addr:127.0.0.1", mid, 1)
    assert service.quotas.running("addr:127.0.0.1") == 1
    status, _, body = http.post("/v1/matches", RACE_BOT)
    assert status == 201, body  # the finished id was pruned
    assert service.stores.bot_matches.members("addr:127.0.0.1") == {body["match_id"]}


def test_a_match_being_created_is_not_pruned_by_another_request_at_the_cap(limited):
    """A request between its reservation and its write holds an id with no meta yet: a
    second request meeting the cap must not prune it (before the in-flight mark, it did,
    and both matches were made: a cap of 1, two running bot matches)."""
    http, service = limited(max_bot_matches_per_client=1)
    client, racing = "addr:127.0.0.1", "f" * 20
    assert service.stores.bot_matches.reserve(client, racing, 1) == 1  # no meta written yet
    status, _, body = http.post("/v1/matches", RACE_BOT)
    assert (status, body["code"]) == (429, "too_many_bot_matches")
    assert service.stores.bot_matches.members(client) == {racing}
    # its creator died: once the mark has expired (IN_FLIGHT_S), the cap repairs itself
    service.stores.redis.delete(service.stores.keys.reserving(racing))
    status, _, body = http.post("/v1/matches", RACE_BOT)
    assert status == 201, body
    assert service.stores.bot_matches.members(client) == {body["match_id"]}
    # a stored match is no longer in flight: its mark is gone
    assert not service.stores.redis.exists(service.stores.keys.reserving(body["match_id"]))


def test_a_refused_creation_counts_nothing(limited):
    http, service = limited(max_bot_matches_per_client=1)
    bad = {**RACE_BOT, "options": {"target": 1}}  # the game refuses the options
    assert http.post("/v1/matches", bad)[0] in (400, 422)
    assert service.quotas.running("addr:127.0.0.1") == 0
    assert http.post("/v1/matches", RACE_BOT)[0] == 201


def test_forks_count_as_bot_matches_of_the_client(limited):
    http, service = limited(max_bot_matches_per_client=1)
    status, _, made = http.post("/v1/matches", RACE_BOT)
    mid = made["match_id"]
    _play_to_the_end(http, service, mid, tokens_of(made)[0])
    status, _, fork = http.post(f"/v1/matches/{mid}/fork", {"version": 1})
    assert status == 201, fork
    status, _, body = http.post(f"/v1/matches/{mid}/fork", {"version": 1})
    assert (status, body["code"]) == (429, "too_many_bot_matches")


def test_in_process_callers_are_not_capped():
    service = _service(max_bot_matches_per_client=1, max_bot_budget=1)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": {"budget": 8}}]
    for _ in range(2):
        service.create_match("ai-100-human", seats, GAME_OPTIONS["ai-100-human"])


def test_a_player_key_has_its_own_budget_on_every_endpoint(limited):
    """Issue 22: a request with a valid player key is that player's (``player:<id>``):
    its budget is spent on any endpoint, and another player's (or the address's) is not."""
    http, service = limited({"ARENA_RATE_LIMITS": "3/hour"})
    ann, bob = service.create_player("Ann"), service.create_player("Bob")
    assert http.get("/v1/games", ann["key"])[0] == 200
    assert http.get(f"/v1/players/{ann['player_id']}", ann["key"])[0] == 200
    assert http.get("/v1/games/duel/leaderboard", ann["key"])[0] == 200
    status, headers, body = http.get("/v1/games", ann["key"])
    _assert_rate_limited(status, headers, body)
    assert http.get("/v1/games", bob["key"])[0] == 200  # another player
    assert http.get("/v1/games")[0] == 200  # the address


def test_the_aipokalypse_expert_is_capped_by_the_same_option_names(limited):
    http, _ = limited()
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "expert", "bot_options": {"budget": 513}}]
    status, _, body = http.post("/v1/matches", {"game": "aipokalypse", "seats": seats})
    assert status == 422, body
    assert (body["code"], body["seat"], body["option"], body["cap"]) == (
        "bot_options_capped",
        1,
        "budget",
        512,
    )
    seats[1]["bot_options"] = {"budget": 512, "time_budget_ms": 2000}
    status, _, body = http.post("/v1/matches", {"game": "aipokalypse", "seats": seats})
    assert status == 201, body
