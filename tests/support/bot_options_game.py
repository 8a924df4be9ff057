"""A test game whose bot level takes per-seat bot options, for the bot-options platform tests.

``step-race`` is ``race`` (tests/support/games.py: 2-4 seats add 1-3 in turn to a shared
total; reaching ``target`` wins) with one more bot level, ``stepper``: it always adds its
``step`` option (integer 1-3, default 1), so every ``Added`` event shows which options
the bot that decided it was built with. ``StepperBot.built`` records the options of every
``stepper`` built (to see the service build each configuration once), and ``label`` (a
string option) exists only to make distinct configurations that play alike.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from domain.engine import InvalidBotOptions
from tests.support.games import HIGH_CARD, RACE, Race

STEPPER_OPTIONS = {
    "type": "object",
    "properties": {
        "step": {"type": "integer", "minimum": 1, "maximum": 3},
        "label": {"type": "string"},
    },
    "additionalProperties": False,
}


class StepperBot:
    """Adds ``step`` every turn (a legal ``add`` command of ``race``)."""

    name = "stepper"
    built: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, options: Mapping[str, Any] | None = None):
        self.options = dict(options or {})
        self.step = self.options.get("step", 1)
        StepperBot.built.append(self.options)

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """``{"type": "add", "amount": step}``."""
        return {"type": "add", "amount": self.step}


class StepRace(Race):
    """``race`` plus the ``stepper`` bot level with options (see module docstring)."""

    game_id = "step-race"
    title = "Race to N with configurable bots"
    bot_options_schema = {"stepper": STEPPER_OPTIONS}

    def __init__(self):
        super().__init__()
        self.bots = {**self.bots, "stepper": StepperBot()}

    def make_bot(self, level: str, options: Mapping[str, Any]) -> StepperBot:
        """A ``stepper`` configured by validated ``options``; a ``label`` of ``"refuse"``
        is refused with ValueError (a factory's own check, beyond the schema)."""
        if level != "stepper":
            raise InvalidBotOptions(f"{level!r} takes no options")
        if options.get("label") == "refuse":
            raise ValueError("this label is refused by the factory")
        return StepperBot(options)


STEP_RACE = StepRace()
ENGINES = {HIGH_CARD.game_id: HIGH_CARD, RACE.game_id: RACE, STEP_RACE.game_id: STEP_RACE}
