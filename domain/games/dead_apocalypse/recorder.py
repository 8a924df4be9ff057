"""A list of new events kept folded into a working state copy while ``decide`` runs."""
from __future__ import annotations

from typing import Any, Mapping

from domain.engine import Event

from .fold import evolve
from .state import MatchState


class GameOver(Exception):
    """Raised after ``MatchEnded`` is recorded: nothing else happens in this command."""


class Recorder:
    """Collects events and applies each to ``state`` at once, so later steps of the same
    command (refills, draws, next turn) read the state the earlier events produce."""

    def __init__(self, state: MatchState | None):
        self.state = state
        self.events: list[Event] = []

    def emit(self, type_: str, data: Mapping[str, Any] | None = None, seat: int | None = None) -> Event:
        """Record ``Event(type_, data, seat)`` and fold it into :attr:`state`."""
        event = Event(type_, dict(data or {}), seat)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event
