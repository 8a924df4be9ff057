"""The Redis Streams event store: one stream per match, atomic conditional batch append.

Every call is one round trip. The append is one Lua script (all its keys in the match's
cluster slot: the per-match keys carry the tag ``{match_id}`` and a slot-aligned match's
index shard shares it, :mod:`service.store.slots`). It, atomically:

1. returns the stored first answer when the idempotency field already exists (nothing
   appended: two racing identical requests cannot both append);
2. returns ``conflict`` when the match version is not the expected one, or its
   ``head_hash`` is not the expected one (when one is given: the new envelopes' first
   ``prev_hash`` must be the stored head, so the chain can never fork) - together with what
   the caller needs to decide again without another read: the meta hash, the latest
   snapshot and the events after it (or, for a caller that still holds its fold at the
   expected version, only the events after that version);
3. otherwise ``XADD``s every envelope at entry id ``0-<version>`` (gap-free, 1-based), sets
   ``version`` and the given meta fields, records the idempotent answer and runs the
   queued :class:`service.store.write_batch.WriteBatch` (counters, indexes, snapshot).

:meth:`EventStore.head` reads a match in one script call too: meta, the snapshot and the
events after it (or only the events after the version a caller's cached fold is at), the
idempotency record, the seat-token digests and the turn deadlines.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redis import exceptions as redis_errors
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from service.log.codec import dumps, loads
from service.store.keys import Keys
from service.store.slots import slot_of_tag
from service.store.store_errors import probe
from service.store.write_batch import LUA_RUN_WRITES, WriteBatch

log = logging.getLogger(__name__)

#: Lua: the meta, the latest snapshot at or before the current version and the entries
#: after it (``{meta, snap, start, tail}``) - a reload in the same script.
_LUA_RELOAD = """
local function reload(events_key, meta_key, snap_key, current)
  local snap = redis.call('HGETALL', snap_key)
  local sv = tonumber(redis.call('HGET', snap_key, 'version') or '0') or 0
  if sv <= 0 or sv > current then sv = 0; snap = {} end
  local tail = {}
  if sv < current then tail = redis.call('XRANGE', events_key, '0-' .. (sv + 1), '0-' .. current) end
  return redis.call('HGETALL', meta_key), snap, sv, tail
end
"""

APPEND_LUA = (
    LUA_RUN_WRITES
    + _LUA_RELOAD
    + """
if ARGV[2] ~= '' then
  local prior = redis.call('HGET', KEYS[3], ARGV[2])
  if prior then return {'replayed', prior} end
end
local current = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local expected = tonumber(ARGV[1])
local stale = current ~= expected
if not stale and ARGV[4] ~= '' and (redis.call('HGET', KEYS[2], 'head_hash') or '') ~= ARGV[4] then
  stale = true
end
if stale then
  if ARGV[7] == '1' and current > expected then
    -- the caller still holds its fold at the expected version: the events after it
    local tail = redis.call('XRANGE', KEYS[1], '0-' .. (expected + 1), '0-' .. current)
    return {'conflict', tostring(current), redis.call('HGETALL', KEYS[2]), {},
            tostring(expected), tail}
  end
  local meta, snap, sv, tail = reload(KEYS[1], KEYS[2], KEYS[4], current)
  return {'conflict', tostring(current), meta, snap, tostring(sv), tail}
end
local pairs_n = tonumber(ARGV[5])
local envs_n = tonumber(ARGV[6])
local first = 8 + 2 * pairs_n
local v = expected
for i = first, first + envs_n - 1 do
  v = v + 1
  redis.call('XADD', KEYS[1], '0-' .. v, 'e', ARGV[i])
end
redis.call('HSET', KEYS[2], 'version', v)
for i = 0, pairs_n - 1 do
  redis.call('HSET', KEYS[2], ARGV[8 + 2 * i], ARGV[9 + 2 * i])
end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
run_writes(first + envs_n)
return {'ok', tostring(v)}
"""
)

#: KEYS meta, events, snap, idem, tokens, deadlines; ARGV[1] the cached fold's version or
#: '' (none: read from the snapshot), ARGV[2] an idempotency field or ''.
HEAD_LUA = (
    _LUA_RELOAD
    + """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if current < 0 then return {} end
