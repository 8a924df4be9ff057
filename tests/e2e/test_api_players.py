"""Issue 22 over HTTP: players, seat binding by player key, profiles, histories and
leaderboards; their bad input and access errors (problem+json with stable codes)."""

from __future__ import annotations

import logging
import uuid

import pytest

from api.request_id import loggable_target
from service import bootstrap
from tests.e2e.http_helpers import Http


@pytest.fixture
def http(app, embedded_service):
    bootstrap.install(embedded_service)
    return Http(app.test_client())


def _player(http, prefix="Pat"):
    status, headers, body = http.post("/v1/players", {"name": f"{prefix} {uuid.uuid4().hex[:6]}"})
    assert status == 201 and headers["Location"] == f"/v1/players/{body['player_id']}", body
    assert headers["Cache-Control"] == "private, no-store"
    return body


def _duel(http, key, rated=True, **extra):
    status, _, body = http.post(
        "/v1/matches",
        {
            "game": "duel",
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "options": {"tricks": 1},
            "rated": rated,
            **extra,
        },
        key,
    )
    assert status == 201, body
    return body


def test_a_rated_match_between_two_players_moves_their_ratings_and_the_leaderboard(
    http, embedded_service
):
    ann, bob = _player(http, "Ann"), _player(http, "Bob")
    created = _duel(http, ann["key"])
    mid = created["match_id"]
    assert created["seats"][0]["player"] == ann["player_id"] and "token" in created["seats"][0]
    status, _, joined = http.post(f"/v1/matches/{mid}/seats/1/join", None, bob["key"])
    assert status == 200, joined
    for key in (ann["key"], bob["key"]):  # each player key acts for its own seat
        status, _, legal = http.get(f"/v1/matches/{mid}/legal-actions", key)
        assert status == 200, legal
        status, _, done = http.post(f"/v1/matches/{mid}/actions", legal["actions"][0], key)
        assert status == 200, done
    status, _, view = http.get(f"/v1/matches/{mid}")
    assert view["status"] == "finished" and view["rated"] is True  # session 9 probe
    assert view["aborted"] is False
    assert (
        embedded_service.match_ended(mid)["rated"] is True
        or embedded_service.match_ended(mid)["folded"] == 0
    )
    status, headers, board = http.get("/v1/games/duel/leaderboard?mode=2p&limit=100")
    assert status == 200 and headers["ETag"]
    mine = {e["player_id"]: e for e in board["items"] if e["kind"] == "player"}
    assert mine[ann["player_id"]]["matches"] == 1 and mine[bob["player_id"]]["name"].startswith(
        "Bob"
    )
    status, _, _ = http.get(
        "/v1/games/duel/leaderboard?mode=2p&limit=100", headers={"If-None-Match": headers["ETag"]}
    )
    assert status == 304
    status, _, profile = http.get(f"/v1/players/{ann['player_id']}")
    assert status == 200 and profile["played"] == 1 and profile["ratings"][0]["history"]
    status, _, page = http.get(f"/v1/players/{ann['player_id']}/matches?rated=true&game=duel")
    assert status == 200 and [i["match_id"] for i in page["items"]] == [mid]
    status, _, log = http.get(f"/v1/matches/{mid}/export")
    assert [s["player"] for s in log["seats"]] == [ann["player_id"], bob["player_id"]]


def test_an_aborted_rated_match_reads_unrated_in_the_match_as_in_the_histories(http):
    """Bob played a card, Ann resigned before any decision of hers: the match is aborted.
    ``GET /v1/matches/{id}`` said ``rated: true`` (the flag at creation) while both
    histories said ``rated: false, aborted: true``; now both say the latter."""
    ann, bob = _player(http, "Ann"), _player(http, "Bob")
    mid = _duel(http, ann["key"])["match_id"]
    assert http.post(f"/v1/matches/{mid}/seats/1/join", None, bob["key"])[0] == 200
    status, _, view = http.get(f"/v1/matches/{mid}")
    assert (status, view["status"], view["rated"], view["aborted"]) == (200, "running", True, None)
    status, _, legal = http.get(f"/v1/matches/{mid}/legal-actions", bob["key"])
    assert http.post(f"/v1/matches/{mid}/actions", legal["actions"][0], bob["key"])[0] == 200
    status, _, resigned = http.post(f"/v1/matches/{mid}/resign", None, ann["key"])
    assert status == 200, resigned
    for token in (None, ann["key"], bob["key"]):  # a spectator and both seats
        status, _, view = http.get(f"/v1/matches/{mid}", token)
        assert status == 200 and view["status"] == "finished", view
        assert (view["rated"], view["aborted"]) == (False, True)
    for player in (ann, bob):
        status, _, page = http.get(f"/v1/players/{player['player_id']}/matches", player["key"])
        item = next(i for i in page["items"] if i["match_id"] == mid)
        assert (item["rated"], item["aborted"]) == (view["rated"], view["aborted"])
    status, _, page = http.get(f"/v1/players/{ann['player_id']}/matches?rated=true")
    assert mid not in [i["match_id"] for i in page["items"]]
    status, _, profile = http.get(f"/v1/players/{ann['player_id']}")
    assert not profile["ratings"]  # the ratings never rated it


