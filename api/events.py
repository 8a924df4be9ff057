"""Match events for a viewer: long-poll ``GET .../events`` and SSE ``GET .../events/stream``.

Events are the envelopes of docs/CONTRACTS.md with ``data`` redacted for the viewer (the
bearer's seat, or a spectator without a token) by the service.

SSE (HTML Living Standard, "Server-sent events"): one message per event with
``id: <version>``, ``event: <type>`` and ``data: <envelope JSON>``; a reconnecting client
sends ``Last-Event-ID`` and resumes after it. A comment line keeps idle connections open.
A stream lasts at most ``max_s`` seconds (query, default 60, at most 300) and ends early
once a finished match has delivered its last event; clients reconnect (``retry:`` hint).
With ``views=true`` the message of the last event of each command's batch (and of each
page) also carries ``seat_state``: the viewer's ``view``, ``pending``, ``status``,
``result`` and ``legal_actions`` right after it (``null`` legal actions for a spectator),
so a seat can play from the stream alone (one ``POST`` per move).

Each wait for the next event is a long-poll of ``SSE_POLL_S`` seconds (a keep-alive comment
follows an empty one); the store blocks in slices shorter than its socket timeout
(:meth:`service.store.event_store.EventStore.wait_after`), so a stream holds for its whole
``max_s``. When the store becomes unavailable mid-stream (the 200 answer has started: no
503 can follow), the stream ends after a ``retry:`` hint of ``STORE_RETRY_AFTER_S`` and one
WARNING log line; the client's reconnect (``Last-Event-ID``) gets 503 ``store_unavailable``
until the store is back, then resumes where it left off.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from api import schemas
from api.auth import optional_seat
from api.errors import STORE_RETRY_AFTER_S
from api.runtime import service
from api.waits import HeldSlot, waiting
from service.errors import is_store_unavailable

log = logging.getLogger(__name__)

bp = Blueprint("events", __name__, url_prefix="/v1/matches")


@bp.get("/<match_id>/events")
def events(match_id: str):
    """Events after version ``after``; waits up to ``wait`` s (max 30) for the first one."""
    viewer = optional_seat(match_id)
    q = schemas.query(schemas.EventsQuerySchema)
    with waiting(q["wait"]) or nullcontext():  # 503 too_many_waits when none is free
        page = service().events(
            match_id, viewer, after=q["after"], wait_s=q["wait"], limit=q["limit"]
        )
    return jsonify(page)


@bp.get("/<match_id>/events/stream")
def stream(match_id: str):
    """``text/event-stream`` of the viewer's events (see module docstring)."""
    viewer = optional_seat(match_id)
    q = schemas.query(schemas.StreamQuerySchema)
    resume = schemas.last_event_id()
    after = resume if resume is not None else q["after"]
    first = service().match_view(match_id, viewer)  # 404 before the stream starts
    poll_s = float(current_app.config["SSE_POLL_S"])
    # 503 too_many_waits when none is free; held until the server closes the stream's body
    HeldSlot()
    messages = _ended_on_outage(
        _messages(
            service(),
            match_id,
            viewer,
            after,
            q["max_s"],
            poll_s,
            first["status"] == "finished",
            q["views"],
        ),
        match_id,
    )
    return Response(
        messages,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _ended_on_outage(messages: Iterator[str], match_id: str) -> Iterator[str]:
    """``messages`` until they end, or until the store becomes unavailable: then a
    ``retry:`` hint (milliseconds, ``STORE_RETRY_AFTER_S``) and the end of the stream, with
    one WARNING line instead of a traceback. Other errors propagate (bugs)."""
    try:
        yield from messages
    except Exception as error:  # noqa: BLE001 - classified just below
        if not is_store_unavailable(error):
            raise
        log.warning(
            "store unavailable during the event stream of match %s: %s: %s",
            match_id,
            type(error).__name__,
            error,
        )
        yield f"retry: {int(STORE_RETRY_AFTER_S * 1000)}\n\n"


def _messages(
    svc: Any,
    match_id: str,
    viewer: int | None,
    after: int,
    max_s: float,
    poll_s: float,
    finished: bool,
    views: bool = False,
) -> Iterator[str]:
    """SSE frames until ``max_s`` passes or a finished match has nothing more to send
    (``views``: batch ends carry ``seat_state``, see :meth:`service.usecases.reads.Reads.events`)."""
    deadline = time.monotonic() + max_s
    yield "retry: 2000\n\n"
    while True:
        wait = 0.0 if finished else max(0.0, min(poll_s, deadline - time.monotonic()))
        page = svc.events(match_id, viewer, after=after, wait_s=wait, views=views)
        for envelope in page["events"]:
            after = envelope["version"]
            yield (
                f"id: {after}\nevent: {envelope['type']}\n"
                f"data: {json.dumps(envelope, separators=(',', ':'))}\n\n"
            )
        if time.monotonic() >= deadline:
            return
        if not page["events"] and after >= page["version"]:
            finished = finished or svc.match_view(match_id, viewer)["status"] == "finished"
            if finished:
                return
            yield ": keep-alive\n\n"
