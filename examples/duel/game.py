"""The :class:`domain.engine.Engine` of Duel, wiring its modules with
:class:`domain.modular.ModularEngine`: spec (options, commands), rules (set-up, decide,
resign, abandon), fold (evolve), actions (pending, legal actions), views (view, redact),
state (snapshots) and bots."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.engine import Event
from domain.modular import ModularEngine

from . import actions, bots, fold, rules, spec, views
from . import state as state_module
from .estimator import ESTIMATOR


class DuelEngine(ModularEngine):
    """Decider, fold and projections of one match of Duel (``RULES.md``)."""

    spec, rules, fold, actions, views, state_module = (
        spec,
        rules,
        fold,
        actions,
        views,
        state_module,
    )
    bots = bots.BOTS
    timeout_bot = "high"

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """The set-up events (``rules.start``)."""
        return rules.start(seats, options, rng)

    def resign(
        self, state: Any, seat: int, command: Mapping[str, Any], rng: random.Random
    ) -> list[Event]:
        """RULINGS D-resign (``rules.resign``)."""
        return rules.resign(state, seat, command)

    def abandon(self, state: Any, seat: Any, command: Mapping[str, Any]) -> list[Event]:
        """RULINGS D-abandoned (``rules.abandon``)."""
        return rules.abandon(state, seat, command)

    def estimator(self) -> Any:
        """Duel's estimator (``estimator.py``: rollouts against the ``high`` policy)."""
        return ESTIMATOR

    def resigned(self, state: Any) -> frozenset[int]:
        """The seats that resigned."""
        return frozenset(state.resigned) if state is not None else frozenset()
