"""Operations: health (both Redis answer) and the Prometheus metrics text."""
from __future__ import annotations

from typing import Any

from service.context import MatchContext


class Ops:
    """health, metrics."""

    def __init__(self, ctx: MatchContext):
        self.ctx = ctx

    def health(self) -> dict[str, Any]:
        """``{"status": "ok"|"degraded", "store": bool, "queue": bool}`` (pings both Redis)."""
        scheduler = self.ctx.scheduler
        store = self.ctx.stores.events.ping()
        queue = scheduler.ping() if scheduler is not None else False
        return {"status": "ok" if store and (queue or scheduler is None) else "degraded",
                "store": store, "queue": queue}

    def metrics(self) -> str:
        """Prometheus text: matches created, actions accepted/rejected by code, append
        conflicts, bot turns, timeouts, reconcile re-queues, running matches."""
        return self.ctx.stores.metrics.render(self.ctx.stores.index.running_count())
