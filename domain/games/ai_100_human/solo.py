"""Solo mode (rulebook "Solo Mode" and "Scoring"): the draft grid, the standee, the timer
stack and the rating ladder.

Shapes: the draft grid is ``{(row, col): card_id}`` with rows and columns 0..2; a line is
``{"color", "line": "row"|"column", "index": 0..2}`` (the standee's divider). The set-up
events come from :func:`start_phase` / :func:`finish_setup`; a turn's events from
:func:`take` (steps 1-3), the normal place/score flow (steps 4-5) and :func:`refill`
(step 6). Rulings (domain/games/ai_100_human/RULINGS.md): R-SOLO-AI, R-SOLO-DIVIDERS,
R-SOLO-RESERVE, R-SOLO-LINE, R-SOLO-STANDEE, R-SOLO-NEIGHBOUR, R-SOLO-AI6, R-SOLO-105,
R-SOLO-DECK, R-SOLO-RESULT.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import catalogue
from .recorder import Recorder
from .spec import DIVIDER_COLORS, GRID_SIZE, RATING_LADDER, RESERVE_DEAL, TIMER_STACK, rating
from .state import MatchState, Pos, cell_json, tableau_json


def all_ai_sides() -> list[str]:
    """Every AI card side in catalogue order: solo "Choose your AI card" (R-SOLO-AI)."""
    return [side for pair in catalogue().ai_cards for side in pair]


def line_cells(line: dict[str, Any]) -> list[Pos]:
    """The 3 grid cells of a row or column line, in reading order."""
    i = line["index"]
    if line["line"] == "row":
        return [(i, c) for c in range(GRID_SIZE)]
    return [(r, i) for r in range(GRID_SIZE)]


def divider_line(state: MatchState, color: str) -> dict[str, Any] | None:
    """The line whose divider has ``color`` (``None`` when no divider has it)."""
    for kind, key in (("row", "rows"), ("column", "columns")):
        colors = state.dividers.get(key, [])
        if color in colors:
            return {"color": color, "line": kind, "index": colors.index(color)}
    return None


def offer(state: MatchState) -> list[tuple[Pos, str]]:
    """The cards the solo player may take now, as ``(cell, card)`` in reading order.

    Step 1: "one of the 3 cards in the row/column where your standee is". Ruling
    R-SOLO-LINE: a line holding fewer cards offers the cards it holds; an empty line
    (or no standee) offers every card of the grid, so the flow never blocks.
    RULINGS R-SOLO-NEIGHBOUR.
    """
    if state.standee is not None:
        cards = [(p, state.grid[p]) for p in line_cells(state.standee) if p in state.grid]
        if cards:
            return cards
    return sorted(state.grid.items())


def start_phase(rec: Recorder, phase: int, rng: random.Random) -> None:
    """Solo set-up of ``phase`` after its deck was shuffled: the dividers (Phase 1, random
    order from ``rng``), the 9-card draft grid, 4 cards for the reserve, the 18-card timer
    stack (its cards and order come from the recorded, redacted deck order).

    RULINGS R-SOLO-SETUP.
    """
    if phase == 1:
        colors = list(DIVIDER_COLORS)
        rng.shuffle(colors)
        rec.emit("DividersPlaced", {"rows": colors[:GRID_SIZE], "columns": colors[GRID_SIZE:]})
    cells = [(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE)]
    deck = rec.state.deck
    rec.emit(
        "DraftGridBuilt",
        {"phase": phase, "cards": tableau_json(dict(zip(cells, deck, strict=False)))},
    )
    rec.emit("CardsDealt", {"purpose": "reserve", "cards": rec.state.deck[:RESERVE_DEAL]}, 0)
    rec.emit("TimerStackFormed", {"phase": phase, "count": min(TIMER_STACK, len(rec.state.deck))})


def finish_setup(rec: Recorder) -> None:
    """Phase 1: "place your standee on the Divider card of the chosen AI's color"."""
    state = rec.state
    if state.phase == 1 and state.standee is None:
        color = catalogue().cards[state.seats[0].ai_card].color
        line = divider_line(state, color)
        if line is not None:
            rec.emit("StandeeMoved", line)


def take(rec: Recorder, seat: int, card: str) -> None:
    """Steps 1-3: take ``card`` from the standee's line into the reserve, tilt the other
    cards of the line, move the standee to the divider of the card's colour (R-SOLO-STANDEE:
    it stays where it is when no divider has that colour)."""
    state = rec.state
    cards = offer(state)
    pos = next(p for p, c in cards if c == card)
    tilted = [
        cell_json(p)
        for p, c in cards
        if p != pos and state.standee is not None and p in line_cells(state.standee)
    ]
    rec.emit("GridCardTaken", {"card": card, "cell": cell_json(pos), "tilted": tilted}, seat)
    line = divider_line(rec.state, catalogue().cards[card].color)
    if line is not None:
        rec.emit("StandeeMoved", line)


def refill(rec: Recorder) -> None:
    """Step 6: discard the tilted cards and complete the grid from the top of the timer
    stack (every empty cell, reading order, as far as the stack lasts)."""
    state = rec.state
    discarded = [state.grid[(r, c)] for r, c in state.tilted if (r, c) in state.grid]
    empty = [
        (r, c)
        for r in range(GRID_SIZE)
        for c in range(GRID_SIZE)
        if (r, c) not in state.grid or [r, c] in state.tilted
    ]
    new = dict(zip(empty, state.timer, strict=False))
    rec.emit("GridRefilled", {"discarded": discarded, "cards": tableau_json(new)})


def discard_grid(rec: Recorder) -> None:
    """End of Phase 1: the draft grid is discarded before Phase 2 builds a new one."""
    rec.emit("DraftGridDiscarded", {"cards": [c for _, c in sorted(rec.state.grid.items())]})


def ai6_offer(state: MatchState) -> list[str]:
    """R-SOLO-AI6: AI-6's "hand" in solo is the offer of the standee's line."""
    return sorted(c for _, c in offer(state))


def with_rating(result: dict[str, Any]) -> dict[str, Any]:
    """The solo result: the match result plus ``rating`` (the "Scoring" ladder) and
    ``ladder``; the seat wins unless its rating is a Failure (R-SOLO-RESULT)."""
    score = result["scores"][0]
    out = dict(result)
    out["rating"] = rating(score)
    out["winners"] = [] if out["rating"] == "Failure" else [0]
    return out


def ladder_json() -> list[dict[str, Any]]:
    """The rating ladder as ``[{"rating", "from"}]``, best first, Failure last."""
    return [{"rating": name, "from": lowest} for lowest, name in RATING_LADDER] + [
        {"rating": "Failure", "from": None}
    ]
