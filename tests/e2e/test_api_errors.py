"""Every documented error: RFC 9457 problem+json, a stable code, and nothing appended.

Matches are ai-100-human with human seats only (so nothing moves between two requests
except what the test sends).
"""

from __future__ import annotations

import pytest

from api.app import create_app
from tests.e2e.http_helpers import GAME, create, tokens_of, version_of

PROBLEM = "application/problem+json"
HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def assert_problem(response, status: int, code: str) -> dict:
    got_status, headers, body = response
    assert got_status == status, body
    assert headers["Content-Type"].startswith(PROBLEM)
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith("/" + code)
    assert body["title"] and body["detail"] and body["instance"].startswith("/")
    return body


@pytest.fixture
def match(http):
    """A fresh 3-human match: ``(match_id, tokens)``."""
    created = create(http, HUMANS, options={"objectives": "starter"})
    return created["match_id"], tokens_of(created)


def actions_path(match_id: str) -> str:
    return f"/v1/matches/{match_id}/actions"


def test_malformed_json_is_400_and_appends_nothing(http, match):
    match_id, tokens = match
    before = version_of(http, match_id)
    assert_problem(
        http.call("POST", actions_path(match_id), tokens[0], raw=b'{"type": "dr'),
        400,
        "malformed_json",
    )
    assert_problem(http.call("POST", "/v1/matches", raw=b"[1,"), 400, "malformed_json")
    assert_problem(
        http.call("POST", actions_path(match_id), tokens[0], raw=b'{"n": NaN}'),
        400,
        "malformed_json",
    )
    assert version_of(http, match_id) == before


def test_wrong_content_type_is_415(http, match):
    match_id, tokens = match
    body = assert_problem(
        http.call(
            "POST",
            actions_path(match_id),
            tokens[0],
            raw=b'{"type": "draft"}',
            content_type="text/plain",
        ),
        415,
        "unsupported_media_type",
    )
    assert "text/plain" in body["detail"]


@pytest.mark.parametrize(
    "media_type",
    ["application/merge-patch+json", "application/json-patch+json", "application/ld+json"],
)
def test_other_json_media_types_are_415(http, match, media_type):
    """Only ``application/json`` (what openapi.yaml documents) is parsed: a ``+json`` type
    with other semantics (RFC 7396 merge patch, RFC 6902 JSON patch) is refused."""
    match_id, tokens = match
    before = version_of(http, match_id)
    legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])[2]["actions"]
    import json as _json

    raw = _json.dumps(legal[0]).encode()
    body = assert_problem(
        http.call("POST", actions_path(match_id), tokens[0], raw=raw, content_type=media_type),
        415,
        "unsupported_media_type",
    )
    assert media_type in body["detail"]
    assert_problem(
        http.call(
            "POST",
            "/v1/matches",
            raw=_json.dumps({"game": GAME, "seats": HUMANS}).encode(),
            content_type=media_type,
        ),
        415,
        "unsupported_media_type",
    )
    assert version_of(http, match_id) == before


def test_a_resign_body_is_read_as_every_posts_and_a_bad_one_resigns_nothing(http, match):
    """Session 9 probe: ``POST .../resign`` ignored its body and ``Content-Type`` (``{`` or
    ``text/plain`` resigned the seat). Now the body is empty or ``{}``, like a join's."""
    match_id, tokens = match
    path = f"/v1/matches/{match_id}/resign"
    before = version_of(http, match_id)
    for raw, content_type, status, code in (
        (b"{", None, 400, "malformed_json"),
        (b'{"why": "tired"}', None, 400, "validation_error"),
        (b"[]", None, 400, "validation_error"),
        (b"null", None, 400, "validation_error"),
        (b"{}", "text/plain", 415, "unsupported_media_type"),
    ):
        call = http.call("POST", path, tokens[0], raw=raw, content_type=content_type)
        assert_problem(call, status, code)
    assert version_of(http, match_id) == before
    assert http.call("POST", path, tokens[0], raw=b"{}")[0] == 200
    assert http.post(path, token=tokens[1])[0] == 200  # no body at all


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("aipokalypse", 2, {"mode": "competitive", "difficulty": "boss"}),
        ("dead-apocalypse", 1, {"difficulty": "easy", "attack_ditch_half_hp": True}),
    ],
)
def test_an_option_combination_a_game_refuses_is_invalid_command_in_every_game(
    http, game, seats, options
):
    """Session 9 probe: A.I.Pokalypse's ``difficulty`` with ``mode: competitive`` answered 400
    ``invalid_command`` where a reader expected ``validation_error``. Ruled: the split is the
    same in every game (docs/client-developers.md): a value the options' JSON Schema refuses
    is 400 ``validation_error`` (``errors.options``); options each valid but refused together
    (a game's cross-field rule in ``validate_options``) are 400 ``invalid_command``."""
    humans = [{"kind": "human"}] * seats
    body = assert_problem(
        http.post("/v1/matches", {"game": game, "seats": humans, "options": options}),
        400,
        "invalid_command",
    )
    assert "difficulty" in body["detail"] or "standard difficulty" in body["detail"]
    wrong = {"difficulty": 7}
    body = assert_problem(
        http.post("/v1/matches", {"game": game, "seats": humans, "options": wrong}),
        400,
        "validation_error",
    )
    assert "difficulty" in body["errors"]["options"]


