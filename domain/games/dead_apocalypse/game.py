"""The :class:`domain.engine.Engine` of *Dead Apocalypse* (1-4 seats, co-operative),
wiring spec (options, commands), turns (set-up), rules (decide), fold (evolve), actions
(pending, legal actions), views (view, redact) and bots."""
from __future__ import annotations

import random
from typing import Any, Mapping

from domain.engine import Event, Setup

from . import actions, bots, fold, rules, spec, state as state_mod, views
from .recorder import GameOver, Recorder
from .state import MatchState
from .turns import set_up


class DeadApocalypseEngine:
    """Decider, fold and projections of one match (see ``domain/engine.py`` for the contract)."""

    game_id = spec.GAME_ID
    title = spec.TITLE
    min_seats = spec.MIN_SEATS
    max_seats = spec.MAX_SEATS
    schema_version = spec.SCHEMA_VERSION
    options_schema = spec.OPTIONS_SCHEMA
    command_schemas = spec.COMMAND_SCHEMAS
    bots = bots.BOTS
    timeout_bot = "cooperative"

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Normalised options (see :func:`spec.validate_options`); raises InvalidCommand."""
        return spec.validate_options(seats, options)

    def new_match(self, setup: Setup, rng: random.Random) -> list[Event]:
        """Game Setup events up to the first seat's play step."""
        options = self.validate_options(setup.seats, setup.options)
        rec = Recorder(None)
        try:
            set_up(rec, setup.seats, options, rng)
        except GameOver:
            pass
        return rec.events

    def decide(self, state: MatchState, seat: int, command: Mapping[str, Any],
               rng: random.Random) -> list[Event]:
        """See :func:`rules.decide`."""
        return rules.decide(state, seat, command, rng)

    def evolve(self, state: MatchState | None, event: Event) -> MatchState:
        """See :func:`fold.evolve`."""
        return fold.evolve(state, event)

    def view(self, state: MatchState, viewer: int | None) -> dict[str, Any]:
        """See :func:`views.view`."""
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
        """See :func:`views.redact`."""
        return views.redact(event, viewer, state)

    def pending(self, state: MatchState) -> dict[int, str]:
        """See :func:`actions.pending`."""
        return actions.pending(state)

    def legal_actions(self, state: MatchState, seat: int) -> list[dict[str, Any]]:
        """See :func:`actions.legal_actions`."""
        return actions.legal_actions(state, seat)

    def result(self, state: MatchState) -> dict[str, Any] | None:
        """``None`` while running, else ``{"outcome", "reason", "scores", "ranking", "winners"}``."""
        return state.result

    def dump_state(self, state: MatchState) -> dict[str, Any]:
        """See :func:`state.dump_state`."""
        return state_mod.dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> MatchState:
        """See :func:`state.load_state`."""
        return state_mod.load_state(data)
