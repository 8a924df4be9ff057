"""Operations endpoints: ``/livez`` (liveness: the process answers; no dependency is
asked), ``/readyz`` and ``/healthz`` (readiness: both Redis answer; ``/healthz`` is kept
for existing health checks), ``/metrics`` (Prometheus text exposition format 0.0.4, by
prometheus_client: :mod:`api.metrics`) and ``/openapi.yaml`` (the contract).

A liveness probe that fails makes an orchestrator restart the process, so ``/livez``
asks no dependency: an API process needs no restart when Redis is away (it answers 503
``store_unavailable`` and recovers by itself), it only must not get traffic meanwhile,
which is what ``/readyz`` (503 then) tells a load balancer.

The contract is one file, ``openapi.yaml`` at the repository root. It is read from there
in a source checkout (editable install, tests, ``arena serve`` from the tree); an installed
package (plain ``pip install .``, the Docker image) reads the copy shipped as package data
of ``api`` (``api/openapi.yaml``, a link to the root file in the source tree).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from flask import Blueprint, Response, jsonify

from api.errors import Problem
from api.runtime import service

bp = Blueprint("ops", __name__)

#: The contract in a source checkout (the repository root).
OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
#: The contract as package data of an installed distribution: ``(package, resource)``.
OPENAPI_RESOURCE = ("api", "openapi.yaml")


def load_openapi(path: Path | None = None, resource: tuple[str, str] | None = None) -> str | None:
    """The OpenAPI document's text (UTF-8), or ``None`` when it is nowhere to be found.

    Tries ``path`` (default :data:`OPENAPI_PATH`) first, but only inside a source checkout
    (a ``pyproject.toml`` beside it: an installed ``api`` package's parent is
    ``site-packages``, where a stray ``openapi.yaml`` of another distribution must not be
    served), then the package resource ``resource`` (default :data:`OPENAPI_RESOURCE`,
    read with :func:`importlib.resources.files`, so it also works from a wheel or a zip).
    """
    path = OPENAPI_PATH if path is None else path
    if path.is_file() and (path.parent / "pyproject.toml").is_file():
        return path.read_text(encoding="utf-8")
    package, name = OPENAPI_RESOURCE if resource is None else resource
    try:
        shipped = resources.files(package).joinpath(name)
        if shipped.is_file():
            return shipped.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return None
    return None


@bp.get("/livez")
def livez():
    """Liveness: 200 ``{"status": "ok"}`` whenever this process can answer (no Redis
    call)."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz():
    """Readiness: 200 with the service's health report (one ``PING`` of the store and of
    the queue Redis) when it says ``ok``, else 503 with it."""
    report = service().health()
    healthy = report.get("status", "ok") == "ok"
    return jsonify(report), 200 if healthy else 503


@bp.get("/healthz")
def healthz():
    """The readiness report of :func:`readyz` (kept for compose and existing checks)."""
    return readyz()


@bp.get("/metrics")
def metrics():
    """The deployment's counters and gauges, this server's HTTP request durations and the
    build info in Prometheus text format 0.0.4 (:func:`api.metrics.exposition`)."""
    from api.metrics import CONTENT_TYPE, exposition

    return Response(exposition(service()), headers={"Content-Type": CONTENT_TYPE})


@bp.get("/openapi.yaml")
def openapi():
    """The OpenAPI 3.1 contract this server implements (:func:`load_openapi`); 404
    ``not_found`` when neither the checkout's file nor the packaged copy exists."""
    text = load_openapi()
    if text is None:
        raise Problem(404, "not_found", "The OpenAPI document is not installed.")
    return Response(text, mimetype="application/yaml")
