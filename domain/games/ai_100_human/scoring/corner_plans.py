"""Connectors and diamonds: the plans that read the cards' corner triangles.

Corners are printed (AI-10's alternatives change only colour and number), so these plans
score the printed cards alone (:func:`.grid.read_ids`). The result of one line of
connector groups, or of one diamond, depends only on the card ids on its cells: it is
remembered in a :mod:`.memo` table keyed by those ids (``operator.itemgetter`` builds
the key in C), so a tableau that differs from an earlier one by a card elsewhere costs a
few dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from domain.games.ai_100_human.scoring.board import BR, TL, TR
from domain.games.ai_100_human.scoring.grid import FACES, Geometry, read_ids
from domain.games.ai_100_human.scoring.memo import remember, table
from domain.games.ai_100_human.scoring.plan import Plan
from domain.games.ai_100_human.scoring.predicates import (
    compile_condition,
    compile_diamond_condition,
)
from domain.games.ai_100_human.tableau import Pos, Tableau


class Connection(Plan):
    """``connection`` (``connections.score_connection``): ``vp`` per connector group in
    scope meeting the condition. Horizontal: the left card's TR with the right card's TL;
    vertical: the upper card's BR with the lower card's TR. ``this_row`` / ``this_column``
    keep the groups whose first card lies in ``pos``'s row / column; any other scope
    keeps every group of the axis."""

    def __init__(self, effect: Mapping[str, Any]):
        self.axis = effect["axis"]
        self.corners = (TR, TL) if self.axis == "horizontal" else (BR, TR)
        self.scope = effect["scope"]
        self.vp = effect["vp"]
        self.test = compile_condition(effect["condition"])
        self._layouts: dict[Any, tuple] = {}

    def layout(self, g: Geometry, pos: Pos | None) -> tuple:
        """``(key getter, pairs as indices into the key, memo)`` per line of groups (a row
        for horizontal groups, a column for vertical ones)."""
        by_pos = self.scope in ("this_row", "this_column")
        key = (g, pos) if by_pos else g
        out = self._layouts.get(key)
        if out is None:
            pairs = g.pairs(self.axis)
            if self.scope in ("this_row", "this_column"):
                assert pos is not None, self.scope  # scored for a placed card
                axis = 0 if self.scope == "this_row" else 1
                pairs = tuple(p for p in pairs if g.positions[p[0]][axis] == pos[axis])
            line_of = 0 if self.axis == "horizontal" else 1
            lines: dict[int, list[tuple[int, int]]] = {}
            for a, b in pairs:
                lines.setdefault(g.positions[a][line_of], []).append((a, b))
            built = []
            for _, line in sorted(lines.items()):
                cells = sorted({c for pair in line for c in pair})
                local = {c: j for j, c in enumerate(cells)}
                built.append(
                    (itemgetter(*cells), tuple((local[a], local[b]) for a, b in line), table())
                )
            out = tuple(built)
            self._layouts[key] = out
        return out

    def _count(self, ids: tuple, pairs: tuple) -> int:
        ka, kb = self.corners
        n = 0
        for a, b in pairs:
            if (
                ids[a] is not None
                and ids[b] is not None
                and self.test((FACES[ids[a]].corners[ka], FACES[ids[b]].corners[kb]))
            ):
                n += 1
        return n

    def score(self, tableau: Tableau, pos: Pos | None, neighbours=()) -> int:
        return self.score_ids(*read_ids(tableau), pos)

    def score_ids(self, g: Geometry, ids: list, pos: Pos | None) -> int:
        """:meth:`score` of the tableau whose :func:`.grid.read_ids` is ``(g, ids)``."""
        n = 0
        for getter, pairs, memo in self.layout(g, pos):
            key = getter(ids)
            hit = memo.get(key)
            if hit is None:
                hit = remember(memo, key, self._count(key, pairs))
            n += hit
        return self.vp * n


class Diamond(Plan):
    """``diamond`` (``diamonds.score_diamond``): ``vp`` per interior grid point of the
    frame (and of AI-2's end card's bounding box) whose present triangles meet the
    condition (an incomplete diamond counts when they do)."""

    def __init__(self, effect: Mapping[str, Any]):
        self.vp = effect["vp"]
        self.test = compile_diamond_condition(effect["condition"])
        self.memo = table()  # the 4 card ids around a point -> the diamond scores
        self._layouts: dict[Geometry, tuple] = {}

    def layout(self, g: Geometry) -> tuple:
        """``(key getter, corners)`` per point: the cells upper-left, upper-right,
        lower-left, lower-right and their corners BR, BL, TR, TL."""
        out = self._layouts.get(g)
        if out is None:
            out = tuple(
                (itemgetter(*(c for c, _ in point)), tuple(k for _, k in point))
                for point in g.points()
            )
            self._layouts[g] = out
        return out

    def score(self, tableau: Tableau, pos: Pos | None, neighbours=()) -> int:
        return self.score_ids(*read_ids(tableau), pos)

    def score_ids(self, g: Geometry, ids: list, pos: Pos | None) -> int:
        """:meth:`score` of the tableau whose :func:`.grid.read_ids` is ``(g, ids)``."""
        memo = self.memo
        n = 0
        for getter, corners in self.layout(g):
            key = getter(ids)
            hit = memo.get(key)
            if hit is None:
                tris = [
                    FACES[cid].corners[k]
                    for cid, k in zip(key, corners, strict=True)
                    if cid is not None
                ]
                hit = remember(memo, key, self.test(tris))
            n += hit
        return self.vp * n
