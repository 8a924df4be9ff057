"""api/request_threads.py: gunicorn's gthread hand-off without a future per request."""

from __future__ import annotations

import queue
import threading

from api.request_threads import Finished, RequestThreads
from api.wire_errors import ProblemThreadWorker


def test_each_connection_is_handled_in_a_request_thread_and_its_outcome_passed_on():
    done: queue.SimpleQueue = queue.SimpleQueue()
    seen_threads = set()

    def handle(conn):
        seen_threads.add(threading.current_thread().name)
        if conn == "boom":
            raise RuntimeError("handle raised")
        return conn != "close"

    pool = RequestThreads(3, handle, lambda conn, outcome: done.put((conn, outcome)))
    for conn in ("a", "close", "boom", "b"):
        pool.submit(conn)
    outcomes = dict(done.get(timeout=30) for _ in range(4))
    pool.shutdown(wait=True)

    assert {c: o.result() for c, o in outcomes.items()} == {
        "a": True,
        "close": False,
        "boom": False,  # an exception closes the connection, as gthread's future did
        "b": True,
    }
    assert not any(o.cancelled() for o in outcomes.values())
    assert seen_threads and all(name.startswith("request-") for name in seen_threads)
    assert threading.main_thread().name not in seen_threads


def test_finished_reads_as_the_future_finish_request_expects():
    outcome = Finished("deferred")
    assert outcome.result() == "deferred" and outcome.cancelled() is False


def test_the_worker_queues_connections_on_request_threads_not_futures():
    worker = ProblemThreadWorker.__new__(ProblemThreadWorker)
    finished: queue.SimpleQueue = queue.SimpleQueue()

    class Cfg:
        threads = 2

    class MethodQueue:
        def defer(self, callback, *args):
            finished.put((callback, args))

    worker.cfg = Cfg()
    worker.method_queue = MethodQueue()
    worker.handle = lambda conn: f"handled {conn}"
    worker.tpool = worker.get_thread_pool()
    assert isinstance(worker.tpool, RequestThreads)
    worker.enqueue_req("conn-1")
    callback, (conn, outcome) = finished.get(timeout=30)
    worker.tpool.shutdown(wait=True)
    assert callback == worker.finish_request
    assert conn == "conn-1" and outcome.result() == "handled conn-1"
