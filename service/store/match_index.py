"""The match indexes adapter: the ``matches`` list, the ``running`` and ``awaiting`` sets,
and the lobby index, all split into index shards (:mod:`service.store.slots`).

``matches`` (sorted set, scored by creation time) lists every match; ``running`` holds the
matches without a result (what a full reconcile pass scans); ``awaiting`` the running ones
whose pending decision is a worker's job (what every reconcile pass scans; a hint kept by
every append, repaired by full passes). Key names come from :class:`service.store.keys.Keys`.

Every index is ``shards`` (``ARENA_INDEX_SHARDS``) keys, shard ``k`` under the hash tag
``{<prefix>-ix-<k>}``; a match is filed in its shard (:meth:`service.store.slots.ShardMap.shard_of`),
which for a slot-aligned match id is in the match's own cluster slot, so the append script
updates the indexes with the events in one round trip. A reader fans out over the shards
in one pipeline (per node on a cluster) and merges. The single keys of deployments before
sharding (``<prefix>:running`` ...) are read as one more shard and drained by removals.

The lobby index (``GET /v1/matches``): a listed match is in its shard's ``all`` and
``<bucket>`` sets (and their per-game copies), scored by creation time; ``bucket`` is
``open`` / ``running`` / ``finished``. The lobby changes only when an indexed fact changes
(created, its last open seat joined, finished), never on an ordinary action. A listing
fans out over the shards (one pipeline) and merges newest first. Unlisted matches are
never filed.

Bounded without an archive: :meth:`MatchIndex.trim_finished` (every full reconcile pass,
:mod:`service.upkeep.housekeeping`) keeps in each shard's ``finished`` bucket only its newest
``ceil(ARENA_FINISHED_INDEX_MAX / shards)`` matches and takes the older ones out of every
bucket of the shard (``all``, ``finished`` and their per-game copies). A trimmed match is
only no longer listed: its keys stay and every read by id answers as before.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from service.store.keys import Keys
from service.store.slots import shard_map

#: the lobby buckets a listed match moves through
LOBBY_BUCKETS = ("open", "running", "finished")


class MatchIndex:
    """Reads and updates the match indexes (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, shards: int = 16):
        self.redis = redis
        self.keys = keys
        self.shards = max(1, int(shards))
        self.map = shard_map(keys.prefix, self.shards)

    def shard(self, match_id: str) -> int:
        """The shard ``match_id`` is filed in."""
        return self.map.shard_of(match_id)

    def _all_shards(self):
        """Every shard number, then ``None`` (the pre-sharding single key)."""
        return [*range(self.shards), None]

    def created(self, match_id: str, created_at: float, running: bool, pipe=None) -> None:
        """List a new match (scored ``created_at``, Unix seconds); ``running`` also puts it
        in the running set. Queued on ``pipe`` (a pipeline or
        :class:`service.store.write_batch.WriteBatch` the caller runs) when given."""
        own = pipe if pipe is not None else self.redis.pipeline(transaction=False)
        shard = self.shard(match_id)
        own.zadd(self.keys.matches(shard), {match_id: created_at})
        if running:
            own.sadd(self.keys.running(shard), match_id)
        if pipe is None:
            own.execute()

    def appended(self, match_id: str, finished: bool, awaiting: bool, pipe) -> None:
        """Queue on ``pipe`` (a pipeline or write batch the caller runs) the index updates
        after an append: a finished match leaves ``running``; ``awaiting`` says whether it
        belongs in the awaiting set now."""
        shard = self.shard(match_id)
        if finished:
            pipe.srem(self.keys.running(shard), match_id)
        if awaiting:
            pipe.sadd(self.keys.awaiting(shard), match_id)
        else:
            pipe.srem(self.keys.awaiting(shard), match_id)

    def mark_awaiting(self, match_id: str) -> None:
        """Put a match back into the awaiting set (a full reconcile pass found it missing)."""
        self.redis.sadd(self.keys.awaiting(self.shard(match_id)), match_id)

    def forget(self, match_id: str) -> None:
        """Drop a finished (or vanished) match from the running and awaiting sets (its
        shard's and the pre-sharding keys)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in (self.shard(match_id), None):
            pipe.srem(self.keys.running(shard), match_id)
            pipe.srem(self.keys.awaiting(shard), match_id)
        pipe.execute()

    def _fan_out(self, command: str, key_of) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        for shard in self._all_shards():
            getattr(pipe, command)(key_of(shard))
        return pipe.execute()

    def running_ids(self) -> set[str]:
        """Ids of every match without a result (one pipeline over the shards)."""
        return set().union(*self._fan_out("smembers", self.keys.running))

    def awaiting_ids(self) -> set[str]:
        """Ids of the running matches whose pending decision awaits a worker (a hint)."""
        return set().union(*self._fan_out("smembers", self.keys.awaiting))

    def running_count(self) -> int:
        """How many matches have no result (the ``arena_running_matches`` gauge)."""
        return sum(int(n) for n in self._fan_out("scard", self.keys.running))

    def all_ids(self) -> set[str]:
        """Ids of every match in ``matches`` (one pipeline over the shards; what
        ``arena ratings rebuild`` reads the logs of)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in self._all_shards():
            pipe.zrange(self.keys.matches(shard), 0, -1)
        return set().union(*pipe.execute())

    def match_count(self) -> int:
        """How many matches are listed in ``matches`` (every match ever created here)."""
        return sum(int(n) for n in self._fan_out("zcard", self.keys.matches))

    # ------------------------------------------------------------------ lobby
    def file(self, match_id: str, game: str, created_at: float, bucket: str, pipe=None) -> None:
        """File a listed match in ``bucket`` (one of :data:`LOBBY_BUCKETS`), leaving the
        other buckets; also in ``all``. Queued on ``pipe`` when given (the caller executes
        it), else one pipelined round trip. Idempotent."""
        own = pipe if pipe is not None else self.redis.pipeline(transaction=False)
        shard = self.shard(match_id)
        for name in ("all", bucket):
            for per_game in (None, game):
                own.zadd(self.keys.lobby(shard, name, per_game), {match_id: created_at})
        for other in LOBBY_BUCKETS:
            if other != bucket:
                own.zrem(self.keys.lobby(shard, other), match_id)
                own.zrem(self.keys.lobby(shard, other, game), match_id)
        if pipe is None:
            own.execute()

    def unfile(self, match_id: str, game: str, pipe=None) -> None:
        """Take a match out of every lobby bucket (it moved to the archive, whose rows
        the lobby merges). Queued on ``pipe`` when given. Idempotent."""
        own = pipe if pipe is not None else self.redis.pipeline(transaction=False)
        shard = self.shard(match_id)
        for name in ("all", *LOBBY_BUCKETS):
            for per_game in (None, game):
                own.zrem(self.keys.lobby(shard, name, per_game), match_id)
        if pipe is None:
            own.execute()

    def trim_finished(self, keep: int, batch: int = 1000) -> int:
        """Bound the lobby's finished matches to about ``keep`` (``0``: no bound): each
        shard keeps the newest ``ceil(keep / shards)`` of its ``finished`` bucket (by
        creation time); up to ``batch`` older ones per shard and call leave every bucket of
        the shard (their game read from their meta hash, which stays). Returns how many
        left the index. Idempotent; what one call leaves over the next removes."""
        if keep <= 0:
            return 0
        per_shard = max(1, math.ceil(keep / self.shards))
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.zcard(self.keys.lobby(shard, "finished"))
        over = {
            shard: min(int(n) - per_shard, batch)
            for shard, n in enumerate(pipe.execute())
            if int(n) > per_shard
        }
        if not over:
            return 0
        pipe = self.redis.pipeline(transaction=False)
        for shard, excess in over.items():
            pipe.zrange(self.keys.lobby(shard, "finished"), 0, excess - 1)
        trimmed = [
            (shard, mid) for shard, ids in zip(over, pipe.execute(), strict=True) for mid in ids
        ]
        pipe = self.redis.pipeline(transaction=False)
        for _, match_id in trimmed:
            pipe.hget(self.keys.meta(match_id), "game")
        games = pipe.execute()
        pipe = self.redis.pipeline(transaction=False)
        for (shard, match_id), game in zip(trimmed, games, strict=True):
            for name in ("all", "finished"):
                pipe.zrem(self.keys.lobby(shard, name), match_id)
                if game:
                    pipe.zrem(self.keys.lobby(shard, name, game), match_id)
        pipe.execute()
        return len(trimmed)

    def lobby_page(
        self, bucket: str, game: str | None, before: tuple[float, str] | None, count: int
    ) -> list[tuple[float, str]]:
        """Up to ``count`` ``(created_at, match_id)`` of ``bucket`` (``all`` or one of
        :data:`LOBBY_BUCKETS`; ``game`` narrows it), newest first (ties: greater id
        first), strictly after the cursor position ``before``. One pipeline over every
        shard (per node on a cluster), merged."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(self.shards):
            key = self.keys.lobby(shard, bucket, game)
            if before is None:
                pipe.zrevrangebyscore(key, "+inf", "-inf", start=0, num=count, withscores=True)
            else:
                score, _ = before
                pipe.zrevrangebyscore(
                    key, f"({score!r}", "-inf", start=0, num=count, withscores=True
                )
                pipe.zrangebyscore(key, repr(score), repr(score), withscores=True)
        rows: list[tuple[float, str]] = []
        for reply in pipe.execute():
            rows += [(float(score), member) for member, score in reply]
        if before is not None:
            score, last = before
            rows = [r for r in rows if r[0] < score or (r[0] == score and r[1] < last)]
        rows = sorted(set(rows), key=lambda r: (r[0], r[1]), reverse=True)
        return rows[:count]

    def summaries(self, match_ids: Iterable[str]) -> list[tuple[dict[str, Any], set[int]]]:
        """For each id: its meta hash (``{}`` when gone) and the seats holding a token, in
        one pipeline (per-match keys, each in its match's slot)."""
        ids = list(match_ids)
        pipe = self.redis.pipeline(transaction=False)
        for match_id in ids:
            pipe.hgetall(self.keys.meta(match_id))
            pipe.hkeys(self.keys.tokens(match_id))
        replies = pipe.execute()
        return [(replies[2 * i], {int(s) for s in replies[2 * i + 1]}) for i in range(len(ids))]
