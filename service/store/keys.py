"""Every Redis key, RQ queue name and RQ job id the service uses (the ONLY place spelling them).

Per-match keys carry the hash tag ``{match_id}`` so one match lives in one Redis Cluster
slot and the append script may touch all of them (docs/CONTRACTS.md, "Redis keys").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    """Key names under ``prefix`` (``ARENA_KEY_PREFIX``)."""

    prefix: str = "arena"

    # -- per match (hash-tagged) -------------------------------------------------------
    def events(self, match_id: str) -> str:
        """Stream of event envelopes; entry id ``0-<version>``, field ``e``."""
        return f"{self.prefix}:{{{match_id}}}:events"

    def meta(self, match_id: str) -> str:
        """Hash: version, head_hash, game, status, seats, options, seed, pending, ..."""
        return f"{self.prefix}:{{{match_id}}}:meta"

    def snap(self, match_id: str) -> str:
        """Hash: the latest snapshot (version, schema_version, state)."""
        return f"{self.prefix}:{{{match_id}}}:snap"

    def idem(self, match_id: str) -> str:
        """Hash: ``<seat>:<idempotency key>`` -> JSON of the first answer."""
        return f"{self.prefix}:{{{match_id}}}:idem"

    def tokens(self, match_id: str) -> str:
        """Hash: seat -> SHA-256 hex of the seat token."""
        return f"{self.prefix}:{{{match_id}}}:tokens"

    def deadlines(self, match_id: str) -> str:
        """Hash: seat -> JSON ``{"version", "deadline", "job_id"}`` of its turn timeout."""
        return f"{self.prefix}:{{{match_id}}}:deadlines"

    def log(self, match_id: str) -> str:
        """String: the compacted log of a finished match (xz-compressed JSON of its
        verified export, :mod:`service.upkeep.compaction`); replaces ``events`` and ``snap``."""
        return f"{self.prefix}:{{{match_id}}}:log"

    def match_keys(self, match_id: str) -> list[str]:
        """All per-match keys (for deletion in tests and tooling)."""
        return [
            self.events(match_id),
            self.meta(match_id),
            self.snap(match_id),
            self.idem(match_id),
            self.tokens(match_id),
            self.deadlines(match_id),
            self.log(match_id),
        ]

    # -- global, sharded (each shard under its own hash tag, service.store.slots) -------------
    def shard_tag(self, shard: int) -> str:
        """``{<prefix>-ix-<shard>}``: the hash tag of index shard ``shard``; a slot-aligned
        match id (:meth:`service.store.slots.ShardMap.new_id`) is in the same cluster slot."""
        return f"{{{self.prefix}-ix-{shard}}}"

    def matches(self, shard: int | None = None) -> str:
        """Sorted set of one shard: match ids scored by creation time (Unix seconds).
        ``shard`` None: the single key of deployments before sharding (read, then drained)."""
        return self._global("matches", shard)

    def running(self, shard: int | None = None) -> str:
        """Set of one shard: ids of matches without a result (what a full reconcile pass
        scans). ``shard`` None: the pre-sharding key."""
        return self._global("running", shard)

    def awaiting(self, shard: int | None = None) -> str:
        """Set of one shard: running match ids whose pending decision needs a worker (a
        bot seat, or a seat of a timed match): what each reconcile pass scans. A hint kept
        after every append; a periodic full reconcile pass over :meth:`running` repairs
        it. ``shard`` None: the pre-sharding key."""
        return self._global("awaiting", shard)

    def metrics(self, shard: int | None = None) -> str:
        """Hash of one shard of the Prometheus counters shared by all processes (the
        rendered value of a counter is the sum over the shards). ``shard`` None: the
        pre-sharding key."""
        return self._global("metrics", shard)

    def _global(self, name: str, shard: int | None) -> str:
        if shard is None:
            return f"{self.prefix}:{name}"
        return f"{self.prefix}:{self.shard_tag(shard)}:{name}"

    def end_jobs(self, shard: int) -> str:
        """Sorted set of one index shard: finished matches with a player whose end-of-match
        job (counters, ratings: issue 22) has not completed, scored by their end (Unix
        seconds); written by the append that ends the match, emptied by the job,
        re-enqueued from by reconcile (:class:`service.store.end_jobs.EndJobs`)."""
        return self._global("end-jobs", shard)

    def compact_pending(self) -> str:
        """Set of finished match ids not compacted yet (added with the final append,
        removed by the compaction; full reconcile passes retry what is left)."""
        return f"{self.prefix}:compact-pending"

    def compacted(self) -> str:
        """Sorted set: compacted match ids still in Redis, scored by their end (Unix
        seconds): what the archive mover scans (:mod:`service.upkeep.archive`)."""
        return f"{self.prefix}:compacted"

    def lobby(self, shard: int, bucket: str, game: str | None = None) -> str:
        """Sorted set of one lobby index shard: listed match ids scored by creation time
        (Unix seconds). ``bucket``: ``all``, ``open`` (running with an open seat),
        ``running`` (running, every seat taken) or ``finished`` (finished or abandoned);
        ``game`` narrows it to one game. Each shard has its own hash tag
        ``{<prefix>-ix-<shard>}``, the slot of the matches filed in it (:mod:`service.store.slots`):
        on a Redis Cluster the shards spread over the nodes and a listing fans out over
        them (docs/CONTRACTS.md "Redis keys")."""
        tail = bucket if game is None else f"{bucket}:{game}"
        return f"{self.prefix}:{self.shard_tag(shard)}:lobby:{tail}"

    # -- idempotency of creations (service.usecases.idempotency) ---------------------------------
    def idem_new_match(self, digest: str) -> str:
        """String with a TTL: the pointer ``{match_id, salt, fingerprint}`` of a keyed create
        or fork (``digest``: SHA-256 hex of the scope and the Idempotency-Key; its own hash
        tag, one key per slot)."""
        return f"{self.prefix}:idem-new:{{{digest}}}"

    # -- abuse limits --------------------------------------------------------------------
    def bot_matches(self, client: str) -> str:
        """Set of the running bot match ids created for one client (``client``: the API's
        client key, e.g. ``addr:203.0.113.7``), counted against
        ``ARENA_MAX_BOT_MATCHES_PER_CLIENT`` (:mod:`service.store.quotas`). One key per client."""
        return f"{self.prefix}:botmatches:{client}"

    def reserving(self, slot: str) -> str:
        """String key ``1`` while an id reserved in a client's capped set (a bot match's
        ``match_id``, or ``an-<analysis id>``) has no record yet
        (:class:`service.store.quotas.ClientSets`): hash-tagged ``slot``, the slot of the
        record it announces; expires :data:`service.store.quotas.IN_FLIGHT_S` after it is
        set, and is deleted once the record is written or the reservation given back."""
        return f"{self.prefix}:{{{slot}}}:reserving"

    def client_analyses(self, client: str) -> str:
        """Set of the ids of the analyses one client (the API's client key) had queued
        that may still be queued or running, counted against
        ``ARENA_MAX_ANALYSES_PER_CLIENT`` (:mod:`service.store.analysis_store`). One key
        per client, expiring :data:`service.store.analysis_store.CLIENT_SET_TTL_S` after
        its last addition."""
        return f"{self.prefix}:analysing:{client}"

    def rate_limits(self) -> str:
        """Prefix of the rate-limit counters the ``limits`` library writes (its storage's
        ``key_prefix``: keys ``<this>:LIMITER/<client>/<scope>/...``, each with a TTL of
        its window; :mod:`api.limits`)."""
        return f"{self.prefix}:limits"

    # -- match analyses (issue 23; each under its own hash tag) -------------------------
    def analysis(self, analysis_id: str) -> str:
        """Hash of one analysis (:mod:`service.store.analysis_store`): ``status``,
        ``progress``, ``source``, ``match_id``, ``game``, ``budget``, ``result`` (JSON),
        ``error``; expires ``ANALYSIS_TTL_S`` after its last write."""
        return f"{self.prefix}:{{an-{analysis_id}}}:analysis"

    def analyses(self) -> str:
        """Sorted set: the analyses not yet done or failed (member: analysis id, score: its
        creation time in Unix seconds), which reconcile looks after
        (:meth:`service.usecases.analysis.Analyses.revive`)."""
        return f"{self.prefix}:analyses"

    def analysis_log(self, analysis_id: str) -> str:
        """String: the uploaded export an analysis reads (JSON; deleted once analysed)."""
        return f"{self.prefix}:{{an-{analysis_id}}}:log"

    def analysis_job_id(
        self, analysis_id: str, start: int = 0, run: str = "", part: int = 0
    ) -> str:
        """RQ job id of the slice of the analysis ``analysis_id`` from turn ``start`` in its
        ``run`` (a token per creation of the record, so an analysis started again is not
        taken for its lost or failed job; duplicates within a run collapse); ``part`` > 0:
        the slice that goes on with the decision at ``start`` for the ``part``-th time
        (``-p<part>`` appended)."""
        job_id = f"{self.prefix}-analysis-{analysis_id}-{run}-{start}"
        return f"{job_id}-p{part}" if part else job_id

    # -- RQ ----------------------------------------------------------------------------
    def worker_lease(self, worker_name: str) -> str:
        """String on the queue Redis with a TTL of ``ARENA_WORKER_LEASE_S``: the worker
        named ``worker_name`` (RQ's name, unique per process) is alive
        (:class:`workers.rq_runtime.WorkerLease`)."""
        return f"{self.prefix}:worker-lease:{worker_name}"

    def pass_turn(self, kind: str) -> str:
        """String on the queue Redis with a TTL: some worker ran a reconcile pass of
        ``kind`` (``"pass"``: any pass, TTL ``ARENA_RECONCILE_S``; ``"full"``: a full pass,
        TTL ``ARENA_RECONCILE_FULL_S``) that recently, so the others skip theirs
        (:class:`workers.rq_runtime.PassTurn`)."""
        return f"{self.prefix}:reconcile-turn:{kind}"

    def bot_job_id(self, match_id: str, version: int, seat: int) -> str:
        """RQ job id of the bot turn for ``seat`` at ``version`` (duplicates collapse)."""
        return f"{self.prefix}-bot-{match_id}-{version}-{seat}"

    def timeout_job_id(self, match_id: str, seat: int, version: int) -> str:
        """RQ job id of ``seat``'s turn timeout whose decision started at ``version``."""
        return f"{self.prefix}-timeout-{match_id}-{seat}-{version}"

    def match_of_job(self, job_id: str) -> str | None:
        """The match id inside a :meth:`bot_job_id` or :meth:`timeout_job_id`; ``None``
        for any other id (another prefix's job, a malformed id). Match ids may hold ``-``:
        the two trailing numbers are split off from the right."""
        for kind in ("bot", "timeout"):
            head = f"{self.prefix}-{kind}-"
            if job_id.startswith(head):
                parts = job_id[len(head) :].rsplit("-", 2)
                if len(parts) == 3 and parts[0] and parts[1].isdigit() and parts[2].isdigit():
                    return parts[0]
        return None

    # -- fields -------------------------------------------------------------------------
    @staticmethod
    def name_field(seat: int) -> str:
        """Field of the ``meta`` hash holding the name given when ``seat`` was joined."""
        return f"name:{seat}"

    @staticmethod
    def player_field(seat: int) -> str:
        """Field of the ``meta`` hash holding the id of the player who joined ``seat``."""
        return f"player:{seat}"

    # -- idempotency record fields (inside the ``idem`` hash) ----------------------------
    @staticmethod
    def idem_field(seat: int, key: str) -> str:
        """Field of a client ``Idempotency-Key`` for ``seat``: ``<seat>:<key>`` (the records
        of keyed joins, rematches and creations start with a letter instead:
        :mod:`service.usecases.idempotency`)."""
        return f"{seat}:{key}"

    @staticmethod
    def timeout_idem_field(seat: int, version: int) -> str:
        """Field of the service's own turn-timeout decision (clients cannot forge ``#``
        because their fields always have ``:`` right after the seat number)."""
        return f"{seat}#timeout:{version}"

    # -- players and ratings (issue 22) -------------------------------------------------
    def player(self, player_id: str) -> str:
        """Hash of one player (own hash tag ``{pl-<id>}``): ``id``, ``name``,
        ``key_digest`` (SHA-256 hex of the current player key), ``created_at``, and the
        counters ``played:<game>:<mode>`` / ``won:<game>:<mode>``."""
        return f"{self.prefix}:{{pl-{player_id}}}:player"

    def player_matches(self, player_id: str) -> str:
        """Sorted set of one player (same slot as :meth:`player`): the ids of the matches
        the player holds a seat in, scored by creation time (Unix seconds)."""
        return f"{self.prefix}:{{pl-{player_id}}}:matches"

    def player_counted(self, player_id: str) -> str:
        """Set of one player (same slot as :meth:`player`): finished match ids already
        counted in the player's ``played``/``won`` counters (each exactly once)."""
        return f"{self.prefix}:{{pl-{player_id}}}:counted"

    def player_names(self) -> str:
        """Hash: folded name (:func:`service.usecases.player_names.fold`) -> player id; the
        uniqueness of names (``HSETNX``). One key."""
        return f"{self.prefix}:player-names"

    def ratings_tag(self) -> str:
        """``{<prefix>-ratings}``: the hash tag of every ratings key, so the projection's
        update (its checkpoint with every rating it changes) is one atomic script on one
        cluster slot."""
        return f"{{{self.prefix}-ratings}}"

    def ratings(self, name: str) -> str:
        """A key of the ratings projection (:mod:`service.store.rating_store`):
        ``checkpoint`` (string), ``ended`` (sorted set), ``inputs`` (hash), ``table:<board>``
        (hash), ``board:<board>`` (sorted set), ``history:<participant>`` (list),
        ``written`` (set of the table, board and history keys)."""
        return f"{self.prefix}:{self.ratings_tag()}:{name}"

    def rating_job_id(self, match_id: str) -> str:
        """RQ job id of the end-of-match job of ``match_id`` (player counters, ratings)."""
        return f"{self.prefix}-ended-{match_id}"
