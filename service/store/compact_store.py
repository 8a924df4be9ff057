"""The compacted-match adapter: a finished match's compacted log (``P:{mid}:log``), the
set of finished matches waiting for compaction and the sorted set of compacted matches.

A compacted log is the match's verified export document (:func:`service.log.verify.export_log`)
without what its content determines: each envelope's ``version``, ``prev_hash`` and
``hash`` (the hash chain, docs/CONTRACTS.md) are dropped and recomputed when it is read,
and the recomputed chain must end at the recorded ``head_hash`` (a damaged log is refused,
never served). The JSON ``{"format": COMPACT_FORMAT, "head_hash", "doc"}`` is
xz-compressed (LZMA2 with a dictionary the size of the input, Python's ``lzma``; preset 6
from :data:`SMALL_LOG_BYTES` of JSON on, about 15 KB for a 390-event 6-seat match whose full
stream takes 200 KB; preset 1 below it: a 19-event Duel match 1.6 KB instead of 1.45, its
compression 0.24 ms of CPU instead of 0.8). It is
stored as raw bytes (read with redis-py's
``NEVER_DECODE``: the store client decodes replies as text).
"""

from __future__ import annotations

import lzma
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from redis.client import NEVER_DECODE
from redis.exceptions import WatchError

from service.log.codec import LOG_FORMAT_V1, dumps, envelope_hash, genesis_hash, loads
from service.store.keys import Keys
from service.store.slots import shard_map

#: fields of the meta hash a compacted match no longer needs (the running match's
#: decision book-keeping and the client quota; the rest stays for the lobby and reads)
DROPPED_META = ("decisions", "pending", "quota_client")


#: a compacted log's JSON shorter than this is compressed with LZMA2 preset 1 (fast mode),
#: longer ones with preset 6: on a short match's log preset 6 took 3.4x the CPU to save
#: ~10% of 1.6 KB, and a short match (the peer benchmark's Duel: ~10 moves) pays its
#: compaction out of few moves; xz decodes either without being told which
SMALL_LOG_BYTES = 16 * 1024

#: the ``format`` of a compacted log's JSON
COMPACT_FORMAT = "apocalypse-arena/compact@1"
CHAIN_FIELDS = ("version", "prev_hash", "hash")


class DamagedLog(ValueError):
    """A compacted log that does not decode or whose recomputed chain misses its head."""


