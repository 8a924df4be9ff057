"""HTTP helpers shared by the e2e tests: a JSON client with bearer tokens, match creation,
random play to the end."""

from __future__ import annotations

import json
from typing import Any

import requests

from tests.support.game_settings import e2e_options

GAME = "ai-100-human"
#: game id -> the options the generic e2e tests create its matches with: every game of
#: ``domain.games.registry()``, read from its own folder (``testing.py``)
GAME_OPTIONS: dict[str, dict[str, Any]] = e2e_options()


class Http:
    """JSON over HTTP with per-seat bearer tokens; works with a Flask test client or a
    base URL (``requests``). Every call returns ``(status, headers, body)``."""

    def __init__(self, target: Any):
        self.target = target
        self.session = requests.Session() if isinstance(target, str) else None

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str | None = None,
    ) -> tuple[int, Any, Any]:
        hdrs = dict(headers or {})
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        if self.session is not None:
            response = self.session.request(
                method,
                self.target + path,
                headers=hdrs,
                json=body if raw is None else None,
                data=raw,
                timeout=60,
            )
            status, resp_headers, text = response.status_code, response.headers, response.text
        else:
            kwargs: dict[str, Any] = {"headers": hdrs}
            if raw is not None:
                kwargs["data"] = raw
                kwargs["content_type"] = content_type or "application/json"
            elif body is not None:
                kwargs["json"] = body
            response = self.target.open(path, method=method, **kwargs)
            status, resp_headers = response.status_code, response.headers
            text = response.get_data(as_text=True)
        ctype = resp_headers.get("Content-Type", "")
        parsed = json.loads(text) if "json" in ctype and text else text
        return status, resp_headers, parsed

    def get(self, path: str, token: str | None = None, **kw: Any):
        return self.call("GET", path, token, **kw)

    def post(self, path: str, body: Any = None, token: str | None = None, **kw: Any):
        return self.call("POST", path, token, body=body, **kw)


def create(
    http: Http, seats: list[dict[str, Any]], game: str = GAME, **extra: Any
) -> dict[str, Any]:
    """POST /v1/matches for ``game`` (default ai-100-human) with ``seats`` and ``extra``
    body fields (``options``, ``turn_timeout_s``); asserts 201 and returns the body."""
    status, _, body = http.post("/v1/matches", {"game": game, "seats": seats, **extra})
    assert status == 201, body
    return body


def open_table(
    app: Any, service: Any, seats: list[dict[str, Any]], game: str = GAME, **extra: Any
) -> tuple[Http, dict[str, Any], dict[int, str]]:
    """Install ``service`` as the process's service (the embedded workers' jobs use it),
    then create a match over ``app``'s test client: ``(http, created body, seat tokens)``."""
    from service import bootstrap

    bootstrap.install(service)
    http = Http(app.test_client())
    created = create(http, seats, game, **extra)
    return http, created, tokens_of(created)


def verified_export(http: Http, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The export of a finished match, POSTed back to /v1/replays: asserts both answer 200
    and the log verifies; returns ``(log, report)``."""
    status, _, log = http.get(f"/v1/matches/{match_id}/export")
    assert status == 200, log
    status, _, report = http.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report
    return log, report


def tokens_of(match: dict[str, Any]) -> dict[int, str]:
    """Seat -> bearer token of the human seats of a created match."""
    return {s["seat"]: s["token"] for s in match["seats"] if "token" in s}


def version_of(http: Http, match_id: str) -> int:
    """The match's current version (spectator view)."""
    status, _, body = http.get(f"/v1/matches/{match_id}")
    assert status == 200, body
    return body["version"]


def play_round(http: Http, match_id: str, tokens: dict[int, str], rng) -> int:
    """Every human seat with a legal action sends one (picked by ``rng``); returns how many
    commands were accepted."""
    acted = 0
    for seat, token in sorted(tokens.items()):
        status, _, legal = http.get(f"/v1/matches/{match_id}/legal-actions", token)
        assert status == 200, legal
        if not legal["actions"]:
            continue
        command = rng.choice(legal["actions"])
        status, _, body = http.post(
            f"/v1/matches/{match_id}/actions",
            command,
            token,
            headers={"Idempotency-Key": f"{seat}-{legal['version']}"},
        )
        if status == 409 and body["code"] in (
            "not_your_turn",
            "version_conflict",
            "match_finished",
        ):
            continue  # a bot moved the match on between the two requests
        assert status == 200, (command, body)
        acted += 1
    return acted


def play_until_finished(
    http: Http, match_id: str, tokens: dict[int, str], rng, max_rounds: int = 2000
) -> dict[str, Any]:
    """Humans play random legal actions (bots play in the workers) until the match has a
    result; returns the final spectator view."""
    for _ in range(max_rounds):
        status, _, view = http.get(f"/v1/matches/{match_id}")
        assert status == 200, view
        if view["status"] == "finished":
            return view
        if play_round(http, match_id, tokens, rng) == 0:
            http.get(f"/v1/matches/{match_id}/events?after={view['version']}&wait=2")
    raise AssertionError(f"match {match_id} did not finish in {max_rounds} rounds")
