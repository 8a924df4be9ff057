"""A thin client of the public HTTP API (``openapi.yaml``), used by ``arena play``.

Only public endpoints are called, authenticated with the seat token as
``Authorization: Bearer <token>``; errors come back as ``application/problem+json``
(RFC 9457) and are raised as :class:`ApiError`.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable
from typing import Any

import requests


class ApiError(Exception):
    """A non-2xx answer. ``status`` is the HTTP status, ``problem`` the problem+json body
    (``{"type","title","status","detail","code",...}``; ``{}`` when the body is not JSON)."""

    def __init__(self, status: int, problem: dict[str, Any]):
        self.status = status
        self.problem = problem
        self.code = problem.get("code", "")
        message = f"HTTP {status} {self.code}: {problem.get('detail') or problem}"
        if problem.get("errors"):
            message += f" {json.dumps(problem['errors'], sort_keys=True)}"
        super().__init__(message)


#: seconds a request may take beyond its own long-poll wait, unless ``ARENA_CLI_TIMEOUT_S``
#: says otherwise (10 s failed ``arena play`` against its own embedded server on a machine
#: busy with other work: its first answers, which load a game, took longer)
DEFAULT_TIMEOUT_S = 30.0


def default_timeout_s() -> float:
    """``ARENA_CLI_TIMEOUT_S`` (seconds, > 0) or :data:`DEFAULT_TIMEOUT_S`. Raises
    ValueError naming the variable when it is not a positive number."""
    raw = os.environ.get("ARENA_CLI_TIMEOUT_S", "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise ValueError(f"ARENA_CLI_TIMEOUT_S must be a positive number of seconds, not {raw!r}")
    return value


class ArenaClient:
    """Calls ``/v1/...`` on ``base_url`` (e.g. ``http://127.0.0.1:8000``).

    ``timeout_s`` (default :func:`default_timeout_s`) bounds every request beyond its own
    long-poll wait. A 429 answer
    (``rate_limited``, the server's per-client limits) is retried after its
    ``Retry-After`` seconds (at most ``max_retry_after_s`` each, ``rate_retries`` times),
    so a quick player or ``--auto`` slows down instead of failing; every request is
    idempotent or carries an ``Idempotency-Key``, so a retry never acts twice.
    """

    def __init__(
        self,
        base_url: str,
        timeout_s: float | None = None,
        session: requests.Session | None = None,
        rate_retries: int = 20,
        max_retry_after_s: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.base_url = base_url.rstrip("/")
        self.timeout_s = default_timeout_s() if timeout_s is None else timeout_s
        self.session = session or requests.Session()
        self.rate_retries = rate_retries
        self.max_retry_after_s = max_retry_after_s
        self.sleep = sleep

    def _call(
        self, method: str, path: str, token: str | None = None, wait_s: float = 0.0, **kwargs: Any
    ) -> Any:
        headers = dict(kwargs.pop("headers", {}) or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for _ in range(self.rate_retries):
            response = self.session.request(
                method,
                self.base_url + path,
                headers=headers,
                timeout=self.timeout_s + wait_s,
                **kwargs,
            )
            if response.status_code != 429:
                break
            self.sleep(self._retry_after(response))
        if response.status_code >= 400:
            try:
                problem = response.json()
            except ValueError:
                problem = {"detail": response.text[:200]}
            raise ApiError(response.status_code, problem if isinstance(problem, dict) else {})
        return response.json() if response.content else None

    def _retry_after(self, response: requests.Response) -> float:
        """The ``Retry-After`` of a 429 in seconds (RFC 9110 section 10.2.3, delay-seconds
        form), within ``[0.05, max_retry_after_s]``; 1 s when absent or not a number."""
        try:
            delay = float(response.headers.get("Retry-After", "1"))
        except ValueError:
            delay = 1.0
        return min(max(delay, 0.05), self.max_retry_after_s)

    def health(self) -> dict[str, Any]:
        """``GET /healthz``."""
        return self._call("GET", "/healthz")

    def games(self) -> list[dict[str, Any]]:
        """``GET /v1/games``: the installed games with their bots and command schemas."""
        body = self._call("GET", "/v1/games")
        return body["games"] if isinstance(body, dict) and "games" in body else body

    def cards(self, game: str) -> dict[str, Any]:
        """``GET /v1/games/{game}/cards``: the game's public card data (``GameCards``)."""
        return self._call("GET", f"/v1/games/{game}/cards")

    def resign(self, match_id: str, token: str) -> dict[str, Any]:
        """``POST /v1/matches/{id}/resign``: the bearer's seat resigns (409
        ``seat_resigned`` / ``match_finished`` when it already did or the match is over)."""
        return self._call("POST", f"/v1/matches/{match_id}/resign", token)

    def create_match(
        self,
        game: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        player_key: str | None = None,
        rated: bool = False,
    ) -> dict[str, Any]:
        """``POST /v1/matches``; the answer carries each human seat's token (shown once).
        ``player_key`` binds the first human seat to that player; ``rated`` asks for a rated
        match (issue 22)."""
        body: dict[str, Any] = {"game": game, "seats": seats, "options": options or {}}
        if rated:
            body["rated"] = True
        return self._call("POST", "/v1/matches", player_key, json=body)

    def create_player(self, name: str) -> dict[str, Any]:
        """``POST /v1/players``: ``{"player_id", "name", "created_at", "key"}`` (the key
        shown once)."""
        return self._call("POST", "/v1/players", json={"name": name})

    def match(self, match_id: str, token: str | None) -> dict[str, Any]:
        """``GET /v1/matches/{id}``: the match as the bearer's seat may see it."""
        return self._call("GET", f"/v1/matches/{match_id}", token)

    def legal_actions(self, match_id: str, token: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}/legal-actions``: ``{"version", "actions": [...]}``."""
        return self._call("GET", f"/v1/matches/{match_id}/legal-actions", token)

    def act(
        self,
        match_id: str,
        token: str,
        command: dict[str, Any],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        representation: bool = True,
    ) -> dict[str, Any]:
        """``POST /v1/matches/{id}/actions`` (the body is the command object plus
        ``expected_version``) with an ``Idempotency-Key`` (a fresh UUID unless given), so a
        retried request never acts twice. ``representation`` sends ``Prefer:
        return=representation`` (RFC 7240): the answer then also carries the seat's
        ``view``, ``pending``, ``status``, ``result`` and next ``legal_actions``, so the
        next move needs no other request."""
        body = dict(command)
        if expected_version is not None:
            body["expected_version"] = expected_version
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if representation:
            headers["Prefer"] = "return=representation"
        return self._call(
            "POST", f"/v1/matches/{match_id}/actions", token, json=body, headers=headers
        )

    def events(
        self, match_id: str, token: str | None, after: int, wait_s: float = 0.0
    ) -> dict[str, Any]:
        """``GET /v1/matches/{id}/events?after=N&wait=S`` (long-poll up to ``wait_s`` s)."""
        return self._call(
            "GET",
            f"/v1/matches/{match_id}/events",
            token,
            wait_s=wait_s,
            params={"after": after, "wait": wait_s},
        )
