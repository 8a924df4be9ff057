"""A per-process cap on requests that wait: SSE streams and ``?wait=`` long-polls.

gunicorn's ``gthread`` worker serves each request on one of a fixed number of threads
(``--threads``), and a waiting request holds its thread for the whole wait: without a cap,
a few clients opening streams took every thread of a process, and ``/healthz``, ``/readyz``
and every ``POST`` queued behind them for as long as the streams lasted (session 6 probe:
16 tokenless streams made ``/readyz`` take 17.7 s).

The cap: a process serving on ``threads`` threads holds at most ``threads - min(
ARENA_RESERVED_THREADS, threads // 2)`` waiting requests at once (shipped: 48 threads, 8
reserved, 40 waits per worker; a worker run with 8 threads keeps 4), so the reserved
threads are always there for requests that do not wait. A waiting request beyond the cap is not
queued: it answers at once 503 ``too_many_waits`` (``application/problem+json``, with
``Retry-After`` in seconds, :data:`RETRY_AFTER_S`, and ``limit``: this process's cap). What
counts as waiting (one slot each, from the view's start to the end of its answer):

- ``GET .../events/stream`` (SSE), from before the stream's first byte until it ends or
  the client goes away;
- ``GET .../events?wait=`` and ``GET .../legal-actions?wait=`` with ``wait`` > 0 (a
  request with ``wait=0`` answers at once and takes no slot).

While the app computes an answer, a request that does not wait holds one of
``min(ARENA_RESERVED_THREADS, threads // 2)`` runner turns (:class:`ReleaseOnClose`): the
many threads kept for waiting requests never compute all at once.

The thread count is the serving process's: :func:`api.gunicorn_config.post_worker_init`
tells each gunicorn worker's app its ``threads`` (:func:`configure`). An app that was never
told (the Flask test client, ``arena serve``'s embedded werkzeug server, which starts one
thread per request) has no cap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask, current_app, request

from api import settings
from api.errors import Problem

#: ``app.extensions`` key of the app's :class:`WaitSlots`.
EXTENSION = "arena_waits"
#: Seconds a client should wait before retrying a ``too_many_waits`` answer.
RETRY_AFTER_S = 2
#: ``environ`` key of the request's :class:`HeldSlot` (released by :class:`ReleaseOnClose`).
ENVIRON_KEY = "arena.wait_slot"
#: ``environ`` key of the runner turn a request holds (:class:`ReleaseOnClose`).
RUNNER_KEY = "arena.runner"
#: Paths that never wait for a runner turn: the health checks and the metrics.
UNTHROTTLED = frozenset({"/healthz", "/readyz", "/livez", "/metrics"})


class WaitSlots:
    """At most ``limit`` waiting requests at once in this process (``None``: no cap), and
    ``runners``: the turns that requests which do not wait take while the app computes
    their answer (``None``: no limit).

    Thread-safe; :meth:`take` and :meth:`give_back` pair up (one slot each)."""

    def __init__(self, limit: int | None = None):
        self._lock = threading.Lock()
        self.limit = limit
        self.held = 0
        self.runners: threading.Semaphore | None = None

    def take(self) -> bool:
        """Hold one slot: True, or False when ``held`` is at the limit already."""
        with self._lock:
            if self.limit is not None and self.held >= self.limit:
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        """Release one slot taken by :meth:`take`."""
        with self._lock:
            self.held = max(0, self.held - 1)


def install(app: Flask) -> None:
    """Give ``app`` its (uncapped) :class:`WaitSlots` (:func:`configure` sets the cap) and
    wrap ``app.wsgi_app`` in :class:`ReleaseOnClose`."""
    slots = app.extensions[EXTENSION] = WaitSlots()
    # Flask's documented way to add a WSGI middleware (typed as a method)
    app.wsgi_app = ReleaseOnClose(app.wsgi_app, slots)  # type: ignore[method-assign]


class ReleaseOnClose:
    """WSGI middleware: a request that took a :class:`HeldSlot` gives it back when the
    server closes its answer's body — after a stream's last byte, when its client went
    away, when the body was never iterated, or when the app failed after taking it — so
    no path leaks a slot. Requests that took none get their body back unwrapped.

    Runner turns (when :func:`configure` set ``slots.runners``): every request but the
    health checks and metrics (:data:`UNTHROTTLED`) takes a turn before the app runs and
    gives it back once the app returned (the answer computed; sending it takes no turn),
    or as soon as it takes a :class:`HeldSlot` (a waiting request waits without one). So
    at most ``ARENA_RESERVED_THREADS`` requests compute at once, however many threads
    the process has for waiting ones: the others wait for a turn blocked, not competing
    for the interpreter (32 threads computing at once cost 10-29% more CPU per move than
    8 on the peer benchmark's 64 seats, ``benchmarks/README.md``)."""

    def __init__(self, app: Callable, slots: WaitSlots):
        self.app = app
        self.slots = slots

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        runners = self.slots.runners
        if runners is not None and environ.get("PATH_INFO") not in UNTHROTTLED:
            runners.acquire()
            environ[RUNNER_KEY] = runners
        try:
            body = self.app(environ, start_response)
        except BaseException:
            _release(environ)
            raise
        finally:
            _give_turn(environ)
        if ENVIRON_KEY not in environ:
            return body
        return _Released(body, environ)


def _give_turn(environ: dict[str, Any]) -> None:
    runners = environ.pop(RUNNER_KEY, None)
    if runners is not None:
        runners.release()


def _release(environ: dict[str, Any]) -> None:
    slot = environ.pop(ENVIRON_KEY, None)
    if slot is not None:
        slot.release()


class _Released:
    """A body whose ``close`` also releases the request's slot."""

    def __init__(self, body: Iterable[bytes], environ: dict[str, Any]):
        self.body, self.environ = body, environ

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            _release(self.environ)


def configure(app: Any, threads: int) -> int | None:
    """Cap ``app``'s waiting requests for a process serving on ``threads`` threads:
    ``threads - min(ARENA_RESERVED_THREADS, threads // 2)``. Returns the cap, ``None`` when
    ``app`` is not this API's Flask app (another WSGI callable: nothing to cap).

    Raises:
        ConfigError: a bad ``ARENA_RESERVED_THREADS`` (the start-up check refused it before).
    """
    slots = getattr(app, "extensions", {}).get(EXTENSION)
    if not isinstance(slots, WaitSlots):
        return None
    reserved = settings.value(app.config, "ARENA_RESERVED_THREADS")
    slots.limit = int(threads) - min(reserved, int(threads) // 2)
    runners = int(threads) - slots.limit
    slots.runners = threading.Semaphore(runners) if runners > 0 else None
    return slots.limit


def _slots() -> WaitSlots:
    return current_app.extensions[EXTENSION]


def _refused(limit: int | None) -> Problem:
    return Problem(
        503,
        "too_many_waits",
        f"This server process already holds its {limit} open streams and long-polls; "
        "retry after Retry-After seconds, or ask without waiting (wait=0).",
        {"Retry-After": str(RETRY_AFTER_S)},
        limit=limit,
    )


class HeldSlot:
    """One slot taken for the current request (raises 503 ``too_many_waits`` when none
    is free); :meth:`release` gives it back (idempotent). A context manager for a request
    that answers in one piece; a streamed answer keeps it until the server closes the body
    (:class:`ReleaseOnClose`, which releases every slot a request took, whatever happened)."""

    def __init__(self) -> None:
        slots = _slots()
        if not slots.take():
            raise _refused(slots.limit)
        self._slots: WaitSlots | None = slots
        request.environ[ENVIRON_KEY] = self
        _give_turn(request.environ)  # a waiting request waits without a runner turn

    def release(self) -> None:
        """Give the slot back (once; later calls do nothing)."""
        slots, self._slots = self._slots, None
        if slots is not None:
            slots.give_back()

    def __enter__(self) -> HeldSlot:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def waiting(wait_s: float | None) -> HeldSlot | None:
    """A :class:`HeldSlot` when the request waits (``wait_s`` > 0), else ``None`` (use
    ``with waiting(q["wait"]) or nullcontext():``). Raises 503 ``too_many_waits``."""
    return HeldSlot() if wait_s and wait_s > 0 else None