def _body(doc: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`pack` compresses: the document with its chain fields dropped and the
    head hash beside it."""
    events = doc["events"]
    stripped = [{k: v for k, v in env.items() if k not in CHAIN_FIELDS} for env in events]
    return {
        "format": COMPACT_FORMAT,
        "head_hash": events[-1]["hash"] if events else "",
        "doc": {**doc, "events": stripped},
    }


def pack(doc: Mapping[str, Any]) -> bytes:
    """The compacted form of an export document (see module docstring)."""
    data = dumps(_body(doc)).encode("utf-8")
    preset = 1 if len(data) < SMALL_LOG_BYTES else 6
    return lzma.compress(
        data, filters=[{"id": lzma.FILTER_LZMA2, "preset": preset, **_dict_size(data)}]
    )


def _dict_size(data: bytes) -> dict[str, int]:
    """LZMA2's dictionary for ``data``: the power of two that holds it (4 KB to preset 6's
    8 MB). A dictionary larger than the input finds no more matches, but preset 6's 8 MB
    one took ~4 ms to set up for each few-KB log (most of a compaction); the output
    (``.xz``: the dictionary size is in its header) decodes as before."""
    return {"dict_size": min(1 << 23, max(1 << 12, 1 << (len(data) - 1).bit_length()))}


def unpack(blob: bytes) -> dict[str, Any]:
    """The export document of a compacted log, its hash chain recomputed (each envelope
    ``{"version", ..., "prev_hash", "hash"}``). Raises DamagedLog."""
    try:
        body = loads(lzma.decompress(blob))
        doc = body["doc"]
        prev = genesis_hash(doc["match_id"])
        log_format = doc.get("format") or LOG_FORMAT_V1
        events = []
        for version, env in enumerate(doc["events"], start=1):
            full = {"version": version, **env, "prev_hash": prev}
            full["hash"] = prev = envelope_hash(full, log_format)
            events.append(full)
    except (lzma.LZMAError, ValueError, KeyError, TypeError) as error:
        raise DamagedLog(f"compacted log does not decode: {error}") from None
    if body.get("format") != COMPACT_FORMAT or (events and prev != body.get("head_hash")):
        raise DamagedLog("compacted log's hash chain does not end at its head")
    return {**doc, "events": events}


def decodes_to(blob: bytes, doc: Mapping[str, Any]) -> bool:
    """True when :func:`unpack` of ``blob`` (from :func:`pack`) gives back ``doc``, for a
    ``doc`` whose hash chain is intact (:func:`service.log.codec.chain_errors` found nothing,
    as :func:`service.log.verify.verify_log` checks): the decoded body must equal what
    :func:`pack` wrote. The chain :func:`unpack` recomputes from equal events is then the
    document's own, so it is not hashed a second time (a compaction's check, 10% of it)."""
    try:
        return loads(lzma.decompress(blob)) == _body(doc)
    except (lzma.LZMAError, ValueError):
        return False


def _as_dict(reply) -> dict[str, str]:
    """A hash-like reply as a dict: redis-py parses ``HGETALL`` and a stream entry's fields
    into one, except an ``XRANGE`` entry's fields inside a Redis Cluster ``MULTI`` (redis-py
    8 answers them as the flat ``[k1, v1, ...]`` there)."""
    if isinstance(reply, Mapping):
        return dict(reply)
    flat = list(reply or [])
    return {flat[i]: flat[i + 1] for i in range(0, len(flat) - 1, 2)}


class FinishedRead(NamedTuple):
    """What :meth:`CompactStore.read_finished` read in one ``MULTI``: the match's ``meta``
    hash (``{}``: no such match in Redis), its stream's ``envelopes`` (in order, ``[]``
    once compacted), the ``claimed`` seats (holding a token) and ``own_idem``: the
    service's own turn-timeout idempotency fields (with ``#``,
    :meth:`service.store.keys.Keys.timeout_idem_field`) that :meth:`CompactStore.store`
    deletes."""

    meta: dict[str, str]
    envelopes: list[dict[str, Any]]
    claimed: set[int]
    own_idem: list[str]


class CompactStore:
    """Reads and writes compacted matches in one Redis (``decode_responses=True``)."""

    def __init__(self, redis, keys: Keys, shards: int = 16):
        self.redis = redis
        self.keys = keys
        self.map = shard_map(keys.prefix, shards)  # the index shards (service/store/slots.py)

    def mark_pending(self, match_id: str, idem_ttl_s: float, pipe) -> None:
        """Queue on ``pipe``, with the append that ended the match: file it as waiting for
        compaction and let its idempotency records expire in ``idem_ttl_s`` seconds."""
        pipe.sadd(self.keys.compact_pending(), match_id)
        pipe.expire(self.keys.idem(match_id), max(1, int(idem_ttl_s)))

    def pending_ids(self, count: int) -> list[str]:
        """Up to ``count`` ids of finished matches not compacted yet."""
        return list(self.redis.srandmember(self.keys.compact_pending(), count) or [])

    def read_finished(self, match_id: str) -> FinishedRead:
        """Everything compacting the match reads, in one ``MULTI`` (one round trip; its
        per-match keys share one cluster slot): the meta hash, the whole stream, the
        token holders and the idempotency fields :meth:`store` drops. Read together, the
        meta and the stream are one moment's: a compaction by another process lands
        before or after the read, never between its parts."""
        keys = self.keys
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(keys.meta(match_id))
        pipe.xrange(keys.events(match_id))
        pipe.hkeys(keys.tokens(match_id))
        pipe.hkeys(keys.idem(match_id))
        meta, entries, tokens, idem = pipe.execute()
        return FinishedRead(
            _as_dict(meta),
            [loads(_as_dict(fields)["e"]) for _entry_id, fields in entries or []],
            {int(seat) for seat in tokens or []},
            # "<seat>#timeout:<version>"; a client's "<seat>:<key>" may hold "#" in its key
            [field for field in idem or [] if "#" in field.partition(":")[0]],
        )

    def store(self, match_id: str, blob: bytes, own_idem: Sequence[str] = ()) -> None:
        """Replace the match's stream, snapshot and deadlines by ``blob`` in one ``MULTI``
        (per-match keys only: one cluster slot), mark the meta hash ``compacted`` (its
        size in bytes) and drop :data:`DROPPED_META`. Clients' idempotency records keep
        their TTL; the service's own turn-timeout records ``own_idem`` (as
        :meth:`read_finished` read them) go in the same ``MULTI``: no timeout acts on a
        finished match, so none is added after that read."""
        keys = self.keys
        pipe = self.redis.pipeline(transaction=True)
        if own_idem:
            pipe.hdel(keys.idem(match_id), *own_idem)
        pipe.set(keys.log(match_id), blob)
        pipe.hset(keys.meta(match_id), "compacted", len(blob))
        pipe.hdel(keys.meta(match_id), *DROPPED_META)
        pipe.delete(keys.events(match_id), keys.snap(match_id), keys.deadlines(match_id))
        pipe.execute()

    def filed(self, match_id: str, finished_ts: float, also=None) -> None:
        """The global book-keeping of a compacted match (after :meth:`store`; a crash in
        between is repaired by the next pass over the pending set): it leaves the pending
        set and the ``matches`` list, and joins the compacted set scored ``finished_ts``.
        ``also(pipe)``, when given, queues more commands on the same round trip (the
        compaction counter)."""
        pipe = self.redis.pipeline(transaction=False)
        if also is not None:
            also(pipe)
        pipe.zadd(self.keys.compacted(), {match_id: finished_ts})
        pipe.srem(self.keys.compact_pending(), match_id)
        pipe.zrem(self.keys.matches(self.map.shard_of(match_id)), match_id)
        pipe.zrem(self.keys.matches(), match_id)  # the pre-sharding list
        pipe.execute()

    def drop_pending(self, match_id: str) -> None:
        """Forget a pending id (the match vanished or cannot be compacted)."""
        self.redis.srem(self.keys.compact_pending(), match_id)

    def blob(self, match_id: str) -> bytes | None:
        """The compacted log's bytes, or ``None`` when the match has none in Redis."""
        return self.redis.execute_command("GET", self.keys.log(match_id), **{NEVER_DECODE: []})

    def due(self, before_ts: float, count: int) -> list[str]:
        """Up to ``count`` compacted match ids that ended before ``before_ts``, oldest first."""
        return list(
            self.redis.zrangebyscore(
                self.keys.compacted(), "-inf", repr(before_ts), start=0, num=count
            )
        )

    def ids(self) -> list[str]:
        """Every compacted match id Redis holds (``arena ratings rebuild``)."""
        return list(self.redis.zrange(self.keys.compacted(), 0, -1))

    def count(self) -> int:
        """How many compacted matches Redis holds."""
        return int(self.redis.zcard(self.keys.compacted()))

    # ------------------------------------------------------------------ the archive mover
    def contents(self, match_id: str) -> tuple[dict[str, str], dict[str, str], bytes | None]:
        """``(meta hash, token digests, compacted log or None)`` of a match, as the
        archive mover copies them (``({}, {}, None)`` when its keys are gone)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hgetall(self.keys.meta(match_id))
        pipe.hgetall(self.keys.tokens(match_id))
        meta, tokens = pipe.execute()
        return meta, tokens, self.blob(match_id) if meta else None

    def delete_unchanged(
        self, match_id: str, meta: Mapping[str, str], tokens: Mapping[str, str]
    ) -> bool:
        """Delete every key of the match in one ``MULTI``, under ``WATCH`` of its meta and
        tokens, unless they differ from ``meta`` / ``tokens`` (what was copied) or change
        before the ``EXEC``; True when deleted."""
        keys = self.keys
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(keys.meta(match_id), keys.tokens(match_id))
                if (
                    pipe.hgetall(keys.meta(match_id)) != meta
                    or pipe.hgetall(keys.tokens(match_id)) != tokens
                ):
                    return False
                pipe.multi()
                pipe.delete(*keys.match_keys(match_id))
                pipe.execute()
                return True
            except WatchError:
                return False

    def trim(self, keep: int) -> int:
        """Keep only the ``keep`` most recently ended ids in the compacted set (``0``: no
        bound); returns how many left it. Used only without an archive, where nothing reads
        the set but a mover configured later (it then moves these newest ones and every
        match ending afterwards; the trimmed ones stay in Redis, readable as before)."""
        if keep <= 0:
            return 0
        return int(self.redis.zremrangebyrank(self.keys.compacted(), 0, -keep - 1))

    def unlist(self, match_id: str, pipe) -> None:
        """Queue on ``pipe``: the match leaves the compacted set (it was archived)."""
        pipe.zrem(self.keys.compacted(), match_id)
