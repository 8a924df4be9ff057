"""The end-of-match jobs still to complete (issue 22: "exactly once, even when lost").

The append that ends a match with a bound player (or a rated one) files the match in its
index shard's ``end-jobs`` sorted set (:meth:`service.store.keys.Keys.end_jobs`, scored by
the end in Unix seconds) in the append's own script (the shard shares the match's cluster
slot, :mod:`service.store.slots`), so a process dying right after the append cannot lose
it. The job (:meth:`service.usecases.ratings.Ratings.on_match_ended`) takes the match out
once its counters, ratings and archive rows are written; every reconcile pass enqueues
the job again for a match still filed a grace period after its end
(:meth:`service.upkeep.reconcile.Reconciler.reconcile`).
"""

from __future__ import annotations

from service.store.keys import Keys
from service.store.slots import shard_map


class EndJobs:
    """The ``end-jobs`` sets over ``shards`` index shards (``redis`` with
    ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, shards: int = 16):
        self.redis = redis
        self.keys = keys
        self.map = shard_map(keys.prefix, max(1, int(shards)))

    def _key(self, match_id: str) -> str:
        return self.keys.end_jobs(self.map.shard_of(match_id))

    def due(self, match_id: str, ended_ts: float, pipe) -> None:
        """Queue on ``pipe`` (the append's write batch) the filing of ``match_id``, ended
        at ``ended_ts`` (Unix seconds)."""
        pipe.zadd(self._key(match_id), {match_id: ended_ts})

    def overdue(self, before_ts: float, count: int = 100) -> list[str]:
        """Up to ``count`` filed matches per shard that ended before ``before_ts``, oldest
        first within a shard (one pipeline over the shards)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(self.map.shards):
            pipe.zrangebyscore(
                self.keys.end_jobs(shard), "-inf", repr(before_ts), start=0, num=count
            )
        return [m for found in pipe.execute() for m in found]

    def filed(self, match_id: str) -> bool:
        """True while ``match_id``'s end-of-match job has not completed."""
        return self.redis.zscore(self._key(match_id), match_id) is not None

    def done(self, match_id: str) -> None:
        """Take ``match_id`` out (its job completed, or the match vanished)."""
        self.redis.zrem(self._key(match_id), match_id)