def test_missing_fields_and_wrong_types_name_the_field(http, match):
    match_id, tokens = match
    body = assert_problem(http.post("/v1/matches", {"game": GAME}), 400, "validation_error")
    assert body["errors"] == {"seats": ["Missing data for required field."]}
    body = assert_problem(
        http.post("/v1/matches", {"game": GAME, "seats": [{"kind": "alien"}]}),
        400,
        "validation_error",
    )
    assert "kind" in body["errors"]["seats"]["0"]
    before = version_of(http, match_id)
    body = assert_problem(
        http.post(actions_path(match_id), {"type": "draft", "card": 17}, tokens[0]),
        400,
        "validation_error",
    )
    assert body["errors"] == {"card": ["Must be a string."]}
    assert "'card'" in body["detail"]
    body = assert_problem(
        http.post(actions_path(match_id), {"card": "017"}, tokens[0]), 400, "validation_error"
    )
    assert "type" in body["errors"]
    assert version_of(http, match_id) == before


def test_seat_count_outside_the_games_range_is_a_validation_error(http):
    body = assert_problem(
        http.post("/v1/matches", {"game": GAME, "seats": HUMANS * 3}), 400, "validation_error"
    )
    assert "to 6" in body["errors"]["seats"][0]


@pytest.mark.parametrize("field", ["spectators", "unlisted", "rated"])
@pytest.mark.parametrize("value", [0, 1, "true", None])
def test_a_match_flag_is_a_json_boolean_not_a_number(http, field, value):
    body = assert_problem(
        http.post("/v1/matches", {"game": GAME, "seats": HUMANS * 2, field: value}),
        400,
        "validation_error",
    )
    assert field in body["errors"]


def test_unknown_game_is_404(http):
    assert_problem(http.get("/v1/games/chess"), 404, "unknown_game")
    assert_problem(
        http.post("/v1/matches", {"game": "chess", "seats": HUMANS}), 404, "unknown_game"
    )


def test_unknown_match_is_404(http):
    assert_problem(http.get("/v1/matches/0123456789abcdef0123"), 404, "match_not_found")
    assert_problem(http.get("/v1/matches/not{a}match"), 404, "match_not_found")
    assert_problem(
        http.post(actions_path("nope"), {"type": "draft", "card": "001"}, "tok"),
        404,
        "match_not_found",
    )


def test_missing_and_wrong_tokens_are_401_with_a_bearer_challenge(http, match):
    match_id, _ = match
    body = assert_problem(http.get(f"/v1/matches/{match_id}/legal-actions"), 401, "missing_token")
    assert body["detail"]
    status, headers, _ = http.get(f"/v1/matches/{match_id}/legal-actions", "forged-token")
    assert status == 401 and headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(
        http.get(f"/v1/matches/{match_id}/legal-actions", "forged-token"), 401, "invalid_token"
    )
    assert_problem(
        http.get(f"/v1/matches/{match_id}", headers={"Authorization": "Basic eDp5"}),
        401,
        "invalid_token",
    )


