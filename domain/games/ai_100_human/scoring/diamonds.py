"""Diamonds (rulebook "Icons": Diamonds; Cards Details 095-098; AI-3; Omega-4, 12-14).

A diamond sits on an interior grid point: the four triangles around it are the upper-left
card's BR, the upper-right card's BL, the lower-left card's TR and the lower-right card's
TL. The 3x5 frame has 8 interior points. "Score VP even if the diamond is not complete":
a diamond with missing cards scores when its present triangles meet the condition
(RULINGS); conditions naming a number of connections need that many triangles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from domain.games.ai_100_human.scoring.board import BL, BR, TL, TR, Board, Member
from domain.games.ai_100_human.scoring.conditions import ATTR_INDEX
from domain.games.ai_100_human.tableau import COLS, ROWS, Pos


def diamond_points(board: Board) -> list[Pos]:
    """Grid points ``(r, c)`` (between rows r-1|r and columns c-1|c) whose four cells lie
    in the frame, or in the bounding box of the frame and the board when a card lies
    outside the frame (AI-2's end card)."""
    rows = [p[0] for p in board] + [0, ROWS - 1]
    cols = [p[1] for p in board] + [0, COLS - 1]
    return [
        (r, c)
        for r in range(min(rows) + 1, max(rows) + 1)
        for c in range(min(cols) + 1, max(cols) + 1)
    ]


def triangles(board: Board, point: Pos) -> list[Member]:
    """The present triangles of the diamond at ``point``."""
    r, c = point
    out = []
    for cell, corner in (((r - 1, c - 1), BR), ((r - 1, c), BL), ((r, c - 1), TR), ((r, c), TL)):
        f = board.get(cell)
        if f is not None:
            out.append(f.corners[corner])
    return out


def diamond_matches(cond: Mapping[str, Any], tris: list[Member]) -> bool:
    """True when the triangles of one diamond meet ``cond``.

    ``has``: every item is met by some triangle (one triangle may meet a colour and a
    number item: AI-3). ``different attr``/``same attr``/``sum`` with ``count`` n: n
    triangles with pairwise different values / sharing one value / adding up to ``sum``.
    """
    if "has" in cond:
        return all(
            any(t[ATTR_INDEX[k]] == v for t in tris for k, v in item.items())
            for item in cond["has"]
        )
    n = cond["count"]
    if len(tris) < n:
        return False
    if "different" in cond:
        return len({t[ATTR_INDEX[cond["different"]]] for t in tris}) >= n
    if "same" in cond:
        return max(Counter(t[ATTR_INDEX[cond["same"]]] for t in tris).values()) >= n
    if "sum" in cond:
        return any(sum(t[1] for t in combo) == cond["sum"] for combo in combinations(tris, n))
    raise ValueError(f"unknown diamond condition {dict(cond)!r}")


def score_diamond(effect: Mapping[str, Any], board: Board) -> int:
    """VP of a ``diamond`` effect: ``vp`` per diamond meeting the condition."""
    cond = effect["condition"]
    return effect["vp"] * sum(
        1 for pt in diamond_points(board) if diamond_matches(cond, triangles(board, pt))
    )