@pytest.mark.parametrize(
    "path",
    [
        "/v1/players/0123456789abcdef",
        "/v1/players/not-an-id",
        "/v1/players/0123456789abcdef/matches",
    ],
)
def test_an_unknown_player_is_404(http, path):
    status, headers, body = http.get(path)
    assert status == 404 and body["code"] == "player_not_found"
    assert headers["Content-Type"].startswith("application/problem+json")


def test_a_player_key_on_a_match_it_holds_no_seat_of_is_403_and_a_bad_key_401(http):
    ann, cid = _player(http), _player(http)
    mid = _duel(http, ann["key"], rated=False)["match_id"]
    assert http.get(f"/v1/matches/{mid}")[2]["rated"] is False
    status, _, body = http.get(f"/v1/matches/{mid}/legal-actions", cid["key"])
    assert status == 403 and body["code"] == "player_not_seated"
    status, _, body = http.get(f"/v1/matches/{mid}/legal-actions", "pk.0123456789abcdef.x")
    assert status == 401 and body["code"] == "invalid_player_key"
    # another player's key: a code about the key's owner, not about seats; nothing changes
    status, headers, body = http.post(f"/v1/players/{ann['player_id']}/key", None, cid["key"])
    assert status == 403 and body["code"] == "player_key_mismatch", body
    assert headers["Content-Type"].startswith("application/problem+json")
    assert http.get(f"/v1/matches/{mid}/legal-actions", ann["key"])[0] == 200
    status, _, body = http.post(f"/v1/players/{ann['player_id']}/key")
    assert status == 401 and body["code"] == "missing_token"
    # a junk body is refused like every POST's, and the key stays (a probe rotated it so)
    key_url = f"/v1/players/{ann['player_id']}/key"
    for raw, ctype, code in (
        (b"hello", "text/plain", "unsupported_media_type"),
        (b"{bad", "application/json", "malformed_json"),
        (b'{"x": 1}', "application/json", "validation_error"),
    ):
        status, _, body = http.call("POST", key_url, ann["key"], raw=raw, content_type=ctype)
        assert body["code"] == code and status in (400, 415), body
    assert http.get(f"/v1/matches/{mid}/legal-actions", ann["key"])[0] == 200
    status, _, rotated = http.post(key_url, {}, ann["key"])
    assert status == 200 and rotated["key"] != ann["key"]
    status, _, body = http.get(f"/v1/matches/{mid}/legal-actions", ann["key"])
    assert status == 401  # the old key stopped working
    status, _, body = http.get(f"/v1/matches/{mid}/legal-actions", rotated["key"])
    assert status == 200


@pytest.mark.parametrize(
    "body,code,status",
    [
        ({"name": "Greedy"}, "player_name_reserved", 422),
        ({"name": "a\u0007b"}, "invalid_player_name", 422),
        ({"name": "x" * 40}, "invalid_player_name", 422),
        ({"name": ""}, "invalid_player_name", 422),
        ({}, "validation_error", 400),
        ({"name": 7}, "validation_error", 400),
        ({"name": "ok", "extra": 1}, "validation_error", 400),
    ],
)
def test_bad_player_bodies(http, body, code, status):
    got, _, problem = http.post("/v1/players", body)
    assert got == status and problem["code"] == code, problem


def test_create_reads_only_a_player_key_from_its_bearer(http):
    """Session 9 probe, ruled (docs/players-and-ratings.md): ``POST /v1/matches`` reads its
    bearer only as a player key. A valid one binds the first human seat; one shaped like a
    player key (``pk.``) that is unknown or rotated is 401 ``invalid_player_key`` and
    creates nothing; any other bearer (a seat token of another match: the SDKs send a
    client's token with every request) names no one and the match is casual, as without
    one; a rated match then is 422 ``rated_match_refused``."""
    ann = _player(http)
    body = {"game": "duel", "seats": [{"kind": "human"}, {"kind": "open"}]}
    bound = _duel(http, ann["key"], rated=False)
    assert bound["seats"][0]["player"] == ann["player_id"]
    seat_token = bound["seats"][0]["token"]
    status, _, casual = http.post("/v1/matches", body, seat_token)
    assert status == 201 and "player" not in casual["seats"][0], casual
    status, _, problem = http.post("/v1/matches", {**body, "rated": True}, seat_token)
    assert (status, problem["code"]) == (422, "rated_match_refused")
    for bad in ("pk.0123456789abcdef.nope", "pk.broken"):
        status, _, problem = http.post("/v1/matches", body, bad)
        assert (status, problem["code"]) == (401, "invalid_player_key"), (bad, problem)


