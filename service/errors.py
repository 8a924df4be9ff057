"""Service errors: each carries a stable ``code``, an HTTP ``status`` and a ``detail``.

The API maps them (and ``domain.engine.RuleError``) to RFC 9457 problem+json; ``extra``
fields become extension members (e.g. ``current_version``).
"""

from __future__ import annotations

from typing import Any

# The store's "cannot answer right now" classification, part of the errors the facade
# offers its callers (the API maps it to 503 ``store_unavailable``).
from service.store.store_errors import is_store_unavailable  # noqa: F401 - re-exported


class ServiceError(Exception):
    """Base class: ``ServiceError(code, status, detail, **extra)``. ``retry_after_s``: the
    ``Retry-After`` seconds of the answer (None: the API's default for the status)."""

    retry_after_s: int | None = None

    def __init__(self, code: str, status: int, detail: str, **extra: Any):
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.status = status
        self.detail = detail
        self.extra = extra


class MatchNotFound(ServiceError):
    """404 ``match_not_found``: no match with that id."""

    def __init__(self, match_id: str):
        super().__init__("match_not_found", 404, f"No match {match_id!r}.")


class UnknownGame(ServiceError):
    """404 ``unknown_game``: the game id is not installed."""

    def __init__(self, game: str):
        super().__init__("unknown_game", 404, f"No game {game!r} is installed.")


class InvalidSeats(ServiceError):
    """422 ``invalid_seats``: seat list malformed or outside the game's seat range."""

    def __init__(self, detail: str):
        super().__init__("invalid_seats", 422, detail)


class SeatNotFound(ServiceError):
    """404 ``seat_not_found``: the seat number is not part of the match."""

    def __init__(self, seat: Any):
        super().__init__("seat_not_found", 404, f"The match has no seat {seat!r}.")


class SeatTaken(ServiceError):
    """409 ``seat_taken``: the seat is already claimed or played by a bot."""

    def __init__(self, seat: int):
        super().__init__("seat_taken", 409, f"Seat {seat} is not open.")


class InvalidToken(ServiceError):
    """401 ``invalid_token``: the bearer token matches no seat of the match."""

    def __init__(self):
        super().__init__("invalid_token", 401, "The seat token is not valid for this match.")


class VersionConflict(ServiceError):
    """409 ``version_conflict``: ``expected_version`` is stale; extra ``current_version``."""

    def __init__(self, expected: int, current: int):
        super().__init__(
            "version_conflict",
            409,
            f"Expected version {expected} but the match is at version {current}.",
            current_version=current,
        )


class DecisionMoved(ServiceError):
    """409 ``decision_moved``: the ``decision_id`` sent is not the seat's pending decision
    any more (the seat acted, its decision changed, or it has nothing pending); extras
    ``current_decision_id`` (``None`` when nothing is pending) and ``current_version``."""

    def __init__(self, current: str | None, version: int):
        super().__init__(
            "decision_moved",
            409,
            "Your pending decision is not the one this decision_id names any more.",
            current_decision_id=current,
            current_version=version,
        )


class IdempotencyKeyReused(ServiceError):
    """422 ``idempotency_key_reused``: the key was first used with a different command
    (``what="command"``, actions) or a different request body (``what="body"``: create,
    join, rematch, fork)."""

    def __init__(self, what: str = "command"):
        detail = (
            (
                "This Idempotency-Key was already used with a different command "
                "or precondition (expected_version, decision_id)."
            )
            if what == "command"
            else "This Idempotency-Key was already used with a different request body."
        )
        super().__init__("idempotency_key_reused", 422, detail)


class MatchRunning(ServiceError):
    """409 ``match_running``: the full log is only available once the match has a result."""

    def __init__(self):
        super().__init__("match_running", 409, "The match is still running.")


class Forbidden(ServiceError):
    """403 ``forbidden``: the viewer may not see this (e.g. another seat's past view)."""

    def __init__(self, detail: str):
        super().__init__("forbidden", 403, detail)


class SpectatorsDisabled(ServiceError):
    """403 ``spectators_disabled``: a tokenless read of a running match created with
    ``spectators: false`` (public again once it has a result)."""

    def __init__(self):
        super().__init__(
            "spectators_disabled",
            403,
            "This match has no spectators while it runs; send a seat token.",
        )


class SeatResigned(ServiceError):
    """409 ``seat_resigned``: the seat resigned; its decisions are no longer its own."""

    def __init__(self, seat: int):
        super().__init__("seat_resigned", 409, f"Seat {seat} resigned.", seat=seat)


class InvalidCursor(ServiceError):
    """400 ``invalid_cursor``: a cursor this server did not hand out for the list asked
    (``what``: ``the lobby``, ``this player's match history``)."""

    def __init__(self, what: str = "the lobby"):
        super().__init__(
            "invalid_cursor", 400, f"The cursor is not a next_cursor that {what} gave."
        )


class NotASeatOfTheMatch(ServiceError):
    """409 ``rematch_seat_not_human``: only a human seat of the original claims a rematch seat."""

    def __init__(self, seat: int):
        super().__init__(
            "rematch_seat_not_human",
            409,
            f"Seat {seat} was not a human seat of the original match.",
            seat=seat,
        )


class RematchSeatClaimed(ServiceError):
    """409 ``rematch_seat_claimed``: this seat already received its rematch token."""

    def __init__(self, seat: int, rematch_id: str):
        super().__init__(
            "rematch_seat_claimed",
            409,
            f"Seat {seat} already claimed its seat in rematch {rematch_id}.",
            seat=seat,
            rematch_id=rematch_id,
        )