def test_unknown_action_is_422(http, match):
    match_id, tokens = match
    before = version_of(http, match_id)
    body = assert_problem(
        http.post(actions_path(match_id), {"type": "teleport"}, tokens[0]), 422, "unknown_action"
    )
    assert "teleport" in body["detail"]
    assert version_of(http, match_id) == before
    # a huge type (newcomer probe: a 5 MB type came back whole in the detail) is quoted cut
    status, headers, huge = http.post(actions_path(match_id), {"type": "a" * 200_000}, tokens[0])
    assert_problem((status, headers, huge), 422, "unknown_action")
    assert huge["detail"] == f"Unknown action type {'a' * 64 + '...'!r}."
    assert version_of(http, match_id) == before


def test_a_problem_detail_is_cut_at_max_detail(app):
    """Any message quoting a client's value stays short (api.errors.MAX_DETAIL)."""
    import json

    from api.errors import MAX_DETAIL, problem_response

    with app.test_request_context("/v1/x"):
        body = json.loads(problem_response(422, "x", "y" * 5000).get_data())
    assert len(body["detail"]) == MAX_DETAIL and body["detail"].endswith("...")


def test_illegal_move_is_422_with_the_engines_code(http, match):
    match_id, tokens = match
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])
    command = dict(legal["actions"][0])
    command["card"] = "AI-99"  # a card this seat was not dealt
    before = version_of(http, match_id)
    status, headers, body = http.post(actions_path(match_id), command, tokens[0])
    assert status == 422 and headers["Content-Type"].startswith(PROBLEM)
    assert body["code"] not in ("unknown_action", "validation_error")
    assert version_of(http, match_id) == before


def test_acting_twice_in_one_simultaneous_step_is_not_your_turn(http, match):
    match_id, tokens = match
    sent = None
    for _ in range(5):  # set-up: choose the AI side, then keep 2 of the 4 dealt cards
        _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])
        if not legal["actions"]:
            break
        sent = legal["actions"][0]
        assert http.post(actions_path(match_id), sent, tokens[0])[0] == 200
    assert sent is not None and legal["actions"] == []
    before = version_of(http, match_id)
    assert_problem(http.post(actions_path(match_id), sent, tokens[0]), 409, "not_your_turn")
    assert version_of(http, match_id) == before


def test_stale_expected_version_is_409_with_current_version(http, match):
    match_id, tokens = match
    current = version_of(http, match_id)
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[1])
    command = {**legal["actions"][0], "expected_version": current - 1}
    body = assert_problem(
        http.post(actions_path(match_id), command, tokens[1]), 409, "version_conflict"
    )
    assert body["current_version"] == current
    assert version_of(http, match_id) == current
    status, headers, accepted = http.post(
        actions_path(match_id), {**legal["actions"][0], "expected_version": current}, tokens[1]
    )
    assert status == 200 and accepted["version"] > current


def test_a_failed_if_match_is_412_with_current_version(http, match):
    """RFC 9110 section 13.1.1: a false ``If-Match`` is 412 Precondition Failed (the
    body's ``expected_version`` keeps 409 ``version_conflict``)."""
    match_id, tokens = match
    current = version_of(http, match_id)
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[1])
    body = assert_problem(
        http.post(
            actions_path(match_id),
            legal["actions"][0],
            tokens[1],
            headers={"If-Match": f'"{current - 1}"'},
        ),
        412,
        "precondition_failed",
    )
    assert body["current_version"] == current
    # both given and agreeing: the header's precondition failed, 412 as well
    body = assert_problem(
        http.post(
            actions_path(match_id),
            {**legal["actions"][0], "expected_version": current - 1},
            tokens[1],
            headers={"If-Match": f'"{current - 1}"'},
        ),
        412,
        "precondition_failed",
    )
    assert body["current_version"] == current
    assert version_of(http, match_id) == current
    status, headers, accepted = http.post(
        actions_path(match_id), legal["actions"][0], tokens[1], headers={"If-Match": f'"{current}"'}
    )
    assert status == 200 and accepted["version"] > current
    assert headers["ETag"] == f'"{accepted["version"]}"'


