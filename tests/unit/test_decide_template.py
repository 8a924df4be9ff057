"""One ``decide`` for every game (issue 19 item 3): :class:`domain.decider.GameRules` checks
a command in one order — finished, pending, schema, legal or explained rejection, apply —
and each game's ``rules`` module supplies only its parts."""

from __future__ import annotations

import random

import pytest

from domain.decider import GameRules
from domain.engine import Setup, fold
from domain.games import registry
from domain.modular import ModularEngine

GAMES = sorted(registry())


def _started(name: str):
    engine = registry()[name]
    seats = min(2, engine.max_seats)
    events = engine.new_match(Setup(seats, {}), random.Random(7))
    return engine, seats, fold(engine, events)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_decides_through_the_one_template(name):
    engine = registry()[name]
    assert isinstance(engine, ModularEngine)
    rules = engine.rules.RULES
    assert isinstance(rules, GameRules)
    assert type(rules).decide is GameRules.decide  # a game supplies parts, not the order
    assert engine.rules.decide == rules.decide


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_owing_no_decision_hears_not_your_turn_before_any_command_check(name):
    engine, seats, state = _started(name)
    for seat in (seats, -1):  # no seat of the match: it owes nothing
        with pytest.raises(Exception) as exc:
            engine.decide(state, seat, {"type": "no-such-action"}, random.Random(1))
        assert getattr(exc.value, "code", None) == "not_your_turn", (name, seat, exc.value)


@pytest.mark.parametrize("name", GAMES)
def test_a_pending_seat_gets_the_schema_checks_then_the_rules(name):
    engine, _, state = _started(name)
    seat = sorted(engine.pending(state))[0]
    with pytest.raises(Exception) as exc:
        engine.decide(state, seat, {"type": "no-such-action"}, random.Random(1))
    assert exc.value.code == "unknown_action"
    with pytest.raises(Exception) as exc:
        engine.decide(state, seat, {"kind": "draft"}, random.Random(1))
    assert exc.value.code == "invalid_command"
    legal = engine.legal_actions(state, seat)
    assert legal and engine.decide(state, seat, legal[0], random.Random(1))


class _Counting(GameRules):
    """A toy game: one seat, the command ``{"type": "go", "n": k}`` is legal for ``k == 1``."""

    command_schemas = {
        "go": {
            "type": "object",
            "required": ["type", "n"],
            "properties": {"type": {"const": "go"}, "n": {"type": "integer"}},
            "additionalProperties": False,
        }
    }

    def finished(self, state):
        return state["done"]

    def pending_kind(self, state, seat):
        return "go" if seat == 0 else None

    def is_legal(self, state, seat, command, kind):
        return command["n"] == 1

    def apply(self, state, seat, command, rng):
        return ["went"]


@pytest.mark.parametrize(
    "state, seat, command, code",
    [
        ({"done": True}, 1, {"type": "x"}, "match_finished"),
        ({"done": False}, 1, {"type": "x"}, "not_your_turn"),
        ({"done": False}, True, {"type": "go", "n": 1}, "not_your_turn"),
        ({"done": False}, 0, {"type": "x"}, "unknown_action"),
        ({"done": False}, 0, {"type": "go", "n": "1"}, "invalid_command"),
        ({"done": False}, 0, {"type": "go", "n": 2}, "illegal_move"),
    ],
)
def test_the_template_checks_in_its_order(state, seat, command, code):
    with pytest.raises(Exception) as exc:
        _Counting().decide(state, seat, command, random.Random(0))
    assert exc.value.code == code
    assert _Counting().decide({"done": False}, 0, {"type": "go", "n": 1}, None) == ["went"]
