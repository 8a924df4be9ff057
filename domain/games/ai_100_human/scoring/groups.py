"""Groups: cards that follow a shape (rulebook "Icons": Group, Mirrored; Cards Details
001-025; AI-1; Omega-1, 2, 7, 8).

Shapes (offsets ``(row, col)``); "You can mirror the shape of a group", so every shape
also counts flipped top-bottom and left-right:

- ``diagonal2``: 2 diagonally adjacent cards (both diagonals);
- ``vertical2`` / ``horizontal2``: 2 orthogonally adjacent cards in a column / row;
- ``horizontal3``: 3 adjacent cards in a row;
- ``gap2``: 2 cards of one row with one position between them (card 024, designed);
- ``L3``: 3 cards of a 2x2 square (all four L orientations);
- ``square4``: a 2x2 square.

VP = ``vp`` x (max number of disjoint matching groups // ``per``) per region; several
shapes (AI-1) share one packing, so a card counts in one group only (golden rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from domain.games.ai_100_human.scoring.board import Board, combine, regions
from domain.games.ai_100_human.scoring.conditions import matches
from domain.games.ai_100_human.scoring.packing import max_disjoint
from domain.games.ai_100_human.tableau import Pos

_BASE: dict[str, tuple[Pos, ...]] = {
    "diagonal2": ((0, 0), (1, 1)),
    "vertical2": ((0, 0), (1, 0)),
    "horizontal2": ((0, 0), (0, 1)),
    "horizontal3": ((0, 0), (0, 1), (0, 2)),
    "gap2": ((0, 0), (0, 2)),
    "L3": ((0, 0), (1, 0), (1, 1)),
    "square4": ((0, 0), (0, 1), (1, 0), (1, 1)),
}


@cache
def orientations(shape: str) -> tuple[tuple[Pos, ...], ...]:
    """The distinct placements of ``shape`` under mirroring (flip rows, flip columns,
    both), each normalised so its smallest row and column are 0."""
    out = set()
    for fr in (1, -1):
        for fc in (1, -1):
            cells = [(r * fr, c * fc) for r, c in _BASE[shape]]
            r0 = min(r for r, _ in cells)
            c0 = min(c for _, c in cells)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
    return tuple(sorted(out))


def group_count(board: Board, region: list[Pos], shapes: Any) -> int:
    """The largest number of disjoint groups inside ``region`` that match one of
    ``shapes`` (``[{"shape", "condition"}]``)."""
    inside = set(region)
    bit = {p: 1 << i for i, p in enumerate(region)}
    masks = set()
    for spec in shapes:
        cond = spec["condition"]
        for offsets in orientations(spec["shape"]):
            r0, c0 = offsets[0]
            for pr, pc in region:  # each placement once: pos = its first cell
                cells = [(pr - r0 + dr, pc - c0 + dc) for dr, dc in offsets]
                if not all(c in inside for c in cells):
                    continue
                members = [(board[c].color, board[c].number) for c in cells]
                if matches(cond, members):
                    m = 0
                    for c in cells:
                        m |= bit[c]
                    masks.add(m)
    return max_disjoint(masks)


def score_group(effect: Mapping[str, Any], board: Board, pos: Pos | None) -> int:
    """VP of a ``group`` effect on ``board`` for the card at ``pos``."""
    per = effect.get("per", 1)
    vp = effect["vp"]
    scope = effect["scope"]
    return combine(
        scope,
        (
            vp * (group_count(board, reg, effect["shapes"]) // per)
            for reg in regions(scope, board, pos)
        ),
    )
