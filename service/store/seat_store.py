"""The seat adapter: seat-token digests (``P:{mid}:tokens``) and names given at join.

Tokens themselves are never stored: only their SHA-256 digests (:mod:`service.tokens`).
A digest is only ever added (creation, join), never changed or revoked — except the claim
of a join that lost its race (:meth:`SeatStore.release`), whose token was never shown.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import NamedTuple

from service.store.keys import Keys


class SeatDigests(NamedTuple):
    """Whether the match ``exists`` and its ``digests``: ``{seat: token digest}``."""

    exists: bool
    digests: dict[int, str]


class SeatStore:
    """Seat tokens and join names of matches (``redis`` with ``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys):
        self.redis = redis
        self.keys = keys

    def issue(self, match_id: str, digests: Mapping[int, str], pipe=None) -> None:
        """Store the token digests of a new match's human seats (nothing when empty);
        queued on ``pipe`` (a pipeline or write batch the caller runs) when given."""
        if digests:
            (pipe if pipe is not None else self.redis).hset(
                self.keys.tokens(match_id),
                mapping={str(seat): digest for seat, digest in digests.items()},
            )

    def claim(self, match_id: str, seat: int, digest: str) -> bool:
        """Record ``digest`` for ``seat`` unless the seat has a token already (atomic);
        True when this call claimed it."""
        return bool(self.redis.hsetnx(self.keys.tokens(match_id), str(seat), digest))

    def release(self, match_id: str, seat: int, digest: str) -> bool:
        """Give back ``seat``'s claim when it still holds ``digest`` (compare-and-delete in
        one script): a join that claimed the seat but may not take it (its player holds
        another seat) and whose token was never shown. True when this call deleted it."""
        return bool(
            self.redis.eval(
                "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0",
                1,
                self.keys.tokens(match_id),
                str(seat),
                digest,
            )
        )

    def holds(self, match_id: str, seat: int, digest: str) -> bool:
        """True when ``seat``'s stored token digest is ``digest`` (a keyed join's own
        earlier claim, :mod:`service.usecases.idempotency`)."""
        stored = self.redis.hget(self.keys.tokens(match_id), str(seat))
        return stored is not None and hmac.compare_digest(stored, digest)

    def claimed(self, match_id: str) -> set[int]:
        """Seats holding a token (human seats and joined open seats)."""
        return {int(s) for s in self.redis.hkeys(self.keys.tokens(match_id))}

    def digests(self, match_id: str) -> SeatDigests:
        """:class:`SeatDigests` ``(exists, {seat: token digest})`` in one pipelined round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hexists(self.keys.meta(match_id), "game")
        pipe.hgetall(self.keys.tokens(match_id))
        exists, raw = pipe.execute()
        return SeatDigests(bool(exists), {int(k): v for k, v in raw.items()})
