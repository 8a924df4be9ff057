"""Storage upkeep done by every full reconcile pass (:mod:`service.upkeep.reconcile`): compact the
finished matches left pending (:mod:`service.upkeep.compaction`), move due compacted matches to
the archive when one is configured (:mod:`service.upkeep.archive`), bound the finished-match
indexes when none is (``ARENA_FINISHED_INDEX_MAX``), and clean RQ's finished and failed job
registries of ids whose jobs expired (RQ itself does it only in a worker's 10-minute
maintenance, so they piled up).

Without an archive, finished matches stay in Redis for good (compacted), so the two
indexes of finished matches would grow with every match ever played: the lobby's
``finished`` buckets (:meth:`service.store.match_index.MatchIndex.trim_finished`: the newest
about ``finished_max`` stay listed) and ``P:compacted``
(:meth:`service.store.compact_store.CompactStore.trim`: the newest ``finished_max`` stay). A
trimmed match keeps its keys and answers every read by id. With an archive, the mover
bounds both (it unfiles every match it moves, ``ARENA_ARCHIVE_AFTER_S`` after its end) and
the lobby merges the archive's rows, so nothing is trimmed.
"""

from __future__ import annotations

import logging

from service.store.store_errors import is_store_unavailable

log = logging.getLogger(__name__)


class Housekeeping:
    """One upkeep pass over ``compactor``, ``archiver`` (or ``None``) and ``scheduler``
    (or ``None``); ``index`` (:class:`service.store.match_index.MatchIndex`) and ``finished_max``
    (``ARENA_FINISHED_INDEX_MAX``, ``0``: no bound) bound the finished indexes when there
    is no archiver."""

    def __init__(self, compactor, archiver=None, scheduler=None, index=None, finished_max: int = 0):
        self.compactor = compactor
        self.archiver = archiver
        self.scheduler = scheduler
        self.index = index
        self.finished_max = finished_max

    def run(self) -> dict[str, int]:
        """``{"compacted": n, "archived": n, "unlisted": n}`` (only the non-zero counts;
        ``unlisted``: finished matches trimmed from the lobby index). An archive failure is
        logged and ends the archive step (retried next pass); a Redis outage propagates."""
        out: dict[str, int] = {}
        compacted = self.compactor.compact_pending() if self.compactor is not None else 0
        if compacted:
            out["compacted"] = compacted
        if self.archiver is not None:
            try:
                archived = self.archiver.move_due()
            except Exception as error:  # noqa: BLE001 - PostgreSQL down or a mismatch: next pass
                if is_store_unavailable(error):
                    raise  # a Redis outage (a cluster with no node reachable too) ends the pass
                log.exception("archive pass failed; the next full pass retries")
                archived = 0
            if archived:
                out["archived"] = archived
        elif self.finished_max:
            if self.compactor is not None:
                self.compactor.store.trim(self.finished_max)
            unlisted = self.index.trim_finished(self.finished_max) if self.index is not None else 0
            if unlisted:
                out["unlisted"] = unlisted
        if self.scheduler is not None:
            self.scheduler.clean_registries()
        return out