def test_rated_without_a_player_key_and_bad_leaderboard_queries(http):
    status, _, body = http.post(
        "/v1/matches",
        {"game": "duel", "seats": [{"kind": "human"}, {"kind": "open"}], "rated": True},
    )
    assert status == 422 and body["code"] == "rated_match_refused"
    assert http.get("/v1/games/duel/leaderboard?mode=9p")[2]["code"] == "unknown_mode"
    assert http.get("/v1/games/nope/leaderboard")[0] == 404
    assert http.get("/v1/games/duel/leaderboard?limit=0")[0] == 400
    assert http.get("/v1/players/0123456789abcdef/matches?status=lost")[0] in (400, 404)
    # a history filter naming no served game or mode answers as the leaderboard does
    pid = _player(http)["player_id"]
    assert http.get(f"/v1/players/{pid}/matches?game=chess")[2]["code"] == "unknown_game"
    assert http.get(f"/v1/players/{pid}/matches?mode=zz")[2]["code"] == "unknown_mode"
    assert http.get(f"/v1/players/{pid}/matches?game=duel&mode=9p")[2]["code"] == "unknown_mode"
    assert http.get(f"/v1/players/{pid}/matches?game=duel")[0] == 200


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(record.getMessage() + " " + str(record.__dict__))


def test_a_player_key_is_never_logged(http):
    handler = Lines()
    loggers = [logging.getLogger(), logging.getLogger("arena.access")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    try:
        player = _player(http)
        _duel(http, player["key"], rated=False)
        rotated = http.post(f"/v1/players/{player['player_id']}/key", None, player["key"])[2]
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)
    # the access log keeps the path and documented query only (the key travels in the
    # Authorization header, never logged); a key pasted into a query string is masked
    lines = handler.lines + [
        loggable_target(f"/v1/players/{player['player_id']}/key", ""),
        loggable_target("/v1/players", f"key={rotated['key']}"),
    ]
    text = "\n".join(lines)
    for key in (player["key"], rotated["key"]):
        assert key.split(".")[2] not in text


def test_history_pages_follow_an_opaque_cursor_and_refuse_one_they_did_not_give(http):
    """Session 17 probe: ``cursor=0`` was accepted (an offset) and a wrong cursor's problem
    spoke of "this lobby". The cursor is now the lobby's kind (opaque, longer than the 16
    characters an offset was allowed)."""
    ann = _player(http)
    made = [_duel(http, ann["key"], rated=False)["match_id"] for _ in range(3)]
    seen: list[str] = []
    path = f"/v1/players/{ann['player_id']}/matches?limit=2"
    while path:
        status, _, page = http.get(path)
        assert status == 200, page
        seen += [i["match_id"] for i in page["items"]]
        cursor = page["next_cursor"]
        path = f"/v1/players/{ann['player_id']}/matches?limit=2&cursor={cursor}" if cursor else ""
    assert sorted(seen) == sorted(made) and len(seen) == 3
    for bad in ("0", "12", "x" * 300):
        status, headers, problem = http.get(f"/v1/players/{ann['player_id']}/matches?cursor={bad}")
        assert status == 400 and problem["code"] in ("invalid_cursor", "validation_error")
        assert headers["Content-Type"].startswith("application/problem+json")
        if len(bad) < 256:
            assert problem["code"] == "invalid_cursor" and "lobby" not in problem["detail"]


def test_a_history_cursor_of_another_player_is_400_invalid_cursor(http):
    """Session 18 probe: Ann's ``next_cursor`` paged Bob's history. The cursor names its
    player now; Bob's history refuses Ann's and answers as before."""
    ann, bob = _player(http, "Ann"), _player(http, "Bob")
    for player in (ann, bob):
        for _ in range(2):
            _duel(http, player["key"], rated=False)
    _, _, anns = http.get(f"/v1/players/{ann['player_id']}/matches?limit=1")
    bobs_path = f"/v1/players/{bob['player_id']}/matches?limit=1"
    _, _, bobs = http.get(bobs_path)
    status, headers, problem = http.get(f"{bobs_path}&cursor={anns['next_cursor']}")
    assert (status, problem["code"]) == (400, "invalid_cursor"), problem
    assert headers["Content-Type"].startswith("application/problem+json")
    assert http.get(bobs_path)[2] == bobs
    status, _, rest = http.get(f"{bobs_path}&cursor={bobs['next_cursor']}")
    assert status == 200 and len(rest["items"]) == 1, rest


