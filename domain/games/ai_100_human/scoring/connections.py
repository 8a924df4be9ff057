"""Connector groups (rulebook "Icons": Connections; Cards Details 078-094; Omega-9).

"Only the connections (triangles) on the top- or the right-half of the card count"
(RULINGS): a horizontal group between A|B is A.TR with B.TL; a vertical group between A
over B is A.BR with B.TR. A full 3x5 tableau has 12 horizontal and 10 vertical groups,
and no connector belongs to two groups of the same axis, so the golden rule never has to
choose between them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.ai_100_human.scoring.board import BR, TL, TR, Board, Member
from domain.games.ai_100_human.scoring.conditions import matches
from domain.games.ai_100_human.tableau import Pos

ConnectorGroup = tuple[Pos, Pos, Member, Member]


def horizontal_groups(board: Board) -> list[ConnectorGroup]:
    """``(left pos, right pos, left.TR, right.TL)`` for every horizontally adjacent pair."""
    out = []
    for (r, c), f in board.items():
        g = board.get((r, c + 1))
        if g is not None:
            out.append(((r, c), (r, c + 1), f.corners[TR], g.corners[TL]))
    return sorted(out)


def vertical_groups(board: Board) -> list[ConnectorGroup]:
    """``(upper pos, lower pos, upper.BR, lower.TR)`` for every vertically adjacent pair."""
    out = []
    for (r, c), f in board.items():
        g = board.get((r + 1, c))
        if g is not None:
            out.append(((r, c), (r + 1, c), f.corners[BR], g.corners[TR]))
    return sorted(out)


def score_connection(effect: Mapping[str, Any], board: Board, pos: Pos | None) -> int:
    """VP of a ``connection`` effect: ``vp`` per connector group in scope meeting the
    condition. ``each_row``/``each_column`` = every group of the axis; ``this_row`` /
    ``this_column`` = groups in the row/column of ``pos``."""
    horizontal = effect["axis"] == "horizontal"
    groups = horizontal_groups(board) if horizontal else vertical_groups(board)
    scope = effect["scope"]
    if scope in ("this_row", "this_column"):
        assert pos is not None, scope  # scored for a placed card
        line, axis = pos[0] if scope == "this_row" else pos[1], 0 if scope == "this_row" else 1
        groups = [g for g in groups if g[0][axis] == line]
    cond = effect["condition"]
    return effect["vp"] * sum(1 for g in groups if matches(cond, (g[2], g[3])))
