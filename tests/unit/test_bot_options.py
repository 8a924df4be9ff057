"""Per-seat bot options in the domain: the optional Engine capability (``bot_options_schema``
+ ``make_bot``), its defaults for engines without it, ModularEngine's wiring from a game
folder's ``bots`` module, and AI: 100% Human's ``expert`` options (issue 3: "the
per-decision time budget is a bot option")."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from domain.engine import (
    NO_BOT_OPTIONS,
    EngineBase,
    InvalidBotOptions,
    bot_options_schema,
    bot_options_schemas,
    build_bot,
    check_bot_options,
)
from domain.games import registry
from domain.games.ai_100_human.expert import ExpertBot
from domain.modular import ModularEngine
from tests.support.bot_options_game import STEP_RACE, StepperBot
from tests.support.games import RACE

AI = registry()["ai-100-human"]
EXPERT = {"budget": 8, "candidates": 3, "time_budget_ms": 300}


# ----------------------------------------------------------------- engines without options
def test_an_engine_keeping_the_defaults_declares_no_options_for_any_level():
    assert type(RACE).make_bot is EngineBase.make_bot and dict(RACE.bot_options_schema) == {}
    schemas = bot_options_schemas(RACE)
    assert set(schemas) == {"greedy", "random", "slow"}
    assert all(s == dict(NO_BOT_OPTIONS) for s in schemas.values())


def test_no_options_give_the_engines_shared_bot():
    assert build_bot(RACE, "greedy") is RACE.bots["greedy"]
    assert build_bot(RACE, "greedy", {}) is RACE.bots["greedy"]
    assert build_bot(AI, "expert", {}) is AI.bots["expert"]


def test_the_default_make_bot_refuses_options_it_cannot_configure():
    assert RACE.make_bot("greedy", {}) is RACE.bots["greedy"]
    with pytest.raises(TypeError):
        RACE.make_bot("greedy", {"budget": 8})


def test_a_level_without_a_schema_refuses_any_option():
    with pytest.raises(InvalidBotOptions) as exc:
        build_bot(RACE, "greedy", {"budget": 8})
    assert (exc.value.code, exc.value.status, exc.value.field) == (
        "invalid_bot_options",
        400,
        "budget",
    )


def test_an_unknown_level_is_a_key_error():
    with pytest.raises(KeyError):
        bot_options_schema(RACE, "genius")
    with pytest.raises(KeyError):
        build_bot(RACE, "genius", {})


# ----------------------------------------------------------------- the checker
@pytest.mark.parametrize(
    "options, field",
    [
        ([1, 2], None),  # not an object
        ({"step": True}, "step"),  # a boolean is not an integer
        ({"step": "2"}, "step"),  # nor is a string
        ({"step": 2.5}, "step"),
        ({"step": 0}, "step"),
        ({"step": 4}, "step"),
        ({"label": 3}, "label"),
        ({"step": 2, "speed": 1}, "speed"),  # strict: unknown keys are refused
    ],
)
def test_the_checker_refuses_wrong_types_ranges_and_unknown_keys(options, field):
    with pytest.raises(InvalidBotOptions) as exc:
        check_bot_options(bot_options_schema(STEP_RACE, "stepper"), options)
    assert exc.value.field == field


def test_the_checker_normalises_integral_numbers_and_keeps_omitted_keys_omitted():
    schema = bot_options_schema(STEP_RACE, "stepper")
    assert check_bot_options(schema, {"step": 2.0}) == {"step": 2}
    assert type(check_bot_options(schema, {"step": 2.0})["step"]) is int
    assert check_bot_options(schema, {}) == {}


def test_number_and_enum_options():
    schema = {
        "type": "object",
        "properties": {
            "p": {"type": "number", "minimum": 0, "maximum": 1},
            "mode": {"type": "string", "enum": ["fast", "deep"]},
            "on": {"type": "boolean"},
        },
    }
    assert check_bot_options(schema, {"p": 0.5, "mode": "deep", "on": False}) == {
        "mode": "deep",
        "on": False,
        "p": 0.5,
    }
    for bad in ({"p": math.nan}, {"p": math.inf}, {"p": 1.5}, {"mode": "slow"}, {"on": 1}):
        with pytest.raises(InvalidBotOptions):
            check_bot_options(schema, bad)


def test_make_bot_builds_a_configured_bot_and_a_factory_value_error_is_invalid_options():
    bot = build_bot(STEP_RACE, "stepper", {"step": 3})
    assert isinstance(bot, StepperBot) and bot.step == 3 and bot is not STEP_RACE.bots["stepper"]
    with pytest.raises(InvalidBotOptions):
        build_bot(STEP_RACE, "stepper", {"label": "refuse"})


# ----------------------------------------------------------------- ModularEngine wiring
def _spec(name: str) -> ModuleType:
    spec = ModuleType(name)
    spec.GAME_ID, spec.TITLE, spec.MIN_SEATS, spec.MAX_SEATS = "t", "T", 1, 2
    spec.SCHEMA_VERSION, spec.OPTIONS_SCHEMA, spec.COMMAND_SCHEMAS = 1, {}, {}
    spec.RULES_VERSION = "1"
    return spec


def test_modular_engines_read_bot_options_from_the_game_folders_bots_module():
    from domain.games.ai_100_human import bots
    from domain.games.dead_apocalypse import bots as dead_bots

    assert AI.bot_options_schema == {"expert": bots.EXPERT_OPTIONS_SCHEMA}
    assert AI.bot_factories == {"expert": bots.make_expert}
    from domain.games.aipokalypse import bots as aipokalypse_bots

    aipokalypse = registry()["aipokalypse"]
    assert aipokalypse.bot_options_schema == {"expert": aipokalypse_bots.EXPERT_OPTIONS_SCHEMA}
    assert aipokalypse.bot_factories == {"expert": aipokalypse_bots.make_expert}
    dead = registry()["dead-apocalypse"]
    assert dead.bot_options_schema == {"expert": dead_bots.EXPERT_OPTIONS_SCHEMA}
    assert dead.bot_factories == {"expert": dead_bots.make_expert}
    without = sorted(set(registry()) - {"ai-100-human", "aipokalypse", "dead-apocalypse"})
    assert without, "a registered game without bot options (the example game) is checked below"
    for game in without:
        engine = registry()[game]
        assert dict(engine.bot_options_schema) == {}
        assert all(s == dict(NO_BOT_OPTIONS) for s in bot_options_schemas(engine).values())
        level = sorted(engine.bots)[0]
        with pytest.raises(InvalidBotOptions):
            build_bot(engine, level, {"budget": 1})


def test_a_modular_engine_with_a_schema_but_no_factory_fails_when_defined():
    with pytest.raises(TypeError):

        class Broken(ModularEngine):  # noqa: F841 - defining it is the test
            spec, views = _spec("standalone_spec"), ModuleType("standalone_views")
            bots = {"deep": object()}
            bot_options_schema = {"deep": {"type": "object", "properties": {}}}


def test_a_modular_engines_factory_refusing_a_value_raises_invalid_bot_options():
    def factory(options):
        raise ValueError("no")

    class Tunable(ModularEngine):
        spec, views = _spec("standalone_spec"), ModuleType("standalone_views")
        bots = {"deep": object()}
        bot_options_schema = {
            "deep": {
                "type": "object",
                "properties": {"depth": {"type": "integer", "minimum": 1, "maximum": 9}},
            }
        }
        bot_factories = {"deep": factory}

    engine = Tunable()
    assert engine.make_bot("deep", {}) is Tunable.bots["deep"]
    with pytest.raises(InvalidBotOptions):
        engine.make_bot("deep", {"depth": 3})
    with pytest.raises(InvalidBotOptions) as exc:
        engine.make_bot("deep", {"depth": 10})
    assert exc.value.field == "depth"


# ----------------------------------------------------------------- AI: 100% Human expert
def test_expert_options_build_an_expert_bot_with_those_values():
    bot = build_bot(AI, "expert", EXPERT)
    assert isinstance(bot, ExpertBot)
    assert (bot.budget, bot.candidates, bot.time_cap_s) == (8, 3, 0.3)  # 300 ms -> 0.3 s
    assert AI.bots["expert"].budget != 8  # the shared default is untouched


def test_an_omitted_expert_option_keeps_the_expert_bots_default():
    default = ExpertBot()
    only_time = build_bot(AI, "expert", {"time_budget_ms": 800})
    assert (only_time.budget, only_time.candidates, only_time.time_cap_s) == (
        default.budget,
        default.candidates,
        0.8,
    )
    only_budget = build_bot(AI, "expert", {"budget": 0})
    assert (only_budget.budget, only_budget.candidates, only_budget.time_cap_s) == (
        0,
        default.candidates,
        default.time_cap_s,
    )


def test_expert_option_bounds_are_the_documented_ones():
    props = AI.bot_options_schema["expert"]["properties"]
    assert {k: (p["minimum"], p["maximum"]) for k, p in props.items()} == {
        "budget": (0, 4096),
        "candidates": (1, 24),
        "time_budget_ms": (50, 10000),
    }
    for edge in (
        {"budget": 0},
        {"budget": 4096},
        {"candidates": 1},
        {"candidates": 24},
        {"time_budget_ms": 50},
        {"time_budget_ms": 10000},
    ):
        assert isinstance(build_bot(AI, "expert", edge), ExpertBot)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"budget": -1}, "budget"),
        ({"budget": 4097}, "budget"),
        ({"budget": 8.5}, "budget"),
        ({"budget": True}, "budget"),
        ({"budget": "8"}, "budget"),
        ({"candidates": 0}, "candidates"),
        ({"candidates": 25}, "candidates"),
        ({"time_budget_ms": 49}, "time_budget_ms"),
        ({"time_budget_ms": 10001}, "time_budget_ms"),
        ({"time_budget_ms": None}, "time_budget_ms"),
        ({"time_cap_s": 1}, "time_cap_s"),  # the constructor's name is not an option
    ],
)
def test_bad_expert_options_are_refused(options, field):
    with pytest.raises(InvalidBotOptions) as exc:
        build_bot(AI, "expert", options)
    assert exc.value.field == field


def test_greedy_and_random_take_no_options():
    for level in ("greedy", "random"):
        with pytest.raises(InvalidBotOptions):
            build_bot(AI, level, {"budget": 8})
