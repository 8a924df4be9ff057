"""The archive mover: compacted matches older than ``ARENA_ARCHIVE_AFTER_S`` move from
Redis to PostgreSQL (:class:`service.store.archive_store.ArchiveStore`).

Without ``ARENA_ARCHIVE_URL`` there is no mover and nothing leaves Redis. With it, every
full reconcile pass (:mod:`service.upkeep.housekeeping`) moves up to ``ARENA_ARCHIVE_BATCH``
matches, oldest end first, each in three steps that make the move idempotent and lose
nothing whichever side fails midway:

1. **copy**: the meta hash, the token digests and the compacted log (decoded first: it
   must be readable and end at the meta's version and head hash) are upserted into the
   archive (a re-run refreshes the row; a row with another log is never overwritten);
2. **verify**: the row is read back: same log digest, same token digests, same meta;
3. **delete**: under ``WATCH`` of the meta and tokens (a rematch claimed meanwhile makes
   the move start again from step 1) one ``MULTI`` deletes the match's keys; then the
   match leaves ``P:compacted`` and the lobby index (the lobby merges the archive's rows).

A crash after 1 or 2 leaves the match in Redis (re-copied next time); a crash after 3
leaves only global index entries, which the next pass removes (the meta is gone, the row
is there). Reads never notice: a record, log or token lookup that misses Redis asks the
archive (:class:`service.usecases.context.MatchContext`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from service.store.archive_store import ArchiveMismatch, ArchiveStore, sha256_hex
from service.store.compact_store import unpack

log = logging.getLogger(__name__)


def _without_rematch(meta: dict) -> dict:
    return {k: v for k, v in meta.items() if k not in ("rematch", "archived")}


class Archiver:
    """Moves compacted matches to ``store`` (see module docstring).

    ``after_s``: a match moves once it ended this many seconds ago; ``batch``: matches
    per :meth:`move_due`; ``clock``: Unix seconds now (tests inject one)."""

    def __init__(
        self,
        ctx,
        store: ArchiveStore,
        after_s: float = 604800.0,
        batch: int = 100,
        clock: Callable[[], float] = time.time,
    ):
        self.ctx = ctx
        self.store = store
        self.after_s = after_s
        self.batch = batch
        self.clock = clock

    def due_ids(self, count: int | None = None) -> list[str]:
        """Ids of compacted matches that ended ``after_s`` ago or earlier, oldest first."""
        return self.ctx.stores.compacted.due(self.clock() - self.after_s, count or self.batch)

    def move_due(self, count: int | None = None) -> int:
        """Move up to ``count`` (default ``batch``) due matches; returns how many moved.
        Errors propagate (the pass stops; what moved stays moved, the rest stays put)."""
        moved = 0
        for match_id in self.due_ids(count):
            moved += self.move(match_id)
        return moved

    def move(self, match_id: str, attempts: int = 5) -> bool:
        """Copy, verify, then delete ``match_id`` from Redis; True when this call deleted
        it. Raises ArchiveMismatch (the archive disagrees: nothing deleted) and the
        stores' errors."""
        stores = self.ctx.stores
        for _attempt in range(attempts):
            meta, tokens, blob = stores.compacted.contents(match_id)
            if not meta or "game" not in meta:
                self._leftovers(match_id)
                return False
            if not meta.get("compacted") or blob is None:
                return False  # not compacted (yet): never moved
            events = unpack(blob)["events"]
            if len(events) != int(meta.get("version", 0)) or (
                events and events[-1]["hash"] != meta.get("head_hash")
            ):
                raise ArchiveMismatch(f"compacted log of {match_id} does not end at its head")
            self.store.put(match_id, meta, tokens, blob)  # 1. copy
            self._check(match_id, meta, tokens, blob)  # 2. verify
            if stores.compacted.delete_unchanged(match_id, meta, tokens):  # 3. delete
                self._unfile(match_id, meta["game"])
                stores.metrics.incr("matches_archived")
                return True
        return False

    def _check(self, match_id: str, meta: dict, tokens: dict, blob: bytes) -> None:
        row = self.store.row(match_id)
        if row is None:
            raise ArchiveMismatch(f"{match_id}: no row after the copy")
        row_meta, row_tokens, digest = row
        if (
            digest != sha256_hex(blob)
            or row_tokens != tokens
            or _without_rematch(row_meta) != _without_rematch(meta)
        ):
            raise ArchiveMismatch(f"{match_id}: the archived row differs from Redis")

    def _unfile(self, match_id: str, game: str) -> None:
        stores = self.ctx.stores
        pipe = stores.events.batch()
        stores.compacted.unlist(match_id, pipe)
        stores.index.unfile(match_id, game, pipe=pipe)
        pipe.execute()

    def _leftovers(self, match_id: str) -> None:
        """A due id whose keys are gone: drop its global entries (archived: also from the
        lobby index)."""
        archived = self.store.meta(match_id)
        if archived:
            self._unfile(match_id, archived["game"])
        else:
            pipe = self.ctx.stores.events.batch()
            self.ctx.stores.compacted.unlist(match_id, pipe)
            pipe.execute()
