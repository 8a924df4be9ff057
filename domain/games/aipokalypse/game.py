"""The :class:`domain.engine.Engine` of A.I.Pokalypse (1-8 seats), wiring the modules:
spec (options, commands), flow (set-up and automatic steps), rules (decide), fold (evolve),
actions (pending, legal actions), views (view, redact, redact_type), bots."""
from __future__ import annotations

import random
from typing import Any

from domain.engine import Event
from domain.modular import ModularEngine

from . import actions, bots, flow, fold, rules, spec, state as state_mod, views
from .context import Ctx


class AIPokalypseEngine(ModularEngine):
    """Decider, fold and projections of one match (contract: ``domain/engine.py``).

    The state is a plain dict; hidden Recruitment moves also hide their event type
    (``views.redact_type``)."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    bots = bots.BOTS
    timeout_bot = "idle"

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Game Setup: one ``MatchStarted`` event with every shuffle and deal."""
        ctx = Ctx(None, rng)
        flow.start_match(ctx, seats, options)
        return ctx.events

    def redact_type(self, event: Event, viewer: int | None, state: Any = None) -> str:
        """``views.redact_type``: a hidden Recruitment move shows as
        ``RecruitmentMoveMade`` to everybody but its seat."""
        return views.redact_type(event, viewer, state)

    def result(self, state: dict) -> dict[str, Any] | None:
        """``None`` while running, else ``{"scores", "ranking", "winners", "reason"}``."""
        return state["result"]
