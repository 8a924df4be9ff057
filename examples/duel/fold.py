"""Duel's fold: ``evolve(state, event) -> state``, one handler per event type (total over
them: an unknown type or a log not opening with ``MatchStarted`` is a ValueError)."""

from __future__ import annotations

from typing import Any

from domain.engine import Event
from domain.modular import FoldHandlers

from .state import State, clone

HANDLERS = FoldHandlers("Duel")


def evolve(state: State | None, event: Event) -> State:
    """``state`` after ``event`` (a new object; ``state`` is ``None`` before the first)."""
    handler = HANDLERS.handler(state, event)
    if state is None:
        return handler(None, event)
    after = clone(state)
    handler(after, event)
    return after


@HANDLERS.on("MatchStarted")
def _started(_: None, event: Event) -> State:
    return State(seat_count=event.data["seats"], tricks=event.data["tricks"])


@HANDLERS.on("HandDealt")
def _dealt(state: State, event: Event) -> None:
    state.hands[event.seat] = list(event.data["cards"])


@HANDLERS.on("CardLaid")
def _laid(state: State, event: Event) -> None:
    state.hands[event.seat].remove(event.data["card"])
    state.laid[event.seat] = event.data["card"]


@HANDLERS.on("TrickRevealed")
def _revealed(state: State, event: Event) -> None:
    state.won[event.data["winner"]] += 1
    state.played += 1
    state.last = list(event.data["cards"])
    state.laid = [None] * state.seat_count


@HANDLERS.on("SeatResigned")
def _resigned(state: State, event: Event) -> None:
    state.resigned.append(event.data["seat"])


@HANDLERS.on("MatchEnded")
def _ended(state: State, event: Event) -> Any:
    state.result = dict(event.data)
