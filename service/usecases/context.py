"""What every use case shares: the adapters, the game registry, the per-process caches, the
clock, and loading a match (record, fold from a snapshot, fold through the fold cache).

Use-case modules: :mod:`service.usecases.create_join`, :mod:`service.usecases.act`, :mod:`service.usecases.reads`,
:mod:`service.usecases.turns`, :mod:`service.upkeep.reconcile`, :mod:`service.usecases.ops`, with the book-keeping
after every append in :mod:`service.usecases.after_append`; :class:`service.match_service.MatchService`
is the facade over them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from domain.engine import Engine
from service import errors
from service.log.codec import dumps, genesis_hash
from service.log.envelopes import fold_envelope
from service.log.match_record import MatchRecord
from service.ratings.inputs import ended_outcome
from service.scheduler import Scheduler
from service.store.event_store import HeadRead
from service.store.fold_cache import CachedFold, FoldCache, LruMap, TokenCache
from service.store.stores import Stores
from service.upkeep.compaction import FinishedLogs
from service.usecases.bots import BotCache
from service.usecases.decisions import decisions_after


class FoldGivenBack(RuntimeError):
    """A fold was read (or given back again) after :meth:`MatchContext.keep` gave it to the
    fold cache: a programming error (another request may be folding newer events into that
    state in place), answered 500 rather than with a state that changed under the read."""


class GivenBack:
    """What :meth:`MatchContext.keep` leaves in ``Loaded.state`` once it gave the fold to the
    cache: any attribute, item, length, truth or iteration read of it raises
    :class:`FoldGivenBack` naming the match and version, so "give the fold back only after
    the last read" is enforced where the state is read through the ``Loaded`` (a local
    alias taken before ``keep`` is the caller's to drop)."""

    __slots__ = ("where",)

    def __init__(self, where: str):
        self.where = where

    def _raise(self, *_args: Any) -> Any:
        raise FoldGivenBack(f"the fold of {self.where} was read after it was given back")

    def __getattr__(self, name: str) -> Any:
        return self._raise()

    __getitem__ = __iter__ = __len__ = __bool__ = __contains__ = _raise


@dataclass(slots=True)
class Loaded:
    """A match folded up to ``version`` (``state`` is owned by the caller until
    :meth:`MatchContext.keep` gives it back: then it is a :class:`GivenBack`).

    ``decisions``: the per-seat decisions at ``version`` when ``record`` (read before an
    append) is older than the fold; ``None`` when ``record.decisions`` is exact.
    ``tokens`` (seat -> token digest) and ``deadlines`` (seat -> raw deadline record) as
    read with the head, or ``None`` when not read."""

    record: MatchRecord
    engine: Engine
    version: int
    head_hash: str
    state: Any
    decisions: dict[int, list] | None = None
    tokens: dict[int, str] | None = None
    deadlines: dict[int, str] | None = None

    @property
    def seat_decisions(self) -> dict[int, list]:
        """``{seat: [since, kind]}`` of the pending seats at ``version``."""
        return self.record.decisions if self.decisions is None else self.decisions


def _default_engines() -> Mapping[str, Engine]:
    from domain.games import registry

    return registry()


class FreshRead(NamedTuple):
    """A head a request has just read (its seat check): the match, its version, and the
    token digests and deadlines read with it."""

    match_id: str
    version: int
    tokens: Any
    deadlines: Any


class RequestReads:
    """The reads of one request, made by the caller for that request and passed explicitly
    (:meth:`service.match_service.MatchService.for_request`): the head its seat check read
    (:meth:`MatchContext.keep_fresh`), which the request's next :meth:`MatchContext.head`
    of the same match at the same version takes from the fold cache instead of reading
    the store again (once). Never shared between requests."""

    __slots__ = ("fresh",)

    def __init__(self) -> None:
        self.fresh: FreshRead | None = None

    def take(self) -> FreshRead | None:
        """The head kept by the seat check, forgotten as it is taken (``None``: none)."""
        fresh, self.fresh = self.fresh, None
        return fresh


class Head(NamedTuple):
    """:meth:`MatchContext.head`'s answer: the match ``loaded`` at its head and the answer
    ``prior`` recorded under the idempotency field asked for (``None``: none)."""

    loaded: Loaded
    prior: Any


@dataclass(frozen=True, slots=True)
class HeadFacts:
    """What the engine says about a head state, computed once per append
    (:func:`head_facts`) and shared by the meta fields (:func:`head_fields`), the
    book-keeping after the append (:class:`service.usecases.after_append.AfterAppend`) and the
    seat's representation (:func:`service.usecases.reads.seat_representation`).

    ``result``: ``engine.result`` (``None`` while running); ``pending``: ``engine.pending``
    (seat -> decision kind); ``resigned``: ``engine.resigned``."""

    result: Any
    pending: Mapping[int, str]
    resigned: frozenset[int]


