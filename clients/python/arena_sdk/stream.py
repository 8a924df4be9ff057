"""The event stream (``GET /v1/matches/{id}/events/stream``, WHATWG "Server-sent
events"), read with httpx-sse: one envelope (a dict, as the server sent it) per message.
With ``views=True`` the last envelope of each command's batch also carries
``seat_state`` (``SeatState``: the viewer's view, pending, status, result, legal actions)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
from httpx_sse import connect_sse

from arena_sdk.client import ApiError, Arena


def stream_events(
    arena: Arena, match_id: str, after: int = 0, views: bool = False, max_s: float = 60
) -> Iterator[dict[str, Any]]:
    """The envelopes of one stream in order, until the server ends it (after ``max_s``
    seconds, 0-300, or once a finished match sent its last event). Errors:
    :class:`ApiError` for a problem answer; ``ValueError`` for data that is not JSON."""
    params = {"after": after, "views": "true" if views else "false", "max_s": max_s}
    http = arena.client.get_httpx_client()
    # the read timeout covers the whole stream: the server may send nothing for a while
    timeout = httpx.Timeout(max_s + 30, connect=10)
    with connect_sse(
        http, "GET", f"/v1/matches/{match_id}/events/stream", params=params, timeout=timeout
    ) as source:
        if source.response.status_code != 200:
            source.response.read()
            raise ApiError(source.response.status_code, _problem(source.response.content))
        for message in source.iter_sse():
            if message.data:
                yield json.loads(message.data)


def _problem(content: bytes) -> dict[str, Any]:
    try:
        parsed = json.loads(content)
    except ValueError:
        return {"detail": content.decode("utf-8", "replace")[:500]}
    return parsed if isinstance(parsed, dict) else {}
