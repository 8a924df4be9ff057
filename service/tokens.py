"""Seat tokens: shown once, stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping


def new_token() -> str:
    """A fresh bearer token (``secrets.token_urlsafe(32)``: 43 URL-safe characters)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """SHA-256 hex of ``token`` — the only form the server stores."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_seat(digests: Mapping[int, str], token: str) -> int | None:
    """The seat whose stored digest matches ``token`` or ``None``.

    Every stored digest is compared with ``hmac.compare_digest`` (no early exit), so the
    time taken does not reveal which seat or how many characters matched.
    """
    probe = token_digest(token)
    found: int | None = None
    for seat, digest in sorted(digests.items()):
        if hmac.compare_digest(probe, digest) and found is None:
            found = seat
    return found