local cached = tonumber(ARGV[1])
local meta, snap, start, tail
if cached and cached <= current then
  meta, snap, start = redis.call('HGETALL', KEYS[1]), {}, cached
  tail = {}
  if cached < current then tail = redis.call('XRANGE', KEYS[2], '0-' .. (cached + 1), '0-' .. current) end
else
  meta, snap, start, tail = reload(KEYS[2], KEYS[1], KEYS[3], current)
end
local prior = false
if ARGV[2] ~= '' then prior = redis.call('HGET', KEYS[4], ARGV[2]) end
return {meta, snap, tostring(start), tail, prior,
        redis.call('HGETALL', KEYS[5]), redis.call('HGETALL', KEYS[6])}
"""
)


def _pairs(flat: Sequence[str] | None) -> dict[str, str]:
    """A Redis ``HGETALL``-style flat list ``[k1, v1, k2, v2, ...]`` as a dict."""
    flat = flat or []
    return {flat[i]: flat[i + 1] for i in range(0, len(flat) - 1, 2)}


def _envelopes(entries) -> list[dict[str, Any]]:
    """Raw ``XRANGE`` entries ``[[id, [field, value, ...]], ...]`` as envelopes."""
    return [loads(_pairs(fields)["e"]) for _entry_id, fields in entries or []]


#: The longest one ``XREAD BLOCK`` of :meth:`EventStore.wait_after` lasts (seconds), when
#: the client's socket timeout allows it (:func:`block_slice_s`).
MAX_BLOCK_SLICE_S = 2.0


def socket_timeout_s(client) -> float | None:
    """The socket (read) timeout in seconds a redis-py client's connections use (``None``:
    none, or a client that does not say, e.g. fakeredis): the connection pool's options of a
    ``redis.Redis``, the nodes manager's of a ``RedisCluster``."""
    holder = getattr(client, "connection_pool", None) or getattr(client, "nodes_manager", None)
    options = getattr(holder, "connection_kwargs", None)
    if not isinstance(options, Mapping):
        return None
    value = options.get("socket_timeout")
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def block_slice_s(client) -> float:
    """Seconds one blocking ``XREAD`` may last on ``client``: :data:`MAX_BLOCK_SLICE_S`,
    or half its socket timeout when that is shorter (so a blocked read always answers
    before the socket gives up on it), at least 0.05 s."""
    timeout = socket_timeout_s(client)
    if timeout is None:
        return MAX_BLOCK_SLICE_S
    return max(0.05, min(MAX_BLOCK_SLICE_S, timeout / 2))


