"""HTTP semantics over the embedded app: ETag / If-None-Match -> 304 on every GET with an
ETag, Cache-Control and Vary on seat-specific and public answers, CORS with an allow-list,
413 for an oversized body (also chunked). 414/431 from the servers themselves:
tests/e2e/test_wire_errors.py."""

from __future__ import annotations

import io
import json

import pytest

from api.app import create_app
from api.http_cache import PRIVATE
from tests.e2e.http_helpers import Http, create, tokens_of

TWO_HUMANS = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


@pytest.fixture
def http(client) -> Http:
    return Http(client)


@pytest.fixture
def finished(http):
    """A finished 2-human AI: 100% Human match (seat 0 resigned, which ends it):
    ``(match_id, tokens)``."""
    created = create(http, TWO_HUMANS)
    mid, tokens = created["match_id"], tokens_of(created)
    status, _, body = http.post(f"/v1/matches/{mid}/resign", token=tokens[0])
    assert status == 200, body
    assert http.get(f"/v1/matches/{mid}")[2]["status"] == "finished"
    return mid, tokens


def _paths(mid: str, tokens: dict[int, str]) -> list[tuple[str, str | None]]:
    """Every GET that sends an ETag, as ``(path, token)`` (a finished match ``mid``)."""
    return [
        ("/v1/games", None),
        ("/v1/games/ai-100-human", None),
        ("/v1/games/ai-100-human/cards", None),
        ("/v1/matches?limit=5", None),
        (f"/v1/matches/{mid}", None),
        (f"/v1/matches/{mid}", tokens[0]),
        (f"/v1/matches/{mid}/legal-actions", tokens[1]),
        (f"/v1/matches/{mid}/events?after=3", None),
        (f"/v1/matches/{mid}/events", tokens[0]),
        (f"/v1/matches/{mid}/state?version=5", None),
        (f"/v1/matches/{mid}/state?version=5", tokens[1]),
        (f"/v1/matches/{mid}/export", None),
        ("/openapi.yaml", None),
        ("/", None),
        ("/web/js/app.js", None),
    ]


def test_every_get_with_an_etag_answers_304_to_a_matching_if_none_match(http, finished):
    mid, tokens = finished
    for path, token in _paths(mid, tokens):
        status, headers, body = http.get(path, token)
        assert status == 200, (path, body)
        etag = headers["ETag"]
        assert etag.startswith('"') and etag.endswith('"'), (path, etag)
        for sent in (etag, f"W/{etag}", "*", f'"nope", {etag}', f'"nope",W/{etag}'):
            status, again, text = http.get(path, token, headers={"If-None-Match": sent})
            assert status == 304 and text == "", (path, sent, status)
            assert again["ETag"] == etag, path
            assert again.get("Cache-Control") == headers.get("Cache-Control"), path
            assert again.get("Vary") == headers.get("Vary"), path
        for sent in ('"nope"', 'W/"nope"', f'"{etag[1:-1]}x"'):
            status, _, _ = http.get(path, token, headers={"If-None-Match": sent})
            assert status == 200, (path, sent)
    # HEAD answers the same ETag and 304
    response = http.target.head(f"/v1/matches/{mid}")
    assert response.status_code == 200 and response.headers["ETag"]
    assert (
        http.target.head(
            f"/v1/matches/{mid}", headers={"If-None-Match": response.headers["ETag"]}
        ).status_code
        == 304
    )


def test_the_match_view_etag_changes_with_the_view_and_works_as_if_match(http):
    created = create(http, TWO_HUMANS)
    mid, tokens = created["match_id"], tokens_of(created)
    _, headers, view = http.get(f"/v1/matches/{mid}", tokens[0])
    etag = headers["ETag"]
    assert etag.startswith(f'"{view["version"]}-')
    # another seat's view of the same version is another representation, another tag
    assert http.get(f"/v1/matches/{mid}", tokens[1])[1]["ETag"] != etag
    assert http.get(f"/v1/matches/{mid}", tokens[0], headers={"If-None-Match": etag})[0] == 304
    legal = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]
    # the view's ETag is a valid If-Match for the action: it names the current version
    status, _, body = http.post(
        f"/v1/matches/{mid}/actions", legal["actions"][0], tokens[0], headers={"If-Match": etag}
    )
    assert status == 200, body
    status, _, body = http.post(
        f"/v1/matches/{mid}/actions", legal["actions"][0], tokens[0], headers={"If-Match": etag}
    )
    assert status == 412 and body["code"] == "precondition_failed", body
    status, moved, _ = http.get(f"/v1/matches/{mid}", tokens[0], headers={"If-None-Match": etag})
    assert status == 200 and moved["ETag"] != etag


