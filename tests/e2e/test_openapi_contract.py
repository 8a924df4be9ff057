"""openapi.yaml is a valid OpenAPI 3.1 document, documents exactly the served routes, and
the running app honours it for every game of the registry: schemathesis sends generated
requests (half of them aimed at a real match of that game with a real seat token) and
every answer must be a documented status with a body matching its schema — never a 5xx."""

from __future__ import annotations

import json
import random
import re
import zlib
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from openapi_spec_validator import validate
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from domain.games import registry
from service import bootstrap
from tests.e2e.http_helpers import GAME, GAME_OPTIONS, Http, create, tokens_of
from tests.support import depth
from tests.support.game_settings import e2e_seats
from tests.support.openapi_doc import openapi_document

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def test_openapi_document_is_valid_openapi_3_1():
    document = openapi_document(OPENAPI)
    validate(document)
    assert document["openapi"].startswith("3.1")
    assert document["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"


def test_every_route_is_documented_and_every_documented_path_is_served(app):
    document = openapi_document(OPENAPI)
    documented = {
        (path, method.upper())
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "post", "put", "delete", "patch")
    }
    served = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        path = path.replace("{game_id}", "{game}")
        served |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == documented


def held(value) -> bool:
    """True when ``value`` (a generated ``wait``) reads as a number of seconds in (0, 30]:
    a long-poll the server would hold that long. Anything else is answered at once (a 400
    for a value out of range or not a number, which a negative run must still send)."""
    try:
        seconds = float(str(value))
    except ValueError:
        return False
    return 0 < seconds <= 30


def aim(case, match_id: str, token: str, rng: random.Random) -> None:
    """Point about half of the match cases at a real match and seat; keep waits at 0 s
    (a ``wait`` of legal-actions or of a POST of actions only when the server would hold it:
    :func:`held`)."""
    if "match_id" in (case.path_parameters or {}) and rng.random() < 0.5:
        case.path_parameters["match_id"] = match_id
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    if case.path.endswith("/events") or case.path.endswith("/stream"):
        query = dict(case.query or {})
        query["wait" if case.path.endswith("/events") else "max_s"] = 0
        case.query = query
    if (case.path.endswith("/legal-actions") or case.path.endswith("/actions")) and held(
        (case.query or {}).get("wait")
    ):
        case.query = {**case.query, "wait": 0}


#: generated requests per operation and mode: the first game gets the most (its run is
#: the one the contract has always had), the others enough to reach their commands
EXAMPLES = {GAME: 15}
#: operations whose body is a whole export log (a replay, an analysis of an uploaded log):
#: generating such bodies was most of the first game's runs (POST /v1/replays 26 s and
#: POST /v1/analyses 15 s of the negative run's 67 s; 17 s and 9 s of the positive one),
#: and a few of them reach every check; their limits and refusals are tested case by case
#: (tests/e2e/test_api_replay_limits.py, tests/e2e/test_api_analysis.py)
LOG_BODY_EXAMPLES = {"POST /v1/replays": 4, "POST /v1/analyses": 4}


def examples_for(game: str, label: str) -> int:
    """Generated requests for the operation ``label`` in the contract run of ``game``
    (before :func:`tests.support.depth.examples` scales them)."""
    return LOG_BODY_EXAMPLES.get(label, EXAMPLES.get(game, 8))


def on_a_match(operation) -> bool:
    """True for an operation on one match (a ``{match_id}`` in its path): the cases
    :func:`aim` points at the run's match and seat."""
    return "{match_id}" in operation.path


def operations_for(game: str, operations: list) -> list:
    """The operations the contract run of ``game`` sends: every operation for the first game
    (:data:`GAME`), the operations on a match for the others. The rest (create, games, players,
    replays, analyses, ...) never see the run's match: another game's run would draw the same
    derandomized cases for them again, and their bodies (a whole export log for
    ``POST /v1/replays``) cost most of the generation. ``ARENA_HYPOTHESIS_PROFILE=deep``
    (:mod:`tests.support.depth`) sends every operation for every game."""
    if game == GAME or depth.deep():
        return list(operations)
    return [operation for operation in operations if on_a_match(operation)]


_CONTRACTS: dict[int, object] = {}


def contract_of(app):
    """``schemathesis.openapi.from_wsgi("/openapi.yaml", app)``, loaded once per app (the
    session's app serves every run: loading and resolving the document is a few seconds)."""
    if id(app) not in _CONTRACTS:
        _CONTRACTS[id(app)] = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    return _CONTRACTS[id(app)]


