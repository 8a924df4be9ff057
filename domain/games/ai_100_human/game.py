"""The :class:`domain.engine.Engine` of "AI: 100% Human" (1-6 seats: solo, 2-player mode,
standard game), wiring the modules: spec (options, commands, modes), flow (set-up and
automatic steps; duo and solo plug in there), rules (decide), fold (evolve), actions
(pending, legal actions), views (view, redact), bots."""
from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from domain.engine import Event
from domain.modular import ModularEngine

from . import actions, bots, flow, fold, rules, spec, state as state_mod, views
from .recorder import Recorder


class AI100HumanEngine(ModularEngine):
    """Decider, fold and projections of one match (see ``domain/engine.py`` for the contract).

    ``result``: ``None`` while running, else ``{"scores", "ranking", "winners"}`` (+
    ``rating`` in solo)."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    bot_options_schema = MappingProxyType(bots.BOT_OPTIONS)    # the expert's per-seat options
    bot_factories = MappingProxyType(bots.BOT_FACTORIES)
    bots = bots.BOTS
    timeout_bot = "greedy"

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Set-up events up to the first decisions (AI side, reserve creation)."""
        rec = Recorder(None)
        flow.start_match(rec, seats, options, rng)
        return rec.events
