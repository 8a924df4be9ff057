"""The one JSON Schema validator (domain.schema_check) and how the games use it.

Every game's command, options and bot-options schemas compile under the keyword guard and
are valid draft 2020-12 schemas; on commands drawn from real playouts (legal ones and
broken copies of them) the compiled check agrees with the reference draft 2020-12
validator (the ``jsonschema`` library), so checking with fastjsonschema's draft-7 code
changes no verdict. Errors keep their stable codes and name the field.
"""

from __future__ import annotations

import copy
import math
import random

import pytest
from jsonschema import Draft202012Validator

from domain import schema_check
from domain.engine import InvalidCommand, Setup, UnknownAction, fold
from domain.games import get_engine
from domain.modular import check_command, checked_options
from tests.support.game_settings import games, settings

#: every installed game (examples included in the suite)
GAMES = games()


def _schemas(engine):
    yield "options", engine.options_schema
    for kind, schema in engine.command_schemas.items():
        yield f"command {kind}", schema
    for level, schema in engine.bot_options_schema.items():
        yield f"bot {level}", schema


@pytest.mark.parametrize("game", GAMES)
def test_every_schema_of_every_game_compiles_and_is_a_draft_2020_12_schema(game):
    engine = get_engine(game)
    for name, schema in _schemas(engine):
        Draft202012Validator.check_schema(schema)
        assert isinstance(schema_check.checker(schema), schema_check.Checker), name


def _broken(command: dict, rng: random.Random) -> list[dict]:
    """Copies of a legal command with one thing wrong (or, by chance, still right)."""
    out = [{**command, "surplus": 1}]
    for key, value in command.items():
        if key == "type":
            continue
        out.append({k: v for k, v in command.items() if k != key})
        for wrong in (True, 2.5, "x" * 50, -3, [], {}, None, [value, value], 1.0):
            out.append({**command, key: wrong})
        if isinstance(value, list) and value:
            changed = copy.deepcopy(value)
            changed[rng.randrange(len(changed))] = rng.choice([True, "", 99, [0]])
            out.append({**command, key: changed})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_check_agrees_with_the_reference_validator_on_playout_commands(game):
    engine = get_engine(game)
    rng = random.Random(7)
    seats = settings(game).view_setups[0][0]  # the game's own testing.py
    state = fold(engine, engine.new_match(Setup(seats, engine.validate_options(seats, {})), rng))
    checked = 0
    for _ in range(60):
        if engine.result(state) is not None:
            break
        pending = sorted(engine.pending(state))
        seat = rng.choice(pending)
        legal = engine.legal_actions(state, seat)
        for command in rng.sample(legal, min(3, len(legal))):
            schema = engine.command_schemas[command["type"]]
            reference = Draft202012Validator(schema)
            for candidate in [command, *_broken(command, rng)]:
                ours = schema_check.checker(schema).violation(candidate)
                assert (ours is None) == reference.is_valid(candidate), (candidate, ours)
                checked += 1
        command = engine.bots["random"].choose(state, seat, rng)
        state = fold(engine, engine.decide(state, seat, command, rng), state)
    assert checked > 100


def test_a_keyword_the_compiled_code_would_not_honour_is_refused_at_compile_time():
    for schema in (
        {"type": "array", "prefixItems": [{"type": "integer"}]},
        {"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"},
        {"type": "object", "unevaluatedProperties": False},
        {"type": "object", "properties": {"a": {"dependentRequired": {"a": ["b"]}}}},
        {"type": "array", "items": [{"type": "integer"}]},
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"},
    ):
        with pytest.raises(schema_check.SchemaDefinitionError):
            schema_check.checker(schema)


def test_a_schema_is_compiled_once_and_a_fresh_copy_reuses_it():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    first = schema_check.checker(schema)
    assert schema_check.checker(schema) is first
    assert schema_check.checker(copy.deepcopy(schema)) is first
    assert schema_check.checker(schema, closed=True) is not first


def test_a_violation_names_the_field_missing_unknown_or_wrong():
    schema = get_engine("ai-100-human").command_schemas["place"]
    check = schema_check.checker(schema)
    wrong = check.violation({"type": "place", "card": "082", "cell": [1, True]})
    assert (wrong.path, wrong.keyword, wrong.field) == (("cell", 1), "type", "cell[1]")
    assert wrong.sentence() == "'cell[1]' must be an integer."
    assert wrong.errors() == {"cell": {"1": ["Must be an integer."]}}
    missing = check.violation({"type": "place", "card": "082"})
    assert (missing.field, missing.keyword) == ("cell", "required")
    extra = check.violation({"type": "place", "card": "082", "cell": [0, 1], "cheat": 1})
    assert (extra.field, extra.keyword) == ("cheat", "additionalProperties")
    short = check.violation({"type": "place", "card": "082", "cell": [0]})
    assert short.sentence() == "'cell' must have exactly 2 items."
    whole = check.violation([1])
    assert whole.path == () and whole.errors() == ["Must be an object."]