@dataclass(slots=True)
class HeadRead:
    """A match as one read found it.

    ``meta``: the meta hash (empty: no such match); ``snapshot``: the raw snapshot hash the
    ``tail`` starts after (``{}``: none); ``start``: the version ``tail`` starts after (the
    snapshot's, the caller's cached version, or 0); ``tail``: envelopes ``start+1..``
    the current version; ``prior``: the JSON-decoded idempotent answer (or ``None``);
    ``tokens``: seat -> token digest; ``deadlines``: seat -> raw deadline record JSON
    (both ``None`` when this read did not fetch them).
    """

    meta: dict[str, str]
    snapshot: dict[str, str]
    start: int
    tail: list[dict[str, Any]]
    prior: Any = None
    tokens: dict[int, str] | None = None
    deadlines: dict[int, str] | None = None


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Outcome of :meth:`EventStore.append`.

    ``status`` is ``"ok"`` (``version`` = new version), ``"conflict"`` (``version`` = the
    current version; ``reload`` = the match as the script found it, to decide again) or
    ``"replayed"`` (``answer`` = the JSON-decoded first answer).
    """

    status: str
    version: int | None = None
    answer: Any = None
    reload: HeadRead | None = None


class EventStore:
    """Reads and appends event envelopes (dicts) of matches in one Redis or Redis Cluster.

    ``redis`` must be a client created with ``decode_responses=True`` (``redis.Redis``,
    ``redis.cluster.RedisCluster`` or fakeredis).
    """

    def __init__(
        self,
        redis,
        keys: Keys,
        *,
        blocking_reads: bool = True,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ):
        self.redis = redis
        self.keys = keys
        self.blocking_reads = blocking_reads
        self.wait_replicas = max(0, int(wait_replicas))
        self.wait_ms = max(1, int(wait_ms))
        self.cluster = isinstance(redis, RedisCluster)
        self.block_slice_s = block_slice_s(redis)
        self._append = redis.register_script(APPEND_LUA)
        self._head = redis.register_script(HEAD_LUA)

    def append(
        self,
        match_id: str,
        expected_version: int,
        envelopes: Sequence[Mapping[str, Any]],
        meta: Mapping[str, str] | None = None,
        idem_field: str | None = None,
        idem_answer: Any = None,
        expected_head: str | None = None,
        writes: WriteBatch | None = None,
        holds_fold: bool = False,
    ) -> AppendResult:
        """Append ``envelopes`` (versions ``expected_version+1..``) iff the match is at
        ``expected_version`` (and, when ``expected_head`` is given, its stored ``head_hash``
        is that hash) and ``idem_field`` (if given) was never recorded.

        A conflict's ``reload`` is the meta, the latest snapshot and the events after it;
        with ``holds_fold`` (the caller still holds its fold at ``expected_version``) and a
        store that moved past that version, only the meta and the events after
        ``expected_version`` (``reload.start == expected_version``, no snapshot).

        ``meta`` fields are set and ``writes`` run in the same script, only when appended.
        On a Redis Cluster the writes whose keys are outside the match's slot (a client's
        bot-match set, the index shard of a match id that is not slot-aligned) follow in
        one more pipelined round trip. The envelopes must already carry their versions and
        hashes. One round trip (a ``NOSCRIPT`` reply loads the script and retries).
        """
        for offset, env in enumerate(envelopes, start=1):
            if env["version"] != expected_version + offset:
                raise ValueError("envelope versions must continue expected_version gap-free")
        pairs: list[str] = []
        for field_name, value in (meta or {}).items():
            pairs += [field_name, str(value)]
        keys = [
            self.keys.events(match_id),
            self.keys.meta(match_id),
            self.keys.idem(match_id),
            self.keys.snap(match_id),
        ]
        inside, outside = (writes or WriteBatch()), WriteBatch()
        if self.cluster and len(inside):
            slot = slot_of_tag(keys[0])
            inside, outside = inside.split(lambda key: slot_of_tag(key) == slot)
        write_keys, words = inside.encode(len(keys) + 1)
        args = [
            str(expected_version),
            idem_field or "",
            dumps(idem_answer) if idem_field else "",
            expected_head or "",
            str(len(pairs) // 2),
            str(len(envelopes)),
            "1" if holds_fold else "",
            *pairs,
        ]
        args += [dumps(env) for env in envelopes]
        reply = self._run_append(keys + write_keys, args + words)
        status, value = reply[0], reply[1]
        if status == "replayed":
            return AppendResult("replayed", answer=loads(value))
        if status == "conflict":
            return AppendResult(
                "conflict",
                version=int(value),
                reload=HeadRead(
                    _pairs(reply[2]), _pairs(reply[3]), int(reply[4]), _envelopes(reply[5])
                ),
            )
        if len(outside):
            pipe = self.redis.pipeline(transaction=False)
            outside.apply(pipe)
            pipe.execute()
        return AppendResult(status, version=int(value))

    def _run_append(self, keys: list[str], args: list[str]):
        """The append script's reply; with ``wait_replicas`` the script and a ``WAIT`` in
        one pipeline on the connection of the match's master (one round trip). A
        connection error or ``MOVED`` there refreshes a cluster client's slot map and
        propagates (503 ``store_unavailable``; the client retries)."""
        if not self.wait_replicas:
            return self._append(keys=keys, args=args)
        client = self.redis
        if self.cluster:
            client = self.redis.get_redis_connection(self.redis.get_node_from_key(keys[0]))
        for _attempt in range(2):
            pipe = client.pipeline(transaction=False)
            pipe.evalsha(self._append.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
            try:
                reply, acked = pipe.execute()
            except NoScriptError:
                client.script_load(APPEND_LUA)
                continue
            except (
                redis_errors.ConnectionError,
                redis_errors.TimeoutError,
                redis_errors.AskError,
                redis_errors.ClusterDownError,
                redis_errors.TryAgainError,
            ):
                if self.cluster:
                    self.redis.nodes_manager.initialize()
                raise
            if reply[0] == "ok" and int(acked) < self.wait_replicas:
                log.warning(
                    "append to %s confirmed by %s of %s replicas in %s ms",
                    keys[0],
                    acked,
                    self.wait_replicas,
                    self.wait_ms,
                )
            return reply
        raise redis_errors.NoScriptError("the append script could not be loaded")

    def apply(self, writes: WriteBatch) -> None:
        """Run ``writes`` outside an append (one pipelined round trip; nothing when empty)."""
        if len(writes):
            pipe = self.redis.pipeline(transaction=False)
            writes.apply(pipe)
            pipe.execute()

    def head(
        self, match_id: str, cached_version: int | None = None, idem_field: str | None = None
    ) -> HeadRead:
        """One script call: the match's meta hash, the events after ``cached_version`` (a
        caller's cached fold; ``None`` or a version past the head: the latest snapshot and
        the events after it), the JSON-decoded answer recorded under ``idem_field``, the
        seat-token digests and the turn-deadline records. ``meta`` is empty when the match
        does not exist."""
        keys = [
            self.keys.meta(match_id),
            self.keys.events(match_id),
            self.keys.snap(match_id),
            self.keys.idem(match_id),
            self.keys.tokens(match_id),
            self.keys.deadlines(match_id),
        ]
        reply = self._head(
            keys=keys,
            args=["" if cached_version is None else str(cached_version), idem_field or ""],
        )
        if not reply:
            return HeadRead({}, {}, 0, [])
        meta, snap, start, tail, prior, tokens, deadlines = reply
        return HeadRead(
            _pairs(meta),
            _pairs(snap),
            int(start),
            _envelopes(tail),
            None if prior is None else loads(prior),
            {int(k): v for k, v in _pairs(tokens).items()},
            {int(k): v for k, v in _pairs(deadlines).items()},
        )

    def claim_meta_field(self, match_id: str, field_name: str, value: str) -> str:
        """Set meta field ``field_name`` to ``value`` unless it is set (``HSETNX``); the
        value it holds now (``value`` when this call set it). One round trip."""
        # HSETNX never overwrites: the value read after it is stable, no MULTI needed
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(self.keys.meta(match_id), field_name, value)
        pipe.hget(self.keys.meta(match_id), field_name)
        return pipe.execute()[1]

    def meta(self, match_id: str) -> dict[str, str]:
        """The match's meta hash (empty dict when the match does not exist)."""
        return self.redis.hgetall(self.keys.meta(match_id))

    def read(
        self, match_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Envelopes with ``after < version <= upto`` (``upto`` None = to the end), in order."""
        end = "+" if upto is None else f"0-{upto}"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(self.keys.events(match_id), f"0-{after + 1}", end, count=limit)
        return [loads(fields["e"]) for _entry_id, fields in entries]

    def ping(self) -> bool:
        """True when the store answers a ``PING`` (any failure means down)."""
        return self.probe() == "ok"

    def probe(self) -> str:
        """The store's state after one ``PING``: ``"ok"``, ``"loading"``, ``"unreachable"``,
        ... (:func:`service.store.store_errors.store_state`); never raises."""
        return probe(self.redis)

    def batch(self):
        """A non-transactional pipeline (on a cluster: one per node, sent in parallel)."""
        return self.redis.pipeline(transaction=False)

    def wait_after(self, match_id: str, after: int, wait_s: float) -> bool:
        """Block until the stream has an entry after version ``after`` or ``wait_s`` pass.

        Real Redis: ``XREAD BLOCK`` in slices of at most :attr:`block_slice_s` seconds, each
        shorter than the client's socket timeout, so a wait of any length holds (one blocked
        ``XREAD`` of the whole wait would be cut by the socket timeout: 503 after 5 s on
        redis-py 8, issue 18) while a Redis that goes away mid-wait still fails the next
        slice within one socket timeout (a store-unavailable error, 503). Embedded
        fakeredis (``blocking_reads=False``): a bounded poll every 50 ms. Returns True when
        a newer event exists.
        """
        key = self.keys.events(match_id)
        deadline = time.monotonic() + max(0.0, wait_s)
        while True:
            remaining = deadline - time.monotonic()
            if self.blocking_reads and remaining > 0:
                block_ms = max(1, int(min(remaining, self.block_slice_s) * 1000))
                if self.redis.xread({key: f"0-{after}"}, count=1, block=block_ms):
                    return True
            else:
                if self.redis.xrange(key, f"0-{after + 1}", "+", count=1):
                    return True
            if time.monotonic() >= deadline:
                return False
            if not self.blocking_reads:
                time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
