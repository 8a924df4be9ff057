"""Bearer seat tokens (RFC 6750 ``Authorization: Bearer <token>``).

A human seat's token is issued once (by ``POST /v1/matches`` or ``.../join``); the service
checks it (``MatchService.authenticate``) and answers the seat number it belongs to.
Without a token a request is a spectator's (where the endpoint allows that).
"""

from __future__ import annotations

from flask import request

from api.errors import Problem
from api.runtime import service

_CHALLENGE = 'Bearer realm="apocalypse-arena"'


def bearer_token() -> str | None:
    """The bearer token of the current request, ``None`` when there is no Authorization.

    Raises:
        Problem: 401 ``invalid_token`` for an Authorization header that is not
            ``Bearer <token>`` (RFC 6750 section 2.1).
    """
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise Problem(
            401,
            "invalid_token",
            "The Authorization header must be 'Bearer <token>'.",
            headers={"WWW-Authenticate": _CHALLENGE + ', error="invalid_token"'},
        )
    return token


def require_seat(match_id: str) -> int:
    """The seat the request's bearer token holds in ``match_id``.

    Raises:
        Problem: 401 ``missing_token`` without an Authorization header.
        ServiceError: 401 ``invalid_token`` for a token of no seat of this match,
            404 ``match_not_found`` for an unknown match.
    """
    token = bearer_token()
    if token is None:
        raise Problem(
            401,
            "missing_token",
            "This endpoint needs a seat's bearer token.",
            headers={"WWW-Authenticate": _CHALLENGE},
        )
    return service().authenticate(match_id, token)


def optional_seat(match_id: str) -> int | None:
    """The bearer's seat, or ``None`` (spectator) when the request carries no token.

    A token that is present but wrong is still an error (401 ``invalid_token``), so a
    client never silently falls back to the spectator view.
    """
    token = bearer_token()
    if token is None:
        return None
    return service().authenticate(match_id, token)