def head_facts(engine: Engine, state: Any) -> HeadFacts:
    """:class:`HeadFacts` of ``state`` (one ``result``, ``pending`` and ``resigned`` call)."""
    return HeadFacts(engine.result(state), engine.pending(state), engine.resigned(state))


def head_fields(
    engine: Engine,
    state: Any,
    envelopes: list[dict[str, Any]],
    prior_decisions: Mapping[int, list],
    actor: int | None,
    facts: HeadFacts | None = None,
) -> tuple[dict[str, str], dict[int, list]]:
    """The meta fields describing the head after ``envelopes`` were folded into ``state``:
    ``head_hash``, ``pending`` (seat -> decision kind), ``decisions`` (seat -> ``[since,
    kind]``, :func:`service.usecases.decisions.decisions_after` from ``prior_decisions`` and the
    ``actor``), ``status`` (:func:`status_of`), ``result``, ``resigned`` (seats that
    resigned) and, once it has a result, ``finished_at`` (the last envelope's ``at``); and
    the decisions themselves. ``facts``: :func:`head_facts` of ``state`` when the caller
    has them (computed here otherwise)."""
    facts = facts or head_facts(engine, state)
    result, pending = facts.result, facts.pending
    decisions = decisions_after(prior_decisions, pending, envelopes[-1]["version"], actor)
    fields = {
        "head_hash": envelopes[-1]["hash"],
        "pending": dumps({str(k): v for k, v in pending.items()}),
        "decisions": dumps({str(k): v for k, v in decisions.items()}),
        "status": status_of(result),
        "result": dumps(result),
        "resigned": dumps(sorted(facts.resigned)),
    }
    if result is not None:
        fields["finished_at"] = envelopes[-1].get("at", "")
    return fields, decisions


def status_of(result: Any) -> str:
    """A match's status from its result: ``running`` (no result), ``abandoned`` (the
    result of :mod:`domain.lifecycle`'s abandonment, ``outcome: "abandoned"``) or
    ``finished``."""
    if result is None:
        return "running"
    if isinstance(result, Mapping) and result.get("outcome") == "abandoned":
        return "abandoned"
    return "finished"


