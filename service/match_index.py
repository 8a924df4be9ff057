"""The match indexes adapter: the ``matches`` list, the ``running`` and ``awaiting`` sets.

``matches`` (sorted set, scored by creation time) lists every match; ``running`` holds the
matches without a result (what a full reconcile pass scans); ``awaiting`` the running ones
whose pending decision is a worker's job (what every reconcile pass scans; a hint kept by
every append, repaired by full passes). Key names come from :class:`service.keys.Keys`.
"""
from __future__ import annotations

from service.keys import Keys


class MatchIndex:
    """Reads and updates the match indexes (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys):
        self.redis = redis
        self.keys = keys

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
