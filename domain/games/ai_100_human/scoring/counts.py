"""Per-card counting (rulebook Cards Details "Scoring per Card" 052-067, "Least Cards"
068-069, "Progressive Scoring" 070-077; AI-4; Omega-3, 10, 11; black cards 107-114).

Measures over the cards of a region:
``cards`` = cards matching a filter ("per red card", "per black and/or green card");
``most`` = cards of the colour/number you have the most of ("AI Basic Grammar": in case
of tie only one counts, which gives the same count); ``least`` = the colour you have the
least of among colours present (RULINGS); ``distinct`` = different colours/numbers ("1
single card counts for 1 different card"); ``least_times_most`` = least x most (AI-4,
Omega-10). A ``ladder`` maps count 1, 2, ... to VP (the last entry for larger counts,
"4+"); otherwise VP = ``vp`` x count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.ai_100_human.scoring.board import Board, Member, combine, regions
from domain.games.ai_100_human.scoring.conditions import ATTR_INDEX
from domain.games.ai_100_human.tableau import Pos


def measure(spec: Mapping[str, Any], members: Sequence[Member]) -> int:
    """The count a measure gives for ``members`` (``(colour, number)`` of each card)."""
    if "cards" in spec:
        ((attr, values),) = spec["cards"].items()
        i = ATTR_INDEX[attr]
        return sum(1 for m in members if m[i] in values)
    ((kind, attr),) = spec.items()
    counts = Counter(m[ATTR_INDEX[attr]] for m in members).values()
    if not counts:
        return 0
    if kind == "most":
        return max(counts)
    if kind == "least":
        return min(counts)
    if kind == "distinct":
        return len(counts)
    if kind == "least_times_most":
        return min(counts) * max(counts)
    raise ValueError(f"unknown measure {dict(spec)!r}")


def vp_for(effect: Mapping[str, Any], n: int) -> int:
    """VP for count ``n``: ``ladder[min(n, len) - 1]`` (0 for n = 0) or ``vp * n``."""
    ladder = effect.get("ladder")
    if ladder is None:
        return effect["vp"] * n
    return ladder[min(n, len(ladder)) - 1] if n > 0 else 0


def score_count(effect: Mapping[str, Any], board: Board, pos: Pos | None) -> int:
    """VP of a ``count`` effect on ``board`` for the card at ``pos``."""
    scope = effect["scope"]
    return combine(
        scope,
        (
            vp_for(
                effect, measure(effect["measure"], [(board[p].color, board[p].number) for p in reg])
            )
            for reg in regions(scope, board, pos)
        ),
    )


def score_neighbour(effect: Mapping[str, Any], neighbours: Sequence[Board], pos: Pos) -> int:
    """VP of a ``neighbour`` effect (107-114): the best adjacent player's tableau.

    ``scope`` ``tableau`` reads the whole neighbour tableau; ``this_row`` reads the row of
    the neighbour's tableau with the same index as ``pos`` ("the corresponding row").
    0 without neighbours.
    """
    best = 0
    for board in neighbours:
        if effect["scope"] == "this_row":
            members = [(f.color, f.number) for p, f in board.items() if p[0] == pos[0]]
        else:
            members = [(f.color, f.number) for f in board.values()]
        best = max(best, effect["vp"] * measure(effect["measure"], members))
    return best


def score_row_ends(effect: Mapping[str, Any], board: Board) -> int:
    """AI-12: ``vp`` per row whose two end cards (first and last column of the frame
    row, both present) have the same colour/number."""
    i = ATTR_INDEX[effect["attr"]]
    total = 0
    for row in regions("each_row", board, None):
        cols = [p[1] for p in row]
        if len(row) >= 2 and min(cols) == 0 and max(cols) == 4:
            a, b = board[row[0]], board[row[-1]]
            if (a.color, a.number)[i] == (b.color, b.number)[i]:
                total += effect["vp"]
    return total
