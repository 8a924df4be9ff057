"""Per-process caches in front of the event store: folded states and seat-token digests.

Both are only caches: every answer must be the same with them empty (the event stream in
Redis stays the one source of truth, DESIGN.md "Snapshots ... only a cache").

:class:`FoldCache` keeps, per match, the state folded up to a ``version`` together with the
``hash`` of that version's envelope. A load reads only the stream tail after the cached
version and checks that the tail links to the cached hash (``prev_hash``), so a cache that
went stale in any way (another process appended, the stream was rolled back and rewritten)
is detected and dropped, never served. Entries are handed out *exclusively*
(:meth:`FoldCache.take` removes them): the holder may fold further events into the state,
and only gives it back (:meth:`FoldCache.put`) when it is exactly the fold at the version it
claims — a state touched by a failed ``decide`` or a lost append race is simply not put
back. So two threads never share one mutable state, and no copy is needed.

:class:`TokenCache` remembers the SHA-256 digests of a match's seat tokens. Tokens are only
ever added (create, join), never changed or revoked, so a digest found in the cache is
always valid; a miss re-reads Redis.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class LruMap(Generic[V]):
    """A thread-safe least-recently-used map ``str -> V`` holding at most ``capacity``
    entries (``capacity <= 0`` keeps nothing: every lookup misses)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._items: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> V | None:
        """The entry for ``key`` (marked most recently used) or ``None``."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def pop(self, key: str) -> V | None:
        """Remove and return the entry for ``key`` (``None`` when absent)."""
        with self._lock:
            return self._items.pop(key, None)

    def set(self, key: str, value: V) -> None:
        """Store ``value`` under ``key`` as most recently used; evict beyond capacity."""
        if self.capacity <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def set_if(self, key: str, value: V, newer) -> bool:
        """Store ``value`` unless the present entry ``e`` has ``newer(e)`` true; True if stored."""
        if self.capacity <= 0:
            return False
        with self._lock:
            present = self._items.get(key)
            if present is not None and newer(present):
                return False
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
            return True

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._items.clear()


@dataclass(slots=True)
class CachedFold:
    """A match folded up to ``version`` (1-based stream version).

    ``head_hash``: the ``hash`` of envelope ``version`` (the next envelope's ``prev_hash``);
    ``game``: the match's game id; ``state``: the engine's folded state (owned by whoever
    holds this entry); ``record``: the ``MatchRecord`` read with it (only its static
    fields — seats, seed, game, turn timeout — may be relied on), or ``None``;
    ``decisions``: the per-seat decisions (``service.usecases.decisions``) at ``version``, or ``None``
    (then ``record.decisions`` is exact at ``version``).
    """

    version: int
    head_hash: str
    game: str
    state: Any
    record: Any = None
    decisions: Any = None


class FoldCache:
    """Folded states by match id, handed out exclusively (see module docstring).

    ``capacity``: matches kept per process (least recently used evicted first; ``0``
    disables the cache). Memory is about ``capacity`` x the size of one folded state.
    """

    def __init__(self, capacity: int = 1024):
        self._map: LruMap[CachedFold] = LruMap(capacity)

    def __len__(self) -> int:
        return len(self._map)

    def take(self, match_id: str) -> CachedFold | None:
        """Remove and return the cached fold of ``match_id`` (``None`` on a miss)."""
        return self._map.pop(match_id)

    def game_of(self, match_id: str) -> str | None:
        """The game id of the cached fold of ``match_id`` (``None`` on a miss); the entry
        stays cached (a match's game never changes)."""
        entry = self._map.get(match_id)
        return None if entry is None else entry.game

    def put(self, match_id: str, entry: CachedFold) -> None:
        """Give back a fold that is exact at ``entry.version``. A fold of the same or a
        later version already cached (put back by another thread) is kept instead."""
        self._map.set_if(match_id, entry, lambda present: present.version >= entry.version)

    def discard(self, match_id: str) -> None:
        """Drop the match's entry (if any)."""
        self._map.pop(match_id)

    def clear(self) -> None:
        """Drop every entry."""
        self._map.clear()


class TokenCache:
    """Seat-token digests by match id: ``{seat: sha256 hex}`` (see module docstring)."""

    def __init__(self, capacity: int = 4096):
        self._map: LruMap[dict[int, str]] = LruMap(capacity)

    def get(self, match_id: str) -> dict[int, str] | None:
        """The cached digests of ``match_id`` or ``None``."""
        return self._map.get(match_id)

    def set(self, match_id: str, digests: dict[int, str]) -> None:
        """Remember the digests read from Redis (an empty mapping is not cached)."""
        if digests:
            self._map.set(match_id, dict(digests))

    def clear(self) -> None:
        """Forget every entry."""
        self._map.clear()