def test_a_rematch_link_changes_the_finished_views_etag_at_the_same_version(http, finished):
    mid, tokens = finished
    _, headers, before = http.get(f"/v1/matches/{mid}")
    assert "rematch" not in before
    assert http.post(f"/v1/matches/{mid}/rematch", token=tokens[0])[0] == 201
    status, after_headers, after = http.get(
        f"/v1/matches/{mid}", headers={"If-None-Match": headers["ETag"]}
    )
    assert status == 200 and after["rematch"] and after["version"] == before["version"]
    assert after_headers["ETag"] != headers["ETag"]


def test_seat_specific_answers_are_private_no_store_and_vary_on_authorization(http, client):
    created_status, created_headers, created = http.post(
        "/v1/matches", {"game": "ai-100-human", "seats": TWO_HUMANS[:1] + [{"kind": "open"}]}
    )
    assert created_status == 201
    mid, tokens = created["match_id"], tokens_of(created)
    join = http.post(f"/v1/matches/{mid}/seats/1/join", {"name": "bob"})
    assert join[0] == 200
    tokens[1] = join[2]["token"]
    answers = {"create": created_headers, "join": join[1]}
    for name, path in (
        ("view", ""),
        ("legal", "/legal-actions"),
        ("events", "/events"),
        ("state", "/state?version=1"),
    ):
        status, headers, body = http.get(f"/v1/matches/{mid}{path}", tokens[0])
        assert status == 200, (name, body)
        answers[name] = headers
    stream = client.get(
        f"/v1/matches/{mid}/events/stream?max_s=0", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert stream.status_code == 200
    answers["sse"] = stream.headers
    legal = http.get(f"/v1/matches/{mid}/legal-actions", tokens[0])[2]
    answers["act"] = http.post(f"/v1/matches/{mid}/actions", legal["actions"][0], tokens[0])[1]
    answers["problem with a token"] = http.get(f"/v1/matches/{mid}/state?version=999", tokens[0])[1]
    status, answers["resign"], body = http.post(f"/v1/matches/{mid}/resign", token=tokens[0])
    assert status == 200, body
    status, answers["rematch"], body = http.post(f"/v1/matches/{mid}/rematch", token=tokens[1])
    assert status == 201 and body["token"], body
    status, answers["fork"], body = http.post(
        f"/v1/matches/{mid}/fork", {"version": created["version"]}
    )
    assert status == 201, body
    for name, headers in answers.items():
        assert headers["Cache-Control"] == PRIVATE, name
        assert "Authorization" in headers.get("Vary", ""), name


def test_public_answers_have_sensible_cache_control(http):
    created = create(http, TWO_HUMANS)
    mid = created["match_id"]
    expected = {
        "/v1/games": "public, max-age=300",
        "/v1/games/ai-100-human": "public, max-age=300",
        "/v1/games/ai-100-human/cards": "public, max-age=3600",
        "/v1/matches": "no-cache",
        f"/v1/matches/{mid}": "no-cache",
        f"/v1/matches/{mid}/events": "no-cache",
        "/openapi.yaml": "no-cache",
        "/healthz": "no-store",
        "/metrics": "no-store",
        "/": "no-cache",
    }
    for path, policy in expected.items():
        status, headers, _ = http.get(path)
        assert status == 200 and headers["Cache-Control"] == policy, (path, headers)
        assert ("Authorization" in headers.get("Vary", "")) == path.startswith("/v1/matches")
    for path in ("/healthz", "/metrics"):
        assert "ETag" not in http.get(path)[1]
    # problems are never stored (a 404 is heuristically cacheable otherwise)
    for path in ("/v1/nothing", "/v1/matches/nope", "/v1/games/nope"):
        status, headers, body = http.get(path)
        assert status == 404 and headers["Cache-Control"] == "no-store", path
        assert "ETag" not in headers


@pytest.fixture
def cors_app(embedded_service):
    return create_app(
        embedded_service, {"ARENA_CORS_ORIGINS": "https://app.example, http://localhost:5173/"}
    )


PREFLIGHT = {
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, "
    "if-match, if-none-match, last-event-id, prefer, x-request-id",
}


def test_cors_preflight_from_a_listed_origin_is_answered(cors_app):
    client = cors_app.test_client()
    for origin in ("https://app.example", "http://localhost:5173", "HTTPS://APP.EXAMPLE"):
        response = client.options(
            "/v1/matches/abc/actions", headers={"Origin": origin, **PREFLIGHT}
        )
        assert response.status_code == 204 and response.get_data() == b""
        headers = response.headers
        assert "Content-Type" not in headers and "POST" in headers["Allow"]
        assert headers["Access-Control-Allow-Origin"] == origin
        assert set(headers["Access-Control-Allow-Methods"].split(", ")) >= {"GET", "POST"}
        allowed = {h.strip().lower() for h in headers["Access-Control-Allow-Headers"].split(",")}
        assert allowed == {
            "authorization",
            "content-type",
            "idempotency-key",
            "if-match",
            "if-none-match",
            "last-event-id",
            "prefer",
            "x-request-id",
        }
        assert int(headers["Access-Control-Max-Age"]) > 0
        assert "Access-Control-Allow-Credentials" not in headers
        assert "Origin" in headers.get("Vary", "")


def test_cors_answers_expose_headers_and_errors_carry_cors_too(cors_app):
    client = cors_app.test_client()
    origin = {"Origin": "https://app.example"}
    created = client.post(
        "/v1/matches", json={"game": "ai-100-human", "seats": TWO_HUMANS}, headers=origin
    )
    assert created.status_code == 201
    assert created.headers["Access-Control-Allow-Origin"] == "https://app.example"
    exposed = {h.strip() for h in created.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After", "Idempotent-Replayed", "X-Request-ID"} <= exposed
    missing = client.get("/v1/matches/nope", headers=origin)
    assert missing.status_code == 404
    assert missing.headers["Access-Control-Allow-Origin"] == "https://app.example"


def test_cors_refuses_unlisted_origins_and_is_off_when_unset(cors_app, app):
    client = cors_app.test_client()
    for origin in ("https://evil.example", "https://app.example.evil", "null"):
        response = client.options("/v1/games", headers={"Origin": origin, **PREFLIGHT})
        assert not [h for h in response.headers.keys() if h.startswith("Access-Control-")]
        response = client.get("/v1/games", headers={"Origin": origin})
        assert "Access-Control-Allow-Origin" not in response.headers
    # no Origin: no CORS headers (never a list of every allowed origin)
    assert "Access-Control-Allow-Origin" not in client.get("/v1/games").headers
    plain = app.test_client()  # ARENA_CORS_ORIGINS unset
    response = plain.options("/v1/games", headers={"Origin": "https://app.example", **PREFLIGHT})
    assert not [h for h in response.headers.keys() if h.startswith("Access-Control-")]


def test_options_is_204_with_allow_and_no_body_with_or_without_cors(cors_app, app):
    """``OPTIONS`` answered Flask's ``200 text/html`` with an empty body (session 8 probe):
    now ``204 No Content`` with the path's methods in ``Allow``, CORS on or off; an
    unknown path stays a 404 problem."""
    for client in (app.test_client(), cors_app.test_client()):
        for path, methods in (
            ("/v1/matches/abc/actions", {"POST", "OPTIONS"}),
            ("/v1/matches", {"GET", "HEAD", "POST", "OPTIONS"}),
            ("/v1/games", {"GET", "HEAD", "OPTIONS"}),
        ):
            response = client.options(path)
            assert response.status_code == 204 and response.get_data() == b"", path
            assert "Content-Type" not in response.headers, path
            assert {m.strip() for m in response.headers["Allow"].split(",")} == methods, path
        missing = client.options("/v1/nothing")
        assert missing.status_code == 404
        assert missing.headers["Content-Type"].startswith("application/problem+json")


def test_cors_any_origin_and_bad_settings(embedded_service):
    any_origin = create_app(embedded_service, {"ARENA_CORS_ORIGINS": "*"}).test_client()
    response = any_origin.get("/v1/games", headers={"Origin": "https://any.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    for bad in ("app.example", "ftp://x.example", "https://x.example/path"):
        with pytest.raises(ValueError, match="ARENA_CORS_ORIGINS"):
            create_app(embedded_service, {"ARENA_CORS_ORIGINS": bad})


@pytest.mark.parametrize("setting", ["https://app.example", "*"])
def test_with_cors_on_every_answer_varies_on_origin(embedded_service, setting):
    """Cached public answers (the catalogue, the card data, the web client's files, the
    lobby), their 304s, problems, answers without ``Access-Control-Allow-Origin`` (no or an
    unlisted ``Origin``) and preflights all carry ``Vary: Origin``: a shared cache must not
    hand one origin's answer to another."""
    client = create_app(embedded_service, {"ARENA_CORS_ORIGINS": setting}).test_client()
    game = client.get("/v1/games").get_json()["games"][0]["id"]
    paths = [
        "/v1/games",
        f"/v1/games/{game}",
        "/",
        "/web/js/app.js",
        "/v1/matches",
        "/openapi.yaml",
        "/healthz",
        "/v1/nothing",
    ]
    for path in paths:
        for origin in ({"Origin": "https://app.example"}, {"Origin": "https://evil.example"}, {}):
            response = client.get(path, headers=origin)
            vary = {v.strip() for v in response.headers.get("Vary", "").split(",")}
            assert "Origin" in vary, (path, origin, response.headers)
            if path.startswith("/v1/matches"):
                assert "Authorization" in vary
            etag = response.headers.get("ETag")
            if etag and response.status_code == 200:
                again = client.get(path, headers={**origin, "If-None-Match": etag})
                assert again.status_code == 304
                assert "Origin" in again.headers.get("Vary", ""), path
    preflight = client.options("/v1/games", headers={"Origin": "https://app.example", **PREFLIGHT})
    vary = {v.strip() for v in preflight.headers["Vary"].split(",")}
    assert {"Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"} <= vary


def test_without_cors_public_answers_do_not_vary_on_origin(app):
    response = app.test_client().get("/v1/games", headers={"Origin": "https://app.example"})
    assert "Origin" not in response.headers.get("Vary", "")


def test_preflights_spend_no_rate_limit_budget(embedded_service):
    limited = create_app(
        embedded_service,
        {
            "ARENA_CORS_ORIGINS": "https://app.example",
            "ARENA_RATE_LIMITS_ENABLED": "1",
            "ARENA_RATE_LIMITS": "3/minute",
            "ARENA_RATE_LIMIT_STORAGE": "memory://",
        },
    ).test_client()
    for _ in range(10):
        response = limited.options(
            "/v1/games", headers={"Origin": "https://app.example", **PREFLIGHT}
        )
        assert response.status_code == 204
    assert limited.get("/v1/games").status_code == 200


def _chunked_environ(body: bytes) -> dict:
    """The WSGI environ a server gives for a ``Transfer-Encoding: chunked`` body it has
    de-chunked (``wsgi.input_terminated``: gunicorn and werkzeug's server both set it)."""
    return {
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "HTTP_TRANSFER_ENCODING": "chunked",
        "CONTENT_TYPE": "application/json",
    }


def test_an_oversized_chunked_body_is_413_and_a_small_one_is_read(embedded_service):
    small = create_app(embedded_service, {"MAX_CONTENT_LENGTH": 4096}).test_client()
    big = json.dumps(
        {"game": "ai-100-human", "seats": TWO_HUMANS, "options": {"x": "y" * 5000}}
    ).encode()
    response = small.post("/v1/matches", environ_overrides=_chunked_environ(big))
    assert response.status_code == 413, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "payload_too_large"
    fits = json.dumps({"game": "ai-100-human", "seats": TWO_HUMANS}).encode()
    response = small.post("/v1/matches", environ_overrides=_chunked_environ(fits))
    assert response.status_code == 201, response.get_data(as_text=True)
    # a body of exactly the limit is not too large
    exact = fits + b" " * (4096 - len(fits))
    response = small.post("/v1/matches", environ_overrides=_chunked_environ(exact))
    assert response.status_code == 201, response.get_data(as_text=True)
    # and with a Content-Length werkzeug refuses it up front, also as problem+json
    response = small.post("/v1/matches", data=big, content_type="application/json")
    assert response.status_code == 413 and response.get_json()["code"] == "payload_too_large"
