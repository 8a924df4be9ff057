"""Canonical JSON and the SHA-256 hash chain of event envelopes (docs/CONTRACTS.md).

``hash = sha256(prev_hash + canonical(envelope without "hash"))``; the first event's
``prev_hash`` is ``sha256("apocalypse-arena:" + match_id)``. Hashes are lowercase hex (64).

Three log formats (the export's ``format``; a match keeps the one it was created with):

- ``apocalypse-arena/log@3`` (:data:`LOG_FORMAT`, every new match, issue 22): hashed as
  log@2; its roster may also say who played: a seat's ``player`` (a player id,
  :mod:`service.log.roster`), the ``player`` of a ``SeatJoined``, and ``rated: true``.
- ``apocalypse-arena/log@2`` (matches created before log@3): ``canonical`` is
  RFC 8785 (JSON Canonicalization Scheme, the ``rfc8785`` library) over I-JSON values
  (RFC 7493): every integer within ±(2^53 - 1) (larger ones, e.g. A.I.Pokalypse's 64-bit
  choice seeds, are written as decimal strings: :func:`ijson`), no integral floats (``300.0``
  is ``300``). Any language's JSON parser reads the same values and re-canonicalises them
  to the same bytes (``api/web/js/verify.js`` does, in the browser and in Node).
- ``apocalypse-arena/log@1`` (matches created before it): ``canonical`` is
  :func:`canonical_json`, Python's ``json.dumps`` with sorted keys; only a parser that keeps
  Python's number types (``300.0`` vs ``300``, integers beyond 2^53) can re-hash it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterable, Mapping
from typing import Any

import rfc8785

from domain.engine import derive_rng

try:  # optional accelerator: parses the same JSON into the same Python values
    import orjson as _orjson
except ImportError:  # pragma: no cover - the stdlib parser is the reference
    _orjson = None  # type: ignore[assignment]  # mypy sees orjson installed; None means absent

#: the old log format: hashes over :func:`canonical_json` (still verified)
LOG_FORMAT_V1 = "apocalypse-arena/log@1"
#: the log format of new matches: hashes over RFC 8785 of I-JSON values
LOG_FORMAT_V2 = "apocalypse-arena/log@2"
#: log@2 hashing, and a roster that records each seat's player and the ``rated`` flag
LOG_FORMAT_V3 = "apocalypse-arena/log@3"
#: the format every new match is created with
LOG_FORMAT = LOG_FORMAT_V3
#: every format a log may have, oldest first
LOG_FORMATS = (LOG_FORMAT_V1, LOG_FORMAT_V2, LOG_FORMAT_V3)
#: the formats hashed over RFC 8785 (:func:`jcs`) of I-JSON values
JCS_FORMATS = (LOG_FORMAT_V2, LOG_FORMAT_V3)
#: the formats whose roster may carry player ids and ``rated``
PLAYER_FORMATS = (LOG_FORMAT_V3,)
#: the largest integer every JSON parser reads exactly (RFC 7493 section 2.2: 2^53 - 1)
MAX_SAFE_INTEGER = 2**53 - 1

#: Envelope fields only present on the server copy; never in a redacted envelope.
# Server-only envelope fields, removed from every envelope a seat or spectator reads
# (they stay in the full export after the end). ``nonce`` is 128 random bits hashed with
# the envelope: without it a reader of a redacted event could brute-force the hidden
# ``data`` (a card id, a cell) from the published ``hash``.
PRIVATE_FIELDS = ("command", "nonce")


def canonical_json(obj: Any) -> str:
    """``json.dumps`` with sorted keys, no spaces, UTF-8 kept (``ensure_ascii=False``): the
    canonical form of :data:`LOG_FORMAT_V1` hashes, and of the server's own keys (meta
    fields, decision ids, idempotency fingerprints) that no other program re-computes.

    ``orjson`` with sorted keys writes the same text for the values :func:`_orjson_canonical`
    admits (no float, ASCII keys, integers within ±(2^53 - 1): its escapes are the
    stdlib's with ``ensure_ascii=False``; ``tests/unit/test_log_codec_jcs.py`` checks);
    anything else goes to ``json.dumps``."""
    if _orjson is not None and _orjson_canonical(obj):
        try:
            return _orjson.dumps(obj, option=_orjson.OPT_SORT_KEYS).decode("utf-8")
        except _orjson.JSONEncodeError:  # a lone surrogate: the stdlib writes it
            pass
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def jcs(obj: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of ``obj`` (the ``rfc8785`` library): sorted keys
    (by UTF-16 code units), no spaces, ECMAScript number forms (``300.0`` -> ``300``).
    Raises ``ValueError`` (``rfc8785.CanonicalizationError``) for what I-JSON excludes:
    integers beyond ±(2^53 - 1), NaN and infinities, lone surrogates in strings.

    The same bytes, faster: a value without floats whose keys are ASCII (every envelope
    the server writes; :func:`_orjson_canonical`) is written by ``orjson`` with sorted keys
    (its string escapes are RFC 8785's for every code point, and ASCII keys sort alike by
    code point and by UTF-16 code unit; ``tests/unit/test_log_codec_jcs.py`` checks);
    anything else by the ``rfc8785`` library, the reference."""
    if _orjson is not None and _orjson_canonical(obj):
        try:
            return _orjson.dumps(obj, option=_orjson.OPT_SORT_KEYS)
        except _orjson.JSONEncodeError:  # a lone surrogate: the reference raises
            pass
    return rfc8785.dumps(obj)


def _orjson_canonical(value: Any) -> bool:
    """True when ``orjson`` writes ``value`` as RFC 8785 does (:func:`jcs`): a
    :func:`plain_json` value whose dict keys are ASCII (tuples admitted: both write them as
    lists). No float: ECMAScript's number forms are the reference's."""
    return plain_json(value, ascii_keys=True, tuples=True)


def plain_json(value: Any, *, ascii_keys: bool = False, tuples: bool = False) -> bool:
    """True when ``value`` holds only dicts with string keys, lists, strings, booleans,
    ``None`` and integers (not their subclasses) within ±(2^53 - 1): no float, nothing
    else. ``ascii_keys``: every dict key must also be ASCII; ``tuples``: tuples count as
    lists. One iterative pass that stops at the first value of another kind; the callers'
    fast paths (:func:`jcs`, :func:`canonical_json`, ``verify_log``'s copy) rest on it."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or item is None or kind is bool:
            continue
        if kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return False
        elif kind is dict:
            for key in item:
                if type(key) is not str or (ascii_keys and not key.isascii()):
                    return False
            push(item.values())
        elif kind is list or (tuples and kind is tuple):
            push(item)
        else:
            return False
    return True


def ijson(value: Any) -> Any:
    """``value`` (plain JSON data) as I-JSON values (RFC 7493), what log@2 stores and hashes:
    an integer beyond ±(2^53 - 1) becomes its decimal string, a float with an integral
    value within that range an ``int`` (``300.0`` -> ``300``), tuples lists; other values
    are kept. Raises ``ValueError`` for NaN and infinities."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not an I-JSON number")
        if value.is_integer() and abs(value) <= MAX_SAFE_INTEGER:
            return int(value)
        return value
    if isinstance(value, Mapping):
        return {str(k): ijson(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [ijson(v) for v in value]
    return value


def ijson_errors(value: Any, where: str = "log") -> list[str]:
    """Where ``value`` (parsed JSON) leaves I-JSON (RFC 7493) as log@2 requires: each
    number whose value is an integer beyond ±(2^53 - 1) (a parser in JavaScript reads
    another number there) or that is not finite, named by its path (``log.events[3].data``).
    """
    out: list[str] = []
    stack = [(where, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, int):
            if abs(item) > MAX_SAFE_INTEGER:
                out.append(
                    f"{path}: the integer {item} is outside the I-JSON range "
                    "(±2^53 - 1; larger values are strings)"
                )
        elif isinstance(item, float):
            if not math.isfinite(item) or (item.is_integer() and abs(item) > MAX_SAFE_INTEGER):
                out.append(
                    f"{path}: the number {item!r} is outside the I-JSON range "
                    "(±2^53 - 1; larger values are strings)"
                )
        elif isinstance(item, Mapping):
            stack += [(f"{path}.{k}", v) for k, v in reversed(list(item.items()))]
        elif isinstance(item, (list, tuple)):
            stack += [(f"{path}[{i}]", v) for i, v in reversed(list(enumerate(item)))]
    return out


if _orjson is not None:
    _DUMPS_OPTIONS = (
        _orjson.OPT_NON_STR_KEYS
        | _orjson.OPT_PASSTHROUGH_DATACLASS
        | _orjson.OPT_PASSTHROUGH_DATETIME
        | _orjson.OPT_PASSTHROUGH_SUBCLASS
    )


def dumps(obj: Any) -> str:
    """Compact JSON text of ``obj`` for storage (NOT canonical: key order is kept).

    Same values as ``json.dumps`` (tuples become arrays, non-string keys strings; anything
    that is not plain JSON data raises ``TypeError``); ``orjson`` when installed. Use
    :func:`canonical_json` for anything that is hashed or compared as text.
    """
    if _orjson is not None:
        try:
            return _orjson.dumps(obj, option=_DUMPS_OPTIONS).decode("utf-8")
        except _orjson.JSONEncodeError:
            pass  # e.g. integers beyond 64 bits: the stdlib decides (and raises TypeError)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """Parse JSON text (``orjson`` when installed, else ``json.loads``; same values).

    ``orjson`` refuses a few inputs ``json`` accepts (integers beyond 64 bits, ``NaN``);
    those fall back to ``json.loads``. Raises ``ValueError`` for text that is not JSON.
    """
    if _orjson is not None:
        try:
            return _orjson.loads(text)
        except _orjson.JSONDecodeError:
            pass
    return json.loads(text)


def sha256_hex(text: str | bytes) -> str:
    """SHA-256 of ``text`` (UTF-8 when ``str``) as 64 lowercase hex digits."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def genesis_hash(match_id: str) -> str:
    """``prev_hash`` of a match's first event: ``sha256("apocalypse-arena:" + match_id)``."""
    return sha256_hex("apocalypse-arena:" + match_id)


def envelope_hash(envelope: Mapping[str, Any], log_format: str = LOG_FORMAT) -> str:
    """The ``hash`` an envelope must carry (computed over every field except ``hash``):
    ``sha256(utf8(prev_hash) + canonical(body))`` with :func:`jcs` (log@2) or
    :func:`canonical_json` (log@1); log@3 hashes as log@2. Raises ``KeyError`` without ``prev_hash``,
    ``ValueError``/``TypeError`` for a body that is not (I-)JSON, and ``ValueError`` for an
    unknown ``log_format``."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    prev = envelope["prev_hash"]
    if not isinstance(prev, str):
        raise TypeError("prev_hash must be a string")
    if log_format in JCS_FORMATS:
        return hashlib.sha256(prev.encode("utf-8") + jcs(body)).hexdigest()
    if log_format == LOG_FORMAT_V1:
        return sha256_hex(prev + canonical_json(body))
    raise ValueError(f"unknown log format {log_format!r}")


def seal(envelope: dict[str, Any], prev_hash: str, log_format: str = LOG_FORMAT) -> dict[str, Any]:
    """Set ``prev_hash`` and ``hash`` (of ``log_format``) on ``envelope`` (in place) and
    return it. The caller gives log@2 envelopes as I-JSON values (:func:`ijson`)."""
    envelope["prev_hash"] = prev_hash
    envelope.pop("hash", None)
    envelope["hash"] = envelope_hash(envelope, log_format)
    return envelope


def chain_errors(
    match_id: str, envelopes: Iterable[Mapping[str, Any]], log_format: str = LOG_FORMAT
) -> list[str]:
    """Every break of the chain in ``envelopes`` (empty list = intact), hashed as
    ``log_format``.

    Checks versions are 1, 2, 3, ... (gap-free), each ``prev_hash`` links to the previous
    ``hash`` (the first to :func:`genesis_hash`), and each ``hash`` matches its content.
    """
    errors: list[str] = []
    prev = genesis_hash(match_id)
    for index, env in enumerate(envelopes, start=1):
        if env.get("version") != index:
            errors.append(f"event {index}: version {env.get('version')!r}, expected {index}")
        if env.get("prev_hash") != prev:
            errors.append(f"event {index}: prev_hash does not link to the previous event")
        try:
            digest = envelope_hash(env, log_format)
        except (KeyError, TypeError, ValueError):
            errors.append(f"event {index}: malformed envelope")
            digest = None
        if digest is not None and env.get("hash") != digest:
            errors.append(f"event {index}: hash does not match its content")
        prev = env.get("hash") or ""
    return errors


def seed_commitment(seed: bytes) -> str:
    """The published commitment of a match seed: SHA-256 hex of its 32 raw bytes."""
    return sha256_hex(seed)


def public_envelope(envelope: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``envelope`` without the server-only fields (:data:`PRIVATE_FIELDS`)."""
    return {k: v for k, v in envelope.items() if k not in PRIVATE_FIELDS}


def bot_rng(seed: bytes, version: int, seat: int) -> random.Random:
    """The RNG a bot (or the timeout bot) of ``seat`` uses for its choice at ``version``.

    ``derive_rng(hex(SHA-256(seed || ":bot:<seat>")).encode(), version)``: independent of
    the deal RNG ``derive_rng(seed, version)``, so knowing a bot's choices reveals nothing
    about shuffles. The service's bot turns and ``cli.bot_match`` both use this function.
    """
    return derive_rng(sha256_hex(seed + f":bot:{seat}".encode()).encode(), version)
