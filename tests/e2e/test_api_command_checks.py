"""How the API answers a command or match options its JSON Schema refuses, on the real
ai-100-human schemas: the check is the domain's one validator (domain.schema_check), and
the ``errors`` of the 400 ``validation_error`` are what :meth:`Violation.errors` gives.

No Redis, no app: these pin how a command body is accepted or rejected before it can
reach the service (the HTTP round trip is in test_api_errors.py).
"""

from __future__ import annotations

import pytest

from domain import schema_check
from domain.games.ai_100_human.spec import COMMAND_SCHEMAS, OPTIONS_SCHEMA


def load(kind: str, body: dict) -> dict:
    return schema_check.check(COMMAND_SCHEMAS[kind], body)


def errors(kind: str, body: dict) -> dict:
    where = schema_check.checker(COMMAND_SCHEMAS[kind]).violation(body)
    assert where is not None, body
    return where.errors()


def test_draft_with_a_card_id_is_accepted_unchanged():
    assert load("draft", {"type": "draft", "card": "017"}) == {"type": "draft", "card": "017"}


def test_place_takes_a_row_column_cell():
    body = {"type": "place", "card": "082", "cell": [1, 3]}
    assert load("place", body) == body


@pytest.mark.parametrize("cell", [[1], [1, 2, 3], [1, 9], ["1", 2], [True, 2]])
def test_place_rejects_cells_outside_the_schema(cell):
    assert "cell" in errors("place", {"type": "place", "card": "082", "cell": cell})


def test_missing_required_field_is_named():
    assert errors("draft", {"type": "draft"}) == {"card": ["Is required."]}


def test_additional_properties_false_rejects_unknown_fields():
    assert errors("draft", {"type": "draft", "card": "017", "cheat": 1}) == {
        "cheat": ["Is not a known field."]
    }


def test_const_type_must_match_the_schema():
    assert errors("draft", {"type": "place", "card": "017"}) == {"type": ['Must be "draft".']}


def test_a_number_is_not_a_card_id():
    assert errors("draft", {"type": "draft", "card": 17}) == {"card": ["Must be a string."]}


def test_unique_items_and_lengths_on_keep_reserve():
    assert load("keep_reserve", {"type": "keep_reserve", "cards": ["001", "002"]})["cards"] == [
        "001",
        "002",
    ]
    assert errors("keep_reserve", {"type": "keep_reserve", "cards": ["001", "001"]}) == {
        "cards": ["Must not repeat an item."]
    }
    assert errors("keep_reserve", {"type": "keep_reserve", "cards": ["001"]}) == {
        "cards": ["Must have between 2 and 3 items."]
    }
    assert "cards" in errors(
        "keep_reserve", {"type": "keep_reserve", "cards": ["1", "2", "3", "4"]}
    )


def test_options_one_of_accepts_each_declared_shape_and_nothing_else():
    options = schema_check.checker(OPTIONS_SCHEMA)
    assert options.check({"objectives": "starter"}) == {"objectives": "starter"}
    explicit = {"objectives": {"phase1": "Omega-3", "phase2": "Omega-4"}}
    assert options.check(explicit) == explicit
    assert options.check({}) == {}
    for bad in (
        {"objectives": "best"},
        {"objectives": 3},
        {"objectives": {"phase1": "x"}},
        {"turns": 9},
    ):
        assert options.violation(bad) is not None, bad


def test_integers_are_strict_json_integers():
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 3},
            "x": {"type": ["number", "null"], "exclusiveMinimum": 0},
            "b": {"type": "boolean"},
        },
    }
    check = schema_check.checker(schema)
    assert check.check({"n": 2, "x": None, "b": False}) == {"n": 2, "x": None, "b": False}
    assert check.check({"n": 2.0}) == {"n": 2}
    for bad in (
        {"n": True},
        {"n": "2"},
        {"n": 2.5},
        {"n": 4},
        {"x": 0},
        {"x": "1"},
        {"b": 1},
        {"b": "true"},
    ):
        assert check.violation(bad) is not None, bad
