"""Retries of 429 (Too Many Requests) and 503 (Service Unavailable) answers, honouring
``Retry-After`` (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date), as an httpx
transport. Only safe requests (GET, HEAD) and requests carrying an ``Idempotency-Key``
are repeated: the server answers a repeated key with its first answer, so a POST never
acts twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

RETRIED_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class RetryPolicy:
    """``attempts`` in all (1: no retry); waits capped at ``max_delay_s`` seconds;
    ``default_delay_s`` when the answer has no usable ``Retry-After``."""

    attempts: int = 5
    max_delay_s: float = 5.0
    default_delay_s: float = 0.5


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds a ``Retry-After`` value asks for (``None`` when absent or unreadable; an
    HTTP-date in the past gives 0)."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(text)
    try:
        at = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return max(0.0, (at - (now or datetime.now(UTC))).total_seconds())


def is_repeatable(request: httpx.Request) -> bool:
    """True when repeating ``request`` cannot act twice (GET/HEAD, or an Idempotency-Key)."""
    return request.method in ("GET", "HEAD") or "Idempotency-Key" in request.headers


class RetryTransport(httpx.BaseTransport):
    """An httpx transport that repeats repeatable requests answered 429 or 503 after
    ``Retry-After`` (capped by the policy); the last answer is returned whatever its
    status. ``inner``: the transport that sends (default ``httpx.HTTPTransport()``)."""

    def __init__(
        self,
        policy: RetryPolicy = RetryPolicy(),
        inner: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.policy = policy
        self.inner = inner or httpx.HTTPTransport()
        self.sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        repeatable = is_repeatable(request)
        attempt = 1
        while True:
            response = self.inner.handle_request(request)
            if (
                not repeatable
                or attempt >= self.policy.attempts
                or response.status_code not in RETRIED_STATUSES
            ):
                return response
            asked = retry_after_seconds(response.headers.get("Retry-After"))
            response.close()
            self.sleep(
                min(
                    self.policy.max_delay_s, self.policy.default_delay_s if asked is None else asked
                )
            )
            attempt += 1

    def close(self) -> None:
        self.inner.close()
