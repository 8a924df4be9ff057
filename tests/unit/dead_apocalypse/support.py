"""Helpers: build a table by hand (given), send a command (when), read events (then)."""

from __future__ import annotations

import random
from typing import Any

from domain.engine import Event, fold
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.spec import validate_options

ZROW = ["shambler#1", "shambler#2", "crawler#1", "sprinter#1", "ghoul#1"]
RROW = ["shotgun#1", "soldier#1", "radio#1", "nurse#1", "machete#1"]


def table(
    seats: int = 1,
    active: int = 0,
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    discards: dict[int, list[str]] | None = None,
    zombie_row: list[str | None] | None = None,
    resource_row: list[str | None] | None = None,
    resource_stack: list[str] | None = None,
    zombie_stack: list[str] | None = None,
    attackers: list[int] | None = None,
    options: dict[str, Any] | None = None,
    **extra: Any,
):
    """A running state in ``active``'s play step with exactly the given cards."""
    state = E.evolve(
        None,
        Event(
            "MatchStarted",
            {"seats": seats, "options": validate_options(seats, options), "first_seat": active},
        ),
    )
    state.turn = 1
    for s in range(seats):
        state.seats[s].hand = list((hands or {}).get(s, []))
        state.seats[s].deck = list((decks or {}).get(s, []))
        state.seats[s].discard = list((discards or {}).get(s, []))
    state.zombie_row = list(ZROW if zombie_row is None else zombie_row)
    state.resource_row = list(RROW if resource_row is None else resource_row)
    state.resource_stack = list(
        resource_stack
        if resource_stack is not None
        else [f"scout#{k}" for k in range(1, 4)]
        + [f"radio#{k}" for k in range(2, 4)]
        + [f"police-officer#{k}" for k in range(1, 4)]
    )
    state.zombie_stack = list(
        zombie_stack
        if zombie_stack is not None
        else [
            "rotting-walker#1",
            "rotting-walker#2",
            "rotting-walker#3",
            "pack-hunter#1",
            "pack-hunter#2",
            "bloater#1",
        ]
    )
    state.attackers = list(attackers or [])
    for key, value in extra.items():
        setattr(state, key, value)
    return state


def act(state, seat: int, command: dict[str, Any], seed: int = 0):
    """``(events, new state)``; the input state is left untouched."""
    events = E.decide(state, seat, command, random.Random(seed))
    new = E.load_state(E.dump_state(state))
    return events, fold(E, events, new)


def types(events) -> list[str]:
    """The event types in order."""
    return [e.type for e in events]


def of(events, kind: str) -> list[dict[str, Any]]:
    """Data of every event of type ``kind``."""
    return [dict(e.data) for e in events if e.type == kind]


def total_damage(state) -> int:
    """Unspent damage in the pool."""
    return sum(d["amount"] for d in state.damage)