def test_expected_version_in_body_and_if_match_must_agree(http, match):
    match_id, tokens = match
    current = version_of(http, match_id)
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[2])
    body = assert_problem(
        http.post(
            actions_path(match_id),
            {**legal["actions"][0], "expected_version": current},
            tokens[2],
            headers={"If-Match": f'"{current + 1}"'},
        ),
        400,
        "validation_error",
    )
    assert "expected_version" in body["errors"]


def test_expected_version_is_a_json_integer_as_every_integer_field(http, match):
    """``9.0`` is the integer 9 in JSON (as fork's ``version`` reads it); ``9.5`` is not."""
    match_id, tokens = match
    current = version_of(http, match_id)
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[2])
    command = {**legal["actions"][0], "expected_version": current + 0.5}
    assert_problem(http.post(actions_path(match_id), command, tokens[2]), 400, "validation_error")
    assert version_of(http, match_id) == current
    command = {**legal["actions"][0], "expected_version": float(current)}
    status, _, accepted = http.post(actions_path(match_id), command, tokens[2])
    assert status == 200 and accepted["version"] > current, accepted


def test_idempotent_repeat_returns_the_first_body_and_appends_once(http, match):
    match_id, tokens = match
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])
    key = {"Idempotency-Key": "draft-once"}
    status, headers, first = http.post(
        actions_path(match_id), legal["actions"][0], tokens[0], headers=key
    )
    assert status == 200 and "Idempotent-Replayed" not in headers
    status, headers, again = http.post(
        actions_path(match_id), legal["actions"][0], tokens[0], headers=key
    )
    assert status == 200 and headers["Idempotent-Replayed"] == "true"
    assert again == first
    assert version_of(http, match_id) == first["version"]


def test_bad_query_parameters_are_400(http, match):
    match_id, tokens = match
    for query in ("after=-1", "after=x", "wait=31", "wait=nan", "limit=0"):
        body = assert_problem(
            http.get(f"/v1/matches/{match_id}/events?{query}"), 400, "validation_error"
        )
        assert set(body["errors"]) <= {"after", "wait", "limit"}
    for query in ("wait=31", "wait=nan", "wait=-1", "wait=x"):
        body = assert_problem(
            http.get(f"/v1/matches/{match_id}/legal-actions?{query}", tokens[0]),
            400,
            "validation_error",
        )
        assert set(body["errors"]) == {"wait"}
    assert_problem(http.get(f"/v1/matches/{match_id}/state"), 400, "validation_error")
    assert_problem(http.get(f"/v1/matches/{match_id}/state?version=abc"), 400, "validation_error")
    assert_problem(
        http.get(f"/v1/matches/{match_id}/events/stream", headers={"Last-Event-ID": "seven"}),
        400,
        "validation_error",
    )


def test_unknown_route_and_wrong_method(http, match):
    match_id, _ = match
    assert_problem(http.get("/v1/nothing-here"), 404, "not_found")
    # an empty path segment is no route (not an HTML redirect to the path without it)
    assert_problem(http.get("/v1/matches//events"), 404, "not_found")
    assert_problem(http.get(f"/v1/matches/{match_id}//events"), 404, "not_found")
    status, headers, body = http.call("DELETE", f"/v1/matches/{match_id}")
    assert_problem((status, headers, body), 405, "method_not_allowed")
    assert "GET" in headers["Allow"]


def test_running_match_cannot_be_exported_and_spectators_cannot_time_travel(http, match):
    match_id, _ = match
    assert_problem(http.get(f"/v1/matches/{match_id}/export"), 409, "match_running")
    assert_problem(http.get(f"/v1/matches/{match_id}/state?version=1"), 403, "forbidden")
    assert_problem(http.post(f"/v1/matches/{match_id}/fork", {"version": 1}), 409, "match_running")


