"""The port through which the service schedules turn jobs (and match analyses):
:class:`Scheduler`.

The use cases, upkeep passes and the facade depend on this protocol only; the RQ adapter
that implements it is :class:`workers.scheduling.TurnScheduler`, wired in by the
composition root (:func:`service.bootstrap.build_service`). A service built without one
(``scheduler=None``) enqueues nothing (tests, tools). Job ids come from
:class:`service.store.keys.Keys` (``bot_job_id``, ``timeout_job_id``), so a job's
identity, and with it the at-most-once guarantee, does not depend on the queue.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable


@runtime_checkable
class Scheduler(Protocol):
    """Turn jobs of a deployment: a bot's turn now, a seat's timeout at its deadline."""

    def probe(self) -> str:
        """The queue's state after one ping: ``"ok"`` or a store state
        (:func:`service.store.store_errors.store_state`)."""
        ...

    def enqueue_bot_turn(
        self, match_id: str, version: int, seat: int, attempt: int = 1, at_front: bool = False
    ) -> str:
        """Run the bot of ``seat`` at ``version`` of the match now; a duplicate is a no-op.
        Returns the job id."""
        ...

    def schedule_turn_timeout(self, match_id: str, seat: int, version: int, at: datetime) -> str:
        """Time ``seat`` out at ``at`` (aware UTC datetime; ``ValueError`` if naive) unless
        its decision of ``version`` moved first; a duplicate is a no-op. Returns the job id."""
        ...

    # Optional (issue 22): ``enqueue_match_ended(match_id) -> str`` runs the end-of-match
    # job (player counters, ratings) once per match, and ``revive_match_ended(match_id)
    # -> bool | None`` enqueues it again for reconcile unless it is alive (None: given
    # up); a scheduler without them runs none (``arena ratings rebuild`` computes the
    # same table from the logs).

    def enqueue_analysis(
        self, analysis_id: str, start: int = 0, run: str = "", attempt: int = 1, part: int = 0
    ) -> str:
        """Run the slice of the match analysis ``analysis_id`` (issue 23) from turn
        ``start`` on a worker, after the queued turn jobs; ``run``: the record's run token
        (part of the job id, and passed to the job: one of an earlier run is a no-op);
        ``attempt``: which try of this slice it is (1 for a new one; ``revive_analysis``
        counts them to give up); ``part``: 0 for a slice that begins with the turn
        ``start``, else how many slices went into its decision already (the record's
        ``part``; part of the job id); a duplicate is a no-op. Returns the job id."""
        ...

    # Optional (issue 23): ``revive_analysis(analysis_id, start, run, part=0) -> bool | None``
    # enqueues a slice again for reconcile unless its job is alive (None: given up, the
    # analysis is then marked failed); without it a lost slice waits for a new request
    # after ``service.usecases.analysis.STALE_AFTER_S``.

    def cancel(self, job_id: str) -> bool:
        """Drop a job that has not started; True when it existed."""
        ...

    def clean_registries(self) -> None:
        """Forget the ids of expired finished and failed jobs (housekeeping)."""
        ...

    def held_match_ids(self) -> set[str]:
        """The matches whose turn job a worker holds (running, or killed while running)."""
        ...

    def revive_bot_turn(self, match_id: str, version: int, seat: int) -> bool:
        """Re-enqueue a lost bot turn (reconcile); True when a job was enqueued."""
        ...

    def revive_turn_timeout(
        self, match_id: str, seat: int, version: int, deadline: datetime
    ) -> bool:
        """Make sure the timeout job of a decision exists; True when it was (re)created."""
        ...

    def queue_depth(self) -> dict[str, dict[str, int]]:
        """``{"turns": {"queued", "scheduled", "started"}, "analysis": {...}}``: job counts
        of the turn queue and the analysis queue (metrics)."""
        ...
