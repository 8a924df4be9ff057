"""Groups scored on the packed bitboard (``groups.score_group``; :mod:`.region_plans`).

Per region (laid out once per geometry and played position), every placement of every
orientation of every shape whose cells all lie in the region is a cell bitmask. A
placement matches when its cards meet the condition, tested on the lanes of the board
(``each``: the placement lies inside the union of the allowed lanes; ``same``: inside one
lane of the attribute; ``different`` / ``sum``: bit counts per lane; any other condition:
the compiled condition on the placement's members). The matching placements are packed
exactly (golden rule, :func:`.memo.packing`), and the region's VP is remembered by
``board & reads``: the lanes the conditions read, restricted to the region (the
placements of a region are fixed, so the VP is a pure function of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.ai_100_human.scoring.grid import (
    ATTR_KEYS,
    COLOR_KEYS,
    KEY_VALUE,
    NUMBER_KEYS,
    PRESENT,
    Cells,
    Geometry,
    lanes,
)
from domain.games.ai_100_human.scoring.groups import orientations
from domain.games.ai_100_human.scoring.memo import packing, remember, table
from domain.games.ai_100_human.scoring.predicates import compile_condition
from domain.games.ai_100_human.scoring.region_plans import RegionPlan, lane_keys


class Group(RegionPlan):
    """``group`` (``groups.score_group``): ``vp`` x (the most disjoint placements of the
    shapes whose cards meet the condition // ``per``) per region; every orientation of
    every shape shares one packing (AI-1)."""

    def __init__(self, effect: Mapping[str, Any]):
        super().__init__(effect["scope"])
        self.vp, self.per = effect["vp"], effect.get("per", 1)
        self.shapes = []
        reads: set[int] = set()
        for spec in effect["shapes"]:
            test = self._test(spec["condition"])
            self.shapes.append((orientations(spec["shape"]), test))
            reads.update(
                test[1]
                if test[0] in ("each", "same")
                else (*NUMBER_KEYS, PRESENT)
                if test[0] == "sum"
                else (*ATTR_KEYS[test[2]], PRESENT)
                if test[0] == "different"
                else (*COLOR_KEYS, *NUMBER_KEYS, PRESENT)
            )
        self.reads = tuple(sorted(reads))

    def lanes_read(self) -> tuple[int, ...]:
        return self.reads

    @staticmethod
    def _test(cond: Mapping[str, Any]) -> tuple:
        """The condition on the lanes (``conditions.matches``, same precedence):
        ``("each", allowed lanes)``, ``("same", attribute lanes)``, ``("different",
        attribute lanes, attribute)``, ``("sum", total)``, else ``("members", compiled
        condition)`` on the placement's ``(colour, number)`` members."""
        if "each" in cond:
            ((attr, values),) = cond["each"].items()
            return "each", lane_keys(attr, values)
        if "slots" not in cond and "same" in cond:
            return "same", ATTR_KEYS[cond["same"]]
        if "slots" not in cond and "different" in cond:
            return "different", ATTR_KEYS[cond["different"]], cond["different"]
        if "slots" not in cond and "sum" in cond:
            return "sum", cond["sum"]
        return "members", compile_condition(cond)

    def prepare(self, g: Geometry, cells: Cells, region: int) -> tuple:
        """``(reads mask, placement bitmasks per shape, geometry, memo)``: every placement
        of every orientation whose cells all lie in the region (``groups.group_count``)."""
        inside = {g.positions[i] for i in cells}
        per_shape = []
        for shape_orientations, _ in self.shapes:
            placements = set()
            for offsets in shape_orientations:
                r0, c0 = offsets[0]
                for i in cells:
                    pr, pc = g.positions[i]
                    ps = [(pr - r0 + dr, pc - c0 + dc) for dr, dc in offsets]
                    if all(p in inside for p in ps):
                        placements.add(sum(1 << g.index[p] for p in ps))
            per_shape.append(tuple(sorted(placements)))
        return lanes(g, region, self.reads), tuple(per_shape), g, table()

    def value(self, board: int, present: int, data: tuple) -> int:
        reads, per_shape, g, memo = data
        key = board & reads
        hit = memo.get(key)
        if hit is None:
            hit = remember(memo, key, self.vp * (self._count(g, board, per_shape) // self.per))
        return hit

    def _count(self, g: Geometry, board: int, per_shape: tuple) -> int:
        """The most disjoint matching placements (``groups.group_count``)."""
        width, full = g.n, g.full
        masks = [(board >> width * k) & full for k in range(PRESENT + 1)]
        cards = masks[PRESENT]
        found: set[int] = set()
        for (_, test), placements in zip(self.shapes, per_shape, strict=True):
            kind, arg = test[0], test[1]
            if kind == "each":
                ok = 0
                for k in arg:
                    ok |= masks[k]
                found.update(m for m in placements if m & ok == m)
            elif kind == "same":  # a card has one value: at most one lane holds m
                for k in arg:
                    if masks[k].bit_count() > 1:
                        same = masks[k]
                        found.update([m for m in placements if m & same == m])
            elif kind == "different":
                found.update(
                    m
                    for m in placements
                    if m & cards == m and all((m & masks[k]).bit_count() <= 1 for k in arg)
                )
            elif kind == "sum":
                found.update(
                    m
                    for m in placements
                    if m & cards == m
                    and sum(KEY_VALUE[k] * (m & masks[k]).bit_count() for k in NUMBER_KEYS) == arg
                )
            else:
                found.update(
                    m
                    for m in placements
                    if m & cards == m and arg([_member(masks, b) for b in _bits(m)])
                )
        return packing(found)


def _bits(mask: int) -> list[int]:
    """The one-bit masks of the bits of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _member(masks: list, bit: int) -> tuple:
    """``(colour, number)`` the card on cell ``bit`` (a one-bit mask) counts as."""
    color = next(KEY_VALUE[k] for k in COLOR_KEYS if masks[k] & bit)
    number = next(KEY_VALUE[k] for k in NUMBER_KEYS if masks[k] & bit)
    return color, number
