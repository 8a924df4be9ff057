"""Conditions on the members of one combination (cards of a group/set, or the two
connections of a connector group). A member is ``(colour, number)``.

Vocabulary (rulebook "AI Basic Grammar" and "Icons"):
``each`` = every member is one of the values ("X and/or Y"); ``slots`` = one member per
slot in any order ("X and Y", "purple and blue or yellow": "Connections with 2 colors -
Both colors shown must be present, but may be in any order"); ``same`` / ``different``;
``sum`` ("Icon Sum": add up to exactly n); ``consecutive`` (AI-11, any order);
``full_house`` (Omega-6/15: 3 of a kind + 2 of a kind, 5 of a kind allowed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise, permutations
from typing import Any

from domain.games.ai_100_human.scoring.board import Member

ATTR_INDEX = {"color": 0, "number": 1}


def matches(cond: Mapping[str, Any], members: Sequence[Member]) -> bool:
    """True when ``members`` (one combination) satisfy ``cond``."""
    if "each" in cond:
        ((attr, values),) = cond["each"].items()
        i = ATTR_INDEX[attr]
        return all(m[i] in values for m in members)
    if "slots" in cond:
        spec = cond["slots"]
        i = ATTR_INDEX[spec["attr"]]
        slots = spec["values"]
        if len(slots) != len(members):
            return False
        vals = [m[i] for m in members]
        return any(
            all(v in s for v, s in zip(perm, slots, strict=True)) for perm in permutations(vals)
        )
    if "same" in cond:
        i = ATTR_INDEX[cond["same"]]
        return len({m[i] for m in members}) == 1
    if "different" in cond:
        i = ATTR_INDEX[cond["different"]]
        return len({m[i] for m in members}) == len(members)
    if "sum" in cond:
        return sum(m[1] for m in members) == cond["sum"]
    if "consecutive" in cond:
        i = ATTR_INDEX[cond["consecutive"]]
        ranks = sorted(int(m[i]) for m in members)  # numbers (the schema's attribute)
        return all(b == a + 1 for a, b in pairwise(ranks))
    if "full_house" in cond:
        i = ATTR_INDEX[cond["full_house"]]
        shape = sorted(Counter(m[i] for m in members).values())
        return len(members) == 5 and shape in ([2, 3], [5])
    raise ValueError(f"unknown condition {dict(cond)!r}")
