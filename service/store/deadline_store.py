"""The turn-deadline adapter: ``P:{mid}:deadlines``, seat -> ``{"version", "deadline"}``.

A record exists only for a human seat of a timed match whose decision is pending: the
version its decision started at and its deadline (ISO 8601 UTC). The turn-timeout job of
that seat and version acts only while the record still names its version.
"""

from __future__ import annotations

import json
from typing import Any

from service.log.codec import canonical_json
from service.store.keys import Keys


class DeadlineStore:
    """Reads and writes deadline records (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys):
        self.redis = redis
        self.keys = keys

    def all(self, match_id: str) -> dict[int, dict[str, Any]]:
        """Every seat's record: ``{seat: {"version": int, "deadline": iso}}``."""
        return self.parse(self.redis.hgetall(self.keys.deadlines(match_id)))

    @staticmethod
    def parse(raw) -> dict[int, dict[str, Any]]:
        """Records as read raw (seat -> JSON) parsed: ``{seat: {"version", "deadline"}}``."""
        return {int(k): json.loads(v) for k, v in raw.items()}

    def get(self, match_id: str, seat: int) -> dict[str, Any] | None:
        """``seat``'s record or ``None``."""
        raw = self.redis.hget(self.keys.deadlines(match_id), str(seat))
        return json.loads(raw) if raw else None

    def start(self, match_id: str, seat: int, version: int, deadline_iso: str) -> None:
        """Record (or replace) ``seat``'s deadline for its decision started at ``version``."""
        self.redis.hset(
            self.keys.deadlines(match_id),
            str(seat),
            canonical_json({"version": version, "deadline": deadline_iso}),
        )

    def drop(self, match_id: str, seat: int) -> None:
        """Forget ``seat``'s record (it acted, or has nothing pending any more)."""
        self.redis.hdel(self.keys.deadlines(match_id), str(seat))
