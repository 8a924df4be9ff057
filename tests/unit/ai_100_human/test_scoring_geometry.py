"""Tableau geometry (rulebook "2 Phases Overview" B.4; RULINGS: 3x5 frame, AI at (1,2))."""

from __future__ import annotations

from domain.games.ai_100_human.tableau import (
    AI_POS,
    COLS,
    ROWS,
    in_frame,
    orthogonal,
    placement_cells,
    surrounding,
)


def test_frame_is_3_rows_by_5_columns_with_the_ai_card_in_the_centre():
    assert (ROWS, COLS, AI_POS) == (3, 5, (1, 2))
    assert in_frame((0, 0)) and in_frame((2, 4))
    assert not in_frame((-1, 2)) and not in_frame((3, 0)) and not in_frame((1, 5))


def test_neighbours():
    assert orthogonal((1, 2)) == [(0, 2), (1, 1), (1, 3), (2, 2)]
    assert surrounding((1, 2)) == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 3), (2, 1), (2, 2), (2, 3)]


def test_first_placement_goes_orthogonally_next_to_the_ai_card():
    assert placement_cells({AI_POS: "AI-1"}) == [(0, 2), (1, 1), (1, 3), (2, 2)]


def test_ai_8_allows_diagonal_placement():
    assert placement_cells({AI_POS: "AI-8"}, diagonal=True) == surrounding(AI_POS)


def test_frame_limits_placement_except_for_ai_2s_end_card():
    row = {(1, c): "x" for c in range(5)}
    # A full middle row: only rows 0 and 2 remain inside the frame.
    assert placement_cells(row) == [(0, c) for c in range(5)] + [(2, c) for c in range(5)]
    outside = placement_cells(row, frame=False)
    assert (1, -1) in outside and (1, 5) in outside and len(outside) == 12


def test_full_tableau_has_no_cell_inside_the_frame():
    full = {(r, c): "x" for r in range(3) for c in range(5)}
    assert placement_cells(full) == []
    assert len(placement_cells(full, frame=False)) == 16  # 5 above, 5 below, 3 left, 3 right
