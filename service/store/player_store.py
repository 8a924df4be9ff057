"""The player adapter (issue 22): players, their key digests, names and match lists.

Each player's keys share the hash tag ``{pl-<id>}`` (:meth:`service.store.keys.Keys.player`),
so one player's writes are one atomic step on one cluster slot; the name index
(:meth:`service.store.keys.Keys.player_names`) is a single hash whose ``HSETNX`` makes names
unique. Player keys themselves are never stored: only their SHA-256 digests.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from service.store.keys import Keys

#: KEYS: player hash, counted set. ARGV: match id, then field, increment pairs. Adds the
#: increments once per match id (returns 1), or nothing when it was counted already (0).
_COUNT = """
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
"""

#: KEYS: player hash. ARGV: the current key digest, the new one. Replaces the digest only
#: while it is still the current one (returns 1), else changes nothing (0): of two
#: rotations racing with the same key, one wins.
_SWAP = """
if redis.call('HGET', KEYS[1], 'key_digest') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'key_digest', ARGV[2])
return 1
"""


#: A history cursor's tie-break names its entry by a digest, never by the match id: the
#: entry a page stopped at may be an unlisted match the reader may not see (a probe read
#: unlisted ids, open seats included, out of anonymous cursors).
TIE_PREFIX = "h:"


def tie_of(match_id: str) -> str:
    """The cursor tie-break of ``match_id``: ``h:`` and 16 hex digits of BLAKE2b (a match
    id is 80 random bits: the digest does not give it back)."""
    return TIE_PREFIX + hashlib.blake2b(match_id.encode(), digest_size=8).hexdigest()


class PlayerStore:
    """Players in Redis (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys):
        self.redis = redis
        self.keys = keys
        self._count = redis.register_script(_COUNT)
        self._swap = redis.register_script(_SWAP)

    def create(self, player_id: str, folded: str, fields: Mapping[str, str]) -> bool:
        """Reserve the folded name for ``player_id`` (``HSETNX``) and store the player's
        ``fields``; False (nothing stored) when another player holds the name."""
        if not self.redis.hsetnx(self.keys.player_names(), folded, player_id):
            return False
        self.redis.hset(self.keys.player(player_id), mapping=dict(fields))
        return True

    def holders(self, keys: list[str]) -> list[str]:
        """The ids of the players holding any of the name keys ``keys`` in the name index
        (one ``HMGET``: one round trip), without repeats."""
        if not keys:
            return []
        found = self.redis.hmget(self.keys.player_names(), keys)
        return list(dict.fromkeys(pid for pid in found if pid))

    def get(self, player_id: str) -> dict[str, str] | None:
        """The player's hash, or ``None`` for an unknown id."""
        raw = self.redis.hgetall(self.keys.player(player_id))
        return raw or None

    def get_many(self, player_ids: list[str]) -> dict[str, dict[str, str]]:
        """id -> hash of the known ones among ``player_ids`` (one pipelined round trip)."""
        if not player_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for pid in player_ids:
            pipe.hgetall(self.keys.player(pid))
        return {pid: raw for pid, raw in zip(player_ids, pipe.execute(), strict=True) if raw}

    def swap_digest(self, player_id: str, current: str, new: str) -> bool:
        """Replace the player's key digest ``current`` by ``new`` (a rotation: the old key
        stops working) in one script that compares and sets: False, nothing changed, when
        the digest is no longer ``current`` (another rotation won)."""
        return bool(self._swap(keys=[self.keys.player(player_id)], args=[current, new]))

    def add_match(self, player_id: str, match_id: str, created_ts: float) -> None:
        """File ``match_id`` in the player's match list."""
        self.redis.zadd(self.keys.player_matches(player_id), {match_id: created_ts})

    def match_page(
        self, player_id: str, before: tuple[float, str] | None, count: int
    ) -> list[tuple[float, str]]:
        """Up to ``count`` ``(created_at, match_id)`` of the player's matches, newest first
        (ties: greater id first), strictly after the position ``before`` (a keyset page: a
        match filed meanwhile, newer than ``before``, neither repeats nor hides an entry;
        its second part a match id or a cursor's :func:`tie_of` digest of one).
        One round trip: the entries older than ``before`` and those of its very time."""
        key = self.keys.player_matches(player_id)
        if before is None:
            reply = self.redis.zrevrangebyscore(
                key, "+inf", "-inf", start=0, num=count, withscores=True
            )
            return [(float(score), member) for member, score in reply]
        score, last = before
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrangebyscore(key, f"({score!r}", "-inf", start=0, num=count, withscores=True)
        pipe.zrangebyscore(key, repr(score), repr(score), withscores=True)
        older, same = pipe.execute()
        if last.startswith(TIE_PREFIX):  # a cursor's digest: the member it names, if any
            last = next((m for m, _ in same if tie_of(m) == last), "")
        rows = [(float(s), m) for m, s in older] + [(float(s), m) for m, s in same if m < last]
        return sorted(set(rows), reverse=True)[:count]

    def filed_at(self, player_id: str, match_id: str) -> float | None:
        """The position score (creation time, Unix seconds) of ``match_id`` in the
        player's match list, ``None`` when it is not there (one ``ZSCORE``)."""
        score = self.redis.zscore(self.keys.player_matches(player_id), match_id)
        return None if score is None else float(score)

    def counted(self, player_id: str, match_ids: list[str]) -> set[str]:
        """Those of ``match_ids`` counted in the player's ``played``/``won`` already (in
        its ``counted`` set: :meth:`count_end`); one pipelined round trip."""
        if not match_ids:
            return set()
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.sismember(self.keys.player_counted(player_id), match_id)
        return {m for m, found in zip(match_ids, pipe.execute(), strict=True) if found}

    def count_end(self, player_id: str, match_id: str, increments: Mapping[str, int]) -> bool:
        """Add ``increments`` (field -> n) to the player's counters once per ``match_id``;
        True when this call counted it."""
        args: list[Any] = [match_id]
        for field, n in increments.items():
            args += [field, n]
        return bool(
            self._count(
                keys=[self.keys.player(player_id), self.keys.player_counted(player_id)], args=args
            )
        )
