"""The :class:`domain.engine.Engine` of *Dead Apocalypse* (1-4 seats, co-operative),
wiring spec (options, commands), turns (set-up), rules (decide), fold (evolve), actions
(pending, legal actions), views (view, redact) and bots."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from domain.engine import Event
from domain.lifecycle import SeatStateLifecycle, check_resign, standing
from domain.modular import ModularEngine

from . import actions, bots, cards, fold, rules, spec, views
from . import state as state_mod
from .ending import result_data
from .expert import ESTIMATOR
from .recorder import GameOver, Recorder
from .state import clone
from .turns import set_up


class DeadApocalypseEngine(SeatStateLifecycle, ModularEngine):
    """Decider, fold and projections of one match (see ``domain/engine.py`` for the contract).

    ``result``: ``None`` while running, else ``{"outcome", "reason", "scores", "ranking",
    "winners"}``. RULINGS R-ABANDONED."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    cards_module = cards  # GET /v1/games/{game}/cards (public_cards)
    bot_options_schema = MappingProxyType(bots.BOT_OPTIONS)  # the expert's per-seat options
    bot_factories = MappingProxyType(bots.BOT_FACTORIES)
    bots = bots.BOTS
    timeout_bot = "idle"  # timeout_bot.py: the answer that uses nothing (shared RULINGS)

    def estimator(self) -> Any:
        """The expert's rollouts as a :class:`domain.estimates.Estimator`
        (:class:`expert.WinEstimator`, metric ``win_probability``), from the seat's view only."""
        return ESTIMATOR

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Game Setup events up to the first seat's play step."""
        rec = Recorder(None)
        try:
            set_up(rec, seats, options, rng)
        except GameOver:
            pass
        return rec.events

    def resign(self, state: Any, seat: int, command: Any, rng: random.Random) -> list[Event]:
        """RULINGS R-RESIGN: ``SeatResigned``; the seat's timeout bot plays on. When every
        seat has resigned the team loses at once (``MatchEnded``, outcome ``lost``, reason
        ``resignation``)."""
        check_resign(command, seat, state.seat_count, state.resigned, state.result is not None)
        events = [Event("SeatResigned", {"seat": seat}, seat)]
        if not standing(state.seat_count, [*state.resigned, seat]):
            after = clone(state)
            after.resigned.append(seat)
            events.append(Event("MatchEnded", result_data(after, "lost", "resignation")))
        return events
