"""Conditions on members, diamond conditions and measures compiled once per effect.

Each function reads a vocabulary object of ``cards.py`` once and returns a closure with
the exact semantics of the reference evaluator named in its docstring
(``conditions.matches``, ``diamonds.diamond_matches``, ``counts.measure``,
``sets._generic_count``), without looking the object up again on every call. Members are
sequences whose items 0 and 1 are the colour and the number (``(colour, number)`` pairs,
corner triangles, or :class:`~.board.Face` tuples). The bitboard scorers
(:mod:`.region_plans`) use them for connectors, diamonds, neighbours and rare conditions.

Results that are pure functions of a small value tuple (a ``slots`` match, the packing of
a value-count vector) are remembered in :mod:`.memo` tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, pairwise, permutations
from typing import Any

from domain.games.ai_100_human.scoring.conditions import ATTR_INDEX
from domain.games.ai_100_human.scoring.memo import table
from domain.games.ai_100_human.scoring.sets import _set_types, packing_solver

Members = Sequence[Sequence[Any]]
Test = Callable[[Members], bool]


def compile_condition(cond: Mapping[str, Any]) -> Test:
    """``members -> bool`` equal to ``conditions.matches(cond, members)``.

    Raises ``ValueError`` for an unknown condition (as the reference does when used).
    """
    if "each" in cond:
        ((attr, values),) = cond["each"].items()
        i, allowed = ATTR_INDEX[attr], frozenset(values)
        return lambda ms: all(m[i] in allowed for m in ms)
    if "slots" in cond:
        spec = cond["slots"]
        i = ATTR_INDEX[spec["attr"]]
        slots = tuple(frozenset(s) for s in spec["values"])
        memo = table(permanent=True)  # value tuples of the slots' length

        def slotted(ms: Members) -> bool:
            vals = tuple(m[i] for m in ms)
            hit = memo.get(vals)
            if hit is None:
                hit = memo[vals] = len(slots) == len(vals) and any(
                    all(v in s for v, s in zip(perm, slots, strict=True))
                    for perm in permutations(vals)
                )
            return hit

        return slotted
    if "same" in cond:
        i = ATTR_INDEX[cond["same"]]
        return lambda ms: len({m[i] for m in ms}) == 1
    if "different" in cond:
        i = ATTR_INDEX[cond["different"]]
        return lambda ms: len({m[i] for m in ms}) == len(ms)
    if "sum" in cond:
        total = cond["sum"]
        return lambda ms: sum(m[1] for m in ms) == total
    if "consecutive" in cond:
        i = ATTR_INDEX[cond["consecutive"]]

        def consecutive(ms: Members) -> bool:
            vals = sorted(m[i] for m in ms)
            return all(b == a + 1 for a, b in pairwise(vals))

        return consecutive
    if "full_house" in cond:
        i = ATTR_INDEX[cond["full_house"]]

        def full_house(ms: Members) -> bool:
            shape = sorted(Counter(m[i] for m in ms).values())
            return len(ms) == 5 and shape in ([2, 3], [5])

        return full_house
    raise ValueError(f"unknown condition {dict(cond)!r}")


def compile_diamond_condition(cond: Mapping[str, Any]) -> Test:
    """``triangles -> bool`` equal to ``diamonds.diamond_matches(cond, triangles)``."""
    if "has" in cond:
        items = tuple(tuple((ATTR_INDEX[k], v) for k, v in item.items()) for item in cond["has"])
        return lambda tris: all(any(t[i] == v for t in tris for i, v in item) for item in items)
    n = cond["count"]
    if "different" in cond:
        i = ATTR_INDEX[cond["different"]]
        return lambda tris: len(tris) >= n and len({t[i] for t in tris}) >= n
    if "same" in cond:
        i = ATTR_INDEX[cond["same"]]
        return lambda tris: len(tris) >= n and max(Counter(t[i] for t in tris).values()) >= n
    if "sum" in cond:
        total = cond["sum"]
        return lambda tris: (
            len(tris) >= n
            and any(sum(t[1] for t in combo) == total for combo in combinations(tris, n))
        )
    raise ValueError(f"unknown diamond condition {dict(cond)!r}")


def compile_measure(spec: Mapping[str, Any]) -> Callable[[Members], int]:
    """``members -> count`` equal to ``counts.measure(spec, members)``."""
    if "cards" in spec:
        ((attr, values),) = spec["cards"].items()
        i, allowed = ATTR_INDEX[attr], frozenset(values)
        return lambda ms: sum(1 for m in ms if m[i] in allowed)
    ((kind, attr),) = spec.items()
    i = ATTR_INDEX[attr]
    if kind == "most":
        return lambda ms: max(Counter(m[i] for m in ms).values(), default=0)
    if kind == "least":
        return lambda ms: min(Counter(m[i] for m in ms).values(), default=0)
    if kind == "distinct":
        return lambda ms: len({m[i] for m in ms})
    if kind == "least_times_most":

        def least_times_most(ms: Members) -> int:
            counts = Counter(m[i] for m in ms).values()
            return min(counts) * max(counts) if counts else 0

        return least_times_most
    raise ValueError(f"unknown measure {dict(spec)!r}")


def generic_set_counter(key: str, value: Any, size: int) -> Callable[[tuple[int, ...]], int]:
    """``counts -> n`` for the conditions without a closed form (``consecutive``,
    ``full_house``, ``sum``): the exact packing of ``sets._generic_count`` over the count
    vector of the members' values (in ``COLORS`` / ``NUMBERS`` order), remembered per
    vector (a pure function of it)."""
    return packing_solver(
        _set_types(key, value, size), table(permanent=True)
    )  # vectors of at most a tableau's cards
