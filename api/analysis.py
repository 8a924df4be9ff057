"""Match analysis (issue 23 item 3): ``POST/GET /v1/matches/{id}/analysis`` (a finished
match) and ``POST /v1/analyses`` (an uploaded export, verified first) with
``GET /v1/analyses/{analysis_id}``.

A request answers ``202`` with the analysis as it stands (``status`` ``queued``,
``running`` with ``progress`` in percent, ``done`` with the ``result``, ``failed`` with the
``error``) and ``Location`` its ``GET`` address; the work runs in a worker (an RQ job),
cached per log and ``budget``. The budget (rollouts per decision; default 64) is a query
parameter only: ``POST .../analysis`` takes an empty body (or ``{}``), ``POST /v1/analyses``
the export; a ``budget`` member in either body is refused (400 ``validation_error``) rather
than ignored, a budget below 1 is a 400 ``validation_error`` and one above the server's cap
(``ARENA_MAX_BOT_BUDGET``, at most 4096) a 422 ``analysis_budget_capped``. A client (its
address, :func:`api.limits.quota_client`, as the bot-match cap's: player keys are free and
seat tokens come with every new match, so counting per key let one address queue any
number, a newcomer probe found) with
``ARENA_MAX_ANALYSES_PER_CLIENT`` analyses queued or running is refused one more with 429
``too_many_analyses`` and ``Retry-After``; an analysis answered from the cache is never
refused. The result's shape and labels: :mod:`domain.analysis`; docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, current_app, jsonify, url_for
from marshmallow import EXCLUDE, Schema, validate

from api import schemas
from api.errors import validation_problem
from api.limits import quota_client
from api.replays import MAX_LOG_EVENTS
from api.runtime import service

bp = Blueprint("analysis", __name__, url_prefix="/v1")

#: what a ``budget`` member of a request body is told
BUDGET_IN_QUERY = "The budget is a query parameter (?budget=N), not a member of the body."


class BudgetQuerySchema(Schema):
    """``?budget=N``: rollouts per decision, at least 1 (above the server's cap the service
    answers 422 ``analysis_budget_capped``, with the cap)."""

    class Meta:
        unknown = EXCLUDE

    budget = schemas.QueryInteger(load_default=None, validate=validate.Range(min=1))


def _no_budget_in(body: Any) -> None:
    """Refuse a request body that names a ``budget`` (400 ``validation_error``)."""
    if isinstance(body, Mapping) and "budget" in body:
        raise validation_problem({"budget": [BUDGET_IN_QUERY]}, BUDGET_IN_QUERY)


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
    ``analysis_unavailable`` for a game without an estimator). The body is empty or ``{}``
    (400 ``malformed_json`` / ``validation_error``, 415 ``unsupported_media_type``)."""
    budget = schemas.query(BudgetQuerySchema)["budget"]
    body = schemas.json_body(optional=True)
    _no_budget_in(body)
    schemas.load(schemas.EmptyBodySchema, body)
    answer, _ = service().request_analysis(match_id, budget, client=quota_client())
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
    _no_budget_in(log)
    answer, _ = service().request_log_analysis(log, budget, client=quota_client())
    return _accepted(answer)


@bp.get("/analyses/<analysis_id>")
def get_analysis(analysis_id: str):
    """One analysis by id (404 ``analysis_not_found``)."""
    return jsonify(service().analysis(analysis_id))