@pytest.mark.parametrize(
    "seats,code",
    [
        ([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "high"}], "rated_match_without_player"),
        ([{"kind": "human"}, {"kind": "bot", "bot": "high", "bot_options": {}}], None),
    ],
)  # fmt: skip
def test_a_rated_match_of_bots_alone_is_422_but_empty_bot_options_are_none(http, seats, code):
    ann = _player(http)
    body = {"game": "duel", "seats": seats, "options": {"tricks": 1}, "rated": True}
    status, headers, problem = http.post("/v1/matches", body, ann["key"])
    if code is None:  # empty bot_options are no options: the level at its default
        assert status == 201, problem
        return
    assert (status, problem["code"]) == (422, code), problem
    assert headers["Content-Type"].startswith("application/problem+json")


def test_an_unlisted_match_is_in_the_players_own_history_only(http):
    """A newcomer probe found a player's unlisted match (reachable by id only, as the docs
    promise) in the public history, its open seat there for anyone to join. Now only the
    player's own key lists it; anonymous and other players' reads do not, and a key that is
    no player's is 401."""
    ann, bob = _player(http, "Ann"), _player(http, "Bob")
    hidden = _duel(http, ann["key"], rated=False, unlisted=True)
    shown = _duel(http, ann["key"], rated=False)
    path = f"/v1/players/{ann['player_id']}/matches"

    def listed(key=None):
        status, headers, page = http.get(path, key)
        assert status == 200, page
        return {item["match_id"] for item in page["items"]}, headers

    public, headers = listed()
    assert shown["match_id"] in public and hidden["match_id"] not in public
    assert listed(bob["key"])[0] == public
    mine, own_headers = listed(ann["key"])
    assert mine == public | {hidden["match_id"]}
    # no shared cache may hand the player's own page to anyone else
    assert "public" not in own_headers.get("Cache-Control", "")
    status, _, problem = http.get(path, "pk.0123456789abcdef.notakey")
    assert status == 401 and problem["code"] == "invalid_player_key", problem


def test_no_cursor_of_a_history_names_a_match_the_reader_may_not_see(http):
    """A second probe: a page stopped after ``limit x 10`` hidden entries put the last one
    looked at, an unlisted match, into the anonymous ``next_cursor`` (base64 JSON), and a
    stranger joined its open seat. Cursors now name their entry by a digest; paging still
    lists every visible entry once, for the public and for the player."""
    import base64
    import json

    ann = _player(http, "Ann")
    listed = _duel(http, ann["key"], rated=False)["match_id"]
    hidden = [_duel(http, ann["key"], rated=False, unlisted=True)["match_id"] for _ in range(12)]
    path = f"/v1/players/{ann['player_id']}/matches?limit=1"

    def walk(key=None):
        seen, cursors, url = [], [], path
        while True:
            status, _, page = http.get(url, key)
            assert status == 200, page
            seen += [item["match_id"] for item in page["items"]]
            if page["next_cursor"] is None:
                return seen, cursors
            cursors.append(page["next_cursor"])
            url = f"{path}&cursor={page['next_cursor']}"

    public, cursors = walk()
    assert public == [listed] and cursors  # the first page stopped among the hidden ones
    for cursor in cursors:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        assert not any(mid in raw for mid in hidden + [listed]), json.loads(raw)
    mine, _ = walk(ann["key"])
    assert mine == hidden[::-1] + [listed]  # newest first, each once


def test_a_create_answer_says_what_was_asked(http):
    """A probe could not confirm ``rated``/``unlisted``/``spectators`` without a GET: the
    create answer now carries them as the match keeps them."""
    ann = _player(http, "Ann")
    made = _duel(http, ann["key"], rated=True, unlisted=True, spectators=False)
    assert (made["rated"], made["unlisted"], made["spectators"]) == (True, True, False)
    plain = _duel(http, None, rated=False)
    assert (plain["rated"], plain["unlisted"], plain["spectators"]) == (False, False, True)
    status, _, view = http.get(f"/v1/matches/{plain['match_id']}")
    assert status == 200 and (view["rated"], view["unlisted"]) == (False, False)
