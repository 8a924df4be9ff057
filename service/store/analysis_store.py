"""The match-analysis adapter (issue 23): one hash per analysis, ``P:{an-<id>}:analysis``,
and the uploaded export it reads, ``P:{an-<id>}:log`` (key names: :mod:`service.store.keys`).

An analysis id names one log and one budget (:func:`service.usecases.analysis.analysis_id`),
so the hash is the cache: a second request for the same match and budget reads it. Fields:
``status`` (``queued``, ``running``, ``done``, ``failed``), ``progress`` (0..100),
``source`` (``match`` or ``upload``), ``match_id``, ``game``, ``budget``, ``created_at``,
``run`` (a token per creation, part of its job ids and passed to them: a job of another
run is a no-op), ``client`` (the API client whose
request created it, counted against its cap; never answered),
``updated_at`` (its last write), ``next`` and ``partial`` (while it runs in slices: the
first turn of the next slice and the decisions so far, JSON), ``part`` and ``pending``
(while a decision is split between slices: how many slices went into the decision at
``next`` so far, and where it stands, JSON: :data:`domain.analysis.Pending`, with each
candidate's sums and counts of rollouts), ``result`` (the JSON of :func:`domain.analysis.analyse`,
once ``done``), ``error`` (once ``failed``). Both keys expire :data:`ANALYSIS_TTL_S` seconds after their last write.

``P:analysing:<client>`` (a set, :meth:`service.store.keys.Keys.client_analyses`) holds the
ids of the analyses a client of the API had created that may still be queued or running,
for the cap on analyses per client (``ARENA_MAX_ANALYSES_PER_CLIENT``): an id is added below
the cap by one script (:data:`service.store.quotas.RESERVE_BELOW_CAP`), removed when its
analysis is done or failed, and the ids of analyses no longer queued or running are pruned
when the cap is met (a removal lost with a crashed process), except those another request
is creating (in flight: :class:`service.store.quotas.ClientSets`); the set expires
:data:`CLIENT_SET_TTL_S` after its last addition.

``P:analyses`` (a sorted set, :meth:`service.store.keys.Keys.analyses`) lists the analyses
not done or failed yet, filed before their record is created and taken out after it is
done or failed (a crash in between leaves an entry whose record is done, failed or gone:
reconcile drops it), so that reconcile can revive their lost slices
(:meth:`service.usecases.analysis.Analyses.revive`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from service.log.codec import canonical_json
from service.store.keys import Keys
from service.store.quotas import ClientSets

#: an analysis (and an uploaded export waiting for it) is kept this long after its last
#: write (seconds): 7 days
ANALYSIS_TTL_S = 7 * 24 * 3600
#: a client's set of analyses expires this long after its last addition (seconds): longer
#: than an analysis may go unwritten before it is started again
#: (``service.usecases.analysis.STALE_AFTER_S``)
CLIENT_SET_TTL_S = 2 * 3600


class AnalysisStore:
    """Reads and writes analysis records (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, clock: Callable[[], str] | None = None):
        self.redis = redis
        self.keys = keys
        #: ``() -> ISO 8601 UTC`` of now, written as ``updated_at`` by :meth:`update`
        #: (``None``: not written)
        self.clock = clock
        #: the per-client sets of analyses queued or running (the cap's count)
        self.clients = ClientSets(
            redis,
            keys,
            set_key=keys.client_analyses,
            slot=lambda analysis_id: f"an-{analysis_id}",
            status_key=keys.analysis,
            live=frozenset({"queued", "running"}),
            ttl_s=CLIENT_SET_TTL_S,
        )

    def get(self, analysis_id: str) -> dict[str, Any] | None:
        """The record (``result`` parsed, ``progress``/``budget`` as ints) or ``None``."""
        raw = self.redis.hgetall(self.keys.analysis(analysis_id))
        if not raw:
            return None
        out: dict[str, Any] = dict(raw)
        for name in ("progress", "budget", "next", "part"):
            if name in out:
                out[name] = int(out[name])
        for name in ("result", "partial", "pending"):
            if name in out:
                out[name] = json.loads(out[name])
        return out

    def create(
        self,
        analysis_id: str,
        fields: Mapping[str, Any],
        log: Mapping[str, Any] | None = None,
        replace: bool = False,
    ) -> bool:
        """Create the record with ``fields`` (and the uploaded ``log``) unless one exists
        that has not failed (``replace``: whatever exists); True when created (the caller
        then enqueues its job from the record's ``next`` turn).

        A record replaced (failed, or lost its job) keeps its ``partial`` decisions, ``next``
        and ``progress``, and the decision under way (``part``, ``pending``): the same id
        names the same log and budget, whose decisions are the same (each has its own
        seeded RNG), so the analysis resumes where it stopped and its progress never goes
        back."""
        key = self.keys.analysis(analysis_id)
        existing = self.redis.hget(key, "status")
        if existing is not None and existing != "failed" and not replace:
            return False
        mapping = {k: str(v) for k, v in fields.items()}
        if existing is not None:
            partial, start, progress, part, pending = self.redis.hmget(
                key, "partial", "next", "progress", "part", "pending"
            )
            if partial is not None and start is not None:
                mapping.update(partial=partial, next=start, progress=progress or "0")
                if part is not None and pending is not None:
                    mapping.update(part=part, pending=pending)
        # filed first: an entry whose record never came is dropped by its reader
        self.redis.zadd(self.keys.analyses(), {analysis_id: time.time()})
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(key)
        self.clients.written(analysis_id, pipe)  # its slot: no longer in flight
        pipe.hset(key, mapping=mapping)
        pipe.expire(key, ANALYSIS_TTL_S)
        if log is not None:
            pipe.set(
                self.keys.analysis_log(analysis_id), canonical_json(dict(log)), ex=ANALYSIS_TTL_S
            )
        pipe.execute()
        return True

    def log(self, analysis_id: str) -> dict[str, Any] | None:
        """The uploaded export of an analysis, or ``None`` (gone or never stored)."""
        raw = self.redis.get(self.keys.analysis_log(analysis_id))
        return json.loads(raw) if raw else None

    def update(self, analysis_id: str, **fields: Any) -> None:
        """Set ``fields`` (``result``, ``partial`` and ``pending`` as canonical JSON, the
        rest as strings; a field given ``None`` is deleted) and renew the TTL; a ``status``
        of ``done`` also deletes the uploaded export and the slices' fields (``partial``,
        ``part``, ``pending``)."""
        key = self.keys.analysis(analysis_id)
        mapping = {
            k: canonical_json(v) if k in ("result", "partial", "pending") else str(v)
            for k, v in fields.items()
            if v is not None
        }
        gone = [k for k, v in fields.items() if v is None]
        if self.clock is not None:
            mapping["updated_at"] = self.clock()
        pipe = self.redis.pipeline(transaction=True)
        if mapping:
            pipe.hset(key, mapping=mapping)
        if gone:
            pipe.hdel(key, *gone)
        pipe.expire(key, ANALYSIS_TTL_S)
        if fields.get("status") == "done":
            pipe.delete(self.keys.analysis_log(analysis_id))
            pipe.hdel(key, "partial", "part", "pending")
        pipe.execute()
        if fields.get("status") in ("done", "failed"):
            self.drop(analysis_id)

    def active(self, limit: int = 1000) -> list[str]:
        """The ids of the analyses filed as not done or failed yet, oldest first (at most
        ``limit``)."""
        return list(self.redis.zrange(self.keys.analyses(), 0, limit - 1))

    def drop(self, analysis_id: str) -> None:
        """Take ``analysis_id`` out of the active analyses (done, failed or gone)."""
        self.redis.zrem(self.keys.analyses(), analysis_id)

    def reserve(self, client: str, analysis_id: str, cap: int) -> int:
        """Hold ``analysis_id`` in ``client``'s set below ``cap``: 1 added, 2 held already,
        0 refused (the set is at the cap). The id is in flight until :meth:`create` writes
        its record (:class:`service.store.quotas.ClientSets`)."""
        return self.clients.reserve(client, analysis_id, cap)

    def release(self, client: str, analysis_id: str) -> None:
        """Take ``analysis_id`` out of ``client``'s set (done, failed, or never created)
        and clear its in-flight mark (one pipeline)."""
        pipe = self.redis.pipeline(transaction=False)
        self.clients.release(client, analysis_id, pipe)
        self.clients.written(analysis_id, pipe)
        pipe.execute()

    def prune(self, client: str) -> int:
        """Take the analyses no longer queued or running (done, failed, expired; not one
        another request is creating) out of ``client``'s set; returns how many."""
        return self.clients.prune(client)
