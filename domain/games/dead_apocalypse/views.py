"""Projections for one viewer: ``view`` (the table as a seat or spectator sees it) and
``redact`` (an event's data as that viewer may see it).

Hidden information (DESIGN.md "Hidden information"): a hand is shown only to its seat;
deck and stack orders to nobody (shuffles and stack formations carry only a count);
drawn cards only to the drawer. The rows, played cards, Locations, discard piles, the
Ditch Pile, the damage pool and every prompt are public.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from domain.engine import Event

from .actions import pending
from .cards import catalogue
from .state import MatchState

_ORDER_EVENTS = (
    "DeckShuffled",
    "ZombieStackFormed",
    "ResourceStackFormed",
    "ZombieStackReformed",
    "ResourceStackReformed",
)


def card_info(card: str) -> dict[str, Any]:
    """Public facts of a card instance: id, title, kind, faction, text (+ HP, immunities)."""
    d = catalogue().of(card)
    info: dict[str, Any] = {
        "card": card,
        "title": d.title,
        "kind": d.kind,
        "faction": d.faction,
        "text": d.text,
    }
    if d.kind == "zombie":
        info["hp"] = d.hp
        info["immune"] = {k: list(v) for k, v in d.immune.items() if v}
    if d.kind in ("human", "equipment", "location"):
        info["damage"] = d.damage
    if d.kind == "location":
        info["occupancy"] = d.occupancy
        info["repeat"] = d.repeat
    return info


def view(state: MatchState, viewer: int | None) -> dict[str, Any]:
    """The table for ``viewer`` (a seat, or ``None`` for a spectator); JSON."""
    seats = []
    for i, me in enumerate(state.seats):
        entry: dict[str, Any] = {
            "seat": i,
            "deck_count": len(me.deck),
            "hand_count": len(me.hand),
            "discard": list(me.discard),
            "played": list(me.played),
            "locations": [
                {"card": loc["card"], "occupants": [dict(o) for o in loc["occupants"]]}
                for loc in me.locations
            ],
        }
        if viewer == i:
            entry["hand"] = list(me.hand)
        seats.append(entry)
    return {
        "turn": state.turn,
        "active": state.active,
        "first_seat": state.first_seat,
        "options": dict(state.options),
        "pending": {str(k): v for k, v in pending(state).items()},
        "zombie_row": [
            None if z is None else {**card_info(z), "column": c, "attacking": c in state.attackers}
            for c, z in enumerate(state.zombie_row)
        ],
        "resource_row": [
            None if r is None else {**card_info(r), "column": c}
            for c, r in enumerate(state.resource_row)
        ],
        "zombie_stack_count": len(state.zombie_stack),
        "resource_stack_count": len(state.resource_stack),
        "infection_stack_count": len(state.infection_stack),
        "adept_stack_count": len(state.adept_stack),
        "ditch": list(state.ditch),
        "events_aside": list(state.events_aside),
        "damage": deepcopy(state.damage),
        "defeated_this_turn": state.defeated,
        "help": {k: (list(v) if isinstance(v, list) else v) for k, v in state.help.items()},
        "prompt": deepcopy(state.prompt),  # a reward prompt's queue, a ditch prompt's rest: copies
        "repeat_used": list(state.repeat_used),
        "cdc_holder": state.cdc_holder,
        "seats": seats,
        "result": deepcopy(state.result),
    }


def redact(event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
    """``event.data`` for ``viewer``: orders become ``count``; others' draws become ``count``."""
    data = dict(event.data)
    if event.type in _ORDER_EVENTS:
        data["count"] = len(data.pop("order"))
    elif event.type == "CardsDrawn" and viewer != data["seat"]:
        data["count"] = len(data.pop("cards"))
    return data
