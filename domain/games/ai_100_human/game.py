"""The :class:`domain.engine.Engine` of "AI: 100% Human" (1-6 seats: solo, 2-player mode,
standard game), wiring the modules: spec (options, commands, modes), flow (set-up and
automatic steps; duo and solo plug in there), rules (decide), fold (evolve), actions
(pending, legal actions), views (view, redact), bots."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from domain.engine import Event
from domain.lifecycle import SeatStateLifecycle, check_resign, demote, standing
from domain.modular import ModularEngine

from . import actions, bots, cards, flow, fold, rules, spec, views
from . import state as state_mod
from .estimator import ESTIMATOR
from .recorder import Recorder


class AI100HumanEngine(SeatStateLifecycle, ModularEngine):
    """Decider, fold and projections of one match (see ``domain/engine.py`` for the contract).

    ``result``: ``None`` while running, else ``{"scores", "ranking", "winners"}`` (+
    ``rating`` in solo). RULINGS R-ABANDONED."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    cards_module = cards  # GET /v1/games/{game}/cards (public_cards)
    bot_options_schema = MappingProxyType(bots.BOT_OPTIONS)  # the expert's per-seat options
    bot_factories = MappingProxyType(bots.BOT_FACTORIES)
    bots = bots.BOTS
    timeout_bot = "idle"  # declines every optional power (R-AI6-TIMEOUT)

    def estimator(self) -> Any:
        """The match-analysis estimator (``estimator.py``: expected final VP by the expert's
        determinized rollouts)."""
        return ESTIMATOR

    def copy_state(self, state: Any) -> Any:
        """A copy of ``state`` that folding more events into leaves ``state`` as it was
        (:func:`state.clone`, a few microseconds). An optional hook: the service folds an
        append's events into it, so a lost append race folds only the events it missed
        into the fold it still holds (:meth:`service.usecases.act.Act._append_batch`)."""
        return state_mod.clone(state)

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Set-up events up to the first decisions (AI side, reserve creation)."""
        rec = Recorder(None)
        flow.start_match(rec, seats, options, rng)
        return rec.events

    def resign(self, state: Any, seat: int, command: Any, rng: random.Random) -> list[Event]:
        """RULINGS R-RESIGN: ``SeatResigned``; when at most one seat is left standing the
        match ends at once (``MatchEnded``, reason ``resignation``: the standing seat wins,
        solo: nobody), scores as they are now."""
        check_resign(command, seat, state.seat_count, state.resigned, state.result is not None)
        events = [Event("SeatResigned", {"seat": seat}, seat)]
        resigned = [*state.resigned, seat]
        if len(standing(state.seat_count, resigned)) <= 1:
            scores = [s.score for s in state.seats]
            result = demote(flow.result_of(scores), resigned)
            events.append(Event("MatchEnded", {**result, "reason": "resignation"}))
        return events
