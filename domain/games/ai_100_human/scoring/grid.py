"""The compiled scorers' view of a tableau: a :class:`Geometry` and a packed bitboard.

A :class:`Geometry` is the bounding box of the 3x5 frame and the tableau's positions
(the frame itself unless AI-2's end card lies outside it), its cells numbered in reading
order (``(r - r0) * cols + (c - c0)``); a set of cells is a bitmask (cell ``i`` is bit
``1 << i``). What depends only on the geometry is computed once on the interned object:
the cells of each row and column, the cells around a position, the connector pairs of an
axis and the diamond points with their four ``(cell, corner)`` triangles.

:func:`read_board` packs a tableau into **one integer** of 12 *lanes* of ``n`` bits
(``n`` = the geometry's cell count): lane ``k`` holds the cells whose card counts as
colour ``COLORS[k]`` (``k`` 0-5) or number ``NUMBERS[k - 6]`` (``k`` 6-10); lane 11
(:data:`PRESENT`) the cells holding a card. A card on cell ``i`` adds its pattern
(one bit in its colour lane, one in its number lane, one in the presence lane) shifted
by ``i``. So "how many red cards in the row ``R``" is ``(board & (R << 0)).bit_count()``
and "the cards of the row that are purple or red" is one AND with a mask made once per
rule and row (:func:`lanes`). AI-10's alternatives (a green 4 or a black 2, corners
printed) are the same board with the card's pattern swapped. :func:`read_ids` gives the
card id of every cell instead (for the rules that read corners).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from domain.games.ai_100_human.cards import COLORS, NUMBERS, catalogue
from domain.games.ai_100_human.scoring.board import BL, BR, TL, TR, Face, acts_as, face
from domain.games.ai_100_human.tableau import COLS, ROWS, Pos, surrounding

Cells = tuple[int, ...]
COLOR_KEYS: tuple[int, ...] = tuple(range(len(COLORS)))
NUMBER_KEYS: tuple[int, ...] = tuple(range(len(COLORS), len(COLORS) + len(NUMBERS)))
ATTR_KEYS = {"color": COLOR_KEYS, "number": NUMBER_KEYS}
KEY_VALUE: tuple = COLORS + NUMBERS  # mask index -> colour or number


def value_key(attr: str, value: object) -> int | None:
    """The mask index of a colour / number value, ``None`` for a value no card has."""
    domain = COLORS if attr == "color" else NUMBERS
    return ATTR_KEYS[attr][domain.index(value)] if value in domain else None


def _printed_key(attr: str, value: object) -> int:
    """:func:`value_key` of a value printed on a card (always one of the domain's)."""
    key = value_key(attr, value)
    assert key is not None, (attr, value)
    return key


class Geometry:
    """A rectangle of ``rows`` x ``cols`` cells whose top-left position is ``(r0, c0)``.

    Interned by :func:`geometry`, so its caches live as long as the process. Attributes:
    ``n`` (cells), ``full`` (bitmask of every cell), ``positions`` (cell -> position),
    ``index`` (position -> cell).
    """

    __slots__ = (
        "r0",
        "c0",
        "rows",
        "cols",
        "n",
        "full",
        "positions",
        "index",
        "_around",
        "_pairs",
        "_points",
    )

    def __init__(self, r0: int, c0: int, rows: int, cols: int):
        self.r0, self.c0, self.rows, self.cols = r0, c0, rows, cols
        self.n = rows * cols
        self.full = (1 << self.n) - 1
        self.positions: tuple[Pos, ...] = tuple(
            (r0 + i // cols, c0 + i % cols) for i in range(self.n)
        )
        self.index: dict[Pos, int] = {p: i for i, p in enumerate(self.positions)}
        self._around: dict[Pos, Cells] = {}
        self._pairs: dict[str, tuple[tuple[int, int], ...]] = {}
        self._points: tuple[tuple[tuple[int, int], ...], ...] | None = None

    def row_cells(self, row: int) -> Cells:
        """The cells of tableau row ``row``, left to right (empty when outside)."""
        k = row - self.r0
        if not 0 <= k < self.rows:
            return ()
        return tuple(range(k * self.cols, (k + 1) * self.cols))

    def column_cells(self, col: int) -> Cells:
        """The cells of tableau column ``col``, top to bottom (empty when outside)."""
        k = col - self.c0
        if not 0 <= k < self.cols:
            return ()
        return tuple(range(k, self.n, self.cols))

    def lines(self, axis: int) -> tuple[Cells, ...]:
        """Every row (``axis`` 0) or column (``axis`` 1) of the rectangle."""
        if axis == 0:
            return tuple(self.row_cells(self.r0 + k) for k in range(self.rows))
        return tuple(self.column_cells(self.c0 + k) for k in range(self.cols))

    def around(self, pos: Pos) -> Cells:
        """The cells of the up to 8 positions surrounding ``pos`` ("adjacent to the played
        card"); ``pos`` itself may lie anywhere."""
        cells = self._around.get(pos)
        if cells is None:
            cells = tuple(self.index[p] for p in surrounding(pos) if p in self.index)
            self._around[pos] = cells
        return cells

    def pairs(self, axis: str) -> tuple[tuple[int, int], ...]:
        """``(first, second)`` cells of every horizontally (``"horizontal"``: left, right)
        or vertically (``"vertical"``: upper, lower) adjacent pair of positions."""
        out = self._pairs.get(axis)
        if out is None:
            dr, dc = (0, 1) if axis == "horizontal" else (1, 0)
            out = tuple(
                (i, self.index[(r + dr, c + dc)])
                for i, (r, c) in enumerate(self.positions)
                if (r + dr, c + dc) in self.index
            )
            self._pairs[axis] = out
        return out

    def points(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Every interior grid point as its four ``(cell, corner)`` triangles: upper-left
        card's BR, upper-right's BL, lower-left's TR, lower-right's TL (the reference's
        ``diamonds.diamond_points`` and ``triangles``)."""
        if self._points is None:
            pts = []
            for r in range(self.r0 + 1, self.r0 + self.rows):
                for c in range(self.c0 + 1, self.c0 + self.cols):
                    pts.append(
                        tuple(
                            (self.index[p], k)
                            for p, k in (
                                ((r - 1, c - 1), BR),
                                ((r - 1, c), BL),
                                ((r, c - 1), TR),
                                ((r, c), TL),
                            )
                        )
                    )
            self._points = tuple(pts)
        return self._points


@cache
def geometry(r0: int, c0: int, rows: int, cols: int) -> Geometry:
    """The interned :class:`Geometry` of that rectangle."""
    return Geometry(r0, c0, rows, cols)


FRAME = geometry(0, 0, ROWS, COLS)
PRESENT = len(KEY_VALUE)  # the lane of occupied cells (11)


def lanes(g: Geometry, cells: int, keys: tuple[int, ...]) -> int:
    """The mask of the cells ``cells`` (a bitmask) in each lane of ``keys``."""
    out = 0
    for k in keys:
        out |= cells << (g.n * k)
    return out


def lane(g: Geometry, board: int, k: int) -> int:
    """The cell bitmask of lane ``k`` of ``board``."""
    return (board >> (g.n * k)) & g.full


def _pattern(card_keys: tuple[int, int], width: int) -> int:
    color, number = card_keys
    return (1 << width * color) | (1 << width * number) | (1 << width * PRESENT)


class _CardTables:
    """What the readers need from the card catalogue, built on first use (the catalogue
    loads lazily, as everywhere else): card id -> (colour key, number key) of the
    printed card; card id -> the keys it may also count as (AI-10); the cards with such
    alternatives; every card id; ``placed((frame position, card id))`` -> the card's
    pattern on that frame cell (``KeyError`` off the frame or for an unknown id)."""

    def __init__(self) -> None:
        cards = catalogue().cards
        self.keys: dict[str, tuple[int, int]] = {}
        for cid in cards:
            f = face(cid)
            self.keys[cid] = _printed_key("color", f.color), _printed_key("number", f.number)
        self.alternatives: dict[str, tuple[tuple[int, int], ...]] = {
            cid: tuple(
                (_printed_key("color", c), _printed_key("number", n)) for c, n in acts_as(cid)[1:]
            )
            for cid in cards
            if len(acts_as(cid)) > 1
        }
        self.acting = frozenset(self.alternatives)
        self.known = frozenset(cards)
        self.placed = {
            (p, cid): _pattern(keys, FRAME.n) << i
            for p, i in FRAME.index.items()
            for cid, keys in self.keys.items()
        }.__getitem__


_tables: _CardTables | None = None


def _card_tables() -> _CardTables:
    global _tables
    if _tables is None:
        _tables = _CardTables()
    return _tables


Alternative = tuple[int, tuple[int, ...]]  # (cell, the boards with that card acting as ...)


def card_tables() -> _CardTables:
    """The per-card lookup tables (built once per process): ``keys``, ``alternatives``,
    ``acting``, ``known``, ``placed`` (see :class:`_CardTables`)."""
    return _tables or _card_tables()


def read_board(tableau: Mapping[Pos, str]) -> tuple[Geometry, int, tuple[Alternative, ...]]:
    """``(geometry, board, alternatives)`` of ``tableau`` (module doc); ``alternatives``
    has one ``(cell, (board as each alternative, ...))`` per card with ``acts_as``.
    Raises ``KeyError`` for an unknown card id, like the reference ``printed_board``."""
    t = _tables or _card_tables()
    try:  # the patterns of distinct cells share no bit: their sum is their union
        board = sum(map(t.placed, tableau.items()))
    except KeyError:
        if not t.known.issuperset(tableau.values()):
            raise
        return _read_outside(t, tableau)
    if t.acting.isdisjoint(tableau.values()):
        return FRAME, board, ()
    return FRAME, board, _alternatives(t, FRAME, board, tableau)


def _alternatives(
    t: _CardTables, g: Geometry, board: int, tableau: Mapping[Pos, str]
) -> tuple[Alternative, ...]:
    out = []
    for pos, card_id in tableau.items():
        if card_id in t.alternatives:
            i = g.index[pos]
            printed = _pattern(t.keys[card_id], g.n) << i
            out.append(
                (
                    i,
                    tuple(
                        board ^ printed ^ (_pattern(keys, g.n) << i)
                        for keys in t.alternatives[card_id]
                    ),
                )
            )
    return tuple(out)


def _outside_geometry(tableau: Mapping[Pos, str]) -> Geometry:
    rows = [p[0] for p in tableau] + [0, ROWS - 1]
    cols = [p[1] for p in tableau] + [0, COLS - 1]
    return geometry(min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1)


def _read_outside(
    t: _CardTables, tableau: Mapping[Pos, str]
) -> tuple[Geometry, int, tuple[Alternative, ...]]:
    """:func:`read_board` for a tableau with a card outside the frame (AI-2's end card)."""
    g = _outside_geometry(tableau)
    board = 0
    for pos, card_id in tableau.items():
        board |= _pattern(t.keys[card_id], g.n) << g.index[pos]
    if t.acting.isdisjoint(tableau.values()):
        return g, board, ()
    return g, board, _alternatives(t, g, board, tableau)


def read_ids(tableau: Mapping[Pos, str]) -> tuple[Geometry, list]:
    """``(geometry, card id or None per cell)`` of ``tableau``. Raises ``KeyError`` for an
    unknown card id."""
    t = _tables or _card_tables()
    if not t.known.issuperset(tableau.values()):
        raise KeyError(next(c for c in tableau.values() if c not in t.known))
    ids: list[str | None] = [None] * FRAME.n
    try:
        for pos, card_id in tableau.items():
            ids[FRAME.index[pos]] = card_id
    except KeyError:
        g = _outside_geometry(tableau)
        ids = [None] * g.n
        for pos, card_id in tableau.items():
            ids[g.index[pos]] = card_id
        return g, ids
    return FRAME, ids


class _Faces(dict):
    """card id -> printed :class:`~.board.Face`, filled on first use (``KeyError`` for an
    unknown id)."""

    def __missing__(self, card_id: str) -> Face:
        value = self[card_id] = face(card_id)
        return value


FACES: dict[str, Face] = _Faces()
