"""JSON Schema -> marshmallow (api.schema_builder) on the real ai-100-human command schemas.

No Redis, no app: these pin how a command body is accepted or rejected before it can
reach the service.
"""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from api.schema_builder import schema_for
from domain.games.ai_100_human.spec import COMMAND_SCHEMAS, OPTIONS_SCHEMA


def load(kind: str, body: dict) -> dict:
    return schema_for(COMMAND_SCHEMAS[kind]).load(body)


def errors(kind: str, body: dict) -> dict:
    with pytest.raises(ValidationError) as caught:
        load(kind, body)
    return caught.value.messages


def test_draft_with_a_card_id_is_accepted_unchanged():
    assert load("draft", {"type": "draft", "card": "017"}) == {"type": "draft", "card": "017"}


def test_place_takes_a_row_column_cell():
    body = {"type": "place", "card": "082", "cell": [1, 3]}
    assert load("place", body) == body


@pytest.mark.parametrize("cell, field", [([1], "cell"), ([1, 2, 3], "cell"), ([1, 9], "cell"),
                                         (["1", 2], "cell"), ([True, 2], "cell")])
def test_place_rejects_cells_outside_the_schema(cell, field):
    assert field in errors("place", {"type": "place", "card": "082", "cell": cell})


def test_missing_required_field_is_named():
    assert errors("draft", {"type": "draft"}) == {"card": ["Missing data for required field."]}


def test_additional_properties_false_rejects_unknown_fields():
    assert errors("draft", {"type": "draft", "card": "017", "cheat": 1}) == {
        "cheat": ["Unknown field."]}


def test_const_type_must_match_the_schema():
    assert "type" in errors("draft", {"type": "place", "card": "017"})


def test_a_number_is_not_a_card_id():
    assert errors("draft", {"type": "draft", "card": 17}) == {"card": ["Not a valid string."]}


def test_unique_items_and_lengths_on_keep_reserve():
    assert load("keep_reserve", {"type": "keep_reserve", "cards": ["001", "002"]})["cards"] == [
        "001", "002"]
    assert "cards" in errors("keep_reserve", {"type": "keep_reserve", "cards": ["001", "001"]})
    assert "cards" in errors("keep_reserve", {"type": "keep_reserve", "cards": ["001"]})
    assert "cards" in errors("keep_reserve",
                             {"type": "keep_reserve", "cards": ["1", "2", "3", "4"]})


def test_options_one_of_accepts_each_declared_shape_and_nothing_else():
    options = schema_for(OPTIONS_SCHEMA)
    assert options.load({"objectives": "starter"}) == {"objectives": "starter"}
    explicit = {"objectives": {"phase1": "Omega-3", "phase2": "Omega-4"}}
    assert options.load(explicit) == explicit
    assert options.load({}) == {}
    for bad in ({"objectives": "best"}, {"objectives": 3}, {"objectives": {"phase1": "x"}},
                {"turns": 9}):
        with pytest.raises(ValidationError):
            options.load(bad)


def test_integers_are_strict_json_integers():
    schema = schema_for({"type": "object", "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 3},
        "x": {"type": ["number", "null"], "exclusiveMinimum": 0},
        "b": {"type": "boolean"}}})
    assert schema.load({"n": 2, "x": None, "b": False}) == {"n": 2, "x": None, "b": False}
    for bad in ({"n": True}, {"n": "2"}, {"n": 2.5}, {"n": 4}, {"x": 0}, {"x": "1"},
                {"b": 1}, {"b": "true"}):
        with pytest.raises(ValidationError):
            schema.load(bad)
