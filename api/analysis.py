"""Match analysis (issue 23 item 3): ``POST/GET /v1/matches/{id}/analysis`` (a finished
match) and ``POST /v1/analyses`` (an uploaded export, verified first) with
``GET /v1/analyses/{analysis_id}``.

A request answers ``202`` with the analysis as it stands (``status`` ``queued``,
``running`` with ``progress`` in percent, ``done`` with the ``result``, ``failed`` with the
``error``) and ``Location`` its ``GET`` address; the work runs in a worker (an RQ job),
cached per log and ``budget`` (rollouts per decision, query parameter; default 64, at most
the server's ``ARENA_MAX_BOT_BUDGET``). The result's shape and labels:
:mod:`domain.analysis`; docs/analysis.md.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, url_for
from marshmallow import EXCLUDE, Schema, validate

from api import schemas
from api.replays import MAX_LOG_EVENTS
from api.runtime import service

bp = Blueprint("analysis", __name__, url_prefix="/v1")


class BudgetQuerySchema(Schema):
    """``?budget=N``: rollouts per decision (1..4096; the server's cap may be lower)."""

    class Meta:
        unknown = EXCLUDE

    budget = schemas.QueryInteger(load_default=None, validate=validate.Range(min=1, max=4096))


def _accepted(answer: dict):
    response = jsonify(answer)
    response.status_code = 202
    response.headers["Location"] = url_for(
        "analysis.get_analysis", analysis_id=answer["analysis_id"]
    )
    return response


@bp.post("/matches/<match_id>/analysis")
def request_match_analysis(match_id: str):
    """Analyse a finished match (409 ``match_running`` before its end; 422
    ``analysis_unavailable`` for a game without an estimator)."""
    budget = schemas.query(BudgetQuerySchema)["budget"]
    answer, _ = service().request_analysis(match_id, budget)
    return _accepted(answer)


@bp.get("/matches/<match_id>/analysis")
def get_match_analysis(match_id: str):
    """The analysis of a finished match with ``budget`` (404 ``analysis_not_found`` when
    none was requested)."""
    budget = schemas.query(BudgetQuerySchema)["budget"]
    return jsonify(service().match_analysis(match_id, budget))


@bp.post("/analyses")
def request_log_analysis():
    """Analyse an uploaded export (the body of ``GET .../export``), once it verifies (422
    ``log_not_verified`` otherwise)."""
    budget = schemas.query(BudgetQuerySchema)["budget"]
    log = schemas.match_log(current_app.config[MAX_LOG_EVENTS])
    answer, _ = service().request_log_analysis(log, budget)
    return _accepted(answer)


@bp.get("/analyses/<analysis_id>")
def get_analysis(analysis_id: str):
    """One analysis by id (404 ``analysis_not_found``)."""
    return jsonify(service().analysis(analysis_id))
