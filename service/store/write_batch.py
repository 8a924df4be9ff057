"""Writes queued by the adapters to run *inside* the append script (one round trip).

A :class:`WriteBatch` looks to an adapter like a redis-py pipeline (``hincrby``, ``hset``,
``sadd``, ``srem``, ``zadd``, ``zrem``, ``hdel``, ``expire``): counters, index updates and the
snapshot queue their writes on it, and :meth:`service.store.event_store.EventStore.append` runs
them in its Lua script only when the append succeeds (never after a version conflict or an
idempotent replay). Outside an append, :meth:`WriteBatch.apply` queues the same writes on
a real pipeline.

Encoding for the script (``ARGV`` words): per write ``command``, the 1-based index of its
key in the script's ``KEYS``, the number of arguments, then the arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: the commands a batch may hold (all single-key writes)
COMMANDS = ("HINCRBY", "HSET", "HDEL", "SADD", "SREM", "ZADD", "ZREM", "EXPIRE")


class WriteBatch:
    """Single-key writes in order: ``(command, key, args)`` (see module docstring)."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, str, list[str]]] = []

    def __len__(self) -> int:
        return len(self.writes)

    def _add(self, command: str, key: str, args: Iterable[Any]) -> WriteBatch:
        self.writes.append((command, key, [str(a) for a in args]))
        return self

    # -- the pipeline subset the adapters use ------------------------------------------
    def hincrby(self, name: str, key: str, amount: int = 1) -> WriteBatch:
        """``HINCRBY name key amount``."""
        return self._add("HINCRBY", name, (key, int(amount)))

    def hset(
        self,
        name: str,
        key: str | None = None,
        value: Any = None,
        mapping: Mapping[str, Any] | None = None,
    ) -> WriteBatch:
        """``HSET name key value`` and/or the pairs of ``mapping``."""
        args: list[Any] = [] if key is None else [key, value]
        for field_name, field_value in (mapping or {}).items():
            args += [field_name, field_value]
        return self._add("HSET", name, args) if args else self

    def hdel(self, name: str, *keys: str) -> WriteBatch:
        """``HDEL name keys...``."""
        return self._add("HDEL", name, keys) if keys else self

    def sadd(self, name: str, *values: str) -> WriteBatch:
        """``SADD name values...``."""
        return self._add("SADD", name, values) if values else self

    def srem(self, name: str, *values: str) -> WriteBatch:
        """``SREM name values...``."""
        return self._add("SREM", name, values) if values else self

    def zadd(self, name: str, mapping: Mapping[str, float]) -> WriteBatch:
        """``ZADD name score member ...`` (redis-py's ``mapping`` is member -> score)."""
        args: list[Any] = []
        for member, score in mapping.items():
            args += [repr(float(score)), member]
        return self._add("ZADD", name, args) if args else self

    def zrem(self, name: str, *values: str) -> WriteBatch:
        """``ZREM name values...``."""
        return self._add("ZREM", name, values) if values else self

    def expire(self, name: str, seconds: int) -> WriteBatch:
        """``EXPIRE name seconds``."""
        return self._add("EXPIRE", name, (int(seconds),))

    # -- running it ----------------------------------------------------------------------
    def split(self, keep) -> tuple[WriteBatch, WriteBatch]:
        """``(writes whose key satisfies keep(key), the others)``, each in order."""
        inside, outside = WriteBatch(), WriteBatch()
        for write in self.writes:
            (inside if keep(write[1]) else outside).writes.append(write)
        return inside, outside

    def encode(self, first_key_index: int) -> tuple[list[str], list[str]]:
        """``(keys, words)`` for the append script: the distinct keys in first-use order
        (to be ``KEYS[first_key_index..]``) and the ``ARGV`` words of every write."""
        index: dict[str, int] = {}
        words: list[str] = []
        for command, key, args in self.writes:
            if key not in index:
                index[key] = first_key_index + len(index)
            words += [command, str(index[key]), str(len(args)), *args]
        return list(index), words

    def apply(self, pipe) -> None:
        """Queue every write on ``pipe`` (a redis-py pipeline or client)."""
        for command, key, args in self.writes:
            pipe.execute_command(command, key, *args)


#: Lua: run the writes encoded by :meth:`WriteBatch.encode` from ``ARGV[first]`` on.
LUA_RUN_WRITES = """
local function run_writes(first)
  local i = first
  while i <= #ARGV do
    local key = KEYS[tonumber(ARGV[i + 1])]
    local n = tonumber(ARGV[i + 2])
    redis.call(ARGV[i], key, unpack(ARGV, i + 3, i + 2 + n))
    i = i + 3 + n
  end
end
"""
