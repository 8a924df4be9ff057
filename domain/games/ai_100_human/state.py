"""The folded state of one match (a projection of its event stream) and its snapshot form.

Shapes: a cell (``Pos``) is ``(row, col)``; a tableau is ``{Pos: card_id}`` and holds the AI
card at ``AI_POS`` once the sides are revealed. ``deck`` lists the current phase deck top
first. Everything private (hands, reserves, dealt cards, choices, the deck) lives here and
leaves the domain only through :mod:`.views`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Pos = tuple[int, int]


@dataclass
class SeatState:
    """One seat: AI card, tableau, hand, reserve, score and its decisions of the current step.

    ``ai_pair``: the two sides of the dealt physical AI card; ``ai_card``: the chosen side
    (hidden until ``ai_revealed``). ``dealt``: the 4 reserve-creation cards awaiting
    ``keep_reserve``. ``done``: the seat decided in the current step. ``choice``: its hidden
    choice (placement or resolution). ``played``: ``{"card", "cell"}`` placed this turn.
    ``need``: resolution kind this turn (``"copy"``, ``"exchange_reserve"``, ``"move_card"``).
    ``locked``: card returned to the reserve by 115/116 this turn (cannot be placed).
    ``ai6_discarding``: the seat drew with AI-6 (step 1) and owes the discard of 2 hand
    cards (step 2, ruling R-AI6-STEPS) before anything else. ``vp_by``: VP per source
    (:func:`vp_source`), the score broken down.
    """

    ai_pair: list[str] = field(default_factory=list)
    ai_card: str | None = None
    ai_revealed: bool = False
    tableau: dict[Pos, str] = field(default_factory=dict)
    hand: list[str] = field(default_factory=list)
    reserve: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)
    score: int = 0
    done: bool = False
    choice: dict[str, Any] | None = None
    played: dict[str, Any] | None = None
    need: str | None = None
    locked: str | None = None
    ai5_used: bool = False
    ai6_used: bool = False
    ai6_discarding: bool = False
    turn_vp: int = 0
    #: the seat's VP by source (:data:`VP_SOURCES`), adding up to ``score``
    vp_by: dict[str, int] = field(default_factory=dict)


@dataclass
class MatchState:
    """The whole match. ``step`` is one of ``setup``, ``draft``, ``discard`` (2-player mode),
    ``place``, ``resolve``, ``extra`` (AI-2 end placement) or ``finished``; ``turn`` is 0
    during set-up, then 1..7. ``mode`` is ``standard``, ``duo`` or ``solo`` (spec.mode_for).

    2-player mode: ``neutral`` is the neutral grid (``(row, col)`` -> card, rows 0..2,
    columns 0-1 from Phase 1 and 2-3 from Phase 2). Solo mode: ``grid`` is the draft grid
    (rows/columns 0..2), ``dividers`` ``{"rows": [3 colours], "columns": [3 colours]}``,
    ``standee`` ``{"color", "line": "row"|"column", "index"}``, ``timer`` the face-down
    timer stack (top first), ``tilted`` the cells of the cards tilted this turn.
    """

    seat_count: int
    options: dict[str, Any]
    objectives: dict[str, str]
    mode: str = "standard"
    phase: int = 1
    turn: int = 0
    step: str = "setup"
    deck: list[str] = field(default_factory=list)
    seats: list[SeatState] = field(default_factory=list)
    last_reveal: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    resigned: list[int] = field(default_factory=list)  # seats in the order they resigned
    neutral: dict[Pos, str] = field(default_factory=dict)
    grid: dict[Pos, str] = field(default_factory=dict)
    dividers: dict[str, list[str]] = field(default_factory=dict)
    standee: dict[str, Any] | None = None
    timer: list[str] = field(default_factory=list)
    tilted: list[list[int]] = field(default_factory=list)

    def left(self, seat: int) -> int:
        """Left neighbour (clockwise): seat + 1 mod n (RULINGS "General").

        RULINGS R-SHARED-SEATS.
        """
        return (seat + 1) % self.seat_count

    def right(self, seat: int) -> int:
        """Right neighbour: seat - 1 mod n."""
        return (seat - 1) % self.seat_count

    def neighbours(self, seat: int) -> list[int]:
        """The adjacent players (left, right); distinct for 3+ seats."""
        return [self.left(seat), self.right(seat)]

    def neighbour_tableaux(self, seat: int) -> tuple[dict[Pos, str], ...]:
        """The tableaux black cards 099-114 look at, left first.

        Standard: the two adjacent players. 2-player mode: the opponent and the neutral
        grid ("This grid represents a neutral neighbor for each player"). Solo: the
        current draft grid (shared RULINGS, solo mode).
        """
        if self.mode == "duo":
            return (self.seats[1 - seat].tableau, self.neutral)
        if self.mode == "solo":
            return (self.grid,)
        return tuple(self.seats[s].tableau for s in self.neighbours(seat))


def cell(value: Any) -> Pos:
    """``[row, col]`` (JSON) -> ``(row, col)``."""
    return (int(value[0]), int(value[1]))


def cell_json(pos: Pos) -> list[int]:
    """``(row, col)`` -> ``[row, col]``."""
    return [pos[0], pos[1]]


#: Where a seat's VP come from (rulebook "2 Phases Overview" C-F): its Development cards'
#: effects as placed (B.5, copies and 105/106 included), the Phase 1 and Phase 2 Objective
#: cards (E) and its AI card (F; AI-2's end-of-game card too, "Check its effect and gain
#: the corresponding VP").
VP_SOURCES = ("cards", "objective_1", "objective_2", "ai_card")


def vp_source(data: Mapping[str, Any], phase: int) -> str:
    """The :data:`VP_SOURCES` entry a ``VPScored`` event's ``data`` counts for."""
    if data.get("reason") == "objective":
        return f"objective_{phase}"
    if data.get("reason") == "ai_card" or str(data.get("via") or "").startswith("AI-"):
        return "ai_card"
    return "cards"


