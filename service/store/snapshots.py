"""Snapshots of folded state: a cache making loads cost O(tail), never a source of truth.

One snapshot per match (the latest) in ``P:{mid}:snap`` with fields ``version``,
``schema_version``, ``game`` and ``state`` (JSON of ``engine.dump_state``). A snapshot
whose ``schema_version`` or ``game`` differs from the running engine is ignored.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from service.log.codec import dumps, loads
from service.store.keys import Keys


class Snapshot(NamedTuple):
    """A usable snapshot: the match ``version`` it was taken at and the dumped ``state``
    (the game's ``dump_state`` form)."""

    version: int
    state: dict[str, Any]


class SnapshotStore:
    """Save/load the latest snapshot of a match (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, every: int):
        self.redis = redis
        self.keys = keys
        self.every = every

    def due(self, old_version: int, new_version: int) -> bool:
        """True when an append from ``old_version`` to ``new_version`` crossed a multiple of N."""
        return new_version // self.every > old_version // self.every

    def save(
        self,
        match_id: str,
        version: int,
        game: str,
        schema_version: int,
        state: dict[str, Any],
        pipe=None,
    ) -> None:
        """Store ``state`` (already ``dump_state``-ed) as the snapshot at ``version``
        (queued on ``pipe``, a redis pipeline the caller executes, when given)."""
        (pipe if pipe is not None else self.redis).hset(
            self.keys.snap(match_id),
            mapping={
                "version": version,
                "game": game,
                "schema_version": schema_version,
                "state": dumps(state),
            },
        )

    def load(self, match_id: str, game: str, schema_version: int, upto: int) -> Snapshot | None:
        """The :class:`Snapshot` ``(version, state)`` of a usable snapshot at or before ``upto``, else None."""
        return self.usable(self.redis.hgetall(self.keys.snap(match_id)), game, schema_version, upto)

    @staticmethod
    def usable(snap: dict[str, str], game: str, schema_version: int, upto: int) -> Snapshot | None:
        """The :class:`Snapshot` ``(version, state)`` of the raw snapshot hash ``snap`` when it is of
        ``game`` at ``schema_version`` and at or before ``upto``, else None."""
        if not snap:
            return None
        try:
            version = int(snap["version"])
            usable = (
                snap["game"] == game
                and int(snap["schema_version"]) == schema_version
                and 0 < version <= upto
            )
            return Snapshot(version, loads(snap["state"])) if usable else None
        except (KeyError, ValueError):
            return None

    def delete(self, match_id: str) -> None:
        """Drop the match's snapshot (answers must not change)."""
        self.redis.delete(self.keys.snap(match_id))
