"""Bot turns and turn timeouts: what the RQ jobs ``workers.jobs.bot_turn`` and
``workers.jobs.turn_timeout`` run. Both decide through :class:`service.usecases.act.Act` with the
version the job was made for, so a stale or duplicated job never decides twice.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from domain.engine import Engine, InvalidBotOptions, MatchFinished, NotYourTurn
from service import errors
from service.log.codec import bot_rng
from service.log.match_record import MatchRecord
from service.usecases.act import Act
from service.usecases.context import MatchContext

log = logging.getLogger(__name__)


class Turns:
    """run_bot_turn, run_turn_timeout (see module docstring)."""

    def __init__(self, ctx: MatchContext, act: Act):
        self.ctx = ctx
        self.act = act

    def seat_bot(self, engine: Engine, record: MatchRecord, seat: int) -> Any:
        """The bot playing bot seat ``seat``: its level configured by its stored options
        (a resigned seat: the game's ``timeout_bot``).

        Options stored under an older schema that the level no longer accepts fall back to
        the level's defaults (logged) rather than leaving the match without moves."""
        if not record.is_bot(seat):
            return engine.bots[engine.timeout_bot]
        level = record.seats[seat]["bot"]
        try:
            return self.ctx.bot_cache.get(engine, level, record.bot_options(seat))
        except InvalidBotOptions as error:
            log.warning(
                "match %s seat %s: stored bot options refused (%s); playing %s with its defaults",
                record.match_id,
                seat,
                error.detail,
                level,
            )
            return engine.bots[level]

    def run_bot_turn(self, match_id: str, version: int, seat: int | None = None) -> dict[str, Any]:
        """Let the bot of ``seat`` (default: the first pending bot seat) decide at ``version``;
        the bot is the seat's level configured by its ``bot_options`` (cached per process).

        A no-op (``{"status": "stale"}``) when the match moved past ``version``, finished,
        or the seat has nothing pending; the append uses ``expected_version=version`` so a
        duplicate job can never decide twice. Returns ``{"status": "acted", "seat", "version"}``.
        """
        ctx = self.ctx
        record = ctx.record(match_id)
        if record.finished or record.version != version:
            return {"status": "stale"}
        loaded, _ = ctx.head(match_id)
        record = loaded.record
        if loaded.version != version:
            ctx.keep(loaded)
            return {"status": "stale"}
        pending = loaded.engine.pending(loaded.state)
        resigned = loaded.engine.resigned(loaded.state)
        candidates = [seat] if seat is not None else sorted(pending)
        chosen = None
        for s in candidates:
            if s in pending and 0 <= s < len(record.seats) and (record.is_bot(s) or s in resigned):
                bot = self.seat_bot(loaded.engine, record, s)
                chosen = s, bot.choose(loaded.state, s, bot_rng(record.seed, version, s))
                break
        ctx.keep(loaded)  # bots read the state only (what view() shows the seat)
        if chosen is None:
            return {"status": "stale"}
        s, command = chosen
        try:  # a resigned seat's moves are the timeout policy's (cause "timeout")
            answer = self.act.act(
                match_id,
                s,
                command,
                expected_version=version,
                cause="bot" if record.is_bot(s) else "timeout",
            )
        except (errors.VersionConflict, MatchFinished):
            # the match moved or ended (a seat resigned) while the bot was thinking
            return {"status": "stale"}
        return {"status": "acted", "seat": s, "version": answer["version"]}

    def run_turn_timeout(self, match_id: str, seat: int, version: int) -> dict[str, Any]:
        """Decide for a seat whose deadline (started at ``version``) passed, with the
        engine's ``timeout_bot``; events are recorded with cause ``timeout``.

        Idempotent: a stale job (deadline cancelled/replaced, match over) or a second run
        of the same job does nothing. A record whose seat acted since and is pending again
        (its new deadline was lost with a killed process) is restarted at the current
        version (``"restarted"``). A job that fires before its
        deadline does nothing (``"early"``; reconcile re-schedules it).

        Each run is logged (INFO): ``turn timeout <match> seat <s>@<version>: <status>``,
        followed for ``"acted"`` by ``<seconds> s after its deadline`` (the decision's
        lateness; ``benchmarks/_faults.py`` reads these lines).
        """
        outcome, late_s = self._turn_timeout(match_id, seat, version)
        log.info(
            "turn timeout %s seat %d@%d: %s%s",
            match_id,
            seat,
            version,
            outcome["status"],
            "" if late_s is None else f" {late_s:.3f} s after its deadline",
        )
        return outcome

    def _turn_timeout(
        self, match_id: str, seat: int, version: int
    ) -> tuple[dict[str, Any], float | None]:
        """:meth:`run_turn_timeout`'s answer and, when it acted, the seconds from the
        deadline to the decision."""
        ctx = self.ctx
        for _attempt in range(ctx.append_attempts):
            record = ctx.record(match_id)
            if record.finished or not 0 <= seat < len(record.seats) or record.is_bot(seat):
                return {"status": "stale"}, None
            entry = ctx.stores.deadlines.get(match_id, seat)
            if entry is None or entry["version"] != version:
                return {"status": "stale"}, None
            deadline = datetime.fromisoformat(entry["deadline"])
            if deadline > ctx.clock():
                return {"status": "early"}, None
            loaded, _ = ctx.head(match_id)
            pending = loaded.engine.pending(loaded.state)
            command = None
            if seat in pending:
                bot = loaded.engine.bots[loaded.engine.timeout_bot]
                command = bot.choose(loaded.state, seat, bot_rng(record.seed, loaded.version, seat))
            ctx.keep(loaded)  # read only (pending, the bot's view)
            if command is None:
                return {"status": "stale"}, None
            acted = any(
                e.get("actor") == seat and "command" in e
                for e in ctx.stores.events.read(match_id, after=version, upto=loaded.version)
            )
            if acted:
                # The seat acted since this deadline began and is pending again: its new
                # decision's deadline was lost (the process died between that append and
                # its book-keeping). Start it now, else this record would never move on.
                assert record.turn_timeout_s is not None  # it had a deadline
                self.act.after_append.start_deadline(
                    match_id, seat, loaded.version, record.turn_timeout_s
                )
                return {"status": "restarted"}, None
            try:
                answer = self.act.act(
                    match_id,
                    seat,
                    command,
                    expected_version=loaded.version,
                    cause="timeout",
                    idem_field=ctx.stores.keys.timeout_idem_field(seat, version),
                )
            except errors.VersionConflict:
                continue
            except (NotYourTurn, MatchFinished):
                return {"status": "stale"}, None
            if answer.get("replayed"):
                return {"status": "stale"}, None
            late_s = (ctx.clock() - deadline).total_seconds()
            return {"status": "acted", "seat": seat, "version": answer["version"]}, late_s
        return {"status": "busy"}, None