def breakdown(seat: SeatState) -> dict[str, int]:
    """``{"cards", "objective_1", "objective_2", "ai_card"}``: the seat's VP by source
    (every source, 0 when it scored nothing); the values add up to ``seat.score``."""
    return {source: seat.vp_by.get(source, 0) for source in VP_SOURCES}


def tableau_json(tableau: Mapping[Pos, str]) -> list[dict[str, Any]]:
    """A tableau as ``[{"cell": [r, c], "card": id}]`` sorted by cell."""
    return [{"cell": cell_json(p), "card": c} for p, c in sorted(tableau.items())]


def dump_state(state: MatchState) -> dict[str, Any]:
    """JSON-serialisable snapshot (tableaux as lists of ``{"cell", "card"}``)."""
    seats = []
    for s in state.seats:
        d = dict(s.__dict__)
        d["tableau"] = tableau_json(s.tableau)
        d["hand"], d["reserve"], d["dealt"] = list(s.hand), list(s.reserve), list(s.dealt)
        d["ai_pair"] = list(s.ai_pair)
        seats.append(d)
    data = dict(state.__dict__)
    data["seats"] = seats
    data["deck"] = list(state.deck)
    data["neutral"] = tableau_json(state.neutral)
    data["grid"] = tableau_json(state.grid)
    return _copy_json(data)


def load_state(data: Mapping[str, Any]) -> MatchState:
    """Inverse of :func:`dump_state`."""
    fields: dict[str, Any] = _copy_json(data)
    seats = []
    for d in fields.pop("seats"):
        d["tableau"] = {cell(e["cell"]): e["card"] for e in d["tableau"]}
        seats.append(SeatState(**d))
    for name in ("neutral", "grid"):
        fields[name] = {cell(e["cell"]): e["card"] for e in fields.get(name, [])}
    return MatchState(seats=seats, **fields)


#: immutable JSON values :func:`_copy_json` keeps as they are (without a call per value)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _copy_json(obj: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists; tuples become lists)."""
    if isinstance(obj, dict):
        return {k: v if v.__class__ in _SCALARS else _copy_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [v if v.__class__ in _SCALARS else _copy_json(v) for v in obj]
    return obj


#: the containers the fold (:mod:`.fold`) changes in place: :func:`clone` copies these
#: (one level: their items are strings, or ``[row, col]`` lists the fold never changes)
SEAT_CONTAINERS = ("tableau", "hand", "reserve", "vp_by")
MATCH_CONTAINERS = ("deck", "neutral", "grid", "timer", "tilted")


def clone(state: MatchState) -> MatchState:
    """A copy ``decide`` folds its new events into, so it never mutates its input.

    Copy what changes: the containers the fold changes in place (:data:`SEAT_CONTAINERS`,
    :data:`MATCH_CONTAINERS`) are copied one level deep; every other field is shared
    with ``state``, because the fold only ever *replaces* it (``choice``, ``played``,
    ``dealt``, ``ai_pair``, ``last_reveal``, ``result``, ``dividers``, ``standee``) or
    never changes it (``options``, ``objectives``) and no other code of the game writes
    into a state (``tests/unit/test_ai100_clone.py`` checks both on seeded playouts, and
    that the events are those of a deep copy).

    ``resigned`` is copied too: a match that ends normally after a seat resigned ranks that
    seat last (RULINGS R-RESIGN). Before rules version 3 the copy started it empty and
    such a seat was ranked by its score.
    """
    seats = []
    for s in state.seats:
        c = object.__new__(SeatState)
        fields = dict(s.__dict__)
        for name in SEAT_CONTAINERS:
            fields[name] = fields[name].copy()
        c.__dict__ = fields
        seats.append(c)
    copy = object.__new__(MatchState)
    fields = dict(state.__dict__)
    for name in MATCH_CONTAINERS:
        fields[name] = fields[name].copy()
    fields["seats"] = seats
    fields["resigned"] = list(state.resigned)
    copy.__dict__ = fields
    return copy
