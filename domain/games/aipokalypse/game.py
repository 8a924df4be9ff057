"""The :class:`domain.engine.Engine` of A.I.Pokalypse (1-8 seats), wiring the modules:
spec (options, commands), flow (set-up and automatic steps), rules (decide), fold (evolve),
actions (pending, legal actions), views (view, redact, redact_type), bots."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from domain.engine import Event
from domain.lifecycle import abandoned_result, check_abandon, check_resign
from domain.modular import ModularEngine

from . import actions, batching, bots, cards, expert, flow, fold, rules, sides, spec, views
from . import state as state_mod
from .context import Ctx
from .state import MatchState


class AIPokalypseEngine(ModularEngine):
    """Decider, fold and projections of one match (contract: ``domain/engine.py``).

    The state is a :class:`.state.MatchState`; hidden Recruitment moves also hide their event type
    (``views.redact_type``)."""

    spec, rules, fold, actions, views, state_module = spec, rules, fold, actions, views, state_mod
    cards_module = cards  # GET /v1/games/{game}/cards (public_cards)
    bot_options_schema = MappingProxyType(bots.BOT_OPTIONS)  # the expert's per-seat options
    bot_factories = MappingProxyType(bots.BOT_FACTORIES)
    bots = bots.BOTS
    timeout_bot = "idle"

    def estimator(self) -> expert.Estimator:
        """The expert's rollouts as a :class:`domain.estimates.Estimator` (metric
        ``win_probability``, from the seat's view only; issue 23)."""
        return expert.Estimator(bots.POLICIES)

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Game Setup: one ``MatchStarted`` event with every shuffle and deal."""
        ctx = Ctx(None, rng)
        flow.start_match(ctx, seats, options)
        return ctx.events

    def as_older_rules(self, events: list[Event], rules_version: str) -> list[Event]:
        """Rules 3 (``spec.OLDER_RULES_VERIFIED``): a reshuffle caused by a hidden
        Recruitment move was a public event between two batches (``batching.as_rules_3``)."""
        return batching.as_rules_3(events) if rules_version == "3" else events

    def redact_type(self, event: Event, viewer: int | None, state: Any = None) -> str:
        """``views.redact_type``: a hidden Recruitment move shows as
        ``RecruitmentMoveMade`` to everybody but its seat."""
        return views.redact_type(event, viewer, state)

    def result(self, state: MatchState) -> dict[str, Any] | None:
        """``None`` while running, else ``{"scores", "ranking", "winners", "reason"}``."""
        return state.result

    def resign(self, state: MatchState, seat: int, command: Any, rng: random.Random) -> list[Event]:
        """RULINGS R-RESIGN: ``SeatResigned``. Against the A.I.Toma (solo, co-op) the human
        side loses at once (``MatchEnded`` outcome ``lost``, reason ``resignation``).
        Competitive: the seat plays on by the ``idle`` policy and loses; when at most one
        living seat has not resigned the match ends (it wins, reason ``resignation``)."""
        check_resign(command, seat, state.n, state.resigned or [], state.phase == "ended")
        ctx = Ctx(state, rng)
        resigned = Event("SeatResigned", {"seat": seat}, seat)  # public in every phase
        ctx.state = fold.evolve(ctx.state, resigned)
        ctx.events.append(resigned)
        if ctx.state.toma:
            sides.finish(ctx, False, "resignation")
        else:
            left = [s for s in state_mod.alive(ctx.state) if s not in (ctx.state.resigned or [])]
            if len(left) <= 1:
                flow.finish(ctx, left, "resignation")
        return ctx.events

    def abandon(self, state: MatchState, seat: Any, command: Any) -> list[Event]:
        """RULINGS R-ABANDONED: ``MatchEnded`` with the abandoned result."""
        idle = check_abandon(command, seat, state.phase == "ended")
        return [Event("MatchEnded", abandoned_result(state.n, idle))]

    def resigned(self, state: MatchState | None) -> frozenset[int]:
        """The seats that resigned (``state.resigned``)."""
        return frozenset(state.resigned or []) if state is not None else frozenset()