def test_every_game_of_the_registry_is_driven_by_the_contract_run():
    assert set(GAME_OPTIONS) == set(registry())


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_app_honours_its_openapi_contract(app, embedded_service, mode, game):
    bootstrap.install(embedded_service)
    created = create(
        Http(app.test_client()),
        [{"kind": "human"}] * e2e_seats()[game],
        game,
        options=GAME_OPTIONS[game],
    )
    match_id, token = created["match_id"], tokens_of(created)[0]
    contract = contract_of(app)
    rng = random.Random(99)
    operations = [result.ok() for result in contract.get_all_operations()]
    documented = openapi_document(OPENAPI)
    methods = {"get", "put", "post", "delete", "patch", "options", "head"}
    # every documented operation loaded (schemathesis leaves out the spec's own document)
    expected = {
        f"{m.upper()} {path}"
        for path, item in documented["paths"].items()
        for m in item
        if m in methods and path != "/openapi.yaml"
    }
    assert len(expected) >= 21 and {o.label for o in operations} == expected
    sent = operations_for(game, operations)
    # the game's commands and reads are sent in every game's run
    assert {
        "POST /v1/matches/{match_id}/actions",
        "GET /v1/matches/{match_id}/legal-actions",
        "GET /v1/matches/{match_id}/export",
    } <= {operation.label for operation in sent}
    calls = []
    for operation in sent:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=depth.examples(examples_for(game, operation.label)),
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case):
            aim(case, match_id, token, rng)
            calls.append(case.call_and_validate(checks=CHECKS).status_code)

        try:
            run()
        except Unsatisfiable:  # negative mode: an operation without inputs has no bad input
            assert mode is GenerationMode.NEGATIVE
    assert len(calls) > 3 * EXAMPLES.get(game, 8) and max(calls) < 500


#: operations the links lead to from createMatch (create -> join -> act -> export)
LINKED = {"getMatch", "joinSeat", "getLegalActions", "act", "getEvents", "exportMatch"}


def test_openapi_links_chain_create_join_act_export():
    document = openapi_document(OPENAPI)
    ops = {
        op["operationId"]: op
        for item in document["paths"].values()
        for m, op in item.items()
        if m in ("get", "post")
    }
    linked = {
        link["operationId"] for link in ops["createMatch"]["responses"]["201"]["links"].values()
    }
    assert LINKED <= linked
    assert "act" in {
        link["operationId"] for link in ops["joinSeat"]["responses"]["200"]["links"].values()
    }
    assert "exportMatch" in {
        link["operationId"] for link in ops["act"]["responses"]["200"]["links"].values()
    }


def test_stateful_run_over_the_links_has_no_failure(app, embedded_service):
    """schemathesis' stateful run follows the links from ``createMatch``: with the seat
    tokens of the matches it created (added by ``before_call``, which also aims most
    creates at a game's ``examples.json`` body), its chains reach the game endpoints
    (legal actions, act, events, export); every answer must pass CHECKS."""
    bootstrap.install(embedded_service)
    # the match chain (create -> join -> act -> export and the match reads); the players and
    # analysis links answer by what earlier examples left behind (a player name taken, an
    # analysis cached), which makes hypothesis' replays differ (FlakyStrategyDefinition);
    # their endpoints have their own tests (test_api_players, test_api_analysis)
    contract = (
        schemathesis.openapi.from_wsgi("/openapi.yaml", app)
        .include(path_regex=r"^/v1/(matches|games)")
        .exclude(path_regex=r"/analysis$")
    )
    tokens: dict[str, str] = {}
    reached: set[str] = set()
    calls: list[tuple[str, int]] = []

    examples = [
        {"game": game, **engine.schemas.examples["create"]}
        for game, engine in sorted(registry().items())
    ]

    class Machine(contract.as_state_machine()):
        def before_call(self, case):
            # most generated create bodies are refused (400): aim most creates at a game's
            # example (human seats, so the chain gets a token to act with)
            if case.operation.label == "POST /v1/matches":
                # a choice derived from the generated body: replays stay deterministic
                draw = zlib.crc32(json.dumps(case.body, sort_keys=True, default=str).encode())
                if draw % 5:
                    case.body = dict(examples[draw % len(examples)])
            match_id = (case.path_parameters or {}).get("match_id")
            if match_id in tokens:
                case.headers = {
                    **(case.headers or {}),
                    "Authorization": f"Bearer {tokens[match_id]}",
                }
            if case.path.endswith(("/events", "/legal-actions", "/actions")):
                case.query = {**(case.query or {}), "wait": 0}
            if case.path.endswith("/stream"):
                # a stream held for its generated max_s was 60 of the run's 75 s
                case.query = {**(case.query or {}), "max_s": 0}

        def after_call(self, response, case):
            if case.operation.label == "POST /v1/matches" and response.status_code == 201:
                body = response.json()
                humans = [s["token"] for s in body["seats"] if "token" in s]
                if humans:
                    tokens[body["match_id"]] = humans[0]
            calls.append((case.operation.label, response.status_code))
            if response.status_code < 300:
                reached.add(case.operation.definition.raw.get("operationId", case.operation.label))

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Machine.run(
        settings=settings(
            max_examples=40,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert "createMatch" in reached and reached & {"getLegalActions", "act", "getEvents"}, sorted(
        set(calls)
    )
