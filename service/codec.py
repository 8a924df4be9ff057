"""Canonical JSON and the SHA-256 hash chain of event envelopes (docs/CONTRACTS.md).

``hash = sha256(prev_hash + canonical_json(envelope without "hash"))``; the first event's
``prev_hash`` is ``sha256("apocalypse-arena:" + match_id)``. Hashes are lowercase hex (64).
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Iterable, Mapping

from domain.engine import derive_rng

try:  # optional accelerator: parses the same JSON into the same Python values
    import orjson as _orjson
except ImportError:  # pragma: no cover - the stdlib parser is the reference
    _orjson = None

#: Envelope fields only present on the server copy; never in a redacted envelope.
# Server-only envelope fields, removed from every envelope a seat or spectator reads
# (they stay in the full export after the end). ``nonce`` is 128 random bits hashed with
# the envelope: without it a reader of a redacted event could brute-force the hidden
# ``data`` (a card id, a cell) from the published ``hash``.
PRIVATE_FIELDS = ("command", "nonce")


def canonical_json(obj: Any) -> str:
    """``json.dumps`` with sorted keys, no spaces, UTF-8 kept (``ensure_ascii=False``)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


if _orjson is not None:
    _DUMPS_OPTIONS = (_orjson.OPT_NON_STR_KEYS | _orjson.OPT_PASSTHROUGH_DATACLASS
                      | _orjson.OPT_PASSTHROUGH_DATETIME | _orjson.OPT_PASSTHROUGH_SUBCLASS)


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
            pass   # e.g. integers beyond 64 bits: the stdlib decides (and raises TypeError)
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


def envelope_hash(envelope: Mapping[str, Any]) -> str:
    """The ``hash`` an envelope must carry (computed over every field except ``hash``)."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    return sha256_hex(envelope["prev_hash"] + canonical_json(body))


def seal(envelope: dict[str, Any], prev_hash: str) -> dict[str, Any]:
    """Set ``prev_hash`` and ``hash`` on ``envelope`` (in place) and return it."""
    envelope["prev_hash"] = prev_hash
    envelope.pop("hash", None)
    envelope["hash"] = envelope_hash(envelope)
    return envelope


def chain_errors(match_id: str, envelopes: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every break of the chain in ``envelopes`` (empty list = intact).

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
            digest = envelope_hash(env)
        except (KeyError, TypeError):
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
