"""The act use case: decide a seat's command on the match's fold and append its events.

Two paths share :meth:`Act._append_batch`: the fast one decides on this process's cached
fold and appends conditionally on its version *and* head hash (one round trip); the
verified one reads the head from the store first (meta, tail, idempotency record in one
round trip) and re-decides a lost race ``append_attempts`` times.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, NamedTuple

from domain.engine import InvalidCommand, MatchFinished, RuleError, derive_rng
from service import errors
from service.log.codec import canonical_json, sha256_hex
from service.log.envelopes import build_envelopes, redact_envelopes, utc_iso
from service.store.fold_cache import CachedFold
from service.usecases.after_append import AfterAppend
from service.usecases.context import Loaded, MatchContext, RequestReads, head_facts, head_fields
from service.usecases.decisions import decision_id
from service.usecases.reads import seat_representation


class Rejection(NamedTuple):
    """A failed precondition of a command: the error to raise, the rejection code it
    counts (``None``: not counted) and whether the fold read goes back to the cache."""

    error: Exception
    counted: str | None
    keep: bool = True


class FastPath(NamedTuple):
    """What :meth:`Act._act_on_cached_fold` got: the ``answer`` (accepted or replayed), or
    ``None`` with the match ``reloaded`` from a lost race's script answer (or ``None``:
    the verified path must read); ``lost``: 1 when its append lost a race, else 0."""

    answer: dict[str, Any] | None
    reloaded: Loaded | None
    lost: int = 0


class Appended(NamedTuple):
    """What :meth:`Act._append_batch` got: the ``answer`` when appended or replayed, else
    ``None`` with the store's ``current_version`` and the match ``reloaded`` at that head
    (``None`` when the script did not send it); ``counted``: this append's script also
    counted the ``lost`` races before it (it appended)."""

    answer: dict[str, Any] | None
    current_version: int | None
    reloaded: Loaded | None
    counted: bool = False


def action_checks(
    engine,
    loaded: Loaded,
    seat: int,
    decision_of,
    *,
    cause: str,
    bad_command: bool = False,
    bad_key: bool = False,
    expected_version: int | None = None,
    decision: str | None = None,
) -> Rejection | None:
    """The one order of a command's checks on the fold ``loaded`` (the match and the seat
    were checked before, an Idempotency-Key replay answered before): a finished match
    (``match_finished``), a seat that resigned (``seat_resigned``, its player's own
    commands: ``cause == "player"``), a malformed command (``invalid_command``) or key,
    ``expected_version`` (VersionConflict), ``decision`` (DecisionMoved, against
    ``decision_of(loaded, seat)``); the rules come after (``engine.decide``). Returns the
    first failure or ``None``. Both paths of :meth:`Act.act` use it: the cached-fold one
    falls back to the verified one on any failure, which then raises it."""
    if engine.result(loaded.state) is not None:
        error = MatchFinished()
        return Rejection(error, error.code, keep=False)
    if cause == "player" and seat in engine.resigned(loaded.state):
        return Rejection(errors.SeatResigned(seat), "seat_resigned")
    if bad_command:
        return Rejection(
            InvalidCommand("A command is an object with a string 'type'."), "invalid_command"
        )
    if bad_key:
        return Rejection(InvalidCommand("Idempotency-Key must be 1-255 characters."), None)
    if expected_version is not None and loaded.version != expected_version:
        return Rejection(
            errors.VersionConflict(expected_version, loaded.version), "version_conflict"
        )
    if decision is not None:
        current = decision_of(loaded, seat)
        if current != decision:
            return Rejection(errors.DecisionMoved(current, loaded.version), "decision_moved")
    return None


class Act:
    """``act`` (see module docstring)."""

    def __init__(self, ctx: MatchContext, after_append: AfterAppend):
        self.ctx = ctx
        self.after_append = after_append

    def act(
        self,
        match_id: str,
        seat: int,
        command: dict,
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        *,
        cause: str = "player",
        idem_field: str | None = None,
        decision_id: str | None = None,
        represent: bool = False,
        reads: RequestReads | None = None,
    ) -> dict[str, Any]:
        """Decide ``command`` for ``seat`` and append its events atomically (``reads``: the
        request's reads; the first read of the verified path may take the head its seat
        check kept, :meth:`service.usecases.context.MatchContext.head`).

        Returns ``{"version", "events" (redacted for seat), "replayed"}``. A repeated
        ``idempotency_key`` with the same command and preconditions returns the first answer
        with ``replayed: true`` and appends nothing. Without ``expected_version`` a lost
        append race is re-decided on the new state (``append_attempts`` times, then
        ``busy``); with a stale one VersionConflict. ``decision_id`` (from
        :meth:`service.usecases.reads.Reads.legal_actions`) is the weaker precondition: it fails only
        when the seat's own pending decision moved (:mod:`service.usecases.decisions`).

        Errors keep this order (match and seat here, the rest in :func:`action_checks`,
        the one place that orders them): match, seat, a finished match (``match_finished``, before
        any check of the command, unless the key replays an answer), a seat that resigned
        (``seat_resigned``, for its player's own commands), a malformed command
        or key, the Idempotency-Key (IdempotencyKeyReused: another command or another
        precondition), VersionConflict, DecisionMoved, then the rules (RuleError).

        ``represent`` (``Prefer: return=representation``): an accepted command's answer
        also carries the seat's state right after its batch
        (:func:`service.usecases.reads.seat_representation`: ``view``, ``pending``, ``status``,
        ``result``, ``legal_actions``), computed on the fold in hand; it is not part of the
        answer an Idempotency-Key records (a replay or an empty batch carries none).
        """
        ctx = self.ctx
        counters = ctx.stores.metrics
        bad_command = not isinstance(command, dict) or not isinstance(command.get("type"), str)
        bad_key = False
        if idempotency_key is not None and idem_field is None:
            bad_key = not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 255
            if not bad_key:
                idem_field = ctx.stores.keys.idem_field(seat, idempotency_key)
        fingerprint = "" if bad_command else _fingerprint(command, expected_version, decision_id)
        reloaded: Loaded | None = None
        # append races lost so far: counted (``append_conflicts``) by the script of the
        # append that succeeds, else in one more round trip when the command ends otherwise
        lost = 0
        try:
            if not (bad_command or bad_key):
                fast = self._act_on_cached_fold(
                    match_id,
                    seat,
                    command,
                    idem_field,
                    fingerprint,
                    expected_version,
                    cause,
                    decision_id,
                    represent,
                )
                if fast.answer is not None:
                    return fast.answer
                reloaded, lost = fast.reloaded, fast.lost
            for _attempt in range(ctx.append_attempts):
                if reloaded is not None:  # a lost race's script answered with the new head
                    loaded, prior, reloaded = reloaded, None, None
                else:
                    loaded, prior = ctx.head(
                        match_id, None if bad_command or bad_key else idem_field, reads=reads
                    )
                    reads = None  # a kept head serves the first read only
                record, engine = loaded.record, loaded.engine
                seat = ctx.checked_seat(loaded, seat)
                if prior is not None:
                    ctx.keep(loaded)
                    return self._replay(prior, fingerprint)
                # From here the held state is not given back unless the append succeeds: a
                # failed decide or a lost race never leaves a touched state in the cache.
                rejection = action_checks(
                    engine,
                    loaded,
                    seat,
                    self.decision_of,
                    cause=cause,
                    bad_command=bad_command,
                    bad_key=bad_key,
                    expected_version=expected_version,
                    decision=decision_id,
                )
                if rejection is not None:
                    if rejection.keep:
                        ctx.keep(loaded)
                    if rejection.counted is not None:
                        counters.rejected(rejection.counted)
                    raise rejection.error
                try:
                    events = engine.decide(
                        loaded.state, seat, command, derive_rng(record.seed, loaded.version)
                    )
                except RuleError as exc:
                    counters.rejected(exc.code)
                    raise
                if not events:
                    ctx.keep(loaded)
                    return {
                        "game": record.game,
                        "version": loaded.version,
                        "events": [],
                        "replayed": False,
                    }
                appended = self._append_batch(
                    match_id,
                    loaded,
                    seat,
                    command,
                    events,
                    cause,
                    idem_field,
                    fingerprint,
                    represent,
                    lost=lost,
                )
                if appended.answer is not None:
                    if appended.counted:
                        lost = 0
                    return appended.answer
                lost += 1
                reloaded, current = appended.reloaded, appended.current_version
                if expected_version is not None:
                    counters.rejected("version_conflict")
                    assert current is not None  # a conflict's outcome carries the store's head
                    raise errors.VersionConflict(expected_version, current)
            raise errors.TooManyConflicts(ctx.append_attempts)
        finally:
            if lost:
                counters.incr("append_conflicts", lost, match_id=match_id)

    @staticmethod
    def decision_of(loaded: Loaded, seat: int) -> str | None:
        """The id of ``seat``'s pending decision on the fold ``loaded`` (read only)."""
        if seat not in loaded.seat_decisions:
            return None
        return decision_id(
            loaded.seat_decisions, seat, loaded.engine.legal_actions(loaded.state, seat)
        )

    def _act_on_cached_fold(
        self,
        match_id: str,
        seat: Any,
        command: dict,
        idem_field: str | None,
        fingerprint: str,
        expected_version: int | None,
        cause: str,
        decision: str | None = None,
        represent: bool = False,
    ) -> FastPath:
        """The fast path of :meth:`act`: decide on this process's cached fold and append
        conditionally on its version *and* head hash, without reading the store first
        (one round trip: the append script also runs the book-keeping writes).

        Returns a :class:`FastPath`: ``(answer, None)`` (accepted, or an idempotent replay found by the append
        script), ``(None, reloaded)`` when the append found the fold stale (``reloaded``:
        the match at its new head, from the script's answer, so the verified path decides
        again without reading), or ``(None, None)`` when the verified path must read: no cached fold, a seat or expected
        version or decision id the fold cannot vouch for, a rejected command or an empty batch (a rule
        error is only ever answered from a fold just read from the store), or an append
        refused because the fold is stale. A fold touched by ``decide``/``evolve`` goes back
        to the cache only after its append succeeded.
        """
        folds = self.ctx.folds
        entry = folds.take(match_id)
        if entry is None:
            return FastPath(None, None)
        record = entry.record
        if (
            record is None
            or record.game != entry.game
            or (expected_version is not None and expected_version != entry.version)
            or isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < len(record.seats)
        ):
            folds.put(match_id, entry)
            return FastPath(None, None)
        engine = self.ctx.engine(record.game)
        held = Loaded(record, engine, entry.version, entry.head_hash, entry.state, entry.decisions)
        try:
            if (
                action_checks(engine, held, seat, self.decision_of, cause=cause, decision=decision)
                is not None
            ):
                folds.put(match_id, entry)
                return FastPath(None, None)  # the verified path reads and raises it
            events = engine.decide(
                entry.state, seat, command, derive_rng(record.seed, entry.version)
            )
        except RuleError:
            return FastPath(None, None)
        if not events:
            folds.put(match_id, entry)
            return FastPath(None, None)
        # no answer when another process appended first: the verified path decides again
        # on the head the script returned
        appended = self._append_batch(
            match_id, held, seat, command, events, cause, idem_field, fingerprint, represent
        )
        return FastPath(appended.answer, appended.reloaded, 0 if appended.answer else 1)

    def _append_batch(
        self,
        match_id: str,
        loaded: Loaded,
        seat: int | None,
        command: dict,
        events: list,
        cause: str,
        idem_field: str | None,
        fingerprint: str,
        represent: bool = False,
        lost: int = 0,
    ) -> Appended:
        """Append the batch ``events`` that ``command`` of ``seat`` produced on ``loaded``
        (the fold at ``loaded.version`` / ``loaded.head_hash``), shared by both paths of
        :meth:`act`.

        Builds the envelopes (versions ``loaded.version + 1..``, chained on the head hash,
        one ``command_id``; ``command``/``actor`` on the first), folds them into
        ``loaded.state`` while redacting them for ``seat``, and appends them in one
        conditional script call: on the version *and* the head hash, recording
        ``{"fingerprint", "answer"}`` under ``idem_field`` and running the book-keeping
        writes (:meth:`service.usecases.after_append.AfterAppend.writes`: counters, snapshot,
        indexes) in the same script.

        Returns an :class:`Appended`: ``(answer, None, None)`` when appended (then the turn jobs are scheduled and
        the new fold goes into the cache; with ``represent`` the answer also carries
        :func:`service.usecases.reads.seat_representation` of the new fold, computed before the fold
        goes to the cache) or when the append script found an earlier answer
        under ``idem_field`` (``replayed: true``; nothing appended); ``(None,
        current_version, reloaded)`` when the store moved on (counted as an
        ``append_conflicts``; ``reloaded``: the match at the store's head from the script's
        answer, for the caller to retry on or answer 409). Raises IdempotencyKeyReused
        when the recorded answer is for another command. The touched state is never given
        back to the cache unless the append succeeded.
        """
        ctx = self.ctx
        record, engine = loaded.record, loaded.engine
        envelopes = build_envelopes(
            events,
            loaded.version + 1,
            loaded.head_hash,
            cause,
            uuid.uuid4().hex,
            command,
            seat,
            utc_iso(ctx.clock()),
            log_format=record.log_format,
        )
        # Fold into a copy when the game makes one cheaply (the optional ``copy_state``
        # hook): a lost race then folds only the events it missed into the fold held here.
        copy_state = getattr(engine, "copy_state", None)
        held = copy_state is not None
        base = loaded.state if copy_state is None else copy_state(loaded.state)
        redacted, state = redact_envelopes(engine, envelopes, seat, base)
        new_version = envelopes[-1]["version"]
        answer = {
            "game": record.game,
            "version": new_version,
            "events": redacted,
            "replayed": False,
        }
        facts = head_facts(engine, state)  # pending/result/resigned once per append
        fields, decisions = head_fields(
            engine, state, envelopes, loaded.seat_decisions, seat, facts
        )
        if cause == "player":  # a human acted: what ARENA_ABANDON_AFTER_S measures from
            fields["human_at"] = envelopes[0]["at"]
        counted = ["actions_accepted"] + ["append_conflicts"] * lost
        if cause == "bot":
            counted.append("bot_turns")
        elif cause == "timeout":
            counted.append("timeouts")
        writes, after_record, pending, finished = self.after_append.writes(
            record, engine, state, loaded.version, new_version, counted, facts=facts
        )
        outcome = ctx.stores.events.append(
            match_id,
            loaded.version,
            envelopes,
            fields,
            idem_field,
            {"fingerprint": fingerprint, "answer": answer},
            expected_head=loaded.head_hash,
            writes=writes,
            holds_fold=held,
        )
        if outcome.status == "replayed":
            return Appended(self._replay(outcome.answer, fingerprint), None, None)
        if outcome.status != "ok":
            kept = (
                CachedFold(
                    loaded.version,
                    loaded.head_hash,
                    record.game,
                    loaded.state,
                    record,
                    loaded.seat_decisions,
                )
                if held
                else None
            )
            reloaded = ctx.from_read(match_id, outcome.reload, kept) if outcome.reload else None
            return Appended(None, outcome.version, reloaded)
        self.after_append.done(after_record, pending, new_version, seat, finished, decisions)
        extra = (
            seat_representation(engine, state, new_version, decisions, seat, facts)
            if represent
            else None
        )
        ctx.keep(Loaded(record, engine, new_version, envelopes[-1]["hash"], state, decisions))
        return Appended({**answer, **extra} if extra else answer, None, None, counted=True)

    def _replay(self, prior: Mapping[str, Any], fingerprint: str) -> dict[str, Any]:
        """The recorded first answer with ``replayed: true``; raises IdempotencyKeyReused
        when it answered another command."""
        if prior.get("fingerprint") != fingerprint:
            self.ctx.stores.metrics.rejected("idempotency_key_reused")
            raise errors.IdempotencyKeyReused()
        self.ctx.stores.metrics.incr("idempotent_replays")
        return {**prior["answer"], "replayed": True}


def _fingerprint(
    command: Mapping[str, Any], expected_version: int | None, decision: str | None
) -> str:
    """What an Idempotency-Key is bound to: the command and its preconditions (the
    command alone when it has none, as recorded before preconditions were part of it)."""
    if expected_version is None and decision is None:
        return sha256_hex(canonical_json(command))
    return sha256_hex(
        canonical_json(
            {"command": command, "expected_version": expected_version, "decision_id": decision}
        )
    )
