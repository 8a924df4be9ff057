"""The :class:`domain.engine.Engine` of A.I.Pokalypse (2-4 seats), wiring the modules:
spec (options, commands), flow (set-up and automatic steps), rules (decide), fold (evolve),
actions (pending, legal actions), views (view, redact), bots."""
from __future__ import annotations

import random
from typing import Any, Mapping

from domain.engine import Event, Setup

from . import actions, bots, flow, fold, rules, spec, state as state_mod, views
from .context import Ctx


class AIPokalypseEngine:
    """Decider, fold and projections of one match (contract: ``domain/engine.py``)."""

    game_id = spec.GAME_ID
    title = spec.TITLE
    min_seats = spec.MIN_SEATS
    max_seats = spec.MAX_SEATS
    schema_version = spec.SCHEMA_VERSION
    options_schema = spec.OPTIONS_SCHEMA
    command_schemas = spec.COMMAND_SCHEMAS
    bots = bots.BOTS
    timeout_bot = "idle"

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Normalised options (see :func:`spec.validate_options`); raises InvalidCommand."""
        return spec.validate_options(seats, options)

    def new_match(self, setup: Setup, rng: random.Random) -> list[Event]:
        """Game Setup: one ``MatchStarted`` event with every shuffle and deal."""
        options = self.validate_options(setup.seats, setup.options)
        ctx = Ctx(None, rng)
        flow.start_match(ctx, setup.seats, options)
        return ctx.events

    def decide(self, state: dict, seat: int, command: Mapping[str, Any], rng: random.Random) -> list[Event]:
        """See :func:`rules.decide`."""
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: dict | None, event: Event) -> dict:
        """See :func:`fold.evolve`."""
        return fold.evolve(state, event)

    def view(self, state: dict, viewer: int | None) -> dict[str, Any]:
        """See :func:`views.view`."""
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
        """See :func:`views.redact`."""
        return views.redact(event, viewer, state)

    def redact_type(self, event: Event, viewer: int | None, state: Any = None) -> str:
        """See :func:`views.redact_type` (optional capability, ``domain.engine.redacted_type``)."""
        return views.redact_type(event, viewer, state)

    def pending(self, state: dict) -> dict[int, str]:
        """See :func:`actions.pending`."""
        return actions.pending(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict[str, Any]]:
        """See :func:`actions.legal_actions`."""
        return actions.legal_actions(state, seat)

    def result(self, state: dict) -> dict[str, Any] | None:
        """``None`` while running, else ``{"scores", "ranking", "winners", "reason"}``."""
        return state["result"]

    def dump_state(self, state: dict) -> dict[str, Any]:
        """See :func:`state.dump_state`."""
        return state_mod.dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> dict:
        """See :func:`state.load_state`."""
        return state_mod.load_state(data)
