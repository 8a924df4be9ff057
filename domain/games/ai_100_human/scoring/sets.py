"""Sets: cards that need not be adjacent (rulebook "Icons": Set; Cards Details 015-016,
026-051; AI-7, AI-9, AI-11; Omega-5, 6, 15, 16).

Each card counts in one set only (golden rule), so a region scores ``vp`` x the largest
number of disjoint sets its cards form (at most 1 when ``single``: "3 VP if all 3 cards
...", "a single set of 5 cards ..."). Sets "of the same colour/number" need each set
uniform; different sets may use different colours/numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from domain.games.ai_100_human.cards import COLORS, NUMBERS
from domain.games.ai_100_human.scoring.board import Board, Member, combine, regions
from domain.games.ai_100_human.scoring.conditions import ATTR_INDEX, matches
from domain.games.ai_100_human.tableau import Pos


def set_count(cond: Mapping[str, Any], size: int, members: Sequence[Member]) -> int:
    """The largest number of disjoint sets of ``size`` members satisfying ``cond``."""
    n = len(members)
    if n < size:
        return 0
    if "each" in cond:
        return sum(1 for m in members if matches(cond, [m])) // size
    if "same" in cond:
        i = ATTR_INDEX[cond["same"]]
        return sum(c // size for c in Counter(m[i] for m in members).values())
    if "different" in cond:
        i = ATTR_INDEX[cond["different"]]
        counts = Counter(m[i] for m in members).values()
        t = n // size
        while t > 0 and sum(min(c, t) for c in counts) < size * t:
            t -= 1
        return t
    if "slots" in cond:
        return _slots_count(cond["slots"], members)
    ((key, value),) = cond.items()
    return _generic_count(key, value, size, members)


def _slots_count(spec: Mapping[str, Any], members: Sequence[Member]) -> int:
    """Hall's condition: t disjoint sets exist iff every subset S of slots is fed by
    at least t*|S| members that fit some slot of S."""
    i = ATTR_INDEX[spec["attr"]]
    slots = [frozenset(s) for s in spec["values"]]
    vals = [m[i] for m in members]
    k = len(slots)
    feed = []
    for subset in range(1, 1 << k):
        accepted = frozenset().union(*(slots[j] for j in range(k) if subset >> j & 1))
        feed.append((bin(subset).count("1"), sum(1 for v in vals if v in accepted)))
    t = len(vals) // k
    while t > 0 and any(have < t * size for size, have in feed):
        t -= 1
    return t


@cache
def _set_types(key: str, value: Any, size: int) -> tuple[tuple[int, ...], ...]:
    """Value-count vectors of every multiset of ``size`` values meeting ``{key: value}``
    (``consecutive``/``full_house`` over ``value``'s attribute, ``sum`` over numbers)."""
    attr = value if key in ("consecutive", "full_house") else "number"
    domain = COLORS if attr == "color" else NUMBERS
    types = []
    for combo in combinations_with_replacement(range(len(domain)), size):
        members: list[Member] = [
            ((COLORS[j], 0) if attr == "color" else ("", NUMBERS[j])) for j in combo
        ]
        if matches({key: value}, members):
            vec = [0] * len(domain)
            for j in combo:
                vec[j] += 1
            types.append(tuple(vec))
    return tuple(types)


def _generic_count(key: str, value: Any, size: int, members: Sequence[Member]) -> int:
    """Exact packing over value counts for conditions without a closed form
    (``consecutive``, ``full_house``, ``sum``)."""
    attr = value if key in ("consecutive", "full_house") else "number"
    domain = COLORS if attr == "color" else NUMBERS
    i = ATTR_INDEX[attr]
    index = {v: j for j, v in enumerate(domain)}
    counts = [0] * len(domain)
    for m in members:
        counts[index[m[i]]] += 1
    return packing_solver(_set_types(key, value, size), {})(tuple(counts))


def packing_solver(types: Sequence[tuple[int, ...]], memo: Any) -> Callable[[tuple[int, ...]], int]:
    """``counts -> n``: the most disjoint sets of ``types`` (count vectors, one entry per
    value) that fit in a count vector, by exhaustive search remembered in ``memo`` (any
    mapping with ``get`` and item assignment; a caller may keep it across calls, the answer
    being a pure function of the vector)."""

    def solve(c: tuple[int, ...]) -> int:
        hit = memo.get(c)
        if hit is not None:
            return hit
        best = 0
        for t in types:
            if all(a >= b for a, b in zip(c, t, strict=True)):
                best = max(best, 1 + solve(tuple(a - b for a, b in zip(c, t, strict=True))))
        memo[c] = best
        return best

    return solve


def score_set(effect: Mapping[str, Any], board: Board, pos: Pos | None) -> int:
    """VP of a ``set`` effect on ``board`` for the card at ``pos``."""
    size, cond, vp = effect["size"], effect["condition"], effect["vp"]
    single = effect.get("single", False)
    scope = effect["scope"]
    values = []
    for reg in regions(scope, board, pos):
        n = set_count(cond, size, [(board[p].color, board[p].number) for p in reg])
        values.append(vp * (min(n, 1) if single else n))
    return combine(scope, values)
