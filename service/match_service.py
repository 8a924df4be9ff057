"""MatchService: the thin facade over the service's use-case modules.

Game-agnostic: every game is an ``Engine`` (``domain/engine.py``) from an injectable
registry. Method names, arguments and return shapes are the ones in docs/CONTRACTS.md; each
method delegates to the module that holds its use case:

==========================================  =====================================
``create_match``, ``fork``, ``join``,       :mod:`service.usecases.create_join`
``authenticate``
``act``                                     :mod:`service.usecases.act`
``games``, ``cards``, ``match_view``,       :mod:`service.usecases.reads`
``legal_actions``, ``check_running``,
``events``,
``state_at``, ``export``, ``verify``
``run_bot_turn``, ``run_turn_timeout``      :mod:`service.usecases.turns`
``reconcile``, ``reclaim``                  :mod:`service.upkeep.reconcile` (storage upkeep:
                                            :mod:`service.upkeep.housekeeping`)
``compact``, ``archive_due``                :mod:`service.upkeep.compaction`, :mod:`service.upkeep.archive`
``list_matches``                            :mod:`service.usecases.lobby`
``resign``, ``abandon``, ``rematch``        :mod:`service.usecases.lifecycle`
``create_player``, ``rotate_player_key``,   :mod:`service.usecases.players`
``player_profile``, ``player_matches``
``match_ended``, ``leaderboard``,           :mod:`service.usecases.ratings`
``ratings_rebuild``, ``ratings_replay``
``health``, ``metrics``,                    :mod:`service.usecases.ops`
``metrics_collect``, ``observe_job``
==========================================  =====================================

Shared by all of them: :mod:`service.usecases.context` (loading a match, the fold cache) and
:mod:`service.usecases.after_append` (counters, snapshot, indexes, turn jobs after every append),
over the Redis adapters of :mod:`service.store.stores`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.engine import Engine
from service import errors
from service.log.codec import LOG_FORMATS
from service.log.match_record import MatchRecord
from service.scheduler import Scheduler
from service.store.keys import Keys
from service.store.player_store import PlayerStore
from service.store.quotas import BotCaps, BotQuotas
from service.store.rating_store import RatingStore
from service.store.stores import Stores
from service.upkeep.archive import Archiver
from service.upkeep.compaction import Compactor
from service.upkeep.housekeeping import Housekeeping
from service.upkeep.reconcile import Reconciler
from service.usecases.act import Act
from service.usecases.after_append import AfterAppend
from service.usecases.analysis import Analyses
from service.usecases.context import Loaded, MatchContext, RequestReads
from service.usecases.create_join import MAX_TURN_TIMEOUT_S, SEAT_KINDS, CreateJoin
from service.usecases.idempotency import IdempotencyStore
from service.usecases.lifecycle import Lifecycle
from service.usecases.lobby import Lobby
from service.usecases.ops import Ops
from service.usecases.players import Players, is_player_key
from service.usecases.ratings import Ratings, replay
from service.usecases.reads import Reads
from service.usecases.turns import Turns

if TYPE_CHECKING:
    from service.config import Config

__all__ = [
    "MatchService",
    "Loaded",
    "SEAT_KINDS",
    "MAX_TURN_TIMEOUT_S",
    "LOG_FORMATS",
    "is_player_key",
]


class MatchService:
    """Use cases of the arena over the Redis adapters and a :class:`service.scheduler.Scheduler`
    (the RQ one: :class:`workers.scheduling.TurnScheduler`).

    Args:
        redis: event-store client (``decode_responses=True``).
        keys: key names.
        scheduler: the :class:`service.scheduler.Scheduler` (RQ:
            :class:`workers.scheduling.TurnScheduler`), or ``None`` to run without workers
            (nothing is enqueued).
        engines: ``game_id -> Engine``; ``None`` = ``domain.games.registry()`` loaded lazily.
        snapshot_every: N of "snapshot every N events".
        append_attempts: re-load/re-decide attempts for a command without ``expected_version``.
        blocking_reads: use ``XREAD BLOCK`` for long-polls (False on fakeredis: poll loop).
        clock: returns the current aware UTC datetime (tests may inject one).
        fold_cache_size: matches whose folded state this process keeps between requests
            (:class:`service.store.fold_cache.FoldCache`; ``0`` disables it). Only a cache: every
            answer is the same without it.
        reconcile_full_s: seconds between two full :meth:`reconcile` passes (every running
            match); the passes between scan only the ``awaiting`` index.
        index_shards: shards of the global indexes and counters (``ARENA_INDEX_SHARDS``).
        wait_replicas / wait_ms: replicas each append waits for (``WAIT``, pipelined with
        the append script; ``ARENA_REDIS_WAIT_REPLICAS`` / ``ARENA_REDIS_WAIT_MS``).
        abandon_after_s: a running match with no human action for this long ends
            ``abandoned`` at the next full reconcile pass (``ARENA_ABANDON_AFTER_S``).
        bot_caps: the server's caps on bot options and running bot matches per client
            (:mod:`service.store.quotas`; default none), applied to calls that name a ``client``.
        analyses_per_client: analyses one client may have queued or running
            (``ARENA_MAX_ANALYSES_PER_CLIENT``; ``0``, the default here: no cap), applied to
            analysis requests that name a ``client`` (:mod:`service.usecases.analysis`).
        compaction: compact finished matches (:mod:`service.upkeep.compaction`, ``ARENA_COMPACTION``).
        idempotency_ttl_s: idempotency records expire this long after the match ended
            (``ARENA_IDEMPOTENCY_TTL_S``); a keyed create's or fork's pointer this long
            after the request (:mod:`service.usecases.idempotency`).
        archive: the PostgreSQL archive (:class:`service.store.archive_store.ArchiveStore`) or
            ``None`` (nothing leaves Redis); ``archive_after_s`` / ``archive_batch``: the
            mover's age and batch (:mod:`service.upkeep.archive`).
        finished_index_max: without an archive, full reconcile passes keep about this many
            of the newest finished matches in the lobby index and ``P:compacted``
            (``ARENA_FINISHED_INDEX_MAX``; ``0``, the default here: no bound;
            :mod:`service.upkeep.housekeeping`).

    Attributes kept for operators and tests: ``redis``, ``keys``, ``scheduler``, ``stores``
    and its adapters ``store`` (events), ``snapshots``, ``counters`` (metrics); the
    per-process caches ``folds``, ``bot_cache``, ``token_digests``; ``ctx`` (the shared
    :class:`service.usecases.context.MatchContext`).
    """

    #: the settings it was built from (:func:`service.bootstrap.build_service`), else None
    config: Config | None = None

    def __init__(
        self,
        redis,
        keys: Keys,
        scheduler: Scheduler | None = None,
        engines: Mapping[str, Engine] | None = None,
        *,
        snapshot_every: int = 50,
        append_attempts: int = 5,
        blocking_reads: bool = True,
        clock: Callable[[], datetime] | None = None,
        fold_cache_size: int = 1024,
        reconcile_full_s: float = 60.0,
        index_shards: int = 16,
        abandon_after_s: float = 86400.0,
        bot_caps: BotCaps | None = None,
        compaction: bool = True,
        idempotency_ttl_s: float = 3600.0,
        archive=None,
        archive_after_s: float = 604800.0,
        archive_batch: int = 100,
        wait_replicas: int = 0,
        wait_ms: int = 100,
        finished_index_max: int = 0,
        analyses_per_client: int = 0,
    ):
        self.redis = redis
        self.keys = keys
        self.scheduler = scheduler
        self.stores = Stores.build(
            redis,
            keys,
            snapshot_every=snapshot_every,
            blocking_reads=blocking_reads,
            index_shards=index_shards,
            wait_replicas=wait_replicas,
            wait_ms=wait_ms,
        )
        self.ctx = MatchContext(
            self.stores, scheduler, engines, clock, fold_cache_size, append_attempts
        )
        self.ctx.archive = archive
        self.compactor = Compactor(
            self.ctx, self.stores.compacted, enabled=compaction, idem_ttl_s=idempotency_ttl_s
        )
        self.archiver = (
            None
            if archive is None
            else Archiver(self.ctx, archive, after_s=archive_after_s, batch=archive_batch)
        )
        after_append = AfterAppend(self.ctx, self.compactor)
        self.quotas = BotQuotas(self.stores.bot_matches, bot_caps)
        self._create_join = CreateJoin(
            self.ctx, after_append, self.quotas, IdempotencyStore(redis, keys, idempotency_ttl_s)
        )
        self._act = Act(self.ctx, after_append)
        self._reads = Reads(self.ctx)
        self._turns = Turns(self.ctx, self._act)
        self._lobby = Lobby(self.ctx)
        self._lifecycle = Lifecycle(self.ctx, self._act, self._create_join, abandon_after_s)
        self._reconciler = Reconciler(
            self.ctx,
            after_append,
            reconcile_full_s,
            self._lifecycle,
            Housekeeping(
                self.compactor, self.archiver, scheduler, self.stores.index, finished_index_max
            ),
        )
        self._ops = Ops(self.ctx)
        self._players = Players(self.ctx, PlayerStore(redis, keys))
        self._create_join.players = self._players
        self._ratings = Ratings(self.ctx, RatingStore(redis, keys), self._players)
        self._analyses = Analyses(
            self.ctx, self._reads, self.quotas.caps.budget, per_client=analyses_per_client
        )
        self._reconciler.analyses = self._analyses.revive
        # the adapters and caches under their historical names
        self.store = self.stores.events
        self.snapshots = self.stores.snapshots
        self.counters = self.stores.metrics
        self.folds = self.ctx.folds
        self.bot_cache = self.ctx.bot_cache
        self.token_digests = self.ctx.token_digests
        self.clock = self.ctx.clock
        self.append_attempts = append_attempts

    @property
    def engines(self) -> Mapping[str, Engine]:
        """The game registry (loaded on first use)."""
        return self.ctx.engines

    @property
    def reconcile_full_s(self) -> float:
        """Seconds between two full reconcile passes of this service."""
        return self._reconciler.full_s

    @reconcile_full_s.setter
    def reconcile_full_s(self, value: float) -> None:
        self._reconciler.full_s = value

    # ------------------------------------------------------------------ loading (tools, tests)
    def _record(self, match_id: str) -> MatchRecord:
        return self.ctx.record(match_id)

    def _load(
        self, match_id: str, upto: int | None = None, record: MatchRecord | None = None
    ) -> Loaded:
        return self.ctx.load(match_id, upto, record)

    def _deadlines(self, match_id: str) -> dict[int, dict[str, Any]]:
        return self.stores.deadlines.all(match_id)

    # ------------------------------------------------------------------ create / join
    def create_match(
        self,
        game: str,
        seats: list[dict],
        options: dict | None = None,
        turn_timeout_s: float | None = None,
        *,
        unlisted: bool = False,
        spectators: bool = True,
        client: str | None = None,
        idempotency_key: str | None = None,
        player_key: str | None = None,
        rated: bool = False,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.create_join.CreateJoin.create_match`; ``player_key``
        (a bearer player key) binds the first human seat to its player (that seat's name
        defaults to the player's). Raises InvalidPlayerKey."""
        player_id = None
        if player_key is not None:
            player_id = self._players.authenticate(player_key)
            seats = _named(seats, self._players.name_of(player_id))
        return self._create_join.create_match(
            game,
            seats,
            options,
            turn_timeout_s,
            unlisted=unlisted,
            spectators=spectators,
            client=client,
            idempotency_key=idempotency_key,
            player_id=player_id,
            rated=rated,
        )

    def fork(
        self,
        match_id: str,
        version: int,
        seats: list[dict] | None = None,
        client: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.create_join.CreateJoin.fork`."""
        return self._create_join.fork(match_id, version, seats, client, idempotency_key)

    def join(
        self,
        match_id: str,
        seat: int,
        name: str | None = None,
        idempotency_key: str | None = None,
        player_key: str | None = None,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.create_join.CreateJoin.join`; ``player_key`` binds
        the seat to its player (the name defaults to the player's). Raises
        InvalidPlayerKey."""
        player_id = None
        if player_key is not None:
            player_id = self._players.authenticate(player_key)
            name = name or self._players.name_of(player_id)
        return self._create_join.join(match_id, seat, name, idempotency_key, player_id)

    def authenticate(self, match_id: str, token: str, *, reads: RequestReads | None = None) -> int:
        """See :meth:`service.usecases.create_join.CreateJoin.authenticate`; a player key
        (``pk.<id>.<secret>``) answers the seat bound to its player
        (:meth:`service.usecases.players.Players.seat_for`: InvalidPlayerKey 401,
        PlayerNotSeated 403)."""
        if is_player_key(token):
            return self._players.seat_for(self.ctx.record(match_id), token)
        return self._create_join.authenticate(match_id, token, reads=reads)

    # ------------------------------------------------------------------ players, ratings
    def create_player(self, name: Any) -> dict[str, Any]:
        """See :meth:`service.usecases.players.Players.create`."""
        return self._players.create(name)

    def rotate_player_key(self, player_id: str, player_key: str) -> dict[str, Any]:
        """See :meth:`service.usecases.players.Players.rotate`."""
        return self._players.rotate(player_id, player_key)

    def player_of_key(self, player_key: str) -> str:
        """The player id of a current player key (InvalidPlayerKey otherwise)."""
        return self._players.authenticate(player_key)

    def player_profile(self, player_id: str) -> dict[str, Any]:
        """See :meth:`service.usecases.players.Players.profile` (with the player's ratings
        and rating curves, :meth:`service.usecases.ratings.Ratings.ratings_of`)."""
        return self._players.profile(player_id, self._ratings.ratings_of)

    def player_matches(self, player_id: str, **filters: Any) -> dict[str, Any]:
        """See :meth:`service.usecases.players.Players.matches` (a finished match is
        rated when the ratings filed it: :meth:`service.usecases.ratings.Ratings.filed`)."""
        return self._players.matches(player_id, filed=self._ratings.filed, **filters)

    def match_ended(self, match_id: str) -> dict[str, Any]:
        """The end-of-match job: see :meth:`service.usecases.ratings.Ratings.on_match_ended`."""
        return self._ratings.on_match_ended(match_id)

    def leaderboard(
        self, game: str, mode: str | None = None, offset: int = 0, limit: int = 50
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.ratings.Ratings.leaderboard` (player entries carry
        their ``name``, read in the same round trip)."""
        return self._ratings.leaderboard(game, mode, offset, limit)

    def ratings_rebuild(self, write: bool = False) -> dict[str, Any]:
        """See :meth:`service.usecases.ratings.Ratings.rebuild` over every match in Redis
        (and the archive's, when configured)."""
        ids = set(self.stores.index.all_ids()) | set(self.stores.compacted.ids())
        if self.ctx.archive is not None and hasattr(self.ctx.archive, "match_ids"):
            ids |= set(self.ctx.archive.match_ids())
        return self._ratings.rebuild(ids, write)

    @staticmethod
    def ratings_replay(docs: list[Mapping[str, Any]]) -> dict[str, Any]:
        """See :func:`service.usecases.ratings.replay` (no storage)."""
        return replay(docs)

    # ------------------------------------------------------------------ act
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
        """See :meth:`service.usecases.act.Act.act`."""
        return self._act.act(
            match_id,
            seat,
            command,
            idempotency_key,
            expected_version,
            cause=cause,
            idem_field=idem_field,
            decision_id=decision_id,
            represent=represent,
            reads=reads,
        )

    # ------------------------------------------------------------------ reads
    def games(self) -> list[dict[str, Any]]:
        """See :meth:`service.usecases.reads.Reads.games`."""
        return self._reads.games()

    def cards(self, game: str) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.cards`."""
        return self._reads.cards(game)

    def for_request(self, reads: RequestReads | None = None) -> RequestService:
        """This service as one request sees it: its seat check and its next read of the
        match share ``reads`` (default: new :class:`RequestReads`), passed explicitly."""
        return RequestService(self, reads if reads is not None else RequestReads())

    def cached_game(self, match_id: str) -> str | None:
        """The game of ``match_id`` when this process holds its fold (no store access),
        else ``None``."""
        return self.ctx.folds.game_of(match_id)

    def match_view(
        self, match_id: str, viewer: int | None, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.match_view`."""
        return self._reads.match_view(match_id, viewer, reads=reads)

    def legal_actions(
        self, match_id: str, seat: int, wait_s: float = 0, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.legal_actions`."""
        return self._reads.legal_actions(match_id, seat, wait_s, reads=reads)

    def representation(
        self, match_id: str, seat: int, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.representation`."""
        return self._reads.representation(match_id, seat, reads=reads)

    def representation_when_pending(
        self, match_id: str, seat: int, after: int, wait_s: float
    ) -> dict[str, Any] | None:
        """See :meth:`service.usecases.reads.Reads.representation_when_pending`."""
        return self._reads.representation_when_pending(match_id, seat, after, wait_s)

    def check_running(self, match_id: str) -> None:
        """See :meth:`service.usecases.reads.Reads.check_running`."""
        self._reads.check_running(match_id)

    def check_refused_command(
        self, match_id: str, seat: int, idempotency_key: str | None = None
    ) -> None:
        """What the API asks before answering a command its schema refused (400
        ``validation_error``, 422 ``unknown_action``), in :meth:`act`'s order: a finished
        match raises MatchFinished (:meth:`check_running`); an ``idempotency_key`` (1-255
        characters) that ``seat`` already used on this match raises IdempotencyKeyReused (a
        refused body is never the command the key recorded), as a reused key with another
        valid command does. One or two reads."""
        self._reads.check_running(match_id)
        if isinstance(idempotency_key, str) and 1 <= len(idempotency_key) <= 255:
            field = self.keys.idem_field(seat, idempotency_key)
            if self._create_join.idem.recorded(match_id, field) is not None:
                self.stores.metrics.rejected("idempotency_key_reused")
                raise errors.IdempotencyKeyReused()

    def check_refused_claim(
        self, idempotency_key: str | None, match_id: str | None = None, seat: int | None = None
    ) -> None:
        """What the API asks before answering a create (``match_id`` None) or a join of
        ``seat`` whose body it refused (400/422): an ``idempotency_key`` already used there
        raises IdempotencyKeyReused (``what="body"``: a refused body is never the body the
        key recorded), as for :meth:`check_refused_command` - the key is judged before the
        body. One read; none without a key (``None``) or with one of the wrong length
        (never recorded)."""
        if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 255:
            return
        idem = self._create_join.idem
        if match_id is None:
            used = idem.new_match_used(("create",), idempotency_key)
        else:
            used = seat is not None and idem.seat_used(
                match_id, ("join", match_id, seat), seat, idempotency_key
            )
        if used:
            self.stores.metrics.rejected("idempotency_key_reused")
            raise errors.IdempotencyKeyReused(what="body")

    def events(
        self,
        match_id: str,
        viewer: int | None,
        after: int = 0,
        wait_s: float = 0,
        limit: int = 500,
        views: bool = False,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.events`."""
        return self._reads.events(match_id, viewer, after, wait_s, limit, views)

    def state_at(
        self, match_id: str, viewer: int | None, version: int, seat: int | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.state_at`."""
        return self._reads.state_at(match_id, viewer, version, seat)

    def export(self, match_id: str) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.export`."""
        return self._reads.export(match_id)

    def verify(self, log_doc: dict) -> dict[str, Any]:
        """See :meth:`service.usecases.reads.Reads.verify`."""
        return self._reads.verify(log_doc)

    # ------------------------------------------------------------------ bot turns, timeouts
    def run_bot_turn(self, match_id: str, version: int, seat: int | None = None) -> dict[str, Any]:
        """See :meth:`service.usecases.turns.Turns.run_bot_turn`."""
        return self._turns.run_bot_turn(match_id, version, seat)

    def run_turn_timeout(self, match_id: str, seat: int, version: int) -> dict[str, Any]:
        """See :meth:`service.usecases.turns.Turns.run_turn_timeout`."""
        return self._turns.run_turn_timeout(match_id, seat, version)

    # ------------------------------------------------------------------ lobby, lifecycle
    def list_matches(
        self,
        game: str | None = None,
        status: str | None = None,
        open_seat: bool = False,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.lobby.Lobby.list_matches`."""
        return self._lobby.list_matches(game, status, open_seat, cursor, limit)

    def resign(
        self, match_id: str, seat: int, *, reads: RequestReads | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.lifecycle.Lifecycle.resign`."""
        return self._lifecycle.resign(match_id, seat, reads=reads)

    def abandon(self, match_id: str) -> bool:
        """See :meth:`service.usecases.lifecycle.Lifecycle.abandon`."""
        return self._lifecycle.abandon(match_id)

    def rematch(
        self,
        match_id: str,
        seat: int,
        client: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.lifecycle.Lifecycle.rematch`."""
        return self._lifecycle.rematch(match_id, seat, client, idempotency_key)

    # ------------------------------------------------------------------ reconcile, ops
    def reconcile(self, full: bool | None = None) -> dict[str, int]:
        """See :meth:`service.upkeep.reconcile.Reconciler.reconcile`."""
        return self._reconciler.reconcile(full)

    def reclaim(self) -> dict[str, int]:
        """See :meth:`service.upkeep.reconcile.Reconciler.reclaim`."""
        return self._reconciler.reclaim()

    def log(
        self, match_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The match's full envelopes (commands included: for operators, tools and tests;
        never sent to a viewer) with ``after < version <= upto``, from its stream or, once
        compacted, from its compacted log (:meth:`service.usecases.context.MatchContext.envelopes`).
        Raises MatchNotFound."""
        return self.ctx.envelopes(match_id, self.ctx.record(match_id), after, upto, limit)

    def compact(self, match_id: str) -> bool:
        """See :meth:`service.upkeep.compaction.Compactor.compact`."""
        return self.compactor.compact(match_id)

    def archive_due(self, count: int | None = None) -> int:
        """Move due compacted matches to the archive (:meth:`service.upkeep.archive.Archiver.move_due`);
        0 without an archive."""
        return 0 if self.archiver is None else self.archiver.move_due(count)

    def health(self) -> dict[str, Any]:
        """See :meth:`service.usecases.ops.Ops.health`."""
        return self._ops.health()

    def metrics(self) -> str:
        """See :meth:`service.usecases.ops.Ops.metrics`."""
        return self._ops.metrics()

    def metrics_collect(self):
        """See :meth:`service.usecases.ops.Ops.collect`."""
        return self._ops.collect()

    def request_analysis(
        self, match_id: str, budget: int | None = None, client: str | None = None
    ) -> tuple[dict[str, Any], bool]:
        """See :meth:`service.usecases.analysis.Analyses.request_match`."""
        return self._analyses.request_match(match_id, budget, client)

    def match_analysis(self, match_id: str, budget: int | None = None) -> dict[str, Any]:
        """See :meth:`service.usecases.analysis.Analyses.match_analysis`."""
        return self._analyses.match_analysis(match_id, budget)

    def request_log_analysis(
        self, log_doc: Any, budget: int | None = None, client: str | None = None
    ) -> tuple[dict[str, Any], bool]:
        """See :meth:`service.usecases.analysis.Analyses.request_upload`."""
        return self._analyses.request_upload(log_doc, budget, client)

    def analysis(self, analysis_id: str) -> dict[str, Any]:
        """See :meth:`service.usecases.analysis.Analyses.get`."""
        return self._analyses.get(analysis_id)

    def run_analysis(
        self, analysis_id: str, start: int = 0, part: int = 0, run: str | None = None
    ) -> dict[str, Any]:
        """See :meth:`service.usecases.analysis.Analyses.run` (the worker's job)."""
        return self._analyses.run(analysis_id, start, part, run)

    def observe_job(self, kind: str, seconds: float) -> None:
        """See :meth:`service.usecases.ops.Ops.observe_job`."""
        self._ops.observe_job(kind, seconds)


def _named(seats: Any, name: str) -> Any:
    """``seats`` with the first human seat named ``name`` unless it has a name (the seat
    the creator's player key binds)."""
    if not isinstance(seats, list):
        return seats
    out = [dict(s) if isinstance(s, dict) else s for s in seats]
    for item in out:
        if isinstance(item, dict) and item.get("kind") == "human":
            item.setdefault("name", name)
            break
    return out


class RequestService:
    """A :class:`MatchService` bound to one request's :class:`RequestReads`: the calls
    that read a match's head (:meth:`authenticate`, :meth:`match_view`,
    :meth:`legal_actions`, :meth:`representation`, :meth:`act`, :meth:`resign`) pass the
    request's reads explicitly, so the head the seat check read is reused by the same
    request only; every other attribute is the service's own. Made per request
    (:meth:`MatchService.for_request`; the API: ``api.runtime.service``)."""

    __slots__ = ("service", "reads")

    def __init__(self, service: MatchService, reads: RequestReads):
        self.service = service
        self.reads = reads

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service, name)

    def authenticate(self, match_id: str, token: str) -> int:
        """:meth:`MatchService.authenticate` keeping the head it reads for this request."""
        return self.service.authenticate(match_id, token, reads=self.reads)

    def match_view(self, match_id: str, viewer: int | None) -> dict[str, Any]:
        """:meth:`MatchService.match_view` with this request's reads."""
        return self.service.match_view(match_id, viewer, reads=self.reads)

    def legal_actions(self, match_id: str, seat: int, wait_s: float = 0) -> dict[str, Any]:
        """:meth:`MatchService.legal_actions` with this request's reads."""
        return self.service.legal_actions(match_id, seat, wait_s, reads=self.reads)

    def representation(self, match_id: str, seat: int) -> dict[str, Any]:
        """:meth:`MatchService.representation` with this request's reads."""
        return self.service.representation(match_id, seat, reads=self.reads)

    def act(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """:meth:`MatchService.act` with this request's reads."""
        return self.service.act(*args, reads=self.reads, **kwargs)

    def resign(self, match_id: str, seat: int) -> dict[str, Any]:
        """:meth:`MatchService.resign` with this request's reads."""
        return self.service.resign(match_id, seat, reads=self.reads)
