"""Storage upkeep done by every full reconcile pass (:mod:`service.reconcile`): compact the
finished matches left pending (:mod:`service.compaction`), move due compacted matches to
the archive when one is configured (:mod:`service.archive`), and clean RQ's finished and
failed job registries of ids whose jobs expired (RQ itself does it only in a worker's
10-minute maintenance, so they piled up).
"""
from __future__ import annotations

import logging

from service.store_errors import STORE_UNAVAILABLE

log = logging.getLogger(__name__)


class Housekeeping:
    """One upkeep pass over ``compactor``, ``archiver`` (or ``None``) and ``scheduler``
    (or ``None``)."""

    def __init__(self, compactor, archiver=None, scheduler=None):
        self.compactor = compactor
        self.archiver = archiver
        self.scheduler = scheduler

    def run(self) -> dict[str, int]:
        """``{"compacted": n, "archived": n}`` (only the non-zero counts). An archive
        failure is logged and ends the archive step (retried next pass); a Redis outage
        propagates."""
        out: dict[str, int] = {}
        compacted = self.compactor.compact_pending() if self.compactor is not None else 0
        if compacted:
            out["compacted"] = compacted
        if self.archiver is not None:
            try:
                archived = self.archiver.move_due()
            except STORE_UNAVAILABLE:
                raise
            except Exception:  # noqa: BLE001 - PostgreSQL down or a mismatch: next pass
                log.exception("archive pass failed; the next full pass retries")
                archived = 0
            if archived:
                out["archived"] = archived
        if self.scheduler is not None:
            self.scheduler.clean_registries()
        return out
