"""Match analysis over HTTP (issue 23 item 3): ``POST/GET /v1/matches/{id}/analysis`` and
``POST /v1/analyses`` / ``GET /v1/analyses/{id}``, run by the embedded worker threads
(the analysis queue), with problem+json errors and stable codes, and every answer valid
against ``openapi.yaml``'s ``Analysis`` schema."""

from __future__ import annotations

import jsonschema

from tests.support.duels import finished_duel
from tests.support.openapi_doc import openapi_document
from tests.support.polling import wait_for

SPEC = openapi_document()


def _valid(answer: dict) -> None:
    """``answer`` is an ``Analysis`` of ``openapi.yaml`` (refs resolved in the document)."""
    schema = {"$ref": "#/components/schemas/Analysis", "components": SPEC["components"]}
    jsonschema.validate(answer, schema, cls=jsonschema.Draft202012Validator)


def _done(client, url: str) -> dict:
    answer = wait_for(
        lambda: (lambda a: a if a["status"] in ("done", "failed") else None)(
            client.get(url).get_json()
        ),
        120,
    )
    assert answer, f"the analysis at {url} did not finish"
    return answer


def _two_seat_win_probability(done: dict, match_id: str) -> list[dict]:
    """Checks a finished ``win_probability`` analysis of a two-seat match (schema, status,
    seats, values in [0, 1] and labels of the decisions with alternatives); returns its
    decisions."""
    _valid(done)
    assert (done["status"], done["progress"]) == ("done", 100)
    result = done["result"]
    assert result["match_id"] == match_id and result["metric"] == "win_probability"
    assert [s["seat"] for s in result["seats"]] == [0, 1]
    decisions = result["decisions"]
    valued = [d for d in decisions if d["choices"] > 1]
    assert valued and all(0.0 <= d["played_value"] <= 1.0 for d in valued)
    assert all(d["label"] in (None, "inaccuracy", "mistake", "blunder") for d in valued)
    return decisions


def test_a_finished_match_is_analysed_by_a_worker_and_cached(client, embedded_service):
    mid = finished_duel(embedded_service, tricks=5, seed=3)
    assert (
        client.get(f"/v1/matches/{mid}/analysis?budget=40").get_json()["code"]
        == "analysis_not_found"
    )
    response = client.post(f"/v1/matches/{mid}/analysis?budget=40")
    assert response.status_code == 202
    first = response.get_json()
    _valid(first)
    assert first["status"] in ("queued", "running", "done") and first["budget"] == 40
    assert response.headers["Location"].endswith(f"/v1/analyses/{first['analysis_id']}")
    done = _done(client, f"/v1/analyses/{first['analysis_id']}")
    _valid(done)
    assert (done["status"], done["progress"]) == ("done", 100)
    result = done["result"]
    assert result["match_id"] == mid and result["metric"] == "win_probability"
    assert [s["seat"] for s in result["seats"]] == [0, 1]
    assert len(result["decisions"]) == 10  # 5 tricks x 2 seats, the last forced
    assert client.get(f"/v1/matches/{mid}/analysis?budget=40").get_json() == done
    # the same match and budget: the cached answer, no second job
    again = client.post(f"/v1/matches/{mid}/analysis?budget=40")
    assert again.status_code == 202 and again.get_json() == done


def test_an_uploaded_export_is_verified_then_analysed(client, embedded_service):
    mid = finished_duel(embedded_service, tricks=5, seed=4)
    log = embedded_service.export(mid)
    response = client.post("/v1/analyses?budget=24", json=log)
    assert response.status_code == 202
    done = _done(client, response.headers["Location"])
    assert done["source"] == "upload" and done["result"]["match_id"] == mid
    # an export of the same match and budget names the same analysis as the match's own
    assert (
        client.post(f"/v1/matches/{mid}/analysis?budget=24").get_json()["analysis_id"]
        == done["analysis_id"]
    )
    tampered = {**log, "events": [dict(e) for e in log["events"]]}
    tampered["events"][-2]["data"] = {**tampered["events"][-2]["data"], "cards": ["D01", "D02"]}
    problem = client.post("/v1/analyses", json=tampered)
    assert problem.status_code == 422 and problem.mimetype == "application/problem+json"
    assert problem.get_json()["code"] == "log_not_verified" and problem.get_json()["errors"]["log"]


def test_errors_are_problems_with_stable_codes(client, embedded_service):
    running = embedded_service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {})[
        "match_id"
    ]
    for method in (client.post, client.get):
        response = method(f"/v1/matches/{running}/analysis")
        assert (response.status_code, response.get_json()["code"]) == (409, "match_running")
        assert response.mimetype == "application/problem+json"
    mid = finished_duel(embedded_service, tricks=5, seed=5)
    response = client.post(f"/v1/matches/{mid}/analysis?budget=0")
    assert (response.status_code, response.get_json()["code"]) == (400, "validation_error")
    response = client.post(f"/v1/matches/{mid}/analysis?budget=4096")
    assert (response.status_code, response.get_json()["code"]) == (422, "analysis_budget_capped")
    assert response.get_json()["cap"] == 512
    assert client.get("/v1/analyses/0123").get_json()["code"] == "analysis_not_found"
    assert client.post("/v1/matches/nope/analysis").status_code == 404


def test_the_budget_is_a_query_parameter_and_any_other_body_is_refused(client, embedded_service):
    """docs/analysis.md: the budget is ``?budget=N``. A ``{"budget": 8}`` body was ignored
    (the analysis ran with 64) and a text body was taken; both are refused now, and nothing
    is queued. A budget above the cap is 422 ``analysis_budget_capped`` whatever its size
    (above 4096 it was a 400 ``validation_error``)."""
    mid = finished_duel(embedded_service, tricks=2, seed=6)
    url = f"/v1/matches/{mid}/analysis"
    refused = [
        (client.post(url, json={"budget": 8}), 400, "validation_error"),
        (client.post(url, json={"depth": 2}), 400, "validation_error"),
        (client.post(url, json=[8]), 400, "validation_error"),
        (
            client.post(url, data="budget=8", content_type="text/plain"),
            415,
            "unsupported_media_type",
        ),
        (client.post(url, data="{", content_type="application/json"), 400, "malformed_json"),
    ]
    for response, status, code in refused:
        assert (response.status_code, response.get_json()["code"]) == (status, code)
        assert response.mimetype == "application/problem+json"
    assert "budget" in refused[0][0].get_json()["errors"]
    assert client.get(url).get_json()["code"] == "analysis_not_found"  # nothing queued
    for budget in (513, 4097, 10**17):
        response = client.post(f"{url}?budget={budget}")
        assert (response.status_code, response.get_json()["code"]) == (
            422,
            "analysis_budget_capped",
        ), budget
        assert response.get_json()["cap"] == 512
        assert client.get(f"{url}?budget={budget}").get_json()["code"] == "analysis_budget_capped"
    log = embedded_service.export(mid)
    response = client.post("/v1/analyses", json={**log, "budget": 8})
    assert (response.status_code, response.get_json()["code"]) == (400, "validation_error")
    accepted = client.post(f"{url}?budget=8", json={})
    assert accepted.status_code == 202 and accepted.get_json()["budget"] == 8
    assert client.post(f"{url}?budget=8").status_code == 202  # no body at all
