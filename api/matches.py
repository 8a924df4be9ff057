"""``/v1/matches``: create, view, join, legal actions, act, state at a version, export, fork.

Each view: request -> validated input -> one service call -> JSON. Seat-specific answers
come only from the service's ``view``/``redact`` output (hidden information stays hidden).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

from flask import Blueprint, jsonify, url_for

from api import schemas
from api.auth import bearer_token, optional_seat, require_seat
from api.errors import Problem
from api.http_cache import set_version_etag
from api.limits import quota_client
from api.prefer import REPRESENTATION, wants_representation
from api.runtime import runtime, service
from api.waits import HeldSlot, waiting
from domain.engine import RuleError
from service.errors import ServiceError, VersionConflict
from service.match_service import is_player_key

bp = Blueprint("matches", __name__, url_prefix="/v1/matches")

#: What ``Prefer: return=representation`` adds to a ``POST .../actions`` answer.
REPRESENTATION_FIELDS = ("view", "pending", "status", "result", "legal_actions")


def _answer(answer: dict, status: int = 200):
    """``answer`` as JSON with ``status``; a keyed request's repeat (the service's
    ``replayed``, not part of the body) gets ``Idempotent-Replayed: true``."""
    replayed = answer.pop("replayed", False)
    response = jsonify(answer)
    response.status_code = status
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _created(match: dict):
    """201 with ``Location`` for a new match (create or fork), also when replayed."""
    runtime().remember(match["match_id"], match["game"])
    response = _answer(match, 201)
    response.headers["Location"] = url_for("matches.get_match", match_id=match["match_id"])
    return response


@bp.post("")
def create_match():
    """Create a match; the body's human seats get their tokens here, shown once (a repeat
    with the same ``Idempotency-Key`` and body answers them again).
    ``unlisted: true`` keeps it out of the lobby; ``spectators: false`` makes tokenless
    reads 403 while it runs. ``Authorization: Bearer <player key>`` binds the first human
    seat to that player; ``rated: true`` makes a rated match (issue 22)."""
    with key_judged_first(lambda key: service().check_refused_claim(key)):
        body = schemas.create_match_body()
        created = service().create_match(
            body["game"],
            body["seats"],
            body["options"],
            body["turn_timeout_s"],
            unlisted=body["unlisted"],
            spectators=body["spectators"],
            client=quota_client(),
            idempotency_key=schemas.idempotency_key(),
            player_key=player_key(),
            rated=body["rated"],
        )
    return _created(created)


@contextmanager
def key_judged_first(check: Callable[[str | None], None]) -> Iterator[None]:
    """Around reading (and, for create and join, doing) a request that may carry an
    ``Idempotency-Key``: when the body is refused with 400/422, ``check(key)`` runs first
    and its error answers instead of the body's. ``key``: the request's key, ``None`` when
    it has none or a malformed one. Create and join pass
    :meth:`~service.match_service.MatchService.check_refused_claim`, ``POST .../actions``
    :meth:`~service.match_service.MatchService.check_refused_command` (a finished match
    answers 409 ``match_finished`` first, key or not): a key already used there answers
    422 ``idempotency_key_reused`` - the key is judged before the body
    (docs/walkthrough.md). A malformed key (400 of its own, answered by the request's
    later read of it) leaves the body's error. An ``idempotency_key_reused`` raised inside
    is not judged again."""
    try:
        yield
    except (Problem, RuleError, ServiceError) as error:
        if error.status in (400, 422) and getattr(error, "code", "") != "idempotency_key_reused":
            try:
                key = schemas.idempotency_key()
            except Problem:
                key = None
            check(key or None)
        raise


def player_key() -> str | None:
    """The request's bearer token when it is a player key (``pk.<id>.<secret>``), else
    ``None`` (create and join take no seat token)."""
    token = bearer_token()
    return token if is_player_key(token) else None


@bp.get("")
def list_matches():
    """The lobby: listed matches newest first, filtered, one page (``next_cursor``)."""
    q = schemas.query(schemas.LobbyQuerySchema)
    return jsonify(
        service().list_matches(q["game"], q["status"], q["open_seat"], q["cursor"], q["limit"])
    )


@bp.post("/<match_id>/resign")
def resign(match_id: str):
    """The bearer's seat resigns (a command in the log like any other). The body is empty
    or ``{}``, read as every POST's: 415 ``unsupported_media_type``, 400 ``malformed_json``
    / ``validation_error`` (a value that is not an object, or any field), nothing changed."""
    seat = require_seat(match_id)
    schemas.load(schemas.EmptyBodySchema, schemas.json_body(optional=True))
    outcome = service().resign(match_id, seat)
    return jsonify(
        {
            "game": outcome.get("game") or runtime().game_of(match_id),
            "version": outcome["version"],
            "events": outcome["events"],
        }
    )


@bp.post("/<match_id>/rematch")
def rematch(match_id: str):
    """The rematch of a finished match, and the bearer seat's token in it (once per seat);
    201 when this call created it, else 200. The body is empty or ``{}``, as a resign's
    (:class:`api.schemas.EmptyBodySchema`)."""
    seat = require_seat(match_id)
    schemas.load(schemas.EmptyBodySchema, schemas.json_body(optional=True))
    answer = service().rematch(
        match_id, seat, client=quota_client(), idempotency_key=schemas.idempotency_key()
    )
    runtime().remember(answer["match_id"], answer["game"])
    response = _answer(answer, 201 if answer["created"] else 200)
    response.headers["Location"] = url_for("matches.get_match", match_id=answer["match_id"])
    return response


@bp.get("/<match_id>")
def get_match(match_id: str):
    """The match as the bearer's seat sees it (spectator view without a token); its ETag is
    ``"<version>-<digest>"`` (:mod:`api.http_cache`), usable as ``If-Match``."""
    view = service().match_view(match_id, optional_seat(match_id))
    return set_version_etag(jsonify(view), view["version"])


@bp.post("/<match_id>/seats/<seat>/join")
def join(match_id: str, seat: str):
    """Claim an open seat; answers ``{"seat", "token", "version"}`` (the token is shown
    once; a repeat with the same ``Idempotency-Key`` and body answers it again).
    ``Authorization: Bearer <player key>`` binds the seat to that player. A ``seat`` that
    is not one of the match's seat numbers (``-1``, ``99``, ``abc``) is 404
    ``seat_not_found`` (after 404 ``match_not_found``)."""

    def check(key: str | None) -> None:
        if key is None:  # nothing recorded to judge
            return
        try:
            number = schemas.seat_number(seat)
        except Problem:  # no seat of any match: nothing was recorded under it
            return
        service().check_refused_claim(key, match_id, number)

    with key_judged_first(check):
        body = schemas.load(schemas.JoinSchema, schemas.json_body(optional=True))
        joined = service().join(
            match_id,
            schemas.seat_number(seat),
            body["name"],
            idempotency_key=schemas.idempotency_key(),
            player_key=player_key(),
        )
    return _answer(joined)


@bp.get("/<match_id>/legal-actions")
def legal_actions(match_id: str):
    """Every command the bearer's seat may send now; ``wait`` (seconds) long-polls until
    the seat has something to do (or the match finished, or the wait expired)."""
    seat = require_seat(match_id)
    q = schemas.query(schemas.LegalActionsQuerySchema)
    with waiting(q["wait"]) or nullcontext():  # 503 too_many_waits when none is free
        answer = service().legal_actions(match_id, seat, wait_s=q["wait"])
    return jsonify(answer)


@bp.post("/<match_id>/actions")
def act(match_id: str):
    """Send one command for the bearer's seat; answers the new version and its events.

    An idempotent repeat (same seat, same ``Idempotency-Key``) answers the first body
    again with the header ``Idempotent-Replayed: true``. ``Prefer: return=representation``
    (RFC 7240) adds the seat's ``view``, ``pending``, ``status``, ``result`` and next
    ``legal_actions`` (``Preference-Applied: return=representation``): right after the
    command's batch, or at the head for a replay or a command that changed nothing. With
    ``?wait=`` seconds as well, when the seat has nothing to do after its command the
    representation waits (a long-poll, as ``GET .../legal-actions?wait=``) until the seat
    has its next decision or the match ended, so one request per move suffices; ``version``
    and ``events`` stay the command's own batch, and the header ``Server-Timing:
    wait;dur=<ms>`` (W3C Server Timing) says how long the answer waited.

    A stale version answers 412 ``precondition_failed`` when it came in ``If-Match`` (RFC
    9110 section 13.1.1: the condition evaluated false, nothing was done) and 409
    ``version_conflict`` when it came as the body's ``expected_version``; both carry
    ``current_version``.
    """
    seat = require_seat(match_id)
    wait_s = schemas.query(schemas.ActQuerySchema)["wait"]
    # a refused body: a finished match answers match_finished first, a reused
    # Idempotency-Key idempotency_key_reused (as with another valid command), then the body
    with key_judged_first(lambda key: service().check_refused_command(match_id, seat, key)):
        command, expected, decision = schemas.command_body(runtime().game_of(match_id))
    represent = wants_representation()
    waited_ms: float | None = None
    skipped = False
    try:
        outcome = service().act(
            match_id,
            seat,
            command,
            idempotency_key=schemas.idempotency_key(),
            expected_version=expected,
            decision_id=decision,
            represent=represent,
        )
    except VersionConflict as conflict:
        if schemas.if_match_version() is None:  # the body's expected_version: 409
            raise
        raise precondition_failed(conflict) from None
    # ``game`` names the union member of every payload below (an answer stored for an
    # Idempotency-Key before answers carried it has none: the match's game, known here)
    body = {
        "game": outcome.get("game") or runtime().game_of(match_id),
        "version": outcome["version"],
        "events": outcome["events"],
    }
    if represent:  # the seat's next view and legal actions: one request per move
        extra = outcome if "legal_actions" in outcome else service().representation(match_id, seat)
        if (
            wait_s > 0
            and extra["result"] is None
            and not (extra["legal_actions"] or {}).get("actions")
        ):
            waited_from = time.perf_counter()
            later, held = _when_pending(match_id, seat, outcome["version"], wait_s)
            extra = later or extra
            waited_ms = (time.perf_counter() - waited_from) * 1000 if held else None
            skipped = not held
        body.update({key: extra[key] for key in REPRESENTATION_FIELDS})
    response = jsonify(body)
    if waited_ms is not None:  # W3C Server Timing: how long the answer waited, not worked
        response.headers["Server-Timing"] = f"wait;dur={waited_ms:.1f}"
    elif skipped:  # every waiting slot of this process was held: answered without waiting
        response.headers["Server-Timing"] = 'wait;dur=0;desc="no free slot"'
    response.headers["ETag"] = f'"{outcome["version"]}"'
    response.headers["Vary"] = "Prefer"
    if represent:
        response.headers["Preference-Applied"] = REPRESENTATION
    if outcome.get("replayed"):
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _when_pending(match_id: str, seat: int, after: int, wait_s: float) -> tuple[dict | None, bool]:
    """``(representation, held)``: the representation once ``seat`` has its next decision
    after version ``after`` (a long-poll holding one of the process's waiting slots,
    :mod:`api.waits`), ``None`` when the wait passed first; ``held`` False when every slot
    was held (the command is in: the answer is not refused for want of a slot, it answers
    at once and says so in ``Server-Timing``)."""
    try:
        slot = HeldSlot()
    except Problem:
        return None, False
    with slot:
        return service().representation_when_pending(match_id, seat, after, wait_s), True


def precondition_failed(conflict: VersionConflict) -> Problem:
    """The 412 ``precondition_failed`` of a stale ``If-Match`` (RFC 9110 sections 13.1.1 and
    15.5.13), with the conflict's ``current_version``."""
    current = conflict.extra["current_version"]
    return Problem(
        412,
        "precondition_failed",
        f"If-Match names another version; the match is at version {current}.",
        current_version=current,
    )


@bp.get("/<match_id>/state")
def state_at(match_id: str):
    """The view at ``version`` (finished matches: anyone; running: a seat, its own view)."""
    viewer = optional_seat(match_id)
    query = schemas.query(schemas.StateQuerySchema)
    return jsonify(service().state_at(match_id, viewer, query["version"], seat=query["seat"]))


@bp.get("/<match_id>/export")
def export(match_id: str):
    """The full, hash-chained log of a finished match (409 ``match_running`` before)."""
    return jsonify(service().export(match_id))


@bp.post("/<match_id>/fork")
def fork(match_id: str):
    """A new match continuing from the first ``version`` events of a finished one."""
    body = schemas.load(schemas.ForkSchema, schemas.json_body())
    if body["seats"] is not None:
        game = runtime().game(runtime().game_of(match_id))
        assert game is not None  # a stored match's game is installed
        schemas.check_seats(game, body["seats"])
    return _created(
        service().fork(
            match_id,
            body["version"],
            body["seats"],
            client=quota_client(),
            idempotency_key=schemas.idempotency_key(),
        )
    )
