"""Book-keeping of every append (creation, fork, accepted command): counters, snapshot,
the running/awaiting indexes, the client's running bot matches (:mod:`service.store.quotas`) when
a match ends - queued as a :class:`service.store.write_batch.WriteBatch` that the append script
runs with the events (one round trip) - then the turn jobs of what is pending now (bot
turns, turn-timeout deadlines); a match that ended is then compacted
(:mod:`service.upkeep.compaction`).

Failures here never undo the append: reconcile (:mod:`service.upkeep.reconcile`) re-derives
missing jobs, and a full reconcile pass puts a match missing from the awaiting index back.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from datetime import timedelta
from typing import Any

from domain.engine import Engine
from service.log.envelopes import utc_iso
from service.log.match_record import MatchRecord
from service.store.write_batch import WriteBatch
from service.usecases.context import HeadFacts, MatchContext, head_facts

log = logging.getLogger(__name__)


def awaits_worker(record: MatchRecord, pending: Mapping[int, Any]) -> bool:
    """True when a pending decision is a worker's job: a bot seat's turn (or a resigned
    seat's, played by the timeout policy), or any seat of a timed match (its turn
    timeout). Untimed human seats wait for their players."""
    return any(record.plays_itself(seat) for seat in pending) or bool(
        record.turn_timeout_s and pending
    )


def queued_bot_seat(record: MatchRecord, pending: Mapping[int, Any]) -> int | None:
    """The one pending seat whose turn job is queued at a version: the lowest pending seat
    that plays itself (a bot seat, or a resigned seat played by the timeout policy), or
    ``None`` when there is none.

    One job per match and version, not one per pending bot seat: when several bot seats
    decide at once, the first one's action makes every other seat's job at that version
    stale (a wasted job in the queue, 18% of the fault script's jobs), and the append
    that follows queues the next seat's job anyway."""
    return next((seat for seat in sorted(pending) if record.plays_itself(seat)), None)


class AfterAppend:
    """Runs the book-keeping of one append (see module docstring)."""

    def __init__(self, ctx: MatchContext, compactor=None):
        self.ctx = ctx
        self.compactor = compactor  # service.upkeep.compaction.Compactor, or None

    def __call__(
        self,
        record: MatchRecord,
        engine: Engine,
        state: Any,
        old_version: int,
        new_version: int,
        actor: int | None,
        counted: tuple | list = (),
        decisions: Mapping[int, list] | None = None,
        facts: HeadFacts | None = None,
    ) -> None:
        """The whole book-keeping of an append that already happened: :meth:`writes` in
        one pipelined round trip, then :meth:`done` (``decisions``: the pending seats'
        ``{seat: [since, kind]}`` after this append, :mod:`service.usecases.decisions`, so a deadline
        follows its seat's decision; ``facts``: :func:`service.usecases.context.head_facts` of
        ``state`` when the caller has them). (The act and create paths run the writes inside
        their append script instead.)"""
        writes, record, pending, finished = self.writes(
            record, engine, state, old_version, new_version, counted, facts=facts
        )
        self.ctx.stores.events.apply(writes)
        self.done(record, pending, new_version, actor, finished, decisions)

    def writes(
        self,
        record: MatchRecord,
        engine: Engine,
        state: Any,
        old_version: int,
        new_version: int,
        counted: tuple | list = (),
        batch: WriteBatch | None = None,
        facts: HeadFacts | None = None,
    ) -> tuple[WriteBatch, MatchRecord, Mapping[int, str], bool]:
        """The store writes of an append from ``old_version`` to ``new_version`` whose
        fold is ``state``, queued on ``batch`` (default a new one) for the append script:
        the counters ``counted`` (:data:`service.store.metrics.COUNTERS` names), the snapshot
        when due, the running and awaiting indexes, the lobby's ``finished`` bucket and the
        release of the client's running bot match when it ended. ``facts``:
        :func:`service.usecases.context.head_facts` of ``state`` when the caller computed them for
        the append's meta fields (``pending``, ``result`` and ``resigned`` once per append;
        computed here otherwise).

        Returns ``(batch, record, pending, finished)``: ``record`` with the seats resigned
        in ``state``, the pending decisions (``{}`` once finished) and whether the match
        ended, which :meth:`done` needs."""
        stores = self.ctx.stores
        match_id = record.match_id
        facts = facts or head_facts(engine, state)
        finished = facts.result is not None
        pending = {} if finished else facts.pending
        resigned = facts.resigned
        if resigned != record.resigned:  # record was read before this append
            record = replace(record, resigned=resigned)
        batch = batch if batch is not None else WriteBatch()
        for name in counted:
            stores.metrics.incr(name, pipe=batch, match_id=match_id)
        if stores.snapshots.due(old_version, new_version):
            stores.snapshots.save(
                match_id,
                new_version,
                record.game,
                engine.schema_version,
                engine.dump_state(state),
                pipe=batch,
            )
        stores.index.appended(match_id, finished, awaits_worker(record, pending), batch)
        if finished and record.listed and old_version:  # the lobby's only change on an action
            stores.index.file(match_id, record.game, record.created_ts, "finished", pipe=batch)
        if finished and record.quota_client:  # no longer a running bot match of its client
            stores.bot_matches.release(record.quota_client, match_id, pipe=batch)
        if finished and self.compactor is not None:
            self.compactor.on_finished(match_id, batch)
        if finished and self.runs_end_job(record):  # until its job completes (reconcile)
            stores.end_jobs.due(match_id, self.ctx.clock().timestamp(), batch)
        return batch, record, pending, finished

    def done(
        self,
        record: MatchRecord,
        pending: Mapping[int, Any],
        new_version: int,
        actor: int | None,
        finished: bool = False,
        decisions: Mapping[int, list] | None = None,
    ) -> None:
        """After the append and its writes: schedule bot turns and timeouts
        (:meth:`schedule`; a queue failure is logged, reconcile re-derives the jobs), then
        compact a match that ended (``pending`` is empty then; the compactor checks)."""
        try:
            self.schedule(record, pending, new_version, actor, decisions)
        except Exception:  # noqa: BLE001 - the queue being down must not fail the command
            log.exception(
                "scheduling turn jobs for %s failed; reconcile will retry", record.match_id
            )
        if finished:
            self.match_ended(record)
        if finished and self.compactor is not None:
            self.compactor.after_finish(record.match_id)

    def runs_end_job(self, record: MatchRecord) -> bool:
        """True when the end of ``record``'s match runs the end-of-match job (player
        counters, ratings: issue 22): it has a bound player or is rated, and the scheduler
        runs such jobs."""
        return getattr(self.ctx.scheduler, "enqueue_match_ended", None) is not None and bool(
            record.rated or record.players or any(s.get("player") for s in record.seats)
        )

    def match_ended(self, record: MatchRecord) -> None:
        """Enqueue the end-of-match job of a match that runs one (:meth:`runs_end_job`); a
        queue failure is logged: the append filed the match in ``end-jobs``
        (:mod:`service.store.end_jobs`), so reconcile enqueues the job again."""
        if not self.runs_end_job(record):
            return
        try:
            self.ctx.scheduler.enqueue_match_ended(record.match_id)  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - the queue being down must not fail the command
            log.exception(
                "enqueueing the end-of-match job of %s failed; reconcile will retry",
                record.match_id,
            )

    def schedule(
        self,
        record: MatchRecord,
        pending: Mapping[int, str],
        version: int,
        actor: int | None,
        decisions: Mapping[int, list] | None = None,
    ) -> None:
        """Cancel the deadlines of seats that acted, have nothing pending or whose decision
        restarted after their deadline began (``decisions``: its kind changed while the
        seat waited, e.g. an A.I.Pokalypse reaction window became a battle-card placement:
        the old deadline, maybe already past, would let the timeout bot answer a decision
        the player never had time for); enqueue the bot turn of :func:`queued_bot_seat`
        (one job per match: the next append queues the next bot seat's); start a
        deadline for a pending seat of a timed match that has none left."""
        match_id = record.match_id
        scheduler = self.ctx.scheduler
        deadline_store = self.ctx.stores.deadlines
        # deadline records exist only for timed matches (see start_deadline)
        deadlines = deadline_store.all(match_id) if record.turn_timeout_s else {}
        kept = {}
        for seat, item in deadlines.items():
            moved = (
                decisions is not None and seat in decisions and decisions[seat][0] > item["version"]
            )
            if seat == actor or seat not in pending or moved:
                deadline_store.drop(match_id, seat)
                if scheduler is not None:
                    scheduler.cancel(
                        self.ctx.stores.keys.timeout_job_id(match_id, seat, item["version"])
                    )
            else:
                kept[seat] = item
        if scheduler is None:
            return
        bot_seat = queued_bot_seat(record, pending)
        if bot_seat is not None:
            scheduler.enqueue_bot_turn(match_id, version, bot_seat)
        for seat in sorted(pending):
            if record.plays_itself(seat):
                continue
            if record.turn_timeout_s and seat not in kept:
                self.start_deadline(match_id, seat, version, record.turn_timeout_s)

    def start_deadline(self, match_id: str, seat: int, version: int, timeout_s: float) -> None:
        """Record ``seat``'s deadline (now + ``timeout_s``) for its decision started at
        ``version`` and schedule its turn-timeout job (a scheduler is required)."""
        deadline = self.ctx.clock() + timedelta(seconds=timeout_s)
        self.ctx.stores.deadlines.start(match_id, seat, version, utc_iso(deadline))
        scheduler = self.ctx.scheduler
        assert scheduler is not None, "turn timeouts need a scheduler"
        scheduler.schedule_turn_timeout(match_id, seat, version, deadline)
