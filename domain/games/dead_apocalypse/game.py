"""The :class:`domain.engine.Engine` of *Dead Apocalypse* (1-4 seats, co-operative),
wiring spec (options, commands), turns (set-up), rules (decide), fold (evolve), actions
(pending, legal actions), views (view, redact) and bots."""
from __future__ import annotations

import random
from typing import Any

from domain.engine import Event
from domain.modular import ModularEngine

from . import actions, bots, fold, rules, spec, state as state_mod, views
from .recorder import GameOver, Recorder
from .turns import set_up


class DeadApocalypseEngine(ModularEngine):
    """Decider, fold and projections of one match (see ``domain/engine.py`` for the contract).

    ``result``: ``None`` while running, else ``{"outcome", "reason", "scores", "ranking",
    "winners"}``."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    bots = bots.BOTS
    timeout_bot = "cooperative"

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Game Setup events up to the first seat's play step."""
        rec = Recorder(None)
        try:
            set_up(rec, seats, options, rng)
        except GameOver:
            pass
        return rec.events
