"""The Redis Streams event store: one stream per match, atomic conditional batch append.

The append is one Lua script (every key in ``KEYS``, all hash-tagged ``{match_id}``, so it
runs on Redis Cluster). It, atomically:

1. returns the stored first answer when the idempotency field already exists (nothing
   appended: two racing identical requests cannot both append);
2. returns ``conflict`` when the match version is not the expected one, or its
   ``head_hash`` is not the expected one (when one is given: the new envelopes' first
   ``prev_hash`` must be the stored head, so the chain can never fork);
3. otherwise ``XADD``s every envelope at entry id ``0-<version>`` (gap-free, 1-based), sets
   ``version`` and the given meta fields, and records the idempotent answer.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from service.codec import dumps, loads
from service.keys import Keys
from service.store_errors import probe

APPEND_LUA = """
if ARGV[2] ~= '' then
  local prior = redis.call('HGET', KEYS[3], ARGV[2])
  if prior then return {'replayed', prior} end
end
local current = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local expected = tonumber(ARGV[1])
if current ~= expected then return {'conflict', tostring(current)} end
if ARGV[5] ~= '' and (redis.call('HGET', KEYS[2], 'head_hash') or '') ~= ARGV[5] then
  return {'conflict', tostring(current)}
end
local pairs_n = tonumber(ARGV[4])
local first = 6 + 2 * pairs_n
local v = expected
for i = first, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[1], '0-' .. v, 'e', ARGV[i])
end
redis.call('HSET', KEYS[2], 'version', v)
for i = 0, pairs_n - 1 do
  redis.call('HSET', KEYS[2], ARGV[6 + 2 * i], ARGV[7 + 2 * i])
end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
return {'ok', tostring(v)}
"""


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Outcome of :meth:`EventStore.append`.

    ``status`` is ``"ok"`` (``version`` = new version), ``"conflict"`` (``version`` = the
    current version) or ``"replayed"`` (``answer`` = the JSON-decoded first answer).
    """

    status: str
    version: int | None = None
    answer: Any = None


class EventStore:
    """Reads and appends event envelopes (dicts) of matches in one Redis.

    ``redis`` must be a client created with ``decode_responses=True``.
    """

    def __init__(self, redis, keys: Keys, *, blocking_reads: bool = True):
        self.redis = redis
        self.keys = keys
        self.blocking_reads = blocking_reads
        self._append = redis.register_script(APPEND_LUA)

    def append(self, match_id: str, expected_version: int, envelopes: Sequence[Mapping[str, Any]],
               meta: Mapping[str, str] | None = None, idem_field: str | None = None,
               idem_answer: Any = None, expected_head: str | None = None) -> AppendResult:
        """Append ``envelopes`` (versions ``expected_version+1..``) iff the match is at
        ``expected_version`` (and, when ``expected_head`` is given, its stored ``head_hash``
        is that hash) and ``idem_field`` (if given) was never recorded.

        ``meta`` fields are set in the same transaction (``head_hash``, ``pending``, ...).
        The envelopes must already carry their versions and hashes.
        """
        for offset, env in enumerate(envelopes, start=1):
            if env["version"] != expected_version + offset:
                raise ValueError("envelope versions must continue expected_version gap-free")
        pairs: list[str] = []
        for field_name, value in (meta or {}).items():
            pairs += [field_name, str(value)]
        args = [str(expected_version), idem_field or "",
                dumps(idem_answer) if idem_field else "", str(len(pairs) // 2),
                expected_head or "", *pairs]
        args += [dumps(env) for env in envelopes]
        keys = [self.keys.events(match_id), self.keys.meta(match_id), self.keys.idem(match_id)]
        status, value = self._append(keys=keys, args=args)
        if status == "replayed":
            return AppendResult("replayed", answer=loads(value))
        return AppendResult(status, version=int(value))

    def claim_meta_field(self, match_id: str, field_name: str, value: str) -> str:
        """Set meta field ``field_name`` to ``value`` unless it is set (``HSETNX``); the
        value it holds now (``value`` when this call set it). One round trip."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(self.keys.meta(match_id), field_name, value)
        pipe.hget(self.keys.meta(match_id), field_name)
        return pipe.execute()[1]

    def meta(self, match_id: str) -> dict[str, str]:
        """The match's meta hash (empty dict when the match does not exist)."""
        return self.redis.hgetall(self.keys.meta(match_id))

    def head(self, match_id: str, after: int | None = None,
             idem_field: str | None = None) -> tuple[dict[str, str], list[dict[str, Any]] | None, Any]:
        """One ``MULTI`` round trip: the meta hash, the envelopes after version ``after``
        (``None`` when ``after`` is ``None``: not read) and the JSON-decoded answer recorded
        under ``idem_field`` (``None`` when there is none or no field is given)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(self.keys.meta(match_id))
        if after is not None:
            pipe.xrange(self.keys.events(match_id), f"0-{after + 1}", "+")
        if idem_field:
            pipe.hget(self.keys.idem(match_id), idem_field)
        replies = pipe.execute()
        tail = None if after is None else [loads(fields["e"]) for _id, fields in replies[1]]
        raw_prior = replies[-1] if idem_field else None
        return replies[0], tail, None if raw_prior is None else loads(raw_prior)

    def read(self, match_id: str, after: int = 0, upto: int | None = None,
             limit: int | None = None) -> list[dict[str, Any]]:
        """Envelopes with ``after < version <= upto`` (``upto`` None = to the end), in order."""
        end = "+" if upto is None else f"0-{upto}"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(self.keys.events(match_id), f"0-{after + 1}", end, count=limit)
        return [loads(fields["e"]) for _entry_id, fields in entries]

    def recorded_answer(self, match_id: str, idem_field: str) -> Any:
        """The JSON-decoded answer recorded under ``idem_field`` or ``None``."""
        raw = self.redis.hget(self.keys.idem(match_id), idem_field)
        return None if raw is None else loads(raw)

    def ping(self) -> bool:
        """True when the store answers a ``PING`` (any failure means down)."""
        return self.probe() == "ok"

    def probe(self) -> str:
        """The store's state after one ``PING``: ``"ok"``, ``"loading"``, ``"unreachable"``,
        ... (:func:`service.store_errors.store_state`); never raises."""
        return probe(self.redis)

    def batch(self):
        """A non-transactional pipeline: adapters queue their writes on it (``pipe=``) and
        the caller executes it, so book-keeping after an append is one round trip."""
        return self.redis.pipeline(transaction=False)

    def wait_after(self, match_id: str, after: int, wait_s: float) -> bool:
        """Block until the stream has an entry after version ``after`` or ``wait_s`` pass.

        Real Redis: ``XREAD BLOCK``. Embedded fakeredis (``blocking_reads=False``): a
        bounded poll every 50 ms. Returns True when a newer event exists.
        """
        key = self.keys.events(match_id)
        deadline = time.monotonic() + max(0.0, wait_s)
        while True:
            remaining = deadline - time.monotonic()
            if self.blocking_reads and remaining > 0:
                got = self.redis.xread({key: f"0-{after}"}, count=1, block=max(1, int(remaining * 1000)))
                if got:
                    return True
            else:
                if self.redis.xrange(key, f"0-{after + 1}", "+", count=1):
                    return True
            if time.monotonic() >= deadline:
                return False
            if not self.blocking_reads:
                time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
