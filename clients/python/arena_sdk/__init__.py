"""Apocalypse Arena's Python client (docs/clients.md): :class:`Arena` over the generated
client of ``openapi.yaml`` (``arena_sdk.generated``), retries (:mod:`arena_sdk.retry`),
long-polls, the event stream (:func:`stream_events`) and :func:`play_seat`."""

from arena_sdk.client import ApiError, Arena, new_idempotency_key
from arena_sdk.play import Chooser, Turn, play_seat
from arena_sdk.retry import RetryPolicy, RetryTransport, retry_after_seconds
from arena_sdk.stream import stream_events

__all__ = [
    "ApiError",
    "Arena",
    "Chooser",
    "RetryPolicy",
    "RetryTransport",
    "Turn",
    "new_idempotency_key",
    "play_seat",
    "retry_after_seconds",
    "stream_events",
]
