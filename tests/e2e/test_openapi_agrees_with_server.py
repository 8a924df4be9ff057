"""openapi.yaml says what the server accepts, where the newcomer probe (schemathesis) found
the two apart: seat kinds and their fields, seat names, ``If-Match: *``, the query numbers
``wait`` / ``max_s`` and the ``Retry-After`` of a 503 ``busy``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from marshmallow import ValidationError

from api import schemas
from tests.support.openapi_doc import openapi_document

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
DOCUMENT = openapi_document(OPENAPI)
COMPONENTS = DOCUMENT["components"]


def validator(name: str) -> Draft202012Validator:
    """A JSON Schema 2020-12 validator of ``components.schemas.<name>`` (refs resolved)."""
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": COMPONENTS})


def server_takes_seat(seat: dict) -> bool:
    try:
        schemas.SeatSpecSchema().load(seat)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "open", "bot": "random"},
        {"kind": "human", "bot": "greedy"},
        {"kind": "human", "bot_options": {}},
        {"kind": "open", "bot_options": {"budget": 8}},
        {"kind": "robot"},
        {"bot": "random"},
        {"kind": "bot", "colour": "red"},
        {"kind": "human", "name": "tab\there"},
        {"kind": "bot", "name": "evil\u202eexe"},
        {"kind": "open", "name": "\u200b"},
        {"kind": "human", "name": ""},
        {"kind": "human", "name": "x" * 65},
    ],
)
def test_seats_the_server_refuses_are_outside_the_schema(seat):
    assert not server_takes_seat(seat)
    assert not validator("SeatSpec").is_valid(seat)


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "human"},
        {"kind": "open"},
        {"kind": "bot"},
        {"kind": "human", "name": "Zoë 🧟"},
        {"kind": "open", "name": "ann"},
        {
            "kind": "bot",
            "bot": "expert",
            "name": "deep thought",
            "bot_options": {"budget": 8, "time_budget_ms": 300},
        },
    ],
)
def test_seats_the_server_takes_are_inside_the_schema(seat):
    assert server_takes_seat(seat)
    assert validator("SeatSpec").is_valid(seat)


def test_the_seat_name_pattern_is_the_servers_own():
    assert COMPONENTS["schemas"]["SeatName"]["pattern"] == schemas.NAME_PATTERN.pattern
    assert COMPONENTS["schemas"]["JoinRequest"]["properties"]["name"] == {
        "$ref": "#/components/schemas/SeatName"
    }
    names = validator("SeatName")
    for name in ("a\u0000b", "evil\u202eexe", " ", "\u2060 ", "\x7f", "a\u2066b"):
        assert not names.is_valid(name) and not schemas.NAME_PATTERN.match(name)
    for name in ("ann", "Zoë 🧟", " ann ", "李"):
        assert names.is_valid(name) and schemas.NAME_PATTERN.match(name)


def test_if_match_pattern_takes_the_star_and_versions():
    pattern = re.compile(COMPONENTS["parameters"]["IfMatch"]["schema"]["pattern"])
    for header in ("*", '"12"', 'W/"12"', "12"):
        assert pattern.match(header), header
    for header in ("**", '"12", "13"', "W/*", '"1234567890123"', "twelve"):
        assert not pattern.match(header), header


def test_every_number_in_range_is_taken_in_its_python_and_exponent_spellings():
    rng = random.Random(7)
    events = schemas.EventsQuerySchema()
    values = [0.0, 30.0, 1e-300, 5e-324, 0.1 + 0.2, 29.999999999999996]
    values += [rng.uniform(0, 30) for _ in range(200)]
    for value in values:
        for text in (repr(value), f"{value:e}", f"{value:.17E}", f"{value:.20f}"):
            assert events.load({"wait": text})["wait"] == float(text), text
    streams = schemas.StreamQuerySchema()
    assert streams.load({"max_s": "3e2"})["max_s"] == 300.0
    with pytest.raises(ValidationError):
        streams.load({"max_s": "300.0000000001"})


def test_busy_documents_its_retry_after_header():
    busy = COMPONENTS["responses"]["Busy"]
    header = busy["headers"]["Retry-After"]
    assert header == {"$ref": "#/components/headers/RetryAfter"}
    assert COMPONENTS["headers"]["RetryAfter"]["required"] is True
    assert DOCUMENT["paths"]["/v1/matches/{match_id}/actions"]["post"]["responses"]["503"] == {
        "$ref": "#/components/responses/Busy"
    }