def check_seat(record: MatchRecord, seat: Any) -> int:
    """``seat`` when it is a seat number of the match; raises SeatNotFound."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(record.seats):
        raise errors.SeatNotFound(seat)
    return seat


#: finished matches whose ``(version, rated, aborted)`` a process keeps (:meth:`MatchContext.outcome`)
OUTCOMES_CACHED = 1024


class MatchContext:
    """Shared by the use cases of one :class:`~service.match_service.MatchService`.

    Args:
        stores: the Redis adapters.
        scheduler: the :class:`service.scheduler.Scheduler`, or ``None`` (nothing is enqueued).
        engines: ``game_id -> Engine``; ``None`` = ``domain.games.registry()`` loaded lazily.
        clock: the current aware UTC datetime.
        fold_cache_size: matches whose fold this process keeps (``0``: none).
        append_attempts: re-load/re-decide attempts for a command without ``expected_version``.
    """

    def __init__(
        self,
        stores: Stores,
        scheduler: Scheduler | None,
        engines: Mapping[str, Engine] | None,
        clock: Callable[[], datetime] | None,
        fold_cache_size: int,
        append_attempts: int,
    ):
        self.stores = stores
        self.scheduler = scheduler
        self._engines = engines
        self.clock = clock or (lambda: datetime.now(UTC))
        self.folds = FoldCache(fold_cache_size)
        self.bot_cache = BotCache()  # configured bots per (game, level, bot options)
        self.token_digests = TokenCache(4 * max(fold_cache_size, 1))
        self.append_attempts = append_attempts
        #: the PostgreSQL archive (:class:`service.store.archive_store.ArchiveStore`) or None
        self.archive = None
        self.logs = FinishedLogs(stores.compacted, lambda: self.archive)
        #: match id -> ``(version, rated, aborted)`` of finished matches (:meth:`outcome`)
        self._outcomes: LruMap[tuple[int, bool, bool]] = LruMap(OUTCOMES_CACHED)

    # ------------------------------------------------------------------ engines
    @property
    def engines(self) -> Mapping[str, Engine]:
        """The game registry (loaded on first use)."""
        if self._engines is None:
            self._engines = _default_engines()
        return self._engines

    def engine(self, game: str) -> Engine:
        """The engine of ``game``; raises UnknownGame."""
        engine = self.engines.get(game)
        if engine is None:
            raise errors.UnknownGame(game)
        return engine

    # ------------------------------------------------------------------ loading
    def record(self, match_id: str) -> MatchRecord:
        """The match's parsed meta hash (Redis, else the archive); raises MatchNotFound."""
        meta = self.stores.events.meta(match_id) if isinstance(match_id, str) else {}
        if not meta or "game" not in meta:
            meta = self.archived_meta(match_id)
        if not meta or "game" not in meta:
            raise errors.MatchNotFound(str(match_id))
        return MatchRecord.parse(match_id, meta)

    def archived_meta(self, match_id: Any) -> dict[str, str]:
        """The meta hash of an archived match (``{}``: no archive or not archived)."""
        if self.archive is None or not isinstance(match_id, str):
            return {}
        return self.archive.meta(match_id)

    def outcome(self, record: MatchRecord, version: int) -> tuple[bool, bool]:
        """``(rated, aborted)`` of the finished match ``record`` at its last ``version``
        (:func:`service.ratings.inputs.ended_outcome`: an aborted match is not rated), the
        one answer of the match view and the players' histories; its log is read once per
        process (a finished log no longer changes)."""
        cached = self._outcomes.get(record.match_id)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        events = self.envelopes(record.match_id, record, upto=version)
        rated, was_aborted = ended_outcome(record.match_id, events, len(record.seats), record.rated)
        self._outcomes.set(record.match_id, (version, rated, was_aborted))
        return rated, was_aborted

    def envelopes(
        self,
        match_id: str,
        record: MatchRecord,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Envelopes with ``after < version <= upto`` (``None``: to the end; at most
        ``limit``) from the stream, or from the compacted log once the match is compacted
        (also when it was compacted after ``record`` was read, even one read while the
        match was running: the stream then answers short and the record is read again)."""
        if not record.compacted:
            got = self.stores.events.read(match_id, after=after, upto=upto, limit=limit)
            end = record.version if upto is None else min(upto, record.version)
            want = max(0, end - after) if limit is None else min(limit, max(0, end - after))
            if len(got) >= want:
                return got
            # short: the match ended and was compacted since ``record`` was read (a running
            # match's stream never loses events; an SSE stream met this on gunicorn)
            record = self.record(match_id)
            if not record.compacted:
                return got
        return self.logs.envelopes(match_id, after, upto, limit)

    def claimed(self, match_id: str, record: MatchRecord) -> set[int]:
        """Seats holding a token (from the archive for an archived match)."""
        if record.archived and self.archive is not None:
            return set(self.archive.digests(match_id))
        return self.stores.seats.claimed(match_id)

    def load(
        self, match_id: str, upto: int | None = None, record: MatchRecord | None = None
    ) -> Loaded:
        """Fold the match to ``upto`` (default: head) from the latest usable snapshot."""
        record = record or self.record(match_id)
        engine = self.engine(record.game)
        version = record.version if upto is None else upto
        state, start = None, 0
        snap = self.stores.snapshots.load(match_id, record.game, engine.schema_version, version)
        if snap is not None:
            start, dumped = snap
            state = engine.load_state(dumped)
        tail = self.envelopes(match_id, record, after=start, upto=version)
        for env in tail:
            state = fold_envelope(engine, state, env)
        if start + len(tail) != version:
            raise RuntimeError(f"stream of {match_id} is missing events before {version}")
        if tail:
            head = tail[-1]["hash"]
        elif version == record.version:
            head = record.head_hash
        elif version == 0:
            head = genesis_hash(match_id)
        else:
            head = self.envelopes(match_id, record, version - 1, version)[0]["hash"]
        return Loaded(record, engine, version, head, state)

    def head(
        self, match_id: str, idem_field: str | None = None, *, reads: RequestReads | None = None
    ) -> Head:
        """A :class:`Head`: the match folded to its head, through the fold cache, and the answer recorded
        under ``idem_field`` (``None`` when there is none or no field is given).

        One script call (:meth:`EventStore.head`) reads the meta hash, the stream tail
        after the cached version (or, without a cached fold, the latest snapshot and the
        tail after it), the idempotency record, the token digests (into the token cache)
        and the deadlines; see :meth:`from_read`. The returned state is owned by the
        caller; :meth:`keep` gives it back once it is known to be exact. ``reads``: the
        request's :class:`RequestReads`; a head its seat check just read (same match, same
        version, no idempotency field) comes from the fold cache without a store read.
        Raises MatchNotFound.
        """
        if not isinstance(match_id, str):
            raise errors.MatchNotFound(str(match_id))
        entry = self.folds.take(match_id)
        fresh = reads.take() if reads is not None else None
        if (
            fresh is not None
            and idem_field is None
            and entry is not None
            and entry.record is not None
            and (fresh.match_id, fresh.version) == (match_id, entry.version)
        ):
            # this request read exactly this head a moment ago (the seat check)
            return Head(
                Loaded(
                    entry.record,
                    self.engine(entry.game),
                    entry.version,
                    entry.head_hash,
                    entry.state,
                    entry.decisions,
                    tokens=fresh.tokens,
                    deadlines=fresh.deadlines,
                ),
                None,
            )
        read = self.stores.events.head(
            match_id, None if entry is None else entry.version, idem_field
        )
        return Head(self.from_read(match_id, read, entry), read.prior)

    def from_read(self, match_id: str, read: HeadRead, entry: CachedFold | None = None) -> Loaded:
        """The fold at the head :class:`HeadRead` ``read`` describes: ``entry`` (a cached
        fold taken from the cache; for a match compacted since, the events after its
        version come from the compacted log) plus the tail when the tail starts at its version and
        links to its ``head_hash``; else the read's snapshot (when usable) plus its tail.
        Falls back to :meth:`load` (more round trips) only when neither fits (a stream
        rewritten under the cache, a snapshot of another schema version). Raises
        MatchNotFound."""
        meta, tail = read.meta, read.tail
        if not meta or "game" not in meta:
            meta, tail = self.archived_meta(match_id), []
        if not meta or "game" not in meta:
            raise errors.MatchNotFound(match_id)
        record = MatchRecord.parse(match_id, meta)
        engine = self.engine(record.game)
        if read.tokens:
            self.token_digests.set(match_id, read.tokens)
        extra: dict[str, Any] = {"tokens": read.tokens, "deadlines": read.deadlines}
        if entry is not None and entry.game == record.game and read.start == entry.version:
            if not tail and record.compacted and entry.version < record.version:
                # compacted since the fold was cached (the stream is gone): the events
                # after it from the compacted log, not a fold of the whole log
                tail = self.logs.envelopes(match_id, entry.version)
            head = tail[-1]["hash"] if tail else entry.head_hash
            linked = tail[0].get("prev_hash") == entry.head_hash if tail else True
            if linked and head == record.head_hash and entry.version + len(tail) == record.version:
                state = entry.state
                for env in tail:
                    state = fold_envelope(engine, state, env)
                return Loaded(record, engine, record.version, head, state, **extra)
        elif entry is None or read.start != entry.version:
            state = None
            snap = self.stores.snapshots.usable(
                read.snapshot, record.game, engine.schema_version, record.version
            )
            usable = snap is not None and snap[0] == read.start
            if usable or read.start == 0:
                if usable and snap is not None:
                    state = engine.load_state(snap[1])
                for env in tail:
                    state = fold_envelope(engine, state, env)
                if read.start + len(tail) == record.version:
                    head = (
                        tail[-1]["hash"]
                        if tail
                        else (record.head_hash if record.version else genesis_hash(match_id))
                    )
                    return Loaded(record, engine, record.version, head, state, **extra)
        loaded = self.load(match_id, record=record)
        loaded.tokens, loaded.deadlines = read.tokens, read.deadlines
        return loaded

    def keep_fresh(self, loaded: Loaded, reads: RequestReads) -> None:
        """:meth:`keep`, and note in the request's ``reads`` that it has just read this
        head: the request's next :meth:`head` of the match (without an idempotency field,
        given the same ``reads``) takes the cached fold without reading the store again,
        when it is still at that version."""
        reads.fresh = FreshRead(
            loaded.record.match_id, loaded.version, loaded.tokens, loaded.deadlines
        )
        self.keep(loaded)

    def keep(self, loaded: Loaded) -> None:
        """Give ``loaded.state`` (exactly the fold at ``loaded.version``) to the fold cache,
        after the caller's last read of it: from here ``loaded.state`` is a
        :class:`GivenBack`, whose every read raises :class:`FoldGivenBack` (another request
        may take the fold from the cache and fold newer events into it in place). Keeping a
        ``Loaded`` twice raises :class:`FoldGivenBack` too, and puts nothing."""
        if isinstance(loaded.state, GivenBack):
            loaded.state._raise()
        self.folds.put(
            loaded.record.match_id,
            CachedFold(
                loaded.version,
                loaded.head_hash,
                loaded.record.game,
                loaded.state,
                loaded.record,
                loaded.seat_decisions,
            ),
        )
        loaded.state = GivenBack(f"{loaded.record.match_id}@{loaded.version}")

    def checked_seat(self, loaded: Loaded, seat: Any) -> int:
        """:func:`check_seat` for a held fold: it goes back to the cache before raising."""
        try:
            return check_seat(loaded.record, seat)
        except errors.SeatNotFound:
            self.keep(loaded)
            raise
