"""Operations: health (both Redis answer) and the Prometheus metrics text."""
from __future__ import annotations

from typing import Any

from service.context import MatchContext


class Ops:
    """health, metrics."""

    def __init__(self, ctx: MatchContext):
        self.ctx = ctx

    def health(self) -> dict[str, Any]:
        """``{"status": "ok"|"degraded", "store": bool, "queue": bool, "store_state": str,
        "queue_state": str}`` after one ``PING`` of each Redis; a state is ``"ok"``,
        ``"loading"``, ``"unreachable"``, ``"timeout"``, ``"readonly"``, ``"cluster_down"``
        or ``"error"`` (:func:`service.store_errors.store_state`; ``"none"`` for the queue
        of a service without a scheduler). Never raises: a store that is down is a report."""
        scheduler = self.ctx.scheduler
        store_state = self.ctx.stores.events.probe()
        queue_state = scheduler.probe() if scheduler is not None else "none"
        store, queue = store_state == "ok", queue_state == "ok"
        return {"status": "ok" if store and (queue or scheduler is None) else "degraded",
                "store": store, "queue": queue,
                "store_state": store_state, "queue_state": queue_state}

    def metrics(self) -> str:
        """Prometheus text: matches created, actions accepted/rejected by code, append
        conflicts, bot turns, timeouts, reconcile re-queues, running matches."""
        return self.ctx.stores.metrics.render(self.ctx.stores.index.running_count())
