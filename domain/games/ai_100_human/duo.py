"""2-player mode (rulebook "2-Player Mode"): the neutral grid and the changed draft.

Turn order for the two seats (simultaneous, each step hidden until both chose):
draft a hand card into the reserve (face down) -> ``discard`` one hand card (face down)
-> draw one card from the current phase deck into the hand (private) -> place from the
reserve and score -> pass the hand to the opponent. The neutral grid is each seat's second
neighbour for black cards (shared RULINGS, 2-player mode) and gains no VP.
Rulings: R-DUO-GRID, R-DUO-DISCARD, R-DUO-DRAW, R-DUO-PASS (RULINGS.md of this package).
"""

from __future__ import annotations

from .recorder import Recorder
from .spec import NEUTRAL_COLUMNS_PER_PHASE, NEUTRAL_ROWS, PASS_DIRECTION
from .state import tableau_json

DISCARD = "discard"  # decision kind and command type of the discard step


def neutral_cells(phase: int) -> list[tuple[int, int]]:
    """The neutral grid cells revealed in ``phase``, column by column: columns 0-1 in
    Phase 1, 2-3 ("to the right of the 2 columns previously revealed") in Phase 2."""
    first = (phase - 1) * NEUTRAL_COLUMNS_PER_PHASE
    return [
        (r, c) for c in range(first, first + NEUTRAL_COLUMNS_PER_PHASE) for r in range(NEUTRAL_ROWS)
    ]


def reveal_neutral(rec: Recorder, phase: int) -> None:
    """Set-up of ``phase``: reveal 2 columns of 3 cards from the top of the phase deck
    (public, face up), before the reserve deal (R-DUO-GRID)."""
    cells = neutral_cells(phase)
    cards = dict(zip(cells, rec.state.deck, strict=False))
    rec.emit("NeutralGridRevealed", {"phase": phase, "cards": tableau_json(cards)})


def start_discard(rec: Recorder) -> None:
    """After the draft: the discard step. A hand of exactly one card is discarded by
    itself (``forced``); an empty hand discards nothing (R-DUO-DISCARD)."""
    state = rec.state
    rec.emit("StepStarted", {"phase": state.phase, "turn": state.turn, "step": DISCARD})
    for seat, s in enumerate(rec.state.seats):
        if len(s.hand) == 1:
            rec.emit("CardDiscarded", {"card": s.hand[0], "forced": True}, seat)


def finish_discard(rec: Recorder) -> None:
    """Each seat that discarded draws one card from the current phase deck into its hand,
    without showing it (R-DUO-DRAW); then the place step starts."""
    state = rec.state
    for seat, s in enumerate(state.seats):
        if s.done and rec.state.deck:
            rec.emit(
                "CardsDrawn",
                {"cards": [rec.state.deck[0]], "reason": "draft_draw", "to": "hand"},
                seat,
            )
    rec.emit("StepStarted", {"phase": state.phase, "turn": state.turn, "step": "place"})


def pass_hands(rec: Recorder) -> None:
    """ "Finally, pass your hand to your opponent" (after placing and scoring, R-DUO-PASS)."""
    state = rec.state
    if any(s.hand for s in state.seats):
        rec.emit("HandsPassed", {"direction": PASS_DIRECTION[state.phase]})