def test_join_rules(http):
    created = create(http, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    match_id = created["match_id"]
    status, _, joined = http.post(f"/v1/matches/{match_id}/seats/1/join", {"name": "Ada"})
    assert status == 200 and joined["seat"] == 1 and joined["token"]
    assert http.get(f"/v1/matches/{match_id}/legal-actions", joined["token"])[0] == 200
    assert_problem(http.post(f"/v1/matches/{match_id}/seats/1/join"), 409, "seat_taken")
    assert_problem(http.post(f"/v1/matches/{match_id}/seats/0/join"), 409, "seat_taken")
    assert_problem(http.post(f"/v1/matches/{match_id}/seats/9/join"), 404, "seat_not_found")
    assert_problem(
        http.post(f"/v1/matches/{match_id}/seats/2/join", {"name": ""}), 400, "validation_error"
    )


class ExplodingService:
    """A service whose reads fail like a bug would (to prove the catch-all)."""

    def games(self):
        return []

    def match_view(self, match_id, viewer):
        raise RuntimeError("boom: secret internals")


def test_a_genuine_bug_is_a_500_problem_without_internals():
    http_client = create_app(ExplodingService()).test_client()
    response = http_client.get("/v1/matches/abc")
    assert response.status_code == 500
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == "internal_error" and "boom" not in response.get_data(as_text=True)


def test_hostile_json_bodies_are_400_not_500(http, match):
    """Found by the newcomer probe: deep nesting raised RecursionError and unpaired
    surrogates raised UnicodeEncodeError deep in the service (500s)."""
    match_id, tokens = match
    before = version_of(http, match_id)
    deep = b"[" * 100_000 + b"]" * 100_000
    for path, token in (
        (actions_path(match_id), tokens[0]),
        ("/v1/matches", None),
        ("/v1/replays", None),
    ):
        assert_problem(http.call("POST", path, token, raw=deep), 400, "malformed_json")
        nested = b'{"a":' * 65 + b"1" + b"}" * 65
        assert_problem(http.call("POST", path, token, raw=nested), 400, "malformed_json")
    for raw in (
        b'{"type":"choose_ai_side","card":"\\ud800"}',
        b'{"type":"keep_reserve","\\ud800":1}',
    ):
        assert_problem(
            http.call("POST", actions_path(match_id), tokens[0], raw=raw), 400, "malformed_json"
        )
    create = b'{"game":"ai-100-human","seats":[{"kind":"human","name":"\\ud800"}]}'
    assert_problem(http.call("POST", "/v1/matches", raw=create), 400, "malformed_json")
    assert version_of(http, match_id) == before


def test_seat_names_reject_control_and_bidi_characters(http):
    for name in ("a\u0000b", "evil\u202eexe", "tab\there"):
        body = assert_problem(
            http.post(
                "/v1/matches", {"game": GAME, "seats": [{"kind": "human", "name": name}] * 3}
            ),
            400,
            "validation_error",
        )
        assert "seats" in body["errors"]


def test_query_integers_are_ascii_digits_given_once(http, match):
    match_id, _ = match
    for query in ("after=%201", "after=%EF%BC%91", "after=1&after=2", "wait=%EF%BC%91", "after=+1"):
        assert_problem(http.get(f"/v1/matches/{match_id}/events?{query}"), 400, "validation_error")
    assert_problem(
        http.get(f"/v1/matches/{match_id}/state?version=%EF%BC%91"), 400, "validation_error"
    )


def test_if_match_star_matches_any_version(http, match):
    match_id, tokens = match
    legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])[2]["actions"]
    status, _, body = http.call(
        "POST", actions_path(match_id), tokens[0], body=legal[0], headers={"If-Match": "*"}
    )
    assert status == 200, body


def test_only_utf8_uncompressed_json_bodies(http, match):
    match_id, tokens = match
    before = version_of(http, match_id)
    legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])[2]["actions"]
    import json as _json

    raw = _json.dumps(legal[0]).encode()
    assert_problem(
        http.call(
            "POST",
            actions_path(match_id),
            tokens[0],
            raw=raw,
            content_type="application/json; charset=latin-1",
        ),
        415,
        "unsupported_media_type",
    )
    assert_problem(
        http.call(
            "POST", actions_path(match_id), tokens[0], raw=raw, headers={"Content-Encoding": "gzip"}
        ),
        415,
        "unsupported_media_type",
    )
    assert version_of(http, match_id) == before


