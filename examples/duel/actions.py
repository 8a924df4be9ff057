"""Who must act in Duel and what they may send: ``pending`` and ``legal_actions``."""

from __future__ import annotations

from typing import Any

from .state import State


def pending(state: State | None) -> dict[int, str]:
    """Seats that have not laid a card in this trick -> ``"play"`` (both at once: the
    choice is simultaneous); ``{}`` once the match is over."""
    if state is None or state.result is not None:
        return {}
    return {seat: "play" for seat in range(state.seat_count) if state.laid[seat] is None}


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """``{"type": "play", "card": "Dnn"}`` for every card of ``seat``'s hand while it must
    play, lowest first; ``[]`` otherwise."""
    if seat not in pending(state):
        return []
    return [{"type": "play", "card": card} for card in sorted(state.hands[seat])]
