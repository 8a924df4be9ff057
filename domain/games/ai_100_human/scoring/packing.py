"""Golden-rule packing: "A card and a connector can only count toward a single
combination during scoring" (rulebook "Cards Details").

Combinations are bitmasks over board cells. :func:`max_disjoint` returns the largest
number of pairwise-disjoint combinations (exact, memoised branch on the lowest covered
cell), which is the VP-maximising packing when every combination is worth the same
(RULINGS: exact, not greedy).
"""

from __future__ import annotations

from collections.abc import Iterable


def max_disjoint(masks: Iterable[int]) -> int:
    """The maximum number of pairwise-disjoint bitmasks among ``masks`` (0 when empty).

    Branches on the lowest cell any remaining combination covers: either no chosen
    combination uses it, or exactly one that contains it does. Memoised on the set of
    free cells, so the work is bounded by the number of reachable free-cell sets.
    """
    cands = sorted(set(m for m in masks if m))
    if not cands:
        return 0
    if len(cands) == 1:
        return 1
    memo: dict[int, int] = {}

    def solve(free: int) -> int:
        if free in memo:
            return memo[free]
        live = [m for m in cands if m & free == m]
        if not live:
            memo[free] = 0
            return 0
        union = 0
        for m in live:
            union |= m
        low = union & -union
        best = solve(free & ~low)
        for m in live:
            if m & low:
                v = 1 + solve(free & ~m)
                if v > best:
                    best = v
        memo[free] = best
        return best

    full = 0
    for m in cands:
        full |= m
    return solve(full)
