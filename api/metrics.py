"""``/metrics`` through prometheus_client: the deployment's counters from Redis
(:meth:`service.store.metrics.Metrics.collect`), this server's HTTP request durations, and build
info.

- ``arena_http_request_duration_seconds{method, route, status}``: a histogram of the time
  from the request's arrival at the app to the end of its answer's body (a long-poll's
  wait and an SSE stream's life included), by the URL rule that served it (``/v1/matches/
  <match_id>``, never the raw path; ``unmatched`` when no rule did), observed by
  :mod:`api.request_id`'s middleware.
- ``arena_build_info{version, python}``: always 1.
- With several server processes (gunicorn workers) the HTTP histograms of all of them
  are summed through prometheus_client's multi-process mode: ``PROMETHEUS_MULTIPROC_DIR``
  names a directory every process writes its values to (``api.gunicorn_config`` sets
  it up, empties it at start and marks exited workers dead); without it (the embedded
  server, one process) the process's own registry is exposed. The Redis-held metrics need
  neither: every process reads the same hashes.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

#: Upper bounds (seconds) of the HTTP duration buckets: long-polls wait up to 30 s.
HTTP_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
UNMATCHED = "unmatched"
#: ``environ`` key of the matched URL rule.
ROUTE_KEY = "arena.route"

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # values live in files there: it must exist
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

HTTP_DURATION = Histogram(
    "arena_http_request_duration_seconds",
    "HTTP requests by method, URL rule and status: seconds until the answer's body ended.",
    ["method", "route", "status"],
    buckets=HTTP_BUCKETS_S,
)


def route_of(environ: dict[str, Any]) -> str:
    """The URL rule Flask matched for the request of ``environ`` (``unmatched`` if none;
    noted in ``environ[ROUTE_KEY]`` by :func:`api.request_id.install`)."""
    return environ.get(ROUTE_KEY) or UNMATCHED


def observe(environ: dict[str, Any], status: int, seconds: float) -> None:
    """Count one answered request in :data:`HTTP_DURATION`."""
    HTTP_DURATION.labels(
        environ.get("REQUEST_METHOD", "-"), route_of(environ), str(status)
    ).observe(seconds)


class _Collector:
    """A collector yielding the metric families ``collect()`` returns."""

    def __init__(self, collect: Callable[[], Iterable]):
        self.collect = collect


def _build_info() -> Iterable:
    try:
        version = metadata.version("apocalypse-arena")
    except metadata.PackageNotFoundError:
        version = "unknown"
    info = GaugeMetricFamily(
        "arena_build_info", "The running build (always 1).", labels=["version", "python"]
    )
    info.add_metric([version, platform.python_version()], 1)
    yield info


def exposition(service: Any) -> bytes:
    """The text exposition (format 0.0.4) of this server's metrics and ``service``'s
    (``metrics_collect()``; raises its store errors when Redis is unreachable)."""
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        registry.register(_Collector(REGISTRY.collect))
    families = list(service.metrics_collect())  # read Redis before writing anything
    registry.register(_Collector(lambda: families))
    registry.register(_Collector(_build_info))
    return generate_latest(registry)