def test_blank_or_invisible_seat_names_are_rejected(http):
    for name in (" ", "\u200b", "\u2060 "):
        assert_problem(
            http.post(
                "/v1/matches", {"game": GAME, "seats": [{"kind": "human", "name": name}] * 3}
            ),
            400,
            "validation_error",
        )
    status, _, _ = http.post(
        "/v1/matches",
        {"game": GAME, "seats": [{"kind": "human", "name": n} for n in ("Zoë 🧟", "Ann ✨", "Bo")]},
    )
    assert status == 201


def test_busy_503_tells_the_client_when_to_retry(http, match, embedded_service, monkeypatch):
    """Found by the newcomer probe: 503 ``busy`` had no ``Retry-After`` (RFC 9110 10.2.3)."""
    from service.errors import TooManyConflicts

    match_id, tokens = match
    before = version_of(http, match_id)

    def losing_every_race(*_args, **_kwargs):
        raise TooManyConflicts(5)

    monkeypatch.setattr(embedded_service, "act", losing_every_race)
    legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[0])[2]["actions"]
    response = http.call("POST", actions_path(match_id), tokens[0], body=legal[0])
    body = assert_problem(response, 503, "busy")
    assert body["detail"] == "The match changed 5 times while deciding; retry."
    assert response[1]["Retry-After"] == "1"
    monkeypatch.undo()
    assert version_of(http, match_id) == before


def test_query_seconds_take_any_json_number_form(http, match):
    """``wait`` / ``max_s`` are ``type: number`` in openapi.yaml: every JSON number form in
    range is taken (schemathesis sent 17 decimals and exponents, which were 400s)."""
    match_id, _ = match
    for wait in (
        "0",
        "0.30000000000000004",
        "1e-05",
        "2.5E-3",
        "0e0",
        "00",
        "-0",
        "1E%2B0",
        "3e1",
    ):  # %2B: a "+"
        status, _, body = http.get(f"/v1/matches/{match_id}/events?wait={wait}&after=1")
        assert status == 200, (wait, body)
    for wait in (
        "30.000000001",
        "3.1e1",
        "1e999",
        "-1",
        "%2B1",
        ".5",
        "1.",
        "1e",
        "nan",
        "inf",
        "0x1",
        "1_0",
        "%201",
        "0." + "0" * 63,
    ):
        body = assert_problem(
            http.get(f"/v1/matches/{match_id}/events?wait={wait}"), 400, "validation_error"
        )
        assert set(body["errors"]) == {"wait"}, wait
    for max_s in ("0e0", "1e-9", "0.0000000001"):  # a stream of (almost) no seconds
        status = http.get(f"/v1/matches/{match_id}/events/stream?max_s={max_s}")[0]
        assert status == 200, max_s
    assert_problem(
        http.get(f"/v1/matches/{match_id}/events/stream?max_s=3.01e2"), 400, "validation_error"
    )


# ------------------------------------------- session 8 probe: clear answers to bad input
def test_a_huge_integer_is_a_clear_400_that_appends_nothing(http, match):
    """A 5,000-digit ``expected_version`` answered 400 with Python's own message about
    ``sys.set_int_max_str_digits()``."""
    match_id, tokens = match
    before = version_of(http, match_id)
    raw = b'{"type": "keep_reserve", "expected_version": ' + b"9" * 5000 + b"}"
    body = assert_problem(
        http.call("POST", actions_path(match_id), tokens[0], raw=raw), 400, "malformed_json"
    )
    assert "5000 digits" in body["detail"] and "sys." not in body["detail"]
    big = b'{"game": "ai-100-human", "seats": [], "x": -' + b"1" * 101 + b"}"
    assert_problem(http.call("POST", "/v1/matches", raw=big), 400, "malformed_json")
    assert version_of(http, match_id) == before


def test_a_malformed_decision_id_is_400_and_a_stale_one_409(http, match):
    """``decision_id: "zzz"`` (no decision id at all) answered 409 ``decision_moved``."""
    match_id, tokens = match
    before = version_of(http, match_id)
    _, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", tokens[1])
    assert legal["decision_id"]
    for bad in ("zzz", "7", "1-x", "1-0123456789ABCDEF", "-1-0123456789abcdef", 7):
        body = assert_problem(
            http.post(
                actions_path(match_id), {**legal["actions"][0], "decision_id": bad}, tokens[1]
            ),
            400,
            "validation_error",
        )
        assert "decision_id" in body["errors"], bad
    stale = f"{before - 1}-0123456789abcdef"
    body = assert_problem(
        http.post(actions_path(match_id), {**legal["actions"][0], "decision_id": stale}, tokens[1]),
        409,
        "decision_moved",
    )
    assert body["current_decision_id"] == legal["decision_id"]
    assert version_of(http, match_id) == before
    sent = {**legal["actions"][0], "decision_id": legal["decision_id"]}
    assert http.post(actions_path(match_id), sent, tokens[1])[0] == 200


