"""Book-keeping after every append (creation, fork, accepted command): counters, snapshot,
the running/awaiting indexes, the client's running bot matches (:mod:`service.quotas`) when
a match ends, then the turn jobs of what is pending now (bot turns,
turn-timeout deadlines); a match that ended is then compacted (:mod:`service.compaction`).

Failures here never undo the append: reconcile (:mod:`service.reconcile`) re-derives
missing jobs, and a full reconcile pass puts a match missing from the awaiting index back.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import Any, Mapping

from domain.engine import Engine
from service.context import MatchContext
from service.envelopes import utc_iso
from service.match_record import MatchRecord

log = logging.getLogger(__name__)


def awaits_worker(record: MatchRecord, pending: Mapping[int, Any]) -> bool:
    """True when a pending decision is a worker's job: a bot seat's turn (or a resigned
    seat's, played by the timeout policy), or any seat of a timed match (its turn
    timeout). Untimed human seats wait for their players."""
    return any(record.plays_itself(seat) for seat in pending) or \
        bool(record.turn_timeout_s and pending)


class AfterAppend:
    """Runs the book-keeping of one append (see module docstring)."""

    def __init__(self, ctx: MatchContext, compactor=None):
        self.ctx = ctx
        self.compactor = compactor   # service.compaction.Compactor, or None

    def __call__(self, record: MatchRecord, engine: Engine, state: Any, old_version: int,
                 new_version: int, actor: int | None, counted: tuple | list = (),
                 decisions: Mapping[int, list] | None = None) -> None:
        """Count the append (``counted``: :data:`service.metrics.COUNTERS` names), snapshot
        when due, maintain the running and awaiting indexes (one pipelined round trip), then
        schedule bot turns and timeouts (:meth:`schedule`; a queue failure is logged).
        ``decisions``: the pending seats' ``{seat: [since, kind]}`` after this append
        (:mod:`service.decisions`), so a deadline follows its seat's decision."""
        stores = self.ctx.stores
        match_id = record.match_id
        finished = engine.result(state) is not None
        pending = {} if finished else engine.pending(state)
        resigned = engine.resigned(state)
        if resigned != record.resigned:   # record was read before this append
            record = replace(record, resigned=resigned)
        pipe = stores.events.batch()
        for name in counted:
            stores.metrics.incr(name, pipe=pipe)
        if stores.snapshots.due(old_version, new_version):
            stores.snapshots.save(match_id, new_version, record.game, engine.schema_version,
                                  engine.dump_state(state), pipe=pipe)
        stores.index.appended(match_id, finished, awaits_worker(record, pending), pipe)
        if finished and record.listed and old_version:   # the lobby's only change on an action
            stores.index.file(match_id, record.game, record.created_ts, "finished", pipe=pipe)
        if finished and record.quota_client:   # no longer a running bot match of its client
            stores.bot_matches.release(record.quota_client, match_id, pipe=pipe)
        if finished and self.compactor is not None:
            self.compactor.on_finished(match_id, pipe)
        pipe.execute()
        try:
            self.schedule(record, pending, new_version, actor, decisions)
        except Exception:  # noqa: BLE001 - the queue being down must not fail the command
            log.exception("scheduling turn jobs for %s failed; reconcile will retry", match_id)
        if finished and self.compactor is not None:
            self.compactor.after_finish(match_id)

    def schedule(self, record: MatchRecord, pending: Mapping[int, str], version: int,
                 actor: int | None, decisions: Mapping[int, list] | None = None) -> None:
        """Cancel the deadlines of seats that acted, have nothing pending or whose decision
        restarted after their deadline began (``decisions``: its kind changed while the
        seat waited, e.g. an A.I.Pokalypse reaction window became a battle-card placement:
        the old deadline, maybe already past, would let the timeout bot answer a decision
        the player never had time for); enqueue a bot turn per pending bot seat; start a
        deadline for a pending seat of a timed match that has none left."""
        match_id = record.match_id
        scheduler = self.ctx.scheduler
        deadline_store = self.ctx.stores.deadlines
        # deadline records exist only for timed matches (see start_deadline)
        deadlines = deadline_store.all(match_id) if record.turn_timeout_s else {}
        kept = {}
        for seat, item in deadlines.items():
            moved = decisions is not None and seat in decisions and decisions[seat][0] > item["version"]
            if seat == actor or seat not in pending or moved:
                deadline_store.drop(match_id, seat)
                if scheduler is not None:
                    scheduler.cancel(self.ctx.stores.keys.timeout_job_id(match_id, seat,
                                                                         item["version"]))
            else:
                kept[seat] = item
        if scheduler is None:
            return
        for seat in sorted(pending):
            if record.plays_itself(seat):
                scheduler.enqueue_bot_turn(match_id, version, seat)
            elif record.turn_timeout_s and seat not in kept:
                self.start_deadline(match_id, seat, version, record.turn_timeout_s)

    def start_deadline(self, match_id: str, seat: int, version: int, timeout_s: float) -> None:
        """Record ``seat``'s deadline (now + ``timeout_s``) for its decision started at
        ``version`` and schedule its turn-timeout job (a scheduler is required)."""
        deadline = self.ctx.clock() + timedelta(seconds=timeout_s)
        self.ctx.stores.deadlines.start(match_id, seat, version, utc_iso(deadline))
        self.ctx.scheduler.schedule_turn_timeout(match_id, seat, version, deadline)
