"""Service configuration read from environment variables (embedded defaults when unset).

Each variable's parser, default and accepted values are in :data:`service.settings.SERVICE`
(rendered into ``docs/configuration.md``). Variables (all optional):

- ``REDIS_URL``: event store Redis. ``redis://[:password@]host:port[/db]`` (or ``rediss://``)
  is one server; ``redis+cluster://[:password@]host:port[,host:port...]`` (or
  ``rediss+cluster://``) is a Redis Cluster reached through any of the listed nodes (the
  client discovers the others). Unset => embedded mode: one shared in-process
  ``fakeredis.FakeServer`` (see DESIGN.md "Embedded mode").
- ``ARENA_REDIS_CLUSTER``: ``1`` treats a plain ``redis://host:port`` ``REDIS_URL`` as a
  cluster seed node (for URLs a platform hands out); default: the scheme decides.
- ``ARENA_REDIS_WAIT_REPLICAS``: replicas that must have each append before it is
  answered (default 0): the append script is pipelined with ``WAIT <n> <ms>`` on the
  match's master (still one round trip), so a failover that promotes a replica loses no
  acknowledged event. ``ARENA_REDIS_WAIT_MS`` bounds the wait (default 100); an append not
  confirmed in time is still answered (Redis replication stays asynchronous) and logged.
- ``RQ_REDIS_URL``: Redis for RQ (queues, scheduler); defaults to ``REDIS_URL``. RQ does not
  support Redis Cluster: with a cluster ``REDIS_URL`` it is required and must name a
  standalone server (``redis://``).
- ``ARENA_KEY_PREFIX``: key prefix ``P`` (default ``arena``).
- ``ARENA_SNAPSHOT_EVERY``: snapshot the folded state every N events (default 50).
- ``ARENA_RECONCILE_S``: seconds between two reconcile passes in a worker (default 2.0).
- ``ARENA_RECONCILE_FULL_S``: a reconcile pass scans only the matches waiting for a worker
  (``P:awaiting``); at most this many seconds apart it scans every running match instead
  (default 60).
- ``ARENA_BOT_JOB_TIMEOUT_S``: a bot turn job still "started" after this many seconds is
  considered lost by reconcile, and RQ kills it after that long (default 30).
- ``ARENA_WORKER_LEASE_S``: a worker's liveness lease and RQ's scheduler lock last this
  many seconds, refreshed three times as often (default 3): a job started by a worker whose
  lease is gone, or moved off the queue by a worker that never started it, is re-enqueued
  by the next reconcile pass after that long; a killed scheduler's lock passes to another
  worker after that long.
- ``ARENA_WORKER_HEARTBEAT_FILE``: file each ``arena worker`` rewrites at every lease beat
  (``arena worker --check`` reads it; default ``/tmp/arena-worker.heartbeat``).
- ``ARENA_QUEUE``: RQ queue name (default ``<prefix>-turns``).
- ``ARENA_APPEND_ATTEMPTS``: attempts for a command without ``expected_version`` (default 5).
- ``ARENA_FOLD_CACHE_SIZE``: matches whose folded state each process keeps in memory
  between requests (default 1024; only a cache, see ``service/store/fold_cache.py``).
- ``ARENA_INDEX_SHARDS``: shards of the global indexes and counters (default 16; each shard
  is one key group with its own hash tag, and new match ids are drawn in a shard's cluster
  slot, so the append script updates them in one round trip and the shards spread over a
  Redis Cluster's nodes; :mod:`service.store.slots`). Keep it fixed for a deployment's life.
- ``ARENA_ABANDON_AFTER_S``: a running match in which no human seat acted for this many
  seconds (since its creation or the last human command) ends ``abandoned`` at the next
  reconcile pass (default 86400 = 24 h).
- ``ARENA_MAX_BOT_BUDGET``: the highest ``budget`` bot option (rollouts per decision) a
  client may ask for (default 512; ``0`` = no cap beyond the bot's own schema).
- ``ARENA_MAX_BOT_TIME_MS``: the highest ``time_budget_ms`` bot option (default 2000; ``0``
  = no cap).
- ``ARENA_MAX_BOT_MATCHES_PER_CLIENT``: running matches with a bot seat one client may
  have (default 4; ``0`` = no cap). These three apply to matches made through the HTTP
  API (:mod:`service.store.quotas`); the API's request rate limits are in :mod:`api.limits`.
- ``ARENA_MAX_ANALYSES_PER_CLIENT``: match analyses one client of the API (its address, as
  the bot-match cap counts: keys and seat tokens are free) may have queued or running (default 3; ``0`` = no cap);
  one more is refused with 429 ``too_many_analyses`` (:mod:`service.usecases.analysis`).
- ``ARENA_COMPACTION``: ``1`` (default) compacts every finished match into one compressed
  key (:mod:`service.upkeep.compaction`); ``0`` keeps its event stream.
- ``ARENA_IDEMPOTENCY_TTL_S``: idempotency records of a match expire this many seconds
  after it ended (default 3600); a retry after that answers like a new command on a
  finished match (409 ``match_finished``).
- ``ARENA_ARCHIVE_URL``: ``postgresql://...`` of the archive tier (:mod:`service.upkeep.archive`);
  unset (default) => no archive: nothing leaves Redis.
- ``ARENA_ARCHIVE_AFTER_S``: a compacted match moves to the archive this many seconds
  after it ended (default 604800 = 7 days).
- ``ARENA_ARCHIVE_BATCH``: matches moved per full reconcile pass (default 100).
- ``ARENA_FINISHED_INDEX_MAX``: without an archive, finished matches stay in Redis for good;
  every full reconcile pass keeps only about this many of the newest finished matches in
  the lobby's finished list (each of the ``ARENA_INDEX_SHARDS`` shards its newest
  ``ceil(N / shards)``) and in ``P:compacted`` (what an archive turned on later would
  move first). Older ones are no longer listed, but every read by id (view, events, state,
  export, fork, replay) answers as before (default 10000; ``0`` = no bound;
  :mod:`service.upkeep.housekeeping`). With an archive the mover bounds both and nothing is trimmed.
- ``ARENA_ENGINES``: ``module:attribute`` of a ``game_id -> Engine`` mapping (or a callable
  returning one) replacing ``domain.games.registry()`` (platform tests use a test game).
- ``ARENA_GAME_PACKAGES``: comma-separated packages of extra games beside the built-in ones
  (``examples`` = every example game under ``examples/``; ``examples.duel`` = one), read by
  ``domain.games.registry()``; checked at start (:func:`service.settings.game_packages`:
  each name must be a package that exists; its engines are checked when the registry
  loads). Default: none.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

from service import settings
from service.store.quotas import BotCaps


@dataclass(frozen=True, slots=True)
class Config:
    """Immutable service settings; build with :meth:`from_env` or directly in tests."""

    redis_url: str | None = None
    rq_redis_url: str | None = None
    cluster_flag: bool = False
    wait_replicas: int = 0
    wait_ms: int = 100
    key_prefix: str = "arena"
    snapshot_every: int = 50
    reconcile_s: float = 2.0
    reconcile_full_s: float = 60.0
    bot_job_timeout_s: float = 30.0
    worker_lease_s: float = 3.0
    heartbeat_file: str = "/tmp/arena-worker.heartbeat"
    queue_name: str | None = None
    append_attempts: int = 5
    engines_path: str | None = None
    fold_cache_size: int = 1024
    index_shards: int = 16
    abandon_after_s: float = 86400.0
    max_bot_budget: int = 512
    max_bot_time_ms: int = 2000
    max_bot_matches_per_client: int = 4
    max_analyses_per_client: int = 3
    compaction: bool = True
    idempotency_ttl_s: float = 3600.0
    archive_url: str | None = None
    archive_after_s: float = 604800.0
    archive_batch: int = 100
    finished_index_max: int = 10000
    game_packages: tuple[str, ...] = ()

    @property
    def bot_caps(self) -> BotCaps:
        """The caps of :mod:`service.store.quotas` (``0``: no cap)."""
        return BotCaps(
            budget=self.max_bot_budget,
            time_budget_ms=self.max_bot_time_ms,
            matches=self.max_bot_matches_per_client,
        )

    @property
    def embedded(self) -> bool:
        """True when no ``REDIS_URL`` is configured (fakeredis in this process)."""
        return not self.redis_url

    @property
    def redis_cluster(self) -> bool:
        """True when the event store is a Redis Cluster (``redis+cluster://`` /
        ``rediss+cluster://`` ``REDIS_URL``, or ``ARENA_REDIS_CLUSTER=1``)."""
        if not self.redis_url:
            return False
        return self.cluster_flag or self.redis_url.split("://", 1)[0].endswith("+cluster")

    @property
    def rq_url(self) -> str | None:
        """The RQ Redis URL (``RQ_REDIS_URL``, falling back to ``REDIS_URL`` - not for a
        cluster: RQ needs one standalone server). Raises ValueError for a cluster without
        ``RQ_REDIS_URL`` or an ``RQ_REDIS_URL`` naming a cluster."""
        if self.rq_redis_url and "+cluster://" in self.rq_redis_url:
            raise ValueError(
                "RQ_REDIS_URL must name a standalone Redis: RQ does not support Redis Cluster"
            )
        if self.redis_cluster and not self.rq_redis_url:
            raise ValueError(
                "REDIS_URL names a Redis Cluster: set RQ_REDIS_URL to a "
                "standalone Redis for RQ (RQ does not support Redis Cluster)"
            )
        return self.rq_redis_url or self.redis_url

    @property
    def queue(self) -> str:
        """The RQ queue name bot turns and timeouts go to."""
        return self.queue_name or f"{self.key_prefix}-turns"

    def with_(self, **changes) -> Config:
        """A copy with ``changes`` applied (dataclass ``replace``)."""
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the variables of :data:`service.settings.SERVICE` (listed in the module
        docstring) from ``env`` (default ``os.environ``).

        Raises:
            service.settings.ConfigError: (a ``ValueError``) a value that does not parse
                or is out of range, naming the variable, the value and what is accepted.
        """
        v = settings.read(settings.SERVICE, os.environ if env is None else env)
        return cls(
            redis_url=v["REDIS_URL"],
            rq_redis_url=v["RQ_REDIS_URL"],
            wait_replicas=v["ARENA_REDIS_WAIT_REPLICAS"],
            wait_ms=v["ARENA_REDIS_WAIT_MS"],
            cluster_flag=v["ARENA_REDIS_CLUSTER"],
            key_prefix=v["ARENA_KEY_PREFIX"],
            snapshot_every=v["ARENA_SNAPSHOT_EVERY"],
            reconcile_s=v["ARENA_RECONCILE_S"],
            reconcile_full_s=v["ARENA_RECONCILE_FULL_S"],
            bot_job_timeout_s=v["ARENA_BOT_JOB_TIMEOUT_S"],
            worker_lease_s=v["ARENA_WORKER_LEASE_S"],
            heartbeat_file=v["ARENA_WORKER_HEARTBEAT_FILE"],
            queue_name=v["ARENA_QUEUE"],
            append_attempts=v["ARENA_APPEND_ATTEMPTS"],
            engines_path=v["ARENA_ENGINES"],
            fold_cache_size=v["ARENA_FOLD_CACHE_SIZE"],
            index_shards=v["ARENA_INDEX_SHARDS"],
            abandon_after_s=v["ARENA_ABANDON_AFTER_S"],
            max_bot_budget=v["ARENA_MAX_BOT_BUDGET"],
            max_bot_time_ms=v["ARENA_MAX_BOT_TIME_MS"],
            max_bot_matches_per_client=v["ARENA_MAX_BOT_MATCHES_PER_CLIENT"],
            max_analyses_per_client=v["ARENA_MAX_ANALYSES_PER_CLIENT"],
            compaction=v["ARENA_COMPACTION"],
            idempotency_ttl_s=v["ARENA_IDEMPOTENCY_TTL_S"],
            archive_url=v["ARENA_ARCHIVE_URL"],
            archive_after_s=v["ARENA_ARCHIVE_AFTER_S"],
            archive_batch=v["ARENA_ARCHIVE_BATCH"],
            finished_index_max=v["ARENA_FINISHED_INDEX_MAX"],
            game_packages=v["ARENA_GAME_PACKAGES"] or (),
        )

    def check(self) -> Config:
        """Cross-variable checks of a process start (:func:`service.settings.read` checks
        each variable alone): RQ needs a standalone Redis. Returns ``self``.

        Raises:
            service.settings.ConfigError: ``RQ_REDIS_URL`` missing beside a cluster
                ``REDIS_URL``.
        """
        if self.redis_cluster and not self.rq_redis_url:
            raise settings.ConfigError(
                "RQ_REDIS_URL",
                "",
                "a standalone redis:// URL (required when REDIS_URL "
                "names a Redis Cluster: RQ does not support Cluster)",
            )
        return self

    def to_env(self) -> dict[str, str]:
        """Environment variables that make :meth:`from_env` rebuild this config
        (used to start worker subprocesses with the same settings)."""
        env = {
            "ARENA_KEY_PREFIX": self.key_prefix,
            "ARENA_SNAPSHOT_EVERY": str(self.snapshot_every),
            "ARENA_RECONCILE_S": str(self.reconcile_s),
            "ARENA_RECONCILE_FULL_S": str(self.reconcile_full_s),
            "ARENA_BOT_JOB_TIMEOUT_S": str(self.bot_job_timeout_s),
            "ARENA_WORKER_LEASE_S": str(self.worker_lease_s),
            "ARENA_WORKER_HEARTBEAT_FILE": self.heartbeat_file,
            "ARENA_APPEND_ATTEMPTS": str(self.append_attempts),
            "ARENA_FOLD_CACHE_SIZE": str(self.fold_cache_size),
            "ARENA_INDEX_SHARDS": str(self.index_shards),
            "ARENA_ABANDON_AFTER_S": str(self.abandon_after_s),
            "ARENA_MAX_BOT_BUDGET": str(self.max_bot_budget),
            "ARENA_MAX_BOT_TIME_MS": str(self.max_bot_time_ms),
            "ARENA_MAX_BOT_MATCHES_PER_CLIENT": str(self.max_bot_matches_per_client),
            "ARENA_MAX_ANALYSES_PER_CLIENT": str(self.max_analyses_per_client),
            "ARENA_COMPACTION": "1" if self.compaction else "0",
            "ARENA_IDEMPOTENCY_TTL_S": str(self.idempotency_ttl_s),
            "ARENA_ARCHIVE_AFTER_S": str(self.archive_after_s),
            "ARENA_ARCHIVE_BATCH": str(self.archive_batch),
            "ARENA_FINISHED_INDEX_MAX": str(self.finished_index_max),
        }
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        if self.rq_redis_url:
            env["RQ_REDIS_URL"] = self.rq_redis_url
        if self.cluster_flag:
            env["ARENA_REDIS_CLUSTER"] = "1"
        if self.wait_replicas:
            env["ARENA_REDIS_WAIT_REPLICAS"] = str(self.wait_replicas)
            env["ARENA_REDIS_WAIT_MS"] = str(self.wait_ms)
        if self.queue_name:
            env["ARENA_QUEUE"] = self.queue_name
        if self.engines_path:
            env["ARENA_ENGINES"] = self.engines_path
        if self.archive_url:
            env["ARENA_ARCHIVE_URL"] = self.archive_url
        if self.game_packages:
            env["ARENA_GAME_PACKAGES"] = ",".join(self.game_packages)
        return env
