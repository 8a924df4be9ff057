"""Reconcile: re-derive lost work of the matches waiting for a worker (a bot seat whose
job is missing or dead, a timed human seat without its deadline or job).

A pass scans the ``awaiting`` index (matches with a pending bot seat or a timed seat, kept
by every append), so idle human-only matches cost nothing. The index is a hint: an append
whose process died before it updated the index (or two appends whose index updates
crossed) can leave a match out. So a *full* pass scans every running match and puts those
that await a worker back into the index.

A *reclaim* pass (:meth:`Reconciler.reclaim`) looks only at the matches whose jobs RQ holds
as taken by a worker, so the turns of a killed worker come back within about
``ARENA_WORKER_LEASE_S`` whatever the number of running matches.

Every pass also enqueues again the lost slices of the analyses still queued or running
(:meth:`service.usecases.analysis.Analyses.revive`: a slice that met a store outage or
whose worker died), and the end-of-match jobs (player counters, ratings: issue 22)
of the matches still filed in ``end-jobs`` :data:`END_JOB_GRACE_S` after their end
(:mod:`service.store.end_jobs`): a job never enqueued (the queue down at the end, a crash
between the append and the enqueue) or whose worker died. The job is idempotent, so a
match counts once however often it runs.

The workers of a deployment share the periodic passes (:class:`SharedPasses`): one of them
runs each pass every ``ARENA_RECONCILE_S`` and one each full pass every
``ARENA_RECONCILE_FULL_S``, instead of every worker running its own (N workers sent N
times the round trips; a pass costs about 4 Redis commands per awaiting match).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from service import errors
from service.store.pass_turn import PassTurn
from service.store.store_errors import RedisError, is_store_unavailable
from service.usecases.after_append import AfterAppend, awaits_worker, queued_bot_seat
from service.usecases.context import MatchContext

log = logging.getLogger(__name__)

#: seconds after a match's end before reconcile looks at its end-of-match job (the job
#: normally runs within milliseconds; before this the enqueue may still be on its way)
END_JOB_GRACE_S = 5.0


class Reconciled(NamedTuple):
    """One match's reconcile: ``running`` (1 when it still runs, else 0) and ``requeued``
    (turn jobs or deadlines re-created)."""

    running: int
    requeued: int


class Reconciler:
    """``reconcile`` passes of one service; ``full_s``: seconds between two full passes."""

    def __init__(
        self,
        ctx: MatchContext,
        after_append: AfterAppend,
        full_s: float = 60.0,
        lifecycle=None,
        housekeeping=None,
    ):
        self.ctx = ctx
        self.after_append = after_append
        self.full_s = full_s
        self.lifecycle = lifecycle  # service.usecases.lifecycle.Lifecycle: abandons idle matches
        self.housekeeping = housekeeping  # service.upkeep.housekeeping.Housekeeping: storage upkeep
        #: ``() -> int``: revives lost analysis slices, counted as re-created jobs
        #: (:meth:`service.usecases.analysis.Analyses.revive`; ``None``: none)
        self.analyses: Callable[[], int] | None = None
        self._last_full: float | None = None  # time.monotonic() of the last full pass
        self._one_at_a_time = threading.Lock()  # reconcile and reclaim threads of a worker

    def reconcile(self, full: bool | None = None) -> dict[str, int]:
        """One pass (see module docstring); ``full`` ``None`` (the reconcile loops) makes a
        pass full when the last full pass of this service is ``full_s`` seconds old or
        there was none. Finished or vanished matches leave both indexes. Returns
        ``{"checked": running matches examined, "requeued": jobs or deadlines re-created}``
        plus ``"abandoned"`` (matches ended abandoned) when there were any. A full pass first ends the running
        matches in which no human acted for ``ARENA_ABANDON_AFTER_S``
        (:meth:`service.usecases.lifecycle.Lifecycle.abandon_idle`), with or without a scheduler,
        then does the storage upkeep (:mod:`service.upkeep.housekeeping`: ``"compacted"``,
        ``"archived"`` and ``"unlisted"`` counts when there were any).
        """
        ctx = self.ctx
        scheduler, index = ctx.scheduler, ctx.stores.index
        checked = requeued = abandoned = 0
        now = time.monotonic()
        if full is None:
            full = self._last_full is None or now - self._last_full >= self.full_s
        upkeep: dict[str, int] = {}
        if full and self.lifecycle is not None:
            abandoned = self.lifecycle.abandon_idle(index.running_ids())
        if full and self.housekeeping is not None:
            upkeep = self.housekeeping.run()
        if scheduler is None:
            return {**_counts(0, 0, abandoned), **upkeep}
        if full:
            self._last_full = now
        source = index.running_ids() if full else index.awaiting_ids()
        for match_id in sorted(source):
            seen, revived = self._match(match_id, mark=full)
            checked += seen
            requeued += revived
        requeued += self.end_jobs()
        if self.analyses is not None:
            requeued += self.analyses()
        if requeued:
            ctx.stores.metrics.incr("reconcile_requeued", requeued)
        return {**_counts(checked, requeued, abandoned), **upkeep}

    def end_jobs(self) -> int:
        """Enqueue again the end-of-match job of every match filed in ``end-jobs`` for
        :data:`END_JOB_GRACE_S` whose job is not queued or running on a live worker
        (``revive_match_ended``); a match whose job failed ``max_attempts`` times is taken
        out (logged: ``arena ratings rebuild --write`` recomputes the ratings). Returns how
        many jobs it enqueued."""
        revive = getattr(self.ctx.scheduler, "revive_match_ended", None)
        if revive is None:
            return 0
        end_jobs = self.ctx.stores.end_jobs
        requeued = 0
        for match_id in end_jobs.overdue(self.ctx.clock().timestamp() - END_JOB_GRACE_S):
            outcome = revive(match_id)
            if outcome is None:
                end_jobs.done(match_id)
            else:
                requeued += int(outcome)
        return requeued

    def reclaim(self) -> dict[str, int]:
        """The fast pass for killed workers: only the matches whose turn jobs RQ holds as
        taken by a worker (its started registry and intermediate list:
        :meth:`workers.scheduling.TurnScheduler.held_match_ids`, two reads), each
        reconciled as in :meth:`reconcile`. A job whose worker's lease is gone (or popped
        and never started for ``lease_s``) is re-enqueued ahead of the queue. Workers run
        it every ``ARENA_WORKER_LEASE_S / 3`` s, so a killed worker's turn is re-enqueued
        within about ``ARENA_WORKER_LEASE_S`` plus that period, whatever the number of
        matches; jobs lost in other ways (never enqueued) wait for :meth:`reconcile`.
        Returns ``{"checked", "requeued"}``."""
        scheduler = self.ctx.scheduler
        if scheduler is None:
            return _counts(0, 0, 0)
        checked = requeued = 0
        for match_id in sorted(scheduler.held_match_ids()):
            seen, revived = self._match(match_id, mark=False)
            checked += seen
            requeued += revived
        if requeued:
            self.ctx.stores.metrics.incr("reconcile_requeued", requeued)
        return _counts(checked, requeued, 0)

    def _match(self, match_id: str, mark: bool) -> Reconciled:
        """Reconcile one match: :class:`Reconciled` ``(1 if it is running else 0, jobs or
        deadlines re-created)``; a finished or vanished match leaves both indexes; ``mark`` (full
        passes) puts a match that awaits a worker back into the ``awaiting`` index."""
        with self._one_at_a_time:
            try:
                return self._match_now(match_id, mark)
            except Exception as error:  # noqa: BLE001 - one bad match must not stop every other's
                if isinstance(error, RedisError) or is_store_unavailable(error):
                    raise  # an outage (a cluster's too) ends the pass (the loops retry it)
                log.exception("reconcile of match %s failed; the pass goes on", match_id)
                return Reconciled(1, 0)

    def _match_now(self, match_id: str, mark: bool) -> Reconciled:
        ctx = self.ctx
        scheduler, index = ctx.scheduler, ctx.stores.index
        try:
            record = ctx.record(match_id)
        except errors.MatchNotFound:
            index.forget(match_id)
            return Reconciled(0, 0)
        if record.finished:
            index.forget(match_id)
            return Reconciled(0, 0)
        if not awaits_worker(record, record.pending):
            return Reconciled(1, 0)  # a stale hint is left to the match's next append
        if mark:
            index.mark_awaiting(match_id)
        requeued = 0
        deadlines = ctx.stores.deadlines.all(match_id) if record.turn_timeout_s else {}
        bot_seat = queued_bot_seat(record, record.pending)
        assert scheduler is not None, "reconcile passes run with a scheduler"
        if bot_seat is not None:  # one job per match, as the append queues it
            requeued += scheduler.revive_bot_turn(match_id, record.version, bot_seat)
        for seat in sorted(record.pending):
            if record.plays_itself(seat):
                continue
            if record.turn_timeout_s:
                entry = deadlines.get(seat)
                if entry is None:
                    self.after_append.start_deadline(
                        match_id, seat, record.version, record.turn_timeout_s
                    )
                    requeued += 1
                else:
                    requeued += scheduler.revive_turn_timeout(
                        match_id, seat, entry["version"], datetime.fromisoformat(entry["deadline"])
                    )
        return Reconciled(1, requeued)


class SharedPasses:
    """One worker process's share of the deployment's reconcile passes (module docstring).

    Args:
        service: the process's :class:`service.match_service.MatchService` (its
            ``reconcile(full=...)`` and ``keys``).
        connection: the queue Redis (a client that fails fast).
        every_s: seconds between two passes of the deployment (``ARENA_RECONCILE_S``).
        full_every_s: seconds between two full passes (``ARENA_RECONCILE_FULL_S``).
    """

    def __init__(self, service, connection, every_s: float, full_every_s: float):
        self.service = service
        self.turn = PassTurn(connection, service.keys.pass_turn("pass"), every_s)
        self.full_turn = PassTurn(connection, service.keys.pass_turn("full"), full_every_s)

    def attempt(self) -> dict[str, int] | None:
        """Run a pass if it is this process's turn: ``None`` when another worker ran one
        less than ``every_s`` ago, else the pass's answer (``"full": 1`` added when it was
        a full pass: none ran in the deployment for ``full_every_s``). A pass that raises
        gives its turns back (the next attempt, here or in another worker, runs it) and
        the error propagates (Redis errors too, from taking the turn)."""
        if not self.turn.take():
            return None
        full = self.full_turn.take()
        try:
            out = self.service.reconcile(full=full)
        except BaseException:
            self.turn.give_back()
            if full:
                self.full_turn.give_back()
            raise
        return {**out, "full": 1} if full else out


def _counts(checked: int, requeued: int, abandoned: int) -> dict[str, int]:
    """The answer of one pass (``abandoned`` only when matches were abandoned)."""
    out = {"checked": checked, "requeued": requeued}
    if abandoned:
        out["abandoned"] = abandoned
    return out