def test_a_seat_that_is_not_a_seat_number_is_404_seat_not_found(http):
    """``POST .../seats/-1/join`` answered the router's generic 404 ``not_found``."""
    match_id = create(http, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["match_id"]
    before = version_of(http, match_id)
    for seat in ("-1", "99", "abc", "1.5", "9" * 30):
        body = assert_problem(
            http.post(f"/v1/matches/{match_id}/seats/{seat}/join"), 404, "seat_not_found"
        )
        assert "seat" in body["detail"]
    assert_problem(http.post(f"/v1/matches/{'0' * 20}/seats/-1/join"), 404, "match_not_found")
    assert version_of(http, match_id) == before


def test_a_seat_name_that_passes_for_a_bot_level_is_422_and_a_blank_one_says_so(http):
    """``{"name": "Expert"}`` on a join took the name of a bot level (session 8 probe); a
    blank name was refused with the control-character message (session 6 probe)."""
    match_id = create(http, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["match_id"]
    before = version_of(http, match_id)
    for name in ("Expert", "greedy BOT", "A.I.Toma"):
        body = assert_problem(
            http.post(f"/v1/matches/{match_id}/seats/1/join", {"name": name}),
            422,
            "seat_name_reserved",
        )
        assert body["seat"] == 1 and name in body["detail"]
    assert_problem(
        http.post(
            "/v1/matches", {"game": GAME, "seats": [{"kind": "human", "name": "Expert"}] * 3}
        ),
        422,
        "seat_name_reserved",
    )
    body = assert_problem(
        http.post(f"/v1/matches/{match_id}/seats/1/join", {"name": "   "}), 400, "validation_error"
    )
    assert "visible" in body["errors"]["name"][0]
    assert version_of(http, match_id) == before
    status, _, joined = http.post(f"/v1/matches/{match_id}/seats/1/join", {"name": "Expertise"})
    assert status == 200, joined


def test_a_refused_query_or_body_names_its_fields_in_the_detail(http, match):
    """Newcomer probe: ``state?seat=1`` without ``version`` answered only "The query string
    is not valid."; the detail now names each refused field with its first message (all
    of them stay in ``errors``), nested ones by a dotted path."""
    match_id, tokens = match
    body = assert_problem(
        http.get(f"/v1/matches/{match_id}/state?seat=0", tokens[0]), 400, "validation_error"
    )
    assert body["detail"].startswith("The query string is not valid: version ("), body
    assert "version" in body["errors"]
    created = assert_problem(
        http.post("/v1/matches", {"game": GAME, "seats": [{"kind": "human", "level": "x"}]}),
        400,
        "validation_error",
    )
    assert "seats.0.level (Unknown field)" in created["detail"], created


def test_an_oversized_query_integer_is_refused_as_too_large(http, match):
    """A query integer of many digits (20, or 5,000: past ``int()``'s own limit) is refused
    by its range ("less than or equal to"), as one just past the bound is; it was "must be
    an integer written with digits 0-9", which it is (probe, session 20)."""
    match_id, tokens = match
    for digits in ("9" * 20, "1" + "0" * 4999, "0" * 30 + "1000000000001"):
        for url, token in (
            (f"/v1/matches/{match_id}/events?after={digits}", None),
            (f"/v1/matches/{match_id}/state?version={digits}", None),
            (f"/v1/matches?limit={digits}", None),
        ):
            body = assert_problem(http.get(url, token), 400, "validation_error")
            (field,) = body["errors"]
            assert "less than or equal to" in body["errors"][field][0], (url[:60], body)
    assert http.get(f"/v1/matches/{match_id}/events?after={'0' * 30}1")[0] == 200
