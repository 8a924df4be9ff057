"""Every payload of a whole match of every game validates against the member of its union
in ``openapi.yaml`` that its ``game`` names (issue 20 item 2): the create request, every
``ActionResult`` (with ``Prefer: return=representation``: view, result, legal actions),
``LegalActions``, each seat's and the spectator's ``EventPage`` (envelopes with ``data``
per event type), the SSE stream's envelopes with ``seat_state``, the past ``StateView``
and the export (``MatchLog``: roster, commands, seats).

Unlike schemathesis (which checks whatever answers its generated requests reach), this
plays each match to its end, so every event type a match produces is checked in every
form a viewer gets. Errors name the payload and the JSON path of the first mismatch."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from api.openapi_build import prefix
from service import bootstrap
from tests.e2e.http_helpers import GAME_OPTIONS, Http, create, tokens_of
from tests.support.game_settings import e2e_seats
from tests.support.openapi_doc import openapi_document

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"


@pytest.fixture(scope="module")
def contract() -> dict[str, Any]:
    """The contract's schemas and a cache of compiled validators (jsonschema-rs, draft
    2020-12: the python validator took minutes over an A.I.Pokalypse match's payloads)."""
    document = openapi_document(OPENAPI)
    return {"components": document["components"], "validators": {}}


def errors_of(contract, name: str, payload: Any) -> list[str]:
    """The validation errors of ``payload`` against ``components/schemas/<name>``."""
    validator = contract["validators"].get(name)
    if validator is None:
        validator = contract["validators"][name] = jsonschema_rs.Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": contract["components"]}
        )
    return [
        f"{name} at /{'/'.join(map(str, e.instance_path))}: {e.message[:300]}"
        for e in validator.iter_errors(payload)
    ]


def play(app, game: str) -> list[tuple[str, Any]]:
    """A whole match of ``game`` (every seat human, random legal commands): every payload
    the clients got, as ``(schema name without the game prefix, body)``."""
    http = Http(app.test_client())
    body = {
        "game": game,
        "seats": [{"kind": "human"}] * e2e_seats()[game],
        "options": GAME_OPTIONS[game],
    }
    payloads: list[tuple[str, Any]] = [("CreateMatchRequest", body)]
    created = create(http, body["seats"], game, options=body["options"])
    match_id, tokens = created["match_id"], tokens_of(created)
    rng = random.Random(game)
    for _ in range(5000):
        acted = False
        for _seat, token in sorted(tokens.items()):
            status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", token)
            assert status == 200, legal
            payloads.append(("LegalActions", legal))
            if not legal["actions"]:
                continue
            status, _, answer = http.post(
                f"/v1/matches/{match_id}/actions",
                rng.choice(legal["actions"]),
                token,
                headers={"Prefer": "return=representation"},
            )
            if status == 200:
                payloads.append(("ActionResult", answer))
                acted = True
        status, _, view = http.get(f"/v1/matches/{match_id}")
        if view["status"] != "running":
            break
        assert acted, "nobody could act in a running match"
    else:
        raise AssertionError("the match did not finish")
    payloads.append(("MatchView", view))
    for token in [None, *tokens.values()]:
        status, _, page = http.get(f"/v1/matches/{match_id}/events?after=0", token)
        assert status == 200, page
        payloads.append(("EventPage", page))
        status, _, stream = http.get(
            f"/v1/matches/{match_id}/events/stream?views=true&max_s=1", token
        )
        assert status == 200
        payloads += [
            ("Envelope", json.loads(line[len("data: ") :]))
            for line in stream.splitlines()
            if line.startswith("data: ")
        ]
    status, _, state = http.get(f"/v1/matches/{match_id}/state?version={view['version'] // 2}")
    assert status == 200, state
    payloads.append(("StateView", state))
    status, _, log = http.get(f"/v1/matches/{match_id}/export")
    assert status == 200, log
    payloads.append(("MatchLog", log))
    return payloads


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_every_payload_of_a_whole_match_matches_its_games_schema(
    app, embedded_service, contract, game
):
    bootstrap.install(embedded_service)
    payloads = play(app, game)
    kinds = {name for name, _ in payloads}
    assert {"ActionResult", "LegalActions", "EventPage", "MatchLog", "Envelope"} <= kinds
    assert any(e.get("seat_state") for name, e in payloads if name == "Envelope")
    errors = []
    for name, payload in payloads:
        if isinstance(payload, dict) and name not in ("Envelope",):
            assert payload.get("game") == game, (name, payload.get("game"))
        found = errors_of(contract, prefix(game) + name, payload)
        errors += found[:3]
        if len(errors) > 20:
            break
    assert not errors, "\n".join(errors)


def test_a_payload_of_another_game_is_refused(contract):
    # the check can fail: the per-game member refuses another game's payload
    assert errors_of(
        contract,
        "AipokalypseLegalActions",
        {"game": "duel", "version": 1, "status": "running", "actions": [], "decision_id": None},
    )
