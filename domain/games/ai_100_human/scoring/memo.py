"""Bounded memo tables for the compiled scorers, and the memoised golden-rule packing.

A memo table maps a small immutable input (an int bitmask, a tuple of ints or of card
ids) to the result of a pure function of exactly that input, so a remembered result is
always the right one. The tables share one budget of :data:`LIMIT` entries: when it is
spent, every table is emptied (they refill from the next calls), which bounds the memory
of a long-running worker process. *Permanent* tables (keys from a small finite domain,
such as count vectors) are lookup tables filled on demand and are never emptied.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from domain.games.ai_100_human.scoring.packing import max_disjoint

LIMIT = 1 << 17  # entries over all tables (~ tens of MB at most)

_tables: list[dict] = []
_size = 0


def table(permanent: bool = False) -> dict:
    """A new memo table (a plain dict: read it with ``get``). A budgeted table is written
    with :func:`remember` and shares the :data:`LIMIT` budget; a ``permanent`` one (keys
    from a small finite domain, e.g. the count vectors of at most 16 cards) is written
    directly, like a lookup table filled on demand, and never emptied by :func:`clear`."""
    out: dict = {}
    if not permanent:
        _tables.append(out)
    return out


def remember(memo: dict, key: Hashable, value: Any) -> Any:
    """Store ``memo[key] = value`` (emptying every budgeted table first when the budget
    is spent) and return ``value``."""
    global _size
    if _size >= LIMIT:
        clear()
    memo[key] = value
    _size += 1
    return value


def clear() -> None:
    """Empty every budgeted memo table (results stay exact; only the speed-up restarts)."""
    global _size
    for t in _tables:
        t.clear()
    _size = 0


_PACKING = table()


def packing(masks: set[int]) -> int:
    """``packing.max_disjoint(masks)`` for a set of non-zero bitmasks: answered at once
    when they are pairwise disjoint (their bit counts add up to the union's), otherwise
    remembered by the set of masks."""
    if len(masks) < 2:
        return len(masks)
    union = total = 0
    for m in masks:
        union |= m
        total += m.bit_count()
    if union.bit_count() == total:
        return len(masks)
    key = frozenset(masks)
    hit = _PACKING.get(key)
    if hit is None:
        hit = remember(_PACKING, key, max_disjoint(key))
    return hit
