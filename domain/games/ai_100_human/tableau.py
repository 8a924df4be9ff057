"""Tableau geometry of *AI: 100% Human* (rulebook "Tableau?", "2 Phases Overview" B.4).

A tableau is a frame of 3 rows x 5 columns; positions are ``(row, col)`` with rows 0..2
top to bottom and columns 0..4 left to right. The AI card sits in the centre,
``AI_POS = (1, 2)`` (RULINGS: row 2, column 3). A new card goes orthogonally adjacent to a
card already there (AI-8: diagonally too) and inside the frame; only AI-2's end-of-game
card may go outside the frame.
"""

from __future__ import annotations

from collections.abc import Mapping

Pos = tuple[int, int]
Tableau = Mapping[Pos, str]

ROWS, COLS = 3, 5
AI_POS: Pos = (1, 2)
FRAME: tuple[Pos, ...] = tuple((r, c) for r in range(ROWS) for c in range(COLS))

_ORTHO = ((-1, 0), (0, -1), (0, 1), (1, 0))
_DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_AROUND = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def in_frame(pos: Pos) -> bool:
    """True when ``pos`` lies inside the 3x5 frame."""
    r, c = pos
    return 0 <= r < ROWS and 0 <= c < COLS


def orthogonal(pos: Pos) -> list[Pos]:
    """The 4 orthogonal neighbour positions of ``pos`` (up, left, right, down; frame ignored)."""
    r, c = pos
    return [(r + dr, c + dc) for dr, dc in _ORTHO]


def surrounding(pos: Pos) -> list[Pos]:
    """The 8 surrounding positions of ``pos`` in reading order (frame ignored): the
    "adjacent to the played card (8 possible cards)" area of the rulebook."""
    r, c = pos
    return [(r + dr, c + dc) for dr, dc in _AROUND]


def _near(pos: Pos, steps: tuple[tuple[int, int], ...], frame: bool) -> tuple[Pos, ...]:
    """The positions ``steps`` away from ``pos`` (inside the frame when ``frame``)."""
    r, c = pos
    return tuple(p for p in ((r + dr, c + dc) for dr, dc in steps) if not frame or in_frame(p))


# frame position -> its neighbours inside the frame (orthogonal; with diagonal: AI-8)
_NEAR_IN_FRAME = {
    diagonal: {p: _near(p, _ORTHO + _DIAG if diagonal else _ORTHO, True) for p in FRAME}
    for diagonal in (False, True)
}


def placement_cells(tableau: Tableau, diagonal: bool = False, frame: bool = True) -> list[Pos]:
    """Empty positions where a card may be placed, sorted.

    A position qualifies when it is empty and orthogonally adjacent to a card of
    ``tableau`` (also diagonally adjacent when ``diagonal``: AI-8), and inside the frame
    unless ``frame`` is False (AI-2's end-of-game card). An empty tableau has no cell.
    RULINGS R-SHARED-FRAME.
    """
    steps = _ORTHO + _DIAG if diagonal else _ORTHO
    if frame:  # the neighbours of frame cells are laid out once
        near = _NEAR_IN_FRAME[diagonal]
        cells: set[Pos] = set()
        for p in tableau:
            around = near.get(p)
            cells.update(_near(p, steps, True) if around is None else around)
        cells.difference_update(tableau)
        return sorted(cells)
    cells = set()
    for r, c in tableau:
        for dr, dc in steps:
            p = (r + dr, c + dc)
            if p not in tableau and (not frame or in_frame(p)):
                cells.add(p)
    return sorted(cells)
