"""Sets, counts and row ends scored on the packed bitboard (:mod:`.grid`), and the
region-by-region scoring they share with groups (:mod:`.group_plans`).

A region of a placement requirement (``board.regions``: the whole tableau, each row or
column, the played card's row/column, the cells around it) is a cell bitmask ``R``, laid
out once per geometry and played position together with the lane masks the rule needs
(:func:`.grid.lanes`). Then "how many cards of the region are purple or red" is
``(board & ok).bit_count()`` with ``ok`` = ``R`` in the purple and red lanes, "how many
cards" is ``(board & present).bit_count()``, and every set, count and row-end rule is a
few integer operations. A plan's VP is a pure function of ``board & reads`` (the lanes
it reads over its regions), by which it is remembered.

Each class names the reference function it equals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.games.ai_100_human.scoring.grid import (
    ATTR_KEYS,
    PRESENT,
    Alternative,
    Cells,
    Geometry,
    lane,
    lanes,
    read_board,
    value_key,
)
from domain.games.ai_100_human.scoring.memo import remember, table
from domain.games.ai_100_human.scoring.plan import Plan
from domain.games.ai_100_human.scoring.predicates import generic_set_counter
from domain.games.ai_100_human.tableau import Pos, Tableau


def lane_keys(attr: str, values: Any) -> tuple[int, ...]:
    """Lane indices of ``values`` of ``attr`` (values no card has are left out)."""
    return tuple(sorted({k for k in (value_key(attr, v) for v in values) if k is not None}))


class RegionPlan(Plan):
    """A plan scored region by region and combined (``board.regions`` /
    ``board.combine``): the sum, or the best region holding a card for ``best_*``."""

    def __init__(self, scope: str):
        self.scope = scope
        self.best = scope.startswith("best_")
        self.needs_pos = scope in ("this_row", "this_column", "adjacent")
        self._layouts: dict[Any, tuple] = {}

    def regions(self, g: Geometry, pos: Pos | None) -> tuple[Cells, ...]:
        """The cells of each region (empty cells included: the presence lane tells)."""
        scope = self.scope
        if scope == "tableau":
            return (tuple(range(g.n)),)
        if scope in ("each_row", "best_row"):
            return g.lines(0)
        if scope in ("each_column", "best_column"):
            return g.lines(1)
        if pos is None:
            raise ValueError(f"scope {scope!r} needs the played card's position")
        if scope == "this_row":
            return (g.row_cells(pos[0]),)
        if scope == "this_column":
            return (g.column_cells(pos[1]),)
        if scope == "adjacent":
            return (g.around(pos),)
        raise ValueError(f"unknown scope {scope!r}")

    def layout(self, g: Geometry, pos: Pos | None) -> tuple:
        """``(reads, memo, regions)`` once per geometry (and played position when the
        scope needs it): ``regions`` holds ``(region bitmask, region in the presence
        lane, prepared data)`` per region; ``reads`` is every lane the rule reads over
        every region, plus the presence lane for ``best_*`` (which skips empty lines):
        the VP is a pure function of ``board & reads``, and ``memo`` remembers it by that."""
        key = (g, pos) if self.needs_pos else g
        out = self._layouts.get(key)
        if out is None:
            regions = []
            covered = 0
            for cells in self.regions(g, pos):
                region = sum(1 << i for i in cells)
                covered |= region
                regions.append(
                    (region, lanes(g, region, (PRESENT,)), self.prepare(g, cells, region))
                )
            read = self.lanes_read()
            reads = lanes(g, covered, (*read, PRESENT) if self.best else read)
            out = self._layouts[key] = (reads, table(), tuple(regions))
        return out

    def lanes_read(self) -> tuple[int, ...]:
        """Every lane the rule reads (the presence lane included when it counts cards)."""
        raise NotImplementedError

    def prepare(self, g: Geometry, cells: Cells, region: int) -> Any:
        """Per-region data computed once (lane masks of the rule)."""
        raise NotImplementedError

    def value(self, board: int, present: int, data: Any) -> int:
        """VP of one region (``present``: the region in the presence lane)."""
        raise NotImplementedError

    def score(self, tableau: Tableau, pos: Pos | None, neighbours=()) -> int:
        return self.score_read(*read_board(tableau), pos)

    def score_read(
        self, g: Geometry, board: int, alternatives: tuple[Alternative, ...], pos: Pos | None
    ) -> int:
        """:meth:`score` of the tableau whose :func:`.grid.read_board` is
        ``(g, board, alternatives)``."""
        if alternatives:
            return self._score_alternatives(g, board, pos, alternatives)
        return self.score_board(g, board, pos)

    def score_board(self, g: Geometry, board: int, pos: Pos | None) -> int:
        """:meth:`score` of the tableau whose :func:`.grid.read_board` is ``(g, board, ())``
        (no card acting as another, AI-10)."""
        reads, memo, regions = self._layouts.get((g, pos) if self.needs_pos else g) or self.layout(
            g, pos
        )
        key = board & reads  # the VP is a pure function of it
        hit = memo.get(key)
        if hit is not None:
            return hit
        if self.best:
            return remember(memo, key, self.combine(board, regions, None))
        value = self.value
        total = 0
        for _, present, data in regions:
            total += value(board, present, data)
        return remember(memo, key, total)

    def _score_alternatives(
        self, g: Geometry, board: int, pos: Pos | None, alternatives: tuple[Alternative, ...]
    ) -> int:
        """:meth:`score` of a tableau with AI-10: one such card is weighed region by
        region (remembered by what it reads: ``board & reads``, the card's cell and its
        alternative boards ``& reads``); several are scored board by board."""
        reads, memo, regions = self.layout(g, pos)
        if len(alternatives) == 1:
            cell, others = alternatives[0]
            key = (board & reads, cell, tuple([o & reads for o in others]))
            hit = memo.get(key)
            if hit is None:
                hit = remember(memo, key, self.combine(board, regions, alternatives[0]))
            return hit
        best = self.combine(board, regions, None)
        for _, others in alternatives:
            for other in others:
                best = max(best, self.combine(other, regions, None))
        return best

    def combine(self, board: int, regions: tuple, alternative: Alternative | None) -> int:
        """The regions' VP summed, or the best region holding a card for ``best_*``
        (``board.combine``); ``alternative``: the one card whose alternatives count (its
        cell and the boards with it acting as each), best inside the region holding it."""
        value = self.value
        best = None
        total = 0
        for region, present, data in regions:
            if self.best and not board & present:
                continue  # board.regions lists only lines holding a card
            v = value(board, present, data)
            if alternative is not None and region >> alternative[0] & 1:
                for other in alternative[1]:
                    v = max(v, value(other, present, data))
            total += v
            if best is None or v > best:
                best = v
        if self.best:
            return 0 if best is None else best
        return total


class Set(RegionPlan):
    """``set`` (``sets.score_set`` / ``sets.set_count``): ``vp`` x the most disjoint sets
    of ``size`` cards of a region meeting the condition (at most 1 when ``single``)."""

    def __init__(self, effect: Mapping[str, Any]):
        super().__init__(effect["scope"])
        self.vp, self.single, self.size = effect["vp"], effect.get("single", False), effect["size"]
        cond = effect["condition"]
        self.solve: Callable[[tuple[int, ...]], int] | None = None
        self.keys: tuple[tuple[int, ...], ...]
        if "each" in cond:
            ((attr, values),) = cond["each"].items()
            self.rule, self.keys = "each", (lane_keys(attr, values),)
        elif "same" in cond:
            self.rule, self.keys = "same", tuple((k,) for k in ATTR_KEYS[cond["same"]])
        elif "different" in cond:
            self.rule, self.keys = "different", tuple((k,) for k in ATTR_KEYS[cond["different"]])
        elif "slots" in cond:
            spec = cond["slots"]
            slots = [lane_keys(spec["attr"], s) for s in spec["values"]]
            self.slot_count = k = len(slots)
            self.subset_sizes = tuple(bin(sub).count("1") for sub in range(1, 1 << k))
            self.rule = "slots"
            self.keys = tuple(
                tuple(sorted({key for j in range(k) if sub >> j & 1 for key in slots[j]}))
                for sub in range(1, 1 << k)
            )
        else:
            ((key, value),) = cond.items()
            attr = value if key in ("consecutive", "full_house") else "number"
            self.rule, self.keys = "generic", tuple((k,) for k in ATTR_KEYS[attr])
            self.solve = generic_set_counter(key, value, self.size)
        # the rule's method, bound once (the per-region call skips value()'s dispatch)
        self.value = getattr(self, "_" + self.rule)  # type: ignore[method-assign]

    def lanes_read(self) -> tuple[int, ...]:
        """The counted lanes; the card count ``n`` only matters for ``slots``: with
        ``each`` / ``same`` fewer than ``size`` cards make no set anyway, and
        ``different`` / the others read a whole attribute, whose counts add up to ``n``."""
        read = {k for keys in self.keys for k in keys}
        return tuple(sorted(read | {PRESENT} if self.rule == "slots" else read))

    def prepare(self, g: Geometry, cells: Cells, region: int) -> tuple[int, ...]:
        """The region in the lanes of each value (set of values) the rule counts."""
        return tuple(lanes(g, region, keys) for keys in self.keys)

    def _sets(self, sets: int) -> int:
        return self.vp * (min(sets, 1) if self.single else sets)

    def value(self, board: int, present: int, data: tuple[int, ...]) -> int:
        """VP of one region: the rule's method (``_each`` ... ``_generic``)."""
        return getattr(self, "_" + self.rule)(board, present, data)

    def _each(self, board: int, present: int, data: tuple[int, ...]) -> int:
        # fewer than ``size`` cards hold fewer than ``size`` fitting cards: no set either
        return self._sets((board & data[0]).bit_count() // self.size)

    def _same(self, board: int, present: int, data: tuple[int, ...]) -> int:
        size = self.size
        return self._sets(sum([(board & m).bit_count() // size for m in data]))

    def _different(self, board: int, present: int, data: tuple[int, ...]) -> int:
        size = self.size
        counts = [(board & m).bit_count() for m in data]
        sets = sum(counts) // size  # every card has one value: n = sum(counts)
        while sets > 0 and sum([min(c, sets) for c in counts]) < size * sets:
            sets -= 1
        return self._sets(sets)

    def _slots(self, board: int, present: int, data: tuple[int, ...]) -> int:
        n = (board & present).bit_count()
        if n < self.size:
            return 0
        feed = [(k, (board & m).bit_count()) for k, m in zip(self.subset_sizes, data, strict=True)]
        sets = n // self.slot_count
        while sets > 0 and any(have < sets * k for k, have in feed):
            sets -= 1
        return self._sets(sets)

    def _generic(self, board: int, present: int, data: tuple[int, ...]) -> int:
        counts = tuple([(board & m).bit_count() for m in data])
        assert self.solve is not None  # set with the "generic" rule
        return self._sets(self.solve(counts) if sum(counts) >= self.size else 0)


class Count(RegionPlan):
    """``count`` (``counts.score_count``, ``counts.measure``, ``counts.vp_for``): the
    measure of a region through ``ladder``, or ``vp`` x the measure."""

    def __init__(self, effect: Mapping[str, Any]):
        super().__init__(effect["scope"])
        spec = effect["measure"]
        self.keys: tuple[tuple[int, ...], ...]
        if "cards" in spec:
            ((attr, values),) = spec["cards"].items()
            self.rule, self.keys = "cards", (lane_keys(attr, values),)
        else:
            ((self.rule, attr),) = spec.items()
            if self.rule not in ("most", "least", "distinct", "least_times_most"):
                raise ValueError(f"unknown measure {dict(spec)!r}")
            self.keys = tuple((k,) for k in ATTR_KEYS[attr])
        self.ladder = effect.get("ladder")
        self.vp = effect.get("vp")

    def lanes_read(self) -> tuple[int, ...]:
        return tuple(sorted({k for keys in self.keys for k in keys}))

    def prepare(self, g: Geometry, cells: Cells, region: int) -> tuple[int, ...]:
        return tuple(lanes(g, region, keys) for keys in self.keys)

    def value(self, board: int, present: int, data: tuple[int, ...]) -> int:
        rule = self.rule
        if rule == "cards":
            n = (board & data[0]).bit_count()
        else:
            counts = [c for c in [(board & m).bit_count() for m in data] if c]
            if not counts:
                n = 0
            elif rule == "most":
                n = max(counts)
            elif rule == "least":
                n = min(counts)
            elif rule == "distinct":
                n = len(counts)
            else:
                n = min(counts) * max(counts)
        ladder = self.ladder
        if ladder is None:
            assert self.vp is not None  # a count without a ladder has a vp (schema)
            return self.vp * n
        return ladder[min(n, len(ladder)) - 1] if n > 0 else 0


class RowEnds(RegionPlan):
    """``row_ends`` (AI-12, ``counts.score_row_ends``): ``vp`` per row whose cards span
    exactly frame columns 0 to 4 (at least 2 cards) and whose two end cards share the
    colour / number."""

    def __init__(self, effect: Mapping[str, Any]):
        super().__init__("each_row")
        self.keys = ATTR_KEYS[effect["attr"]]
        self.vp = effect["vp"]

    def lanes_read(self) -> tuple[int, ...]:
        return (*self.keys, PRESENT)

    def prepare(self, g: Geometry, cells: Cells, region: int) -> tuple:
        """``(geometry, cell -> column)``."""
        return g, {i: g.positions[i][1] for i in cells}

    def value(self, board: int, present: int, data: tuple) -> int:
        g, column = data
        cards = lane(g, board & present, PRESENT)
        if cards.bit_count() < 2:
            return 0
        first = (cards & -cards).bit_length() - 1
        last = cards.bit_length() - 1
        if column[first] != 0 or column[last] != 4:
            return 0
        ends = (1 << first) | (1 << last)
        return self.vp if any(lane(g, board, k) & ends == ends for k in self.keys) else 0
