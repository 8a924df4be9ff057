"""Operations endpoints: ``/healthz`` (liveness + Redis reachability), ``/metrics``
(Prometheus text exposition format 0.0.4) and ``/openapi.yaml`` (the contract)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, jsonify

from api.errors import Problem
from api.runtime import service

bp = Blueprint("ops", __name__)

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"


@bp.get("/healthz")
def healthz():
    """200 with the service's health report when it says ``ok``, else 503 with it."""
    report = service().health()
    healthy = report.get("status", "ok") == "ok"
    return jsonify(report), 200 if healthy else 503


@bp.get("/metrics")
def metrics():
    """The service's counters and gauges in Prometheus text format."""
    return Response(service().metrics(), mimetype="text/plain",
                    headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"})


@bp.get("/openapi.yaml")
def openapi():
    """The OpenAPI 3.1 contract this server implements."""
    if not OPENAPI_PATH.is_file():
        raise Problem(404, "not_found", "The OpenAPI document is not installed.")
    return Response(OPENAPI_PATH.read_text(encoding="utf-8"), mimetype="application/yaml")
