"""Compaction of finished matches: bounded storage with nothing lost.

When a match ends, the append's book-keeping (:mod:`service.usecases.after_append`) files it in
``P:compact-pending`` and gives its idempotency records a TTL (``ARENA_IDEMPOTENCY_TTL_S``
after the end), then :meth:`Compactor.compact` runs at once (a failure is logged; every
full reconcile pass retries the pending set):

1. one ``MULTI`` reads the meta hash, the whole stream, the token holders and the
   idempotency fields (:meth:`CompactStore.read_finished`), and the export document is
   built from them (:func:`service.log.verify.export_log`, the same document
   ``GET .../export`` answers);
2. check it (:func:`sealed_errors`: the hash chain over every envelope and the seed against
   its commitment) and that it ends at the meta's version and head hash; a log that fails
   stays uncompacted (logged). Every command is not re-decided here: each event was decided
   by this server's engine when it was appended (the full re-run is ``verify``'s, for a log
   nobody vouches for), and it cost a whole replay inside the request that ended the match;
3. one ``MULTI``: ``P:{mid}:log`` = the compressed document (:mod:`service.store.compact_store`:
   the chain fields dropped, recomputed on reading), meta field ``compacted``, the stream,
   snapshot and deadline records deleted, and the service's own turn-timeout
   idempotency records with them;
4. the match leaves the pending set and the ``matches`` list and joins ``P:compacted``
   (scored by its end: what the archive mover scans).

Afterwards a match is its meta hash (the lobby's and every read's record), its token
digests, the compacted log and (until they expire) its idempotency records. Every read
goes through :class:`FinishedLogs` (the same service calls: view, state at a version,
events, export, fork, replay/verify, legal actions, SSE, rematch, lobby): it decodes the
log (from Redis, else the archive) and keeps a few decoded logs per process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from service import errors
from service.log.codec import chain_errors, seed_commitment
from service.log.match_record import MatchRecord
from service.log.verify import export_log
from service.store.compact_store import CompactStore, DamagedLog, decodes_to, pack, unpack
from service.store.fold_cache import LruMap
from service.store.store_errors import is_store_unavailable

log = logging.getLogger(__name__)


def sealed_errors(doc: dict[str, Any]) -> list[str]:
    """What breaks the seal of an export document ``doc`` (empty: intact): its hash chain
    (:func:`service.log.codec.chain_errors`, in the document's ``format``) and its ``seed``
    (hex) against its ``seed_commitment`` (SHA-256, DESIGN.md "provably fair dealing").
    The commands are not re-decided (:func:`service.log.verify.verify_log` does that)."""
    errors = chain_errors(doc["match_id"], doc["events"], doc["format"])
    try:
        seed = bytes.fromhex(doc.get("seed") or "")
    except ValueError:
        seed = b""
    if seed_commitment(seed) != doc.get("seed_commitment"):
        errors.append("seed does not match seed_commitment")
    return errors


class FinishedLogs:
    """The export documents of compacted matches, from Redis or the archive.

    ``archive``: returns the :class:`service.store.archive_store.ArchiveStore` or ``None``;
    ``cache_size``: decoded documents kept per process (immutable once compacted)."""

    def __init__(self, store: CompactStore, archive: Callable[[], Any], cache_size: int = 64):
        self.store = store
        self.archive = archive
        self._docs: LruMap[dict[str, Any]] = LruMap(cache_size)

    def export(self, match_id: str) -> dict[str, Any]:
        """The export document of compacted ``match_id`` (callers must not change it).
        Raises MatchNotFound when neither Redis nor the archive holds its log."""
        doc = self._docs.get(match_id)
        if doc is not None:
            return doc
        blob = self.store.blob(match_id)
        archive = self.archive()
        if blob is None and archive is not None:
            blob = archive.blob(match_id)
        if blob is None:
            raise errors.MatchNotFound(match_id)
        doc = unpack(blob)
        if doc.get("match_id") != match_id:
            raise DamagedLog(f"the compacted log under {match_id} is {doc.get('match_id')}'s")
        self._docs.set(match_id, doc)
        return doc

    def envelopes(
        self, match_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Envelopes with ``after < version <= upto`` (at most ``limit``), as
        :meth:`service.store.event_store.EventStore.read` answers them for a live stream."""
        events = self.export(match_id)["events"]
        chosen = events[max(0, after) : upto]
        return [dict(e) for e in (chosen if limit is None else chosen[:limit])]


def finished_ts(record) -> float:
    """When the match ended (Unix seconds; its creation when unknown)."""
    try:
        return datetime.fromisoformat(record.finished_at).timestamp()
    except (TypeError, ValueError):
        return record.created_ts


class Compactor:
    """Compacts finished matches (see module docstring).

    ``enabled`` False (``ARENA_COMPACTION=0``) keeps every stream (the pending set still
    records finished matches, so turning it on later compacts them);
    ``idem_ttl_s``: seconds idempotency records live after the match ended."""

    def __init__(
        self, ctx, store: CompactStore, *, enabled: bool = True, idem_ttl_s: float = 3600.0
    ):
        self.ctx = ctx
        self.store = store
        self.enabled = enabled
        self.idem_ttl_s = idem_ttl_s

    def on_finished(self, match_id: str, pipe) -> None:
        """Queue on ``pipe`` (the book-keeping of the append that ended the match) its
        pending mark and the TTL of its idempotency records."""
        self.store.mark_pending(match_id, self.idem_ttl_s, pipe)

    def after_finish(self, match_id: str) -> bool:
        """Compact now when enabled; a failure is logged (the pending set keeps the id)."""
        if not self.enabled:
            return False
        try:
            return self.compact(match_id)
        except Exception:  # noqa: BLE001 - the final append stands; reconcile retries
            log.exception("compacting %s failed; a full reconcile pass retries it", match_id)
            return False

    def compact(self, match_id: str) -> bool:
        """Compact finished ``match_id``; True when this call compacted it. A running,
        vanished, archived or already compacted match is only filed where it belongs.
        Raises RuntimeError when the stream does not make a valid log of the recorded head.

        Three round trips: one ``MULTI`` reads the meta hash, the stream, the token
        holders and the idempotency fields (:meth:`CompactStore.read_finished`); one
        ``MULTI`` stores the compacted log (:meth:`CompactStore.store`); one pipeline
        files it (:meth:`CompactStore.filed`, with the counter)."""
        read = self.store.read_finished(match_id)
        if not read.meta or "game" not in read.meta:
            # no such match in Redis (an archived one's keys are gone too)
            self.store.drop_pending(match_id)
            return False
        record = MatchRecord.parse(match_id, read.meta)
        if not record.finished or record.archived:
            self.store.drop_pending(match_id)
            return False
        if record.compacted:
            self.store.filed(match_id, finished_ts(record))
            return False
        # read with the meta in one MULTI: a compaction meanwhile cannot have cut it short
        envelopes = read.envelopes[: record.version]
        if len(envelopes) != record.version or (
            envelopes and envelopes[-1]["hash"] != record.head_hash
        ):
            raise RuntimeError(f"stream of {match_id} does not end at the recorded head")
        doc = export_log(
            match_id,
            record.game,
            record.public_seats(read.claimed),
            record.options,
            record.seed,
            record.seed_commitment,
            envelopes,
            record.forked_from,
            record.turn_timeout_s,
            record.log_format,
        )
        broken = sealed_errors(doc)
        if broken:
            raise RuntimeError(f"log of {match_id} does not verify: {broken[:3]}")
        blob = pack(doc)
        if not decodes_to(blob, doc):  # what every read will decode (the chain checked above)
            raise RuntimeError(f"compacted log of {match_id} does not decode to its export")
        self.store.store(match_id, blob, read.own_idem)
        self.store.filed(
            match_id,
            finished_ts(record),
            also=lambda pipe: self.ctx.stores.metrics.incr("matches_compacted", pipe=pipe),
        )
        return True

    def compact_pending(self, count: int = 100) -> int:
        """Compact up to ``count`` matches of the pending set (full reconcile passes);
        returns how many were compacted now. Failures are logged and left pending."""
        if not self.enabled:
            return 0
        done = 0
        for match_id in self.store.pending_ids(count):
            try:
                done += self.compact(match_id)
            except Exception as error:  # noqa: BLE001 - one bad match must not stop the others
                if is_store_unavailable(error):
                    raise  # the pass ends (a cluster with no node reachable too); the next retries
                log.exception("compacting %s failed", match_id)
        return done
