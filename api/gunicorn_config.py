"""gunicorn settings of every deployment: ``gunicorn -c python:api.gunicorn_config
'api.app:create_app()'`` (Dockerfile, compose.yaml) and ``arena serve`` with ``REDIS_URL``
(:func:`cli.serve.gunicorn_application` applies :data:`SETTINGS`).

Loading this module is the master's start-up check: every variable an API process reads
is parsed (:func:`api.settings.check_or_exit`), and a bad one stops gunicorn with status 1
and one line naming it, before any worker starts. It also

- makes ``PROMETHEUS_MULTIPROC_DIR`` (a fresh temporary directory unless set; its old
  ``*.db`` files removed when gunicorn starts) so that ``/metrics`` sums the HTTP metrics of
  every worker process (prometheus_client's multi-process mode), and tells
  prometheus_client when a worker exits (``child_exit``);
- tells each worker's app how many threads serve it (``post_worker_init``), which caps the
  requests that wait there — SSE streams and ``?wait=`` long-polls — at ``threads`` minus
  ``ARENA_RESERVED_THREADS`` (:mod:`api.waits`), so they never take every thread;
- replaces gunicorn's access log (which writes the query string, tokens included) with
  :mod:`api.request_id`'s, and formats gunicorn's own lines as the app's
  (:func:`service.logs.gunicorn_logconfig`: ``ARENA_LOG_FORMAT``, ``ARENA_LOG_LEVEL``).
"""

from __future__ import annotations

import glob
import inspect
import os
import shutil
import tempfile
from typing import Any

from gunicorn.config import KNOWN_SETTINGS
from gunicorn.glogging import Logger

from api.settings import check_or_exit
from service.logs import gunicorn_logconfig

check_or_exit()


#: the metrics directory :func:`on_starting` made in this master (None: none, or the
#: operator's own)
_made_dir: str | None = None


def on_starting(server: Any) -> None:
    """In the master, before any worker exists: set ``PROMETHEUS_MULTIPROC_DIR`` (a new
    temporary directory unless set) and remove the metric files of an earlier run in it
    (their processes are gone). Workers inherit the variable before they import
    prometheus_client (do not use ``--preload``: the app would import it first)."""
    global _made_dir
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not path:
        path = _made_dir = tempfile.mkdtemp(prefix="arena-prometheus-")
    os.makedirs(path, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    for old in glob.glob(os.path.join(path, "*.db")):
        os.remove(old)


def on_exit(server: Any) -> None:
    """In the master, as it exits: remove the metrics directory :func:`on_starting` made
    (a directory named by ``PROMETHEUS_MULTIPROC_DIR`` is the operator's and stays; every
    start left an ``arena-prometheus-*`` directory in /tmp before: newcomer probe)."""
    global _made_dir
    if _made_dir is not None:
        shutil.rmtree(_made_dir, ignore_errors=True)
        _made_dir = None


def child_exit(server: Any, worker: Any) -> None:
    """Tell prometheus_client that ``worker``'s process is gone (its live gauges drop)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker: Any) -> None:
    """In each worker, once its app is loaded: load the game catalogue
    (:func:`api.runtime.warm`: before the worker accepts, not in its first requests), cap
    the app's waiting requests for the worker's ``threads`` (:func:`api.waits.configure`)
    and log the cap at INFO."""
    from api.runtime import warm
    from api.waits import configure

    # the Flask app under the worker class's wrapper (api.wire_errors.closing_when_body_unread)
    app = inspect.unwrap(worker.wsgi)
    warm(app)

    limit = configure(app, worker.cfg.threads)
    if limit is not None:
        worker.log.info(
            "worker %s: %d threads, at most %d open streams and long-polls",
            worker.pid,
            worker.cfg.threads,
            limit,
        )


class AppAccessLogger(Logger):
    """gunicorn's logger without gunicorn's access log when ``accesslog`` is unset (the
    app writes its own, :mod:`api.request_id`): gunicorn formats every request's access
    line whenever a ``logconfig_dict`` is given, even for a logger that drops it (2-3% of
    the server's CPU under the peer benchmark's load, ``benchmarks/peer/run.py``)."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


worker_class = "api.wire_errors.ProblemThreadWorker"  # gthread answering its own errors
workers = 2
#: a waiting request (SSE stream, long-poll) holds one of these for its whole wait (40 may
#: wait; ARENA_RESERVED_THREADS, 8, never do, and only 8 requests compute at once:
#: api.waits); an idle thread costs little (api.request_threads starts them all with the
#: worker; each waits on one queue)
threads = 48
timeout = 120
graceful_timeout = 20
accesslog = None
logger_class = AppAccessLogger
logconfig_dict = gunicorn_logconfig()
#: newer gunicorns open a control socket under $HOME unless told not to (the image's user
#: has no home; nothing here uses the socket).
CONTROL_SOCKET = (
    {"control_socket_disable": True}
    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS)
    else {}
)
globals().update(CONTROL_SOCKET)

#: The settings above by gunicorn name (what ``arena serve`` sets on its application).
SETTINGS = {
    "worker_class": worker_class,
    "timeout": timeout,
    "graceful_timeout": graceful_timeout,
    "accesslog": accesslog,
    "logger_class": logger_class,
    "logconfig_dict": logconfig_dict,
    "on_starting": on_starting,
    "post_worker_init": post_worker_init,
    "child_exit": child_exit,
    **CONTROL_SOCKET,
}
