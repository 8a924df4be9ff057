"""Duel's folded state (:class:`State`) and its snapshot form (``dump_state`` /
``load_state``). Only ``fold.evolve`` changes a state; everything else reads it."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class State:
    """One match of Duel (RULES.md).

    - ``seat_count``: always 2; ``tricks``: tricks the match lasts (option ``tricks``).
    - ``hands[s]``: seat ``s``'s cards (secret: RULINGS D-hidden).
    - ``laid[s]``: the card seat ``s`` laid face down in this trick, ``None`` before.
    - ``played``: tricks finished; ``won[s]``: tricks seat ``s`` won.
    - ``last``: the two cards of the last finished trick (face up), ``None`` before one.
    - ``resigned``: seats that resigned, in order; ``result``: ``None`` while running.
    """

    seat_count: int
    tricks: int
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    laid: list[int | None] = field(default_factory=lambda: [None, None])
    played: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])
    last: list[int] | None = None
    resigned: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None


def clone(state: State) -> State:
    """A deep copy of ``state`` (the fold never mutates a state it was given), field by
    field: ``copy.deepcopy``'s generic walk cost ten times as much (it was most of a
    fold step)."""
    return State(
        seat_count=state.seat_count,
        tricks=state.tricks,
        hands=[list(hand) for hand in state.hands],
        laid=list(state.laid),
        played=state.played,
        won=list(state.won),
        last=None if state.last is None else list(state.last),
        resigned=list(state.resigned),
        result=None if state.result is None else copy.deepcopy(state.result),
    )


def dump_state(state: State) -> dict[str, Any]:
    """``state`` as JSON-serialisable data (the snapshot form)."""
    return asdict(state)


def load_state(data: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`."""
    return State(**copy.deepcopy(dict(data)))
