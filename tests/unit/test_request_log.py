"""Issue 18 item 9 (and item 6's last point): request ids on every answer and every log line
of the request, JSON logs, an access log with the duration that never records a token."""

from __future__ import annotations

import io
import json
import logging
import threading

import pytest
import requests
from werkzeug.serving import make_server

from api.app import create_app
from api.request_id import loggable_target
from cli.serve import QuietRequestHandler
from service.bootstrap import build_service
from service.config import Config
from service.logs import REQUEST_ID, configure, handler
from tests.support.polling import wait_for

SECRET = "Xy3_sEcReT-tOkEn-0123456789abcdefghijklmnopq"  # 44 characters, like a seat token


class Served:
    """The app on werkzeug's threaded server (a real server closes every answer's body,
    which is when the access line is written; the Flask test client does not)."""

    def __init__(self, app):
        self.http = make_server(
            "127.0.0.1", 0, app, threaded=True, request_handler=QuietRequestHandler
        )
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def get(self, path: str, **kwargs) -> requests.Response:
        return requests.get(self.url + path, timeout=30, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return requests.post(self.url + path, timeout=30, **kwargs)


@pytest.fixture()
def app():
    app = create_app(build_service(Config(key_prefix="reqlog")))

    @app.get("/_test/log")
    def _log_inside():
        logging.getLogger("arena.test").warning("inside the request")
        return {"ok": True}

    served = Served(app)
    yield served
    served.http.shutdown()
    served.http.server_close()


@pytest.fixture()
def lines():
    """JSON log lines written through the JSON handler while the test runs."""
    out = io.StringIO()
    json_handler = handler("json")
    json_handler.stream = out
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(json_handler)
    root.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in out.getvalue().splitlines()]
    finally:
        root.removeHandler(json_handler)
        root.setLevel(old_level)


def _access(logged: list[dict], request_id: str) -> list[dict]:
    """The access lines of the request with ``request_id``."""
    return [
        line
        for line in logged
        if line["logger"] == "arena.access" and line["request_id"] == request_id
    ]


def test_a_request_id_is_generated_or_kept_and_returned_on_every_answer(app):
    client = app
    fresh = client.get("/v1/games").headers["X-Request-ID"]
    assert len(fresh) == 32 and int(fresh, 16) >= 0
    assert client.get("/v1/games").headers["X-Request-ID"] != fresh
    kept = client.get("/v1/games", headers={"X-Request-ID": "lb-7f3a:12/x"})
    assert kept.headers["X-Request-ID"] == "lb-7f3a:12/x"
    problem = client.get("/v1/matches/nope", headers={"X-Request-ID": "abc"})
    assert problem.status_code == 404 and problem.headers["X-Request-ID"] == "abc"
    assert client.get("/healthz", headers={"X-Request-ID": "h"}).headers["X-Request-ID"] == "h"
    for bad in ("x" * 129, "has space", "tab\there", "<script>", "é", ""):
        answer = client.get("/v1/games", headers={"X-Request-ID": bad})
        assert answer.headers["X-Request-ID"] != bad and len(answer.headers["X-Request-ID"]) == 32


def test_every_line_of_a_request_carries_its_id_and_the_access_line_its_duration(app, lines):
    app.get("/_test/log", headers={"X-Request-ID": "trace-1"})
    access = wait_for(lambda: _access(lines(), "trace-1"), 30)
    inside = [line for line in lines() if line["message"] == "inside the request"]
    assert inside and inside[0]["request_id"] == "trace-1" and inside[0]["level"] == "WARNING"
    assert len(access) == 1
    entry = access[0]
    assert (entry["method"], entry["path"], entry["status"], entry["request_id"]) == (
        "GET",
        "/_test/log",
        200,
        "trace-1",
    )
    assert isinstance(entry["duration_ms"], float) and entry["duration_ms"] >= 0
    assert entry["bytes"] > 0 and "time" in entry


