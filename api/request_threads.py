"""The request threads of a gunicorn ``gthread`` worker without a future per request.

gunicorn's ``gthread`` worker hands every request (each keep-alive request too) from its
poller thread to a :class:`concurrent.futures.ThreadPoolExecutor`: ``submit`` builds a
``Future`` (a ``Condition`` and its lock) and a work item, probes the pool's idle semaphore
in Python, and the future's done-callback runs in the request thread to queue
``finish_request`` back to the poller. Under the peer benchmark's load
(``benchmarks/peer/run.py``) that hand-off was the largest single share of the API
processes' sampled Python (``ThreadPoolExecutor.submit`` 20% of the GIL samples at 16 seats).

:class:`RequestThreads` does the same hand-off with one ``SimpleQueue`` (C) and a fixed set
of threads started with the worker: a thread takes a connection, runs the worker's
``handle`` and queues ``finish_request`` with the outcome wrapped in :class:`Finished`, the
two methods of a future that ``finish_request`` reads. Nothing else of the worker changes
(the poller, keep-alive and pending connections, graceful stop).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Finished:
    """A handled request's outcome in the shape gunicorn's ``finish_request`` reads from
    the future it used to get: ``result()`` (``handle``'s return value: keep the
    connection alive, defer it, or close it) and ``cancelled()`` (never)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def result(self) -> Any:
        """What ``handle`` returned (False when it raised)."""
        return self.value

    def cancelled(self) -> bool:
        """A request taken by a thread is never cancelled."""
        return False


class RequestThreads:
    """``count`` daemon threads serving connections from one queue.

    ``handle(conn)`` runs in a thread (gunicorn's ``ThreadWorker.handle``); its outcome is
    passed to ``done(conn, Finished(outcome))`` in that thread (the worker's
    ``method_queue.defer`` of ``finish_request``). An exception out of ``handle`` (gunicorn
    catches its own) is logged and counts as False: the connection is closed."""

    def __init__(self, count: int, handle: Callable[[Any], Any], done: Callable[[Any, Any], Any]):
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._handle = handle
        self._done = done
        self._threads = [
            threading.Thread(target=self._serve, name=f"request-{i}", daemon=True)
            for i in range(max(1, count))
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, conn: Any) -> None:
        """Queue ``conn`` for the next free thread."""
        self._jobs.put(conn)

    def shutdown(self, wait: bool = False) -> None:
        """Let every thread end once the queue before it is served (``wait``: join them)."""
        for _ in self._threads:
            self._jobs.put(None)
        if wait:
            for thread in self._threads:
                thread.join()

    def _serve(self) -> None:
        jobs, handle, done = self._jobs, self._handle, self._done
        while True:
            conn = jobs.get()
            if conn is None:
                return
            try:
                outcome = handle(conn)
            except Exception:  # noqa: BLE001 - as a future would hold it: the conn closes
                log.exception("a request thread's handle raised")
                outcome = False
            done(conn, Finished(outcome))
