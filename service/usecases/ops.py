"""Operations: health (both Redis answer) and the Prometheus metrics text."""

from __future__ import annotations

from typing import Any

from service.usecases.context import MatchContext


class Ops:
    """health, metrics."""

    def __init__(self, ctx: MatchContext):
        self.ctx = ctx

    def health(self) -> dict[str, Any]:
        """``{"status": "ok"|"degraded", "store": bool, "queue": bool, "store_state": str,
        "queue_state": str}`` after one ``PING`` of each Redis; a state is ``"ok"``,
        ``"loading"``, ``"unreachable"``, ``"timeout"``, ``"readonly"``, ``"cluster_down"``
        or ``"error"`` (:func:`service.store.store_errors.store_state`; ``"none"`` for the queue
        of a service without a scheduler). Never raises: a store that is down is a report."""
        scheduler = self.ctx.scheduler
        store_state = self.ctx.stores.events.probe()
        queue_state = scheduler.probe() if scheduler is not None else "none"
        store, queue = store_state == "ok", queue_state == "ok"
        return {
            "status": "ok" if store and (queue or scheduler is None) else "degraded",
            "store": store,
            "queue": queue,
            "store_state": store_state,
            "queue_state": queue_state,
        }

    def queue_depth(self) -> dict[str, dict[str, int]] | None:
        """``{"turns": {"queued", "scheduled", "started"}, "analysis": {...}}`` job counts
        of the turn and analysis queues (RQ's lists and registries, read without RQ's
        clean-up), ``None`` for a service without a scheduler. Raises the store errors
        of :mod:`service.store.store_errors`."""
        scheduler = self.ctx.scheduler
        if scheduler is None:
            return None
        return scheduler.queue_depth()

    def collect(self):
        """prometheus_client metric families of the deployment (:meth:`Metrics.collect`:
        counters, running matches, RQ job durations and queue depth), read from Redis."""
        return self.ctx.stores.metrics.collect(
            self.ctx.stores.index.running_count(), self.queue_depth()
        )

    def metrics(self) -> str:
        """Prometheus text (by prometheus_client) of :meth:`collect`: matches created,
        actions accepted/rejected by code, append conflicts, bot turns, timeouts, reconcile
        re-queues, running matches, RQ job durations and queue depth."""
        return self.ctx.stores.metrics.render(
            self.ctx.stores.index.running_count(), self.queue_depth()
        )

    def observe_job(self, kind: str, seconds: float) -> None:
        """Count a finished RQ job of ``kind`` that ran ``seconds``
        (:meth:`service.store.metrics.Metrics.observe_job`)."""
        self.ctx.stores.metrics.observe_job(kind, seconds)
