"""What each viewer may see of Duel (RULINGS D-hidden): ``view`` and ``redact``.

A seat sees its own hand and the card it laid in this trick; everybody sees the trick
count, the tricks won, which seats have laid a card (not which card) and the last trick's
two cards. A spectator sees only the public part."""

from __future__ import annotations

from typing import Any

from domain.engine import Event

from .state import State


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """``{"tricks", "played", "won", "hand_sizes", "laid": [bool, bool], "last"}`` plus, for
    a seat, ``"hand"`` (its cards, ascending) and ``"my_card"`` (laid this trick, or null)."""
    out: dict[str, Any] = {
        "tricks": state.tricks,
        "played": state.played,
        "won": list(state.won),
        "hand_sizes": [len(hand) for hand in state.hands],
        "laid": [card is not None for card in state.laid],
        "last": None if state.last is None else list(state.last),
    }
    if viewer is not None:
        out["hand"] = sorted(state.hands[viewer])
        out["my_card"] = state.laid[viewer]
    return out


def redact(event: Event, viewer: int | None, state: State | None = None) -> dict[str, Any]:
    """``event.data`` as ``viewer`` may see it: another seat's ``HandDealt`` shows only
    ``{"count"}`` and its ``CardLaid`` nothing (``{}``); every other event is public."""
    if event.seat is not None and viewer != event.seat:
        if event.type == "HandDealt":
            return {"count": len(event.data["cards"])}
        if event.type == "CardLaid":
            return {}
    return dict(event.data)
