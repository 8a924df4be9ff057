"""``Arena``: one server, anonymous or with one seat's token (``Authorization: Bearer``),
over the client openapi-python-client generates from ``openapi.yaml``
(``arena_sdk.generated``, made by ``generate.py``). Every POST that creates or acts sends
a fresh ``Idempotency-Key`` (a UUID4), so the retries of :mod:`arena_sdk.retry` never act
twice; answers are the generated models; problems raise :class:`ApiError`."""

from __future__ import annotations

import uuid
from typing import Any

import attrs
import httpx

from arena_sdk.retry import RetryPolicy, RetryTransport

try:
    from arena_sdk.generated import AuthenticatedClient, Client, models
    from arena_sdk.generated.api.events import get_events
    from arena_sdk.generated.api.games import list_games
    from arena_sdk.generated.api.matches import act as act_op
    from arena_sdk.generated.api.matches import (
        create_match,
        get_legal_actions,
        get_match,
        join_seat,
    )
    from arena_sdk.generated.api.matches import rematch as rematch_op
    from arena_sdk.generated.api.replays import export_match, fork_match
except ImportError as error:  # pragma: no cover - a source checkout before generate.py
    raise ImportError(
        "arena_sdk.generated is missing: run clients/python/generate.py first"
    ) from error

#: A long-poll waits up to 30 s: the read timeout leaves room for it.
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)


class ApiError(Exception):
    """A problem answer (RFC 9457): ``status`` and the problem document ``problem``
    (``code`` is its stable ``ProblemCode``, e.g. ``decision_moved``)."""

    def __init__(self, status: int, problem: dict[str, Any]):
        self.status = status
        self.problem = problem
        self.code: str | None = problem.get("code")
        super().__init__(f"{status} {self.code or 'error'}: {problem.get('detail', '')}")


def new_idempotency_key() -> str:
    """A fresh ``Idempotency-Key``: a random UUID4 (36 characters; the server asks for 16-128)."""
    return str(uuid.uuid4())


def _unwrap(answer: Any) -> Any:
    """The parsed 2xx model of a generated ``sync_detailed`` answer, else :class:`ApiError`."""
    if (
        200 <= answer.status_code < 300
        and answer.parsed is not None
        and not isinstance(answer.parsed, models.Problem)
    ):
        return answer.parsed
    try:
        problem = httpx.Response(answer.status_code, content=answer.content).json()
    except ValueError:
        problem = {"detail": answer.content.decode("utf-8", "replace")[:500]}
    raise ApiError(int(answer.status_code), problem if isinstance(problem, dict) else {})


