"""Index shards and Redis Cluster hash slots: where a match's global book-keeping lives.

Redis Cluster runs a script only on keys of one hash slot (the CRC-16 of a key's hash tag
mod 16384, https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/).
The append script writes a match's own keys (tag ``{<match_id>}``) *and* its share of the
global indexes and counters (running, awaiting, matches, lobby, metrics) so that an
accepted action costs one round trip, so both must be in one slot.

The global keys are split into ``shards`` (``ARENA_INDEX_SHARDS``) shards; shard ``k`` has
the hash tag ``{<prefix>-ix-<k>}`` and so lives in slot ``slot(<prefix>-ix-<k>)``. A new
match id is drawn so that its own slot is the slot of one shard (:meth:`ShardMap.new_id`):
that shard is the match's shard, and every key the append script touches is in that one
slot. On one Redis the slots mean nothing and every match still gets a shard.

A match id that is not slot-aligned (made before this scheme, or by hand) is filed in shard
``crc32(id) mod shards``; on a cluster its index writes then go in a second round trip
(:meth:`service.store.event_store.EventStore.append` splits them off).
"""

from __future__ import annotations

import secrets
import zlib
from binascii import crc_hqx
from functools import lru_cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot


def slot_of_tag(tag: str) -> int:
    """The cluster hash slot of a hash tag (or of any key: :func:`redis.crc.key_slot`)."""
    return key_slot(tag.encode("utf-8"))


class ShardMap:
    """The ``shards`` index shards of one key prefix, their tags and slots.

    ``tag(k)``: the hash-tag text of shard ``k``; ``shard_of(match_id)``: the shard a match
    is filed in; ``new_id()``: a fresh 20-hex-digit match id in a shard's slot.
    """

    def __init__(self, prefix: str, shards: int):
        self.prefix = prefix
        self.shards = max(1, int(shards))
        self._slot_shard: dict[int, int] = {}
        for k in range(self.shards):
            self._slot_shard.setdefault(slot_of_tag(self.tag(k)), k)

    def tag(self, shard: int) -> str:
        """Hash-tag text of ``shard`` (inside the braces of its keys)."""
        return f"{self.prefix}-ix-{shard}"

    def shard_of(self, match_id: str) -> int:
        """The shard of ``match_id``: the shard sharing its slot when it has one, else
        ``crc32(match_id) mod shards`` (ids not drawn by :meth:`new_id`)."""
        shard = self._slot_shard.get(slot_of_tag(match_id))
        if shard is None:
            return zlib.crc32(match_id.encode("utf-8")) % self.shards
        return shard

    def aligned(self, match_id: str) -> bool:
        """True when ``match_id`` is in the slot of its shard (one slot for all its keys)."""
        return slot_of_tag(match_id) in self._slot_shard

    def new_id(self) -> str:
        """A new random match id (20 lowercase hex digits, 64 random bits + a 16-bit
        counter) whose cluster slot is the slot of one shard.

        Costs about ``16384 / distinct shard slots`` CRC-16 steps (~1000 for 16 shards,
        0.2 ms): the CRC of the random part is computed once and continued over each
        counter value (``binascii.crc_hqx`` is the CRC Redis Cluster uses)."""
        while True:
            head = secrets.token_hex(8)
            start = crc_hqx(head.encode("ascii"), 0)
            for counter in range(65536):
                tail = b"%04x" % counter
                if crc_hqx(tail, start) % REDIS_CLUSTER_HASH_SLOTS in self._slot_shard:
                    return head + tail.decode("ascii")


@lru_cache(maxsize=64)
def shard_map(prefix: str, shards: int) -> ShardMap:
    """The (cached) :class:`ShardMap` of ``prefix`` with ``shards`` shards."""
    return ShardMap(prefix, shards)
