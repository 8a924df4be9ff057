"""Read use cases and views: the game catalogue, a match as a viewer may see it, legal
actions, the event log (long-poll), past states, export and verification of a log.

Everything a viewer receives is produced by ``engine.view`` / ``engine.redact`` (and
``engine.redact_type``), never from raw state.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from domain.engine import MatchFinished, bot_options_schemas, public_cards
from service import errors
from service.log.envelopes import redact_envelopes
from service.log.verify import export_log, verify_log
from service.store.deadline_store import DeadlineStore
from service.usecases.context import (
    HeadFacts,
    Loaded,
    MatchContext,
    RequestReads,
    check_seat,
    head_facts,
    status_of,
)
from service.usecases.decisions import decision_id


def seat_representation(
    engine: Any,
    state: Any,
    version: int,
    decisions: Mapping[int, list] | None,
    seat: int | None,
    facts: HeadFacts | None = None,
) -> dict[str, Any]:
    """What one seat needs to play its next move, at ``version`` (``state`` is the fold
    there, read only): ``{"game", "view": engine.view(state, seat), "pending": {seat (str):
    kind}, "status", "result", "legal_actions": {"game", "version", "status", "actions",
    "decision_id"}}`` — the
    same shapes as ``GET /v1/matches/{id}`` (its ``view``, ``pending``, ``status``,
    ``result``) and ``GET .../legal-actions``. Only ``seat``'s own view: hidden
    information of other seats stays out. ``decisions``: the pending seats' ``[since,
    kind]`` at ``version`` (:mod:`service.usecases.decisions`; ``None`` when unknown, e.g. at a past
    version: ``decision_id`` is then ``None``); ``facts``: ``head_facts`` of ``state`` when
    known. ``seat`` ``None`` (a spectator): the public view and ``legal_actions: None``.
    A resigned seat has no legal actions (``actions: []``, ``decision_id: None``), as
    :meth:`Reads.legal_actions` answers."""
    facts = facts or head_facts(engine, state)
    status = status_of(facts.result)
    out = {
        "game": engine.game_id,
        "view": engine.view(state, seat),
        "pending": {str(k): v for k, v in facts.pending.items()},
        "status": status,
        "result": facts.result,
        "legal_actions": None,
    }
    if seat is not None and seat in facts.resigned:
        out["legal_actions"] = {
            "game": engine.game_id,
            "version": version,
            "status": status,
            "actions": [],
            "decision_id": None,
        }
    elif seat is not None:
        actions = engine.legal_actions(state, seat)
        out["legal_actions"] = {
            "game": engine.game_id,
            "version": version,
            "status": status,
            "actions": actions,
            "decision_id": decision_id(decisions, seat, actions) if decisions is not None else None,
        }
    return out


class Reads:
    """games, cards, match_view, legal_actions, events, state_at, export, verify."""

    def __init__(self, ctx: MatchContext):
        self.ctx = ctx

    def games(self) -> list[dict[str, Any]]:
        """Installed games: id, title, seat range, options schema, command schemas, bot
        levels and ``bot_options`` (level -> JSON Schema of its per-seat options)."""
        return [
            {
                "id": e.game_id,
                "title": e.title,
                "min_seats": e.min_seats,
                "max_seats": e.max_seats,
                "options_schema": dict(e.options_schema),
                "commands": {k: dict(v) for k, v in e.command_schemas.items()},
                "bots": sorted(e.bots),
                "bot_options": bot_options_schemas(e),
            }
            for e in self.ctx.engines.values()
        ]

    def cards(self, game: str) -> dict[str, Any]:
        """``{"game", **engine.public_cards()}``: the game's public card data (printed faces
        only); raises ``UnknownGame``."""
        return {"game": game, **public_cards(self.ctx.engine(game))}

    def match_view(
        self, match_id: str, viewer: int | None, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """The match as ``viewer`` (seat or ``None`` = spectator) may see it now
        (``reads``: the request's reads, :meth:`MatchContext.head`).
        ``rated``: while the match runs, whether it was created rated; once it ended,
        whether it counted for the ratings; ``aborted``: ``None`` while it runs, then
        whether a seat never made its first decision (then ``rated`` is False): the same
        two as the players' histories (:meth:`MatchContext.outcome`).
        Raises SpectatorsDisabled (403) for a spectator of a running match created with
        ``spectators: false``."""
        ctx = self.ctx
        loaded, _ = ctx.head(match_id, reads=reads)
        record, engine = loaded.record, loaded.engine
        if viewer is not None:
            ctx.checked_seat(loaded, viewer)
        result = engine.result(loaded.state)
        if viewer is None and result is None and not record.spectators:
            ctx.keep(loaded)
            raise errors.SpectatorsDisabled()
        pending = {str(k): v for k, v in engine.pending(loaded.state).items()}
        view = engine.view(loaded.state, viewer)
        resigned = sorted(engine.resigned(loaded.state))
        ctx.keep(loaded)  # after the last read: the engine calls succeeded (read-only calls)
        has_open = any(s["kind"] == "open" for s in record.seats)
        out: dict[str, Any] = {
            "match_id": match_id,
            "game": record.game,
            "version": loaded.version,
            "status": status_of(result),
            "seats": record.public_seats(self._claimed(loaded) if has_open else set()),
            "pending": pending,
            "view": view,
            "result": result,
            "seed_commitment": record.seed_commitment,
            "turn_timeout_s": record.turn_timeout_s,
            "unlisted": not record.listed,
            "spectators": record.spectators,
            "rated": record.rated,
            "aborted": None,
            "resigned": resigned,
            "created_at": record.created_at,
        }
        if result is not None:
            out["rated"], out["aborted"] = ctx.outcome(record, loaded.version)
            out["seed"] = record.seed.hex()
            if record.finished_at:
                out["finished_at"] = record.finished_at
            if record.rematch:
                out["rematch"] = record.rematch
        if record.forked_from:
            out["forked_from"] = record.forked_from
        # deadline records exist only for timed matches (AfterAppend.start_deadline); the
        # head read fetched them with the fold
        if not record.turn_timeout_s or result is not None:
            running_deadlines = {}
        elif loaded.deadlines is not None:
            running_deadlines = DeadlineStore.parse(loaded.deadlines)
        else:
            running_deadlines = ctx.stores.deadlines.all(match_id)
        deadlines = {
            str(s): d["deadline"] for s, d in running_deadlines.items() if str(s) in out["pending"]
        }
        if deadlines and result is None:
            out["deadlines"] = deadlines
            mine = deadlines.get(str(viewer)) if viewer is not None else None
            out["deadline"] = mine or min(deadlines.values())
        return out

    def _claimed(self, loaded) -> set[int]:
        """Seats holding a token: from the head read when it fetched them, else read."""
        if loaded.tokens is not None and not loaded.record.archived:
            return set(loaded.tokens)
        return self.ctx.claimed(loaded.record.match_id, loaded.record)

    def legal_actions(
        self, match_id: str, seat: int, wait_s: float = 0, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """``{"game", "version", "status", "actions", "decision_id"}``: every command
        ``seat`` may send now (``status``: the match's, so a client sees the end here),
        and the id of its pending decision (``None`` when it has none) that ``act`` takes
        as a precondition failing only when this decision moved (:mod:`service.usecases.decisions`).
        A resigned seat has none (its commands answer 409 ``seat_resigned``; where its
        game plays on, the seat's timeout bot decides for it, not the seat).

        ``wait_s`` > 0 (seconds, capped at 60) long-polls on the seat's own decision: when
        the seat has nothing to do now, the answer waits until it has (an event made it
        pending with legal actions), the match finished, or ``wait_s`` passed (then
        ``actions`` is ``[]``). While it waits, each new event costs one head read
        (:meth:`_wait_for_decision`), and the answer is computed on the head that read
        folded: no second read of the meta hash or the head once the seat is pending.
        ``reads``: the request's reads (:meth:`MatchContext.head`)."""
        deadline = time.monotonic() + min(max(0.0, float(wait_s)), 60.0)
        loaded, _ = self.ctx.head(match_id, reads=reads)
        while True:
            answer, finished = self._legal_actions_on(loaded, seat)
            if answer["actions"] or finished:
                return answer
            woken = self._wait_for_decision(match_id, seat, answer["version"], deadline)
            if woken is None:
                return answer
            loaded = woken

    def _legal_actions_on(self, loaded: Loaded, seat: int) -> tuple[dict[str, Any], bool]:
        """:meth:`legal_actions` on the head ``loaded`` (which then goes back to the fold
        cache), and whether the match has a result. Raises SeatNotFound."""
        seat = self.ctx.checked_seat(loaded, seat)
        engine = loaded.engine
        result = engine.result(loaded.state)
        finished = result is not None
        head = {"game": engine.game_id, "version": loaded.version, "status": status_of(result)}
        if seat in engine.resigned(loaded.state):
            self.ctx.keep(loaded)
            return {**head, "actions": [], "decision_id": None}, finished
        actions = engine.legal_actions(loaded.state, seat)
        decision = decision_id(loaded.seat_decisions, seat, actions)
        # given back to the fold cache only once read: another request may take it from
        # there and fold newer events into it in place (an A.I.Pokalypse legal-actions read
        # once met a battle card taken away under it: 500 "the seat has no battle card")
        self.ctx.keep(loaded)
        return {**head, "actions": actions, "decision_id": decision}, finished

    def _wait_for_decision(
        self, match_id: str, seat: int, after: int, deadline: float
    ) -> Loaded | None:
        """Block (``deadline``: a ``time.monotonic()`` instant) until an event after
        version ``after`` leaves ``seat`` pending or the match finished; returns the head
        read then (:meth:`MatchContext.head`: meta and tail in one script call, folded
        through the fold cache), which the caller answers from and gives back; ``None`` when
        the deadline passed first. Each new event costs that one head read: a head that
        leaves the seat nothing to do goes back to the fold cache, and the wait goes on.
        The one wait loop of ``GET .../legal-actions?wait=`` (:meth:`legal_actions`) and
        ``POST .../actions?wait=`` (:meth:`representation_when_pending`)."""
        events = self.ctx.stores.events
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not events.wait_after(match_id, after, remaining):
                return None
            loaded, _ = self.ctx.head(match_id)
            record = loaded.record
            if record.finished or seat in record.pending or loaded.version <= after:
                return loaded
            self.ctx.keep(loaded)
            after = loaded.version

    def representation(
        self, match_id: str, seat: int, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """:func:`seat_representation` of ``seat`` at the match's head, plus its
        ``version`` (the answer to ``Prefer: return=representation`` when the command's
        own fold is not in hand: an idempotent replay, an empty batch). Raises
        MatchNotFound, SeatNotFound. ``reads``: the request's reads."""
        loaded, _ = self.ctx.head(match_id, reads=reads)
        return self._represent(loaded, seat)

    def _represent(self, loaded: Loaded, seat: int) -> dict[str, Any]:
        """:func:`seat_representation` of ``seat`` on ``loaded``, which then goes back to the
        fold cache (only after the engine calls succeeded: they are read-only)."""
        seat = self.ctx.checked_seat(loaded, seat)
        out = seat_representation(
            loaded.engine, loaded.state, loaded.version, loaded.seat_decisions, seat
        )
        self.ctx.keep(loaded)
        return out

    def representation_when_pending(
        self, match_id: str, seat: int, after: int, wait_s: float
    ) -> dict[str, Any] | None:
        """The answer of ``POST .../actions?wait=`` once the command is in: when the seat has
        nothing to do after version ``after`` (its own batch), wait (``wait_s`` seconds,
        capped at 60) until an event leaves it pending or the match finished, as
        :meth:`legal_actions` long-polls (the same loop, :meth:`_wait_for_decision`), then
        :meth:`representation` on the head that wait read; ``None`` when the wait passed
        first (the caller answers the batch's own representation). Saves the client the
        ``GET .../legal-actions?wait=`` that would follow. Each new event costs one head
        read, which also gives the answer."""
        deadline = time.monotonic() + min(max(0.0, float(wait_s)), 60.0)
        loaded = self._wait_for_decision(match_id, seat, after, deadline)
        return None if loaded is None else self._represent(loaded, seat)

    def check_running(self, match_id: str) -> None:
        """Raise MatchFinished (409 ``match_finished``) when the match has a result (and
        MatchNotFound when there is no such match); the API asks it before answering a
        malformed command, so a finished match answers ``match_finished`` first."""
        if self.ctx.record(match_id).finished:
            raise MatchFinished()

    def events(
        self,
        match_id: str,
        viewer: int | None,
        after: int = 0,
        wait_s: float = 0,
        limit: int = 500,
        views: bool = False,
    ) -> dict[str, Any]:
        """Events after version ``after`` redacted for ``viewer``; long-polls up to
        ``wait_s`` seconds (capped at 60) until one exists. ``{"game", "version", "events"}``:
        the page holds no event past ``version`` (events appended meanwhile come next time).

        ``views``: the last event of each command's batch (and the page's last event) also
        carries ``seat_state``, :func:`seat_representation` for ``viewer`` on the fold
        right after it (its ``decision_id`` only when that is the head the meta describes)."""
        ctx = self.ctx
        record = ctx.record(match_id)
        if viewer is not None:
            check_seat(record, viewer)
        elif not record.finished and not record.spectators:
            raise errors.SpectatorsDisabled()
        after = max(0, int(after))
        limit = max(1, min(int(limit), 1000))
        # a finished match gets no more events: answer at once (a wait would hold a server
        # thread for nothing; probe finding)
        if record.version <= after and wait_s and wait_s > 0 and not record.finished:
            ctx.stores.events.wait_after(match_id, after, min(float(wait_s), 60.0))
            record = ctx.record(match_id)
        if record.version <= after:
            return {"game": record.game, "version": record.version, "events": []}
        base = ctx.load(match_id, upto=after, record=record)
        # the page stops at the version it reports: events appended since the record was
        # read wait for the next page (a page reaching past its ``version`` told a client
        # "version 125" with the public card of event 126 in it; CI's leak check met it)
        envelopes = ctx.envelopes(match_id, record, after=after, upto=record.version, limit=limit)
        if not views:
            redacted, _ = redact_envelopes(base.engine, envelopes, viewer, base.state)
            return {"game": record.game, "version": record.version, "events": redacted}
        engine, state, out = base.engine, base.state, []
        for i, env in enumerate(envelopes):
            page, state = redact_envelopes(engine, [env], viewer, state)
            last = i + 1 == len(envelopes) or envelopes[i + 1].get("command_id") != env.get(
                "command_id"
            )
            if last:
                head = env["version"] == record.version
                page[0]["seat_state"] = seat_representation(
                    engine, state, env["version"], record.decisions if head else None, viewer
                )
            out += page
        return {"game": record.game, "version": record.version, "events": out}

    def state_at(
        self, match_id: str, viewer: int | None, version: int, seat: int | None = None
    ) -> dict[str, Any]:
        """``{"match_id", "game", "version", "view", "pending"}`` at a past ``version``: anyone once finished; while
        running only a seat, for its own view (Forbidden otherwise). ``seat`` asks for that
        seat's view of a finished match (its log is public then; Forbidden while running
        unless it is the viewer's own seat; SeatNotFound when there is no such seat)."""
        record = self.ctx.record(match_id)
        if seat is not None and seat != viewer:
            check_seat(record, seat)
            if not record.finished:
                raise errors.Forbidden(
                    "Another seat's view is shown only once the match is finished."
                )
            viewer = seat
        if viewer is not None:
            check_seat(record, viewer)
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or not 1 <= version <= record.version
        ):
            raise errors.VersionOutOfRange(version, record.version)
        if not record.finished and viewer is None and not record.spectators:
            raise errors.SpectatorsDisabled()
        if not record.finished and viewer is None:
            raise errors.Forbidden("Past states of a running match are shown only to its seats.")
        loaded = self.ctx.load(match_id, upto=version, record=record)
        return {
            "match_id": match_id,
            "game": record.game,
            "version": version,
            "view": loaded.engine.view(loaded.state, viewer),
            "pending": {str(k): v for k, v in loaded.engine.pending(loaded.state).items()},
        }

    def export(self, match_id: str) -> dict[str, Any]:
        """The full log with commands and the revealed seed; MatchRunning before the end.
        A compacted match answers the verified export stored at compaction
        (:mod:`service.upkeep.compaction`); otherwise the envelopes come through
        :meth:`service.usecases.context.MatchContext.envelopes`, which reads the compacted log when
        the match was compacted after its record was read (the stream then answers short),
        so an export is never a log cut short."""
        record = self.ctx.record(match_id)
        if not record.finished:
            raise errors.MatchRunning()
        if record.compacted:
            return dict(self.ctx.logs.export(match_id))
        envelopes = self.ctx.envelopes(match_id, record, upto=record.version)
        return export_log(
            match_id,
            record.game,
            record.public_seats(self.ctx.stores.seats.claimed(match_id)),
            record.options,
            record.seed,
            record.seed_commitment,
            envelopes,
            record.forked_from,
            record.turn_timeout_s,
            record.log_format,
        )

    def verify(self, log_doc: dict) -> dict[str, Any]:
        """Verify an exported log (see :func:`service.log.verify.verify_log`).
        Raises InvalidLog when ``log_doc`` is not an object."""
        if not isinstance(log_doc, dict):
            raise errors.InvalidLog("a log must be a JSON object")
        return verify_log(log_doc, self.ctx.engines)
