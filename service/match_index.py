"""The match indexes adapter: the ``matches`` list, the ``running`` and ``awaiting`` sets,
and the sharded lobby index.

``matches`` (sorted set, scored by creation time) lists every match; ``running`` holds the
matches without a result (what a full reconcile pass scans); ``awaiting`` the running ones
whose pending decision is a worker's job (what every reconcile pass scans; a hint kept by
every append, repaired by full passes). Key names come from :class:`service.keys.Keys`.

The lobby index (``GET /v1/matches``) follows the lead design for global indexes
(notes/lead-design.md): ``shards`` (``ARENA_INDEX_SHARDS``) groups of sorted sets, each
group under its own hash tag, a match filed in shard ``crc32(match_id) mod shards``. A
listed match is in its shard's ``all`` and ``<bucket>`` sets (and their per-game copies),
scored by creation time; ``bucket`` is ``open`` / ``running`` / ``finished``. The index
changes only when an indexed fact changes (created, its last open seat joined, finished),
never on an ordinary action. A listing fans out over the shards (one pipeline) and merges
newest first. Unlisted matches are never filed.
"""
from __future__ import annotations

import zlib
from typing import Any, Iterable

from service.keys import Keys

#: the lobby buckets a listed match moves through
LOBBY_BUCKETS = ("open", "running", "finished")


def shard_of(match_id: str, shards: int) -> int:
    """The lobby shard of ``match_id``: a stable hash (CRC-32) of the id mod ``shards``."""
    return zlib.crc32(match_id.encode("utf-8")) % shards


class MatchIndex:
    """Reads and updates the match indexes (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, shards: int = 16):
        self.redis = redis
        self.keys = keys
        self.shards = max(1, int(shards))

    def created(self, match_id: str, created_at: float, running: bool) -> None:
        """List a new match (scored ``created_at``, Unix seconds); ``running`` also puts it
        in the running set. One pipelined round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self.keys.matches(), {match_id: created_at})
        if running:
            pipe.sadd(self.keys.running(), match_id)
        pipe.execute()

    def appended(self, match_id: str, finished: bool, awaiting: bool, pipe) -> None:
        """Queue on ``pipe`` (a pipeline the caller executes) the index updates after an
        append: a finished match leaves ``running``; ``awaiting`` says whether it belongs
        in the awaiting set now."""
        if finished:
            pipe.srem(self.keys.running(), match_id)
        if awaiting:
            pipe.sadd(self.keys.awaiting(), match_id)
        else:
            pipe.srem(self.keys.awaiting(), match_id)

    def mark_awaiting(self, match_id: str) -> None:
        """Put a match back into the awaiting set (a full reconcile pass found it missing)."""
        self.redis.sadd(self.keys.awaiting(), match_id)

    def forget(self, match_id: str) -> None:
        """Drop a finished (or vanished) match from the running and awaiting sets."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.srem(self.keys.running(), match_id)
        pipe.srem(self.keys.awaiting(), match_id)
        pipe.execute()

    def running_ids(self) -> set[str]:
        """Ids of every match without a result."""
        return set(self.redis.smembers(self.keys.running()))

    def awaiting_ids(self) -> set[str]:
        """Ids of the running matches whose pending decision awaits a worker (a hint)."""
        return set(self.redis.smembers(self.keys.awaiting()))

    def running_count(self) -> int:
        """How many matches have no result (the ``arena_running_matches`` gauge)."""
        return int(self.redis.scard(self.keys.running()))

    # ------------------------------------------------------------------ lobby
    def file(self, match_id: str, game: str, created_at: float, bucket: str,
             pipe=None) -> None:
        """File a listed match in ``bucket`` (one of :data:`LOBBY_BUCKETS`), leaving the
        other buckets; also in ``all``. Queued on ``pipe`` when given (the caller executes
        it), else one pipelined round trip. Idempotent."""
        own = pipe if pipe is not None else self.redis.pipeline(transaction=False)
        shard = shard_of(match_id, self.shards)
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
        shard = shard_of(match_id, self.shards)
        for name in ("all", *LOBBY_BUCKETS):
            for per_game in (None, game):
                own.zrem(self.keys.lobby(shard, name, per_game), match_id)
        if pipe is None:
            own.execute()

    def lobby_page(self, bucket: str, game: str | None, before: tuple[float, str] | None,
                   count: int) -> list[tuple[float, str]]:
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
                pipe.zrevrangebyscore(key, f"({score!r}", "-inf", start=0, num=count,
                                      withscores=True)
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