def test_integral_numbers_become_int_and_non_finite_numbers_fail():
    schema = {
        "type": "object",
        "properties": {
            "cells": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "p": {"type": "number"},
        },
    }
    value = {"cells": [[1.0, 2], [3, 4]], "p": 2.0}
    clean = schema_check.check(schema, value)
    assert clean == {"cells": [[1, 2], [3, 4]], "p": 2.0}
    assert type(clean["cells"][0][0]) is int and type(clean["p"]) is float
    assert value["cells"][0][0].__class__ is float  # the caller's value is not touched
    untouched = {"cells": [[1, 2]], "p": 0.5}
    assert schema_check.check(schema, untouched) is untouched
    for bad in (math.nan, math.inf, -math.inf):
        where = schema_check.checker(schema).violation({"p": bad})
        assert where.path == ("p",) and where.message == "must be a finite number"
        where = schema_check.checker(schema).violation({"cells": [[0, bad]]})
        assert where.path == ("cells", 0, 1) and where.message == "must be an integer"


def test_with_defaults_fills_omitted_top_level_options_only():
    schema = {"type": "object", "properties": {"a": {"default": 1}, "b": {"type": "integer"}}}
    assert schema_check.with_defaults(schema, {}) == {"a": 1}
    assert schema_check.with_defaults(schema, {"a": 5, "b": 2}) == {"a": 5, "b": 2}


# ------------------------------------------------------------------ through the games


@pytest.mark.parametrize(
    "game, command, field",
    [
        ("ai-100-human", {"type": "place", "card": "082", "cell": [1, "2"]}, "cell[1]"),
        ("ai-100-human", {"type": "draft"}, "card"),
        ("aipokalypse", {"type": "recruit", "card": "B001", "slot": 9}, "slot"),
        ("aipokalypse", {"type": "choose", "option": True}, "option"),
        ("dead-apocalypse", {"type": "defeat", "column": 0, "spend": [[0, 1, 2]]}, "spend[0]"),
        ("dead-apocalypse", {"type": "end_turn", "extra": 1}, "extra"),
    ],
)
def test_check_command_is_invalid_command_naming_the_field(game, command, field):
    engine = get_engine(game)
    with pytest.raises(InvalidCommand) as caught:
        check_command(engine.command_schemas, command)
    assert (caught.value.code, caught.value.status, caught.value.field) == (
        "invalid_command",
        400,
        field,
    )
    assert f"'{field}'" in caught.value.detail


def test_check_command_unknown_type_and_no_type():
    schemas = get_engine("dead-apocalypse").command_schemas
    with pytest.raises(UnknownAction):
        check_command(schemas, {"type": "fly"})
    for bad in ({"card": "x"}, {"type": 3}, ["end_turn"], None):
        with pytest.raises(InvalidCommand):
            check_command(schemas, bad)


def test_check_command_returns_integers_as_int():
    schemas = get_engine("ai-100-human").command_schemas
    clean = check_command(schemas, {"type": "place", "card": "082", "cell": [1.0, 2.0]})
    assert clean["cell"] == [1, 2] and all(type(x) is int for x in clean["cell"])


def test_option_defaults_come_from_each_games_schema():
    """Every omitted option takes the ``default`` its OPTIONS_SCHEMA declares."""
    for game in GAMES:
        engine = get_engine(game)
        defaults = {
            k: p["default"]
            for k, p in engine.options_schema["properties"].items()
            if "default" in p
        }
        assert defaults, game
        out = checked_options(engine.options_schema, {})
        assert out == defaults, game
    # A.I.Pokalypse: the A.I.Toma's difficulty default applies only where it plays
    apk = get_engine("aipokalypse")
    assert (
        apk.validate_options(1, {})["difficulty"]
        == apk.options_schema["properties"]["difficulty"]["default"]
    )
    assert "difficulty" not in apk.validate_options(3, {})
    dead = get_engine("dead-apocalypse")
    assert dead.validate_options(2, {}) == {
        k: p["default"] for k, p in dead.options_schema["properties"].items()
    }


@pytest.mark.parametrize(
    "game, options, field",
    [
        ("ai-100-human", {"objectives": "best"}, "objectives"),
        ("ai-100-human", {"turns": 9}, "turns"),
        ("aipokalypse", {"expert": 1}, "expert"),
        ("dead-apocalypse", {"turn_limit": 10}, "turn_limit"),
        ("dead-apocalypse", {"no_kill_ditch": True}, "no_kill_ditch"),
    ],
)
def test_options_the_schema_refuses_are_invalid_command_naming_the_option(game, options, field):
    with pytest.raises(InvalidCommand) as caught:
        get_engine(game).validate_options(2, options)
    assert caught.value.code == "invalid_command" and caught.value.field == field
    assert repr(field) in caught.value.detail or f"'{field}'" in caught.value.detail


def test_integral_option_numbers_are_normalised():
    out = get_engine("dead-apocalypse").validate_options(2, {"turn_limit": 40.0})
    assert out["turn_limit"] == 40 and type(out["turn_limit"]) is int