class MatchExists(ServiceError):
    """500 ``match_exists``: a new match's id is taken (a random id colliding, or a
    rematch another request created first; the rematch use case catches it)."""

    def __init__(self, match_id: str):
        super().__init__("match_exists", 500, f"A match {match_id!r} exists already.")


class VersionOutOfRange(ServiceError):
    """422 ``version_out_of_range``: asked for a version outside ``lowest..highest`` (by
    default ``1..current``, the versions the match has). Extras: ``current_version``,
    ``min_version`` and ``max_version`` (the range the request may name); ``why``: the
    detail's reason for a narrower range (a fork's)."""

    def __init__(
        self,
        version: Any,
        current: int,
        lowest: int = 1,
        highest: int | None = None,
        why: str = "",
    ):
        highest = current if highest is None else highest
        super().__init__(
            "version_out_of_range",
            422,
            f"Version {version!r} is outside {lowest}..{highest}{why}.",
            current_version=current,
            min_version=lowest,
            max_version=highest,
        )


class InvalidLog(ServiceError):
    """422 ``invalid_log``: an imported log is malformed (not merely failing verification)."""

    def __init__(self, detail: str):
        super().__init__("invalid_log", 422, detail)


class TooManyConflicts(ServiceError):
    """503 ``busy``: the command kept losing the append race; the client may retry."""

    def __init__(self, attempts: int):
        super().__init__("busy", 503, f"The match changed {attempts} times while deciding; retry.")


class InvalidSeatBotOptions(ServiceError):
    """400 ``validation_error``: a seat's ``bot_options`` are refused (options on a seat that
    is not a bot, or options its bot level does not take). Extra ``errors`` has the shape
    of the API's validation errors: ``{"seats": {"<seat>": {"bot_options": {field: [msg]}}}}``
    (``{"bot_options": [msg]}`` when the options as a whole are wrong)."""

    def __init__(self, seat: int, field: str | None, message: str):
        where = [message] if field is None else {field: [message]}
        super().__init__(
            "validation_error",
            400,
            f"Seat {seat}: {message}",
            errors={"seats": {str(seat): {"bot_options": where}}},
        )


# -- players (issue 22) -------------------------------------------------------------------


class PlayerNotFound(ServiceError):
    """404 ``player_not_found``: no player with that id."""

    def __init__(self, player_id: str):
        super().__init__("player_not_found", 404, f"No player {player_id!r}.")


class InvalidPlayerKey(ServiceError):
    """401 ``invalid_player_key``: the bearer looks like a player key (``pk.<id>.<secret>``)
    but is no player's current key (unknown player, or a key replaced by a rotation)."""

    def __init__(self):
        super().__init__("invalid_player_key", 401, "The player key is not valid.")


class PlayerNotSeated(ServiceError):
    """403 ``player_not_seated``: a valid player key used on a match where that player holds
    no seat."""

    def __init__(self, detail: str = "This player holds no seat in this match."):
        super().__init__("player_not_seated", 403, detail)


class SeatNameReserved(ServiceError):
    """422 ``seat_name_reserved``: a seat name (on create, join or a fork's seats) that
    imitates a bot level or a game's own opponent, or is the name of a rated player the
    seat is not bound to (:meth:`service.usecases.players.Players.check_seat_name`).
    Extra ``seat``."""

    def __init__(self, seat: int, name: str, what: str):
        super().__init__(
            "seat_name_reserved",
            422,
            f"Seat {seat}: the name {name!r} {what}; choose another one.",
            seat=seat,
        )


class SeatNameTaken(ServiceError):
    """422 ``seat_name_taken``: a seat name (on create, join or a fork's seats) that another
    seat of the same match carries already, compared by
    :func:`service.usecases.player_names.name_key` (``Ann``, `` ann `` and ``АNN`` with a
    Cyrillic ``А`` are one name). Extra ``seat``."""

    def __init__(self, seat: int, name: str, other: int):
        super().__init__(
            "seat_name_taken",
            422,
            f"Seat {seat}: seat {other} of this match is called {name!r} already (or a name "
            "that looks the same); choose another one.",
            seat=seat,
        )


class PlayerKeyMismatch(ServiceError):
    """403 ``player_key_mismatch``: a valid player key sent for another player's resource
    (rotating another player's key): a key acts only for the player it belongs to."""

    def __init__(self) -> None:
        super().__init__(
            "player_key_mismatch",
            403,
            "This key belongs to another player: send the key of the player named in the path.",
        )


class InvalidPlayerName(ServiceError):
    """422 with one of the name codes: ``invalid_player_name`` (not 1-32 printable
    characters, control or invisible characters, leading or trailing spaces),
    ``player_name_reserved`` (imitates a bot level's name), ``player_name_taken`` (another
    player has it, compared case-insensitively)."""

    def __init__(self, code: str, detail: str):
        super().__init__(code, 422, detail)


class RatedMatchRefused(ServiceError):
    """422 ``rated_match_refused``: a rated match needs every human seat to be a player
    (one seat per player): bound by the creator's player key or an open seat joined with
    one; the detail says which condition failed. Finer codes for the seats a rated match
    may not have (``code``): ``rated_match_without_player`` (no human seat for the
    creator: bots alone would rate each other), ``rated_bot_options`` (a bot seat with
    ``bot_options``: its level is rated at its default strength) and ``unrated_bot_level``
    (a level that is not rated, such as ``idle``); these carry the extra ``seat`` when one
    seat is at fault. ``RatedMatchRefused(code, detail, **extra)``, like
    :class:`InvalidPlayerName`."""

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(code, 422, detail, **extra)
