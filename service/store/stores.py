"""Every Redis adapter of the service in one bundle: the only code that touches Redis keys.

Use-case modules (create/join, act, reads, turns, reconcile, ops) receive a :class:`Stores`
and call these adapters; key names live only in :mod:`service.store.keys`.

==================  ===============================================================
``events``          :class:`service.store.event_store.EventStore` - streams, meta hash,
                    idempotency records, the conditional append script
``snapshots``       :class:`service.store.snapshots.SnapshotStore` - folded-state snapshots
``metrics``         :class:`service.store.metrics.Metrics` - shared Prometheus counters
``index``           :class:`service.store.match_index.MatchIndex` - matches/running/awaiting,
                    lobby (sharded, :mod:`service.store.slots`)
``seats``           :class:`service.store.seat_store.SeatStore` - token digests, join names
``deadlines``       :class:`service.store.deadline_store.DeadlineStore` - turn deadlines
``bot_matches``     :class:`service.store.quotas.BotMatchSets` - running bot matches per client
``compacted``       :class:`service.store.compact_store.CompactStore` - compacted finished matches
``end_jobs``        :class:`service.store.end_jobs.EndJobs` - end-of-match jobs not completed
==================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from service.store.compact_store import CompactStore
from service.store.deadline_store import DeadlineStore
from service.store.end_jobs import EndJobs
from service.store.event_store import EventStore
from service.store.keys import Keys
from service.store.match_index import MatchIndex
from service.store.metrics import Metrics
from service.store.quotas import BotMatchSets
from service.store.seat_store import SeatStore
from service.store.snapshots import SnapshotStore


@dataclass(frozen=True, slots=True)
class Stores:
    """The adapters over one event-store Redis (see module docstring)."""

    redis: object
    keys: Keys
    events: EventStore
    snapshots: SnapshotStore
    metrics: Metrics
    index: MatchIndex
    seats: SeatStore
    deadlines: DeadlineStore
    bot_matches: BotMatchSets
    compacted: CompactStore
    end_jobs: EndJobs

    def new_match_id(self) -> str:
        """A fresh slot-aligned match id (:meth:`service.store.slots.ShardMap.new_id`)."""
        return self.index.map.new_id()

    @classmethod
    def build(
        cls,
        redis,
        keys: Keys,
        *,
        snapshot_every: int = 50,
        blocking_reads: bool = True,
        index_shards: int = 16,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ) -> Stores:
        """All adapters over ``redis`` (``decode_responses=True``) under ``keys``
        (``index_shards``: shards of the global indexes and counters,
        ``ARENA_INDEX_SHARDS``, :mod:`service.store.slots`; ``wait_replicas``/``wait_ms``:
        :class:`service.store.event_store.EventStore`)."""
        events = EventStore(
            redis, keys, blocking_reads=blocking_reads, wait_replicas=wait_replicas, wait_ms=wait_ms
        )
        return cls(
            redis,
            keys,
            events,
            SnapshotStore(redis, keys, snapshot_every),
            Metrics(redis, keys, index_shards),
            MatchIndex(redis, keys, index_shards),
            SeatStore(redis, keys),
            DeadlineStore(redis, keys),
            BotMatchSets(redis, keys),
            CompactStore(redis, keys, index_shards),
            EndJobs(redis, keys, index_shards),
        )