class Arena:
    """A client of the server at ``base_url``; ``token``: a seat's bearer token (``None``:
    anonymous, a spectator). ``retry``: the 429/503 policy; ``transport``: the httpx
    transport under the retries (tests pass ``httpx.MockTransport``)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retry: RetryPolicy = RetryPolicy(),
        transport: httpx.BaseTransport | None = None,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self._settings = {"retry": retry, "transport": transport, "timeout": timeout}
        args = {"transport": RetryTransport(retry, transport)}
        #: the generated client (every operation of ``openapi.yaml``: ``arena_sdk.generated.api``)
        self.client: Client | AuthenticatedClient = (
            AuthenticatedClient(
                base_url=self.base_url, token=token, timeout=timeout, httpx_args=args
            )
            if token is not None
            else Client(base_url=self.base_url, timeout=timeout, httpx_args=args)
        )

    def with_token(self, token: str) -> Arena:
        """The same server as the seat of ``token``."""
        return Arena(self.base_url, token, **self._settings)

    def games(self) -> list[Any]:
        """``GET /v1/games``: every game (``id``, ``bots``, ``options_schema``, ...)."""
        return _unwrap(list_games.sync_detailed(client=self.client)).games

    def create_match(
        self,
        game: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        **extra: Any,
    ) -> models.CreatedMatch:
        """``POST /v1/matches`` (``CreatedMatch``; human seats' tokens in ``seats``)."""
        body = {"game": game, "seats": seats, **({"options": options} if options else {}), **extra}
        # the request is sent as given (the server validates it; the contract may type it as
        # one model or a union per game); the answer is parsed by the generated operation
        http = self.client.get_httpx_client()
        response = http.post(
            "/v1/matches",
            json=body,
            headers={"Idempotency-Key": idempotency_key or new_idempotency_key()},
        )
        return _unwrap(create_match._build_response(client=self.client, response=response))

    def join(
        self, match_id: str, seat: int, name: str | None = None, idempotency_key: str | None = None
    ) -> models.SeatToken:
        """``POST …/seats/{seat}/join``: the open seat's ``SeatToken``."""
        body = models.JoinRequest.from_dict({} if name is None else {"name": name})
        return _unwrap(
            join_seat.sync_detailed(
                match_id,
                seat,
                client=self.client,
                body=body,
                idempotency_key=idempotency_key or new_idempotency_key(),
            )
        )

    def rematch(self, match_id: str, idempotency_key: str | None = None) -> models.Rematch:
        """``POST …/rematch`` (seat token): the ``Rematch`` and this seat's new token."""
        return _unwrap(
            rematch_op.sync_detailed(
                match_id,
                client=self.client,
                idempotency_key=idempotency_key or new_idempotency_key(),
            )
        )

    def fork(
        self,
        match_id: str,
        version: int,
        seats: list[dict[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> models.CreatedMatch:
        """``POST …/fork``: a new match (``CreatedMatch``) starting with ``version`` events."""
        body = models.ForkRequest.from_dict(
            {"version": version, **({"seats": seats} if seats else {})}
        )
        return _unwrap(
            fork_match.sync_detailed(
                match_id,
                client=self.client,
                body=body,
                idempotency_key=idempotency_key or new_idempotency_key(),
            )
        )

    def match(self, match_id: str) -> Any:
        """``GET /v1/matches/{id}``: the game's ``<Game>MatchView`` as this seat sees it."""
        return _unwrap(get_match.sync_detailed(match_id, client=self.client))

    def legal_actions(self, match_id: str, wait_s: float = 0) -> Any:
        """``GET …/legal-actions?wait=S``: the game's ``<Game>LegalActions`` (with the
        match ``status``), held up to ``wait_s`` (0-30) s until this seat has a decision."""
        return _unwrap(get_legal_actions.sync_detailed(match_id, client=self.client, wait=wait_s))

    def events(self, match_id: str, after: int = 0, wait_s: float = 0, limit: int = 500) -> Any:
        """``GET …/events?after=N&wait=S``: the game's ``<Game>EventPage`` (envelopes typed
        per event type) of the events after ``after``,
        held up to ``wait_s`` (0-30) s until there is one."""
        return _unwrap(
            get_events.sync_detailed(
                match_id, client=self.client, after=after, wait=wait_s, limit=limit
            )
        )

    def act(
        self,
        match_id: str,
        command: Any,
        decision_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """``POST …/actions`` with ``Prefer: return=representation`` and a fresh
        Idempotency-Key: the game's ``<Game>ActionResult`` (events, and the seat's ``view``, ``status``,
        ``result`` and next ``legal_actions``). ``command``: a generated command model (as
        ``LegalActions.actions`` holds them); ``decision_id`` (from ``LegalActions``) is
        added as the command's precondition."""
        if decision_id is not None and hasattr(command, "decision_id"):
            command = attrs.evolve(command, decision_id=decision_id)
        return _unwrap(
            act_op.sync_detailed(
                match_id,
                client=self.client,
                body=command,
                idempotency_key=idempotency_key or new_idempotency_key(),
                prefer="return=representation",
            )
        )

    def export(self, match_id: str) -> Any:
        """``GET …/export``: the finished match's ``<Game>MatchLog``."""
        return _unwrap(export_match.sync_detailed(match_id, client=self.client))

    def close(self) -> None:
        """Closes the HTTP connections."""
        self.client.get_httpx_client().close()
