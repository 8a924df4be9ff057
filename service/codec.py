"""Canonical JSON and the SHA-256 hash chain of event envelopes (docs/CONTRACTS.md).

``hash = sha256(prev_hash + canonical_json(envelope without "hash"))``; the first event's
``prev_hash`` is ``sha256("apocalypse-arena:" + match_id)``. Hashes are lowercase hex (64).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping

#: Envelope fields only present on the server copy; never in a redacted envelope.
PRIVATE_FIELDS = ("command",)


def canonical_json(obj: Any) -> str:
    """``json.dumps`` with sorted keys, no spaces, UTF-8 kept (``ensure_ascii=False``)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
