"""The folded state of one match (a projection of its event stream) and its snapshot form.

Shapes: card ids are instance ids (``cards.def_id``). Stacks and decks list the top card
first. ``zombie_row``/``resource_row`` are 5 aligned columns (RULINGS "Dead Apocalypse"),
``None`` for an empty place. A Location in play is ``{"card", "occupants": [{"card",
"upright"}]}`` (Occupying Locations). A damage entry (the turn's pool) is ``{"seat",
"source", "title", "kind", "faction", "amount", "ally"}``: ``amount`` is what is still
unspent; ``ally`` marks damage from an assisting seat (only for attacking Zombies).
Everything private (hands, decks, stack orders) leaves the domain only through views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeatState:
    """One seat's personal cards: ``deck`` (top first), ``hand``, ``discard`` (top last),
    ``played`` (Humans/Equipment/Locations played this turn, in order) and ``locations``
    (Locations in play, oldest first, with their occupants)."""

    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    locations: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class MatchState:
    """The whole match.

    ``active``: the seat whose turn it is; ``turn``: 1-based turn counter. ``attackers``:
    columns of the Zombies that attacked this turn and are not defeated yet.
    ``help``: Call for Help progress ``{"called", "queue" (seats still to answer, in order),
    "assisting" (seat playing now or None), "assisted" (seats that assisted)}``.
    ``prompt``: an open ability or reward decision (see ``effects``/``combat``) or None.
    ``repeat_used``: Locations whose Repeat ability resolved this turn.
    ``defeated``: Zombies defeated this turn. ``result``: the MatchEnded data or None.
    """

    seat_count: int
    options: dict[str, Any]
    first_seat: int = 0
    active: int = 0
    turn: int = 0
    seats: list[SeatState] = field(default_factory=list)
    zombie_stack: list[str] = field(default_factory=list)
    resource_stack: list[str] = field(default_factory=list)
    infection_stack: list[str] = field(default_factory=list)
    adept_stack: list[str] = field(default_factory=list)
    zombie_row: list[str | None] = field(default_factory=lambda: [None] * 5)
    resource_row: list[str | None] = field(default_factory=lambda: [None] * 5)
    ditch: list[str] = field(default_factory=list)
    events_aside: list[str] = field(default_factory=list)
    attackers: list[int] = field(default_factory=list)
    damage: list[dict[str, Any]] = field(default_factory=list)
    help: dict[str, Any] = field(default_factory=dict)
    prompt: dict[str, Any] | None = None
    repeat_used: list[str] = field(default_factory=list)
    defeated: int = 0
    cdc_holder: int | None = None
    result: dict[str, Any] | None = None
    resigned: list[int] = field(default_factory=list)  # seats in the order they resigned

    def left(self, seat: int) -> int:
        """Left neighbour (clockwise): seat + 1 mod n (RULINGS "General"). RULINGS R-SEATS."""
        return (seat + 1) % self.seat_count

    def allies_in_order(self) -> list[int]:
        """The other seats from the active seat's left, "one at a time from left to right"."""
        return [(self.active + k) % self.seat_count for k in range(1, self.seat_count)]


def new_help() -> dict[str, Any]:
    """Call for Help progress at the start of a turn (not called)."""
    return {"called": False, "queue": [], "assisting": None, "assisted": []}


def _copy(obj: Any) -> Any:
    """Deep copy of plain JSON-like data (dicts, lists, scalars); tuples become lists."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_copy(v) for v in obj]
    return obj


def dump_state(state: MatchState) -> dict[str, Any]:
    """JSON-serialisable snapshot (plain dicts and lists)."""
    data = {k: _copy(v) for k, v in state.__dict__.items() if k != "seats"}
    data["seats"] = [_copy(s.__dict__) for s in state.seats]
    return data


def load_state(data: Mapping[str, Any]) -> MatchState:
    """Inverse of :func:`dump_state`."""
    fields: dict[str, Any] = _copy(dict(data))
    seats = [SeatState(**s) for s in fields.pop("seats")]
    return MatchState(seats=seats, **fields)


def clone(state: MatchState) -> MatchState:
    """A deep, independent copy (``decide`` works on one so it never mutates its input)."""
    return load_state(dump_state(state))