def test_the_access_log_never_records_a_token(app, lines):
    client = app
    created = client.post(
        "/v1/matches",
        json={
            "game": "ai-100-human",
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "bot": "random"},
                {"kind": "bot", "bot": "random"},
            ],
        },
    )
    match_id, token = created.json()["match_id"], created.json()["seats"][0]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    client.get(
        f"/v1/matches/{match_id}?token={token}&access_token={SECRET}&wait=0",
        headers={**bearer, "X-Request-ID": "q1"},
    )
    client.get(
        f"/v1/matches/{match_id}/events?after=0&{SECRET}", headers={**bearer, "X-Request-ID": "q2"}
    )
    client.get(f"/v1/matches/{SECRET}", headers={"X-Request-ID": "q3"})
    client.get(f"/v1/matches?cursor={token}", headers={"X-Request-ID": "q4"})
    # each access line is written when its answer's body is closed, maybe after the client
    # has read it: wait until all four are there
    assert wait_for(lambda: all(_access(lines(), rid) for rid in ("q1", "q2", "q3", "q4")), 30)
    text = json.dumps(lines())
    assert token not in text and SECRET not in text
    paths = [line["path"] for line in lines() if line["logger"] == "arena.access"]
    assert f"/v1/matches/{match_id}?***&***&wait=0" in paths
    assert f"/v1/matches/{match_id}/events?after=0&***" in paths
    assert "/v1/matches/***" in paths and "/v1/matches?***" in paths


def test_loggable_target_keeps_documented_short_values_only():
    assert (
        loggable_target("/v1/matches", "game=ai-100-human&limit=5")
        == "/v1/matches?game=ai-100-human&limit=5"
    )
    assert loggable_target("/v1/matches", "seat_token=abc") == "/v1/matches?***"
    assert loggable_target("/a b", "") == "/a%20b"


def test_text_logs_carry_the_request_id_and_the_format_is_a_setting():
    assert configure({"ARENA_LOG_FORMAT": "text"}) == ("text", "INFO")
    assert configure({"ARENA_LOG_FORMAT": "json", "ARENA_LOG_LEVEL": "warning"}) == (
        "json",
        "WARNING",
    )
    root = logging.getLogger()
    assert sum(getattr(h, "_arena_handler", False) for h in root.handlers) == 1
    out = io.StringIO()
    text_handler = handler("text")
    text_handler.stream = out
    token = REQUEST_ID.set("rid-9")
    try:
        text_handler.handle(logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None))
    finally:
        REQUEST_ID.reset(token)
    assert "[rid-9] hello" in out.getvalue()
    configure({})


def test_no_server_configuration_writes_gunicorns_access_log_with_its_query_strings():
    """gunicorn's own access log writes the request line, query string included; every
    shipped configuration turns it off for api.request_id's (the embedded server's
    request lines are off too)."""
    import api.gunicorn_config
    from cli.serve import gunicorn_application

    assert api.gunicorn_config.accesslog is None
    assert gunicorn_application("127.0.0.1:8125", workers=1, threads=1).cfg.accesslog is None


def test_gunicorns_logger_formats_no_access_line_when_its_access_log_is_off(monkeypatch):
    """With ``accesslog`` unset gunicorn's ``access`` returns before building the line's
    atoms (it built them for every request whenever a ``logconfig_dict`` was given);
    with an ``accesslog`` it writes as gunicorn does."""
    from api.gunicorn_config import AppAccessLogger
    from cli.serve import gunicorn_application

    cfg = gunicorn_application("127.0.0.1:8125", workers=1, threads=1).cfg
    assert cfg.logger_class is AppAccessLogger
    logger = AppAccessLogger(cfg)
    calls = []
    monkeypatch.setattr(logger, "atoms", lambda *args: calls.append(args) or {})
    logger.access(None, None, {}, 0)
    assert calls == []
    cfg.set("accesslog", "-")
    logger.access(None, None, {}, 0)
    assert len(calls) == 1


def test_access_log_off_writes_no_access_line_but_keeps_the_request_id(lines):
    app = create_app(build_service(Config(key_prefix="reqlog-off")), {"ARENA_ACCESS_LOG": "0"})
    served = Served(app)
    try:
        on = Served(create_app(build_service(Config(key_prefix="reqlog-on"))))
        try:
            assert on.get("/v1/games", headers={"X-Request-ID": "on-1"}).status_code == 200
            assert wait_for(lambda: _access(lines(), "on-1"), 30)  # the same handler logs
        finally:
            on.http.shutdown()
            on.http.server_close()
        answer = served.get("/v1/games", headers={"X-Request-ID": "off-1"})
        assert answer.status_code == 200 and answer.headers["X-Request-ID"] == "off-1"
        answer = served.get("/v1/games", headers={"X-Request-ID": "off-2"})
        assert answer.status_code == 200
    finally:
        served.http.shutdown()
        served.http.server_close()
    # "on-1"'s line came through the same handler; the off server's lines would follow their
    # answers as closely (a bounded wait for a line that must not come)
    assert not wait_for(lambda: _access(lines(), "off-1") or _access(lines(), "off-2"), 2)
