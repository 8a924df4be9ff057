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
from array import array
from binascii import crc_hqx
from functools import lru_cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

#: a cluster slot is the CRC's low 14 bits (16384 slots)
_SLOT_MASK = REDIS_CLUSTER_HASH_SLOTS - 1
#: :meth:`ShardMap._first_counters`' mark of a 14-bit value no counter reaches
_NO_COUNTER = 1 << 16


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
        self._counters: array[int] | None = None  # see _first_counters
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
        counter) whose cluster slot is the slot of one shard: the lowest counter that puts
        the id in a shard's slot (a new random part when none does).

        CRC-16/XMODEM (``binascii.crc_hqx``, the CRC Redis Cluster uses) is linear: the
        CRC of ``head + tail`` started from ``crc(head)`` is ``crc(tail) ^ crc(4 zero
        bytes, crc(head))``, and a slot is its low 14 bits. So the slot of each counter
        needs no CRC of its own: :meth:`_first_counters` (made once per map, 65536 CRCs,
        ~30 ms) gives the lowest counter of each 14-bit value, and an id costs one CRC per
        shard. (The loop over the counters it replaces cost ~5.7 ms an id: the hex
        counters reach a shard's slot after ~10,000 steps on average, not 1,000.)"""
        first = self._first_counters()
        while True:
            head = secrets.token_hex(8)
            shift = crc_hqx(b"\0\0\0\0", crc_hqx(head.encode("ascii"), 0)) & _SLOT_MASK
            counters = [first[slot ^ shift] for slot in self._slot_shard]
            best = min(counters)
            if best < _NO_COUNTER:
                return f"{head}{best:04x}"

    def _first_counters(self) -> array[int]:
        """Per 14-bit value ``v``: the lowest counter ``c`` (0-65535) whose ``"%04x" % c``
        has ``crc_hqx(..., 0) & 0x3fff == v``, or :data:`_NO_COUNTER` (made once)."""
        table = self._counters
        if table is None:
            table = array("l", [_NO_COUNTER]) * REDIS_CLUSTER_HASH_SLOTS  # 128 KB
            for counter in range(65535, -1, -1):  # downwards: the lowest one stays
                table[crc_hqx(b"%04x" % counter, 0) & _SLOT_MASK] = counter
            self._counters = table
        return table


@lru_cache(maxsize=64)
def shard_map(prefix: str, shards: int) -> ShardMap:
    """The (cached) :class:`ShardMap` of ``prefix`` with ``shards`` shards."""
    return ShardMap(prefix, shards)
