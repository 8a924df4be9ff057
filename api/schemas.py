"""Request bodies, query strings and headers, validated with marshmallow.

Every function here raises :class:`api.errors.Problem` for bad input (400
``malformed_json`` / ``validation_error``, 415 ``unsupported_media_type``, 422
``unknown_action``) before anything reaches the service, so bad input appends nothing.
Game commands, match options and bot options are validated against the JSON Schemas the
engine declares by the domain's one validator (:mod:`domain.schema_check`, compiled once in
:class:`api.runtime.Runtime`); marshmallow checks the HTTP envelope around them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from flask import request
from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.errors import Problem, validation_problem
from api.fields import JsonObject, StrictBoolean, StrictInteger, StrictNumber
from api.runtime import runtime
from domain import schema_check
from domain.engine import InvalidBotOptions, UnknownAction, check_bot_options
from domain.schema_check import SchemaViolation, Violation
from service.match_service import LOG_FORMATS  # the export formats (service.log.codec)

MAX_LONG_POLL_S = 30.0
MAX_EVENTS_PAGE = 500
MAX_VERSION = 10**12
MATCH_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
IDEMPOTENCY_KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,128}$")
# a version, bare or quoted, optionally with the match view's ETag suffix ("12-<digest>")
_IF_MATCH = re.compile(r'^(?:W/)?"?([0-9]{1,12})(?:-[0-9a-f]{1,64})?"?$')
MAX_JSON_DEPTH = 64
#: The media types of the request bodies the API parses (``openapi.yaml`` documents only
#: ``application/json``; parameters such as ``charset=utf-8`` are allowed).
JSON_MEDIA_TYPES = frozenset({"application/json"})
# Names are shown to other players: no control characters, no bidi overrides/isolates, and
# at least one visible character. Written without lookahead so that ``openapi.yaml`` carries
# the very same text as its ``name`` pattern (ECMA-262 and Python read it alike).
_NAME_CHAR = r"[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
_NAME_VISIBLE = r"[^\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
NAME_PATTERN = re.compile(f"^{_NAME_CHAR}*{_NAME_VISIBLE}{_NAME_CHAR}*$")
_QUERY_INT = re.compile(r"^[0-9]+$")
#: digits past which a query integer is larger than any range here allows (MAX_VERSION and
#: every other bound are below 10**18): it is refused by the field's range, not parsed
_QUERY_INT_DIGITS = 18
_PATH_SEAT = re.compile(r"^-?[0-9]{1,18}$")
#: A decision id as ``GET .../legal-actions`` gives it (:mod:`service.usecases.decisions`):
#: the version the decision started at and 16 hex digits. Anything else is bad input (400).
DECISION_ID_PATTERN = re.compile(r"^[0-9]{1,13}-[0-9a-f]{16}$")
#: The most digits an integer of a request body may have (Python's own limit is 4,300).
MAX_INT_DIGITS = 100
# A query-string number in JSON number syntax (RFC 8259 section 6; leading zeros also
# taken): ASCII digits, optional fraction and exponent; the field's range decides the rest.
_QUERY_NUMBER = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$")
MAX_QUERY_NUMBER_CHARS = 64


def check_match_id(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """URL value preprocessor: a ``match_id`` that no match can have is a 404 at once.

    Raises:
        Problem: 404 ``match_not_found`` unless the id is 1-64 of ``[A-Za-z0-9_-]``.
    """
    match_id = (values or {}).get("match_id")
    if match_id is not None and not MATCH_ID_PATTERN.match(match_id):
        raise Problem(404, "match_not_found", f"No match {match_id!r}.")


def seat_number(segment: str) -> int | str:
    """A path segment naming a seat: its integer when it is one (``-1`` included, up to 18
    digits), else the segment itself; either way the service answers 404
    ``seat_not_found`` for anything that is not a seat of the match."""
    return int(segment) if _PATH_SEAT.match(segment) else segment


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def _parse_int(digits: str) -> int:
    """A JSON integer of a request body; one longer than :data:`MAX_INT_DIGITS` digits is
    refused (RFC 8259 section 9 lets a parser limit the range of numbers; no field takes
    such a number, and reading it costs time quadratic in its length).

    Raises:
        Problem: 400 ``malformed_json``.
    """
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise Problem(
            400,
            "malformed_json",
            f"The body holds an integer of {len(digits.lstrip('-'))} digits; "
            f"this API reads integers of at most {MAX_INT_DIGITS} digits.",
        )
    return int(digits)


def json_body(*, optional: bool = False) -> Any:
    """The request body parsed as strict JSON (RFC 8259: no NaN/Infinity).

    Args:
        optional: an empty body is allowed and parses to ``{}`` (then no content type
            is required either).

    Raises:
        Problem: 415 ``unsupported_media_type`` unless ``Content-Type`` is one of
            :data:`JSON_MEDIA_TYPES` (another ``+json`` type such as
            ``application/merge-patch+json`` means other semantics, RFC 7396, which no
            endpoint implements); 400 ``malformed_json``.
    """
    raw = request.get_data(cache=True)
    if optional and not raw.strip():
        return {}
    mimetype = request.mimetype or ""
    if mimetype not in JSON_MEDIA_TYPES:
        raise Problem(
            415,
            "unsupported_media_type",
            f"Send the body as application/json (got {mimetype or 'no content type'}).",
        )
    charset = (request.mimetype_params.get("charset") or "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise Problem(
            415,
            "unsupported_media_type",
            f"JSON is UTF-8 (RFC 8259 section 8.1); got charset={charset}.",
        )
    if request.headers.get("Content-Encoding", "identity").lower() != "identity":
        raise Problem(
            415, "unsupported_media_type", "Send the body uncompressed (no Content-Encoding)."
        )
    try:
        data = json.loads(
            raw.decode("utf-8"), parse_constant=_reject_constant, parse_int=_parse_int
        )
    except (UnicodeDecodeError, ValueError) as error:
        raise Problem(400, "malformed_json", f"The body is not valid JSON: {error}.") from None
    except RecursionError:
        raise Problem(
            400, "malformed_json", f"The body nests deeper than {MAX_JSON_DEPTH} levels."
        ) from None
    _check_depth_and_text(data)
    return data


def _check_depth_and_text(data: Any) -> None:
    """Reject JSON nested deeper than ``MAX_JSON_DEPTH`` or holding unpaired surrogates
    (``"\\ud800"`` parses but is not Unicode text: RFC 8259 section 8.2).

    Raises:
        Problem: 400 ``malformed_json``.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise Problem(
                    400, "malformed_json", f"The body nests deeper than {MAX_JSON_DEPTH} levels."
                )
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Problem(
            400,
            "malformed_json",
            "The body holds a string that is not valid Unicode (an unpaired surrogate).",
        ) from None


@functools.cache
def _shared(schema_class: type[Schema]) -> Schema:
    """One instance of ``schema_class`` per process: ``Schema.__init__`` deep-copies the
    declared fields (50-180 us a request); ``load`` changes nothing on the instance."""
    return schema_class()


def load(schema: Schema | type[Schema], data: Any, *, what: str = "body") -> dict[str, Any]:
    """``schema.load(data)`` (``schema``: an instance, or a class whose one shared instance
    loads, :func:`_shared`); a JSON value that is not an object or fails is a 400."""
    if isinstance(schema, type):
        schema = _shared(schema)
    if not isinstance(data, Mapping):
        raise validation_problem({"_schema": [f"The {what} must be a JSON object."]})
    try:
        return schema.load(data)
    except ValidationError as error:
        raise validation_problem(error.messages, _invalid(what, error.messages)) from None


def _invalid(what: str, messages: Any) -> str:
    """The detail of a refused ``what``: its first fields (dotted paths into nested ones)
    with their first message, ``errors`` holding them all, e.g. "The query string is not
    valid: version (Missing data for required field)." (newcomer probe: the bare sentence
    did not say which)."""
    leaves: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", messages)]
    while stack and len(leaves) < 6:
        path, node = stack.pop()
        if isinstance(node, Mapping):
            for key in sorted(node, key=str, reverse=True):
                name = "" if str(key) == "_schema" else str(key)
                stack.append((f"{path}.{name}".strip(".") if name else path, node[key]))
        elif isinstance(node, list) and node and isinstance(node[0], str):
            leaves.append((path, node[0].rstrip(".")))
    if not leaves:
        return f"The {what} is not valid."
    parts = [f"{path} ({text})" if path else text for path, text in leaves[:5]]
    more = " and more" if len(leaves) > 5 else ""
    return f"The {what} is not valid: {'; '.join(parts)}{more}."


def query(schema: Schema | type[Schema]) -> dict[str, Any]:
    """The query string validated by ``schema`` (one value per parameter; unknown ignored;
    a class: its shared instance, :func:`_shared`).

    Raises:
        Problem: 400 ``validation_error`` when a parameter the schema knows is repeated.
    """
    if isinstance(schema, type):
        schema = _shared(schema)
    repeated = {
        name: ["Give this parameter once."]
        for name in schema.fields
        if len(request.args.getlist(name)) > 1
    }
    if repeated:
        raise validation_problem(repeated, "The query string is not valid.")
    return load(schema, request.args.to_dict(flat=True), what="query string")


class QueryInteger(fields.Integer):
    """A query-string integer written with ASCII digits only (no sign, spaces or the
    other Unicode digits Python's ``int()`` would accept); one of more than 18 digits
    (leading zeros aside) is refused by the field's ``Range`` as too large, not parsed."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str) or not _QUERY_INT.match(value):
            raise ValidationError("Must be a non-negative integer written with digits 0-9.")
        if len(value.lstrip("0")) > _QUERY_INT_DIGITS:
            return 10**_QUERY_INT_DIGITS  # beyond every bound: the range validator says so
        return super()._deserialize(value, attr, data, **kwargs)


class QueryNumber(fields.Float):
    """A query-string number of seconds in any JSON number form (``3``, ``2.5``,
    ``0.1000000000001``, ``1e1``, ``2.5E-3``; at most ``MAX_QUERY_NUMBER_CHARS`` characters).

    A leading ``+``, spaces, ``.5``, non-ASCII digits, ``nan``/``inf`` are refused; the
    field's ``Range`` bounds the value (``-0`` is ``0``). Raises ``ValidationError`` (400).
    """

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float:
        if (
            not isinstance(value, str)
            or len(value) > MAX_QUERY_NUMBER_CHARS
            or not _QUERY_NUMBER.match(value)
        ):
            raise ValidationError(
                "Must be a number in JSON syntax written with digits 0-9 (such as 2, 2.5 or 1e1)."
            )
        return super()._deserialize(value, attr, data, **kwargs)


# -- matches ------------------------------------------------------------------------------


class SeatSpecSchema(Schema):
    """One seat of a new match: ``{kind: human|bot|open, bot?: level, bot_options?: object,
    name?: str}`` (``bot_options`` are checked against the level's schema in
    :func:`check_seats`)."""

    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "open"]))
    bot = fields.String(validate=validate.Length(min=1, max=64))
    bot_options = JsonObject(keys=fields.String())
    name = fields.String(
        validate=[
            validate.Length(min=1, max=64),
            validate.Regexp(
                NAME_PATTERN,
                error="At least one visible character; no control, invisible or bidi characters.",
            ),
        ]
    )

    @validates_schema
    def _bot_level_only_for_bots(self, data: dict[str, Any], **_: Any) -> None:
        if "bot" in data and data["kind"] != "bot":
            raise ValidationError("Only a bot seat has a bot level.", "bot")
        if "bot_options" in data and data["kind"] != "bot":
            raise ValidationError("Only a bot seat has bot options.", "bot_options")


class CreateMatchSchema(Schema):
    """``POST /v1/matches`` body (the options are checked against the game's schema later)."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = fields.List(
        fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(min=1, max=16)
    )
    options = JsonObject(keys=fields.String(), load_default=dict)
    turn_timeout_s = StrictNumber(
        allow_none=True, load_default=None, validate=validate.Range(min=1, max=86400)
    )
    unlisted = StrictBoolean(load_default=False)
    spectators = StrictBoolean(load_default=True)
    rated = StrictBoolean(load_default=False)


class LobbyQuerySchema(Schema):
    """``GET /v1/matches`` query: ``game``, ``status`` (open/running/finished),
    ``open_seat`` (true: a seat to join), ``cursor`` (from ``next_cursor``), ``limit``."""

    class Meta:
        unknown = RAISE

    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    status = fields.String(
        validate=validate.OneOf(["open", "running", "finished"]), load_default=None
    )
    open_seat = fields.Boolean(load_default=False, truthy={"true"}, falsy={"false"})
    cursor = fields.String(validate=validate.Length(min=1, max=256), load_default=None)
    limit = QueryInteger(load_default=20, validate=validate.Range(min=1, max=100))


class JoinSchema(Schema):
    """``POST .../seats/{seat}/join`` body (may be empty)."""

    class Meta:
        unknown = RAISE

    name = fields.String(
        validate=[
            validate.Length(min=1, max=64),
            validate.Regexp(
                NAME_PATTERN,
                error="At least one visible character; no control, invisible or bidi characters.",
            ),
        ],
        load_default=None,
    )


class EmptyBodySchema(Schema):
    """The body of ``POST .../resign``, ``POST .../rematch`` and ``POST .../analysis``:
    empty, or a JSON object without fields (``{}``)."""

    class Meta:
        unknown = RAISE


class ForkSchema(Schema):
    """``POST .../fork`` body: the number of events to keep and optionally new seats."""

    class Meta:
        unknown = RAISE

    version = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_VERSION))
    seats = fields.List(
        fields.Nested(SeatSpecSchema), load_default=None, validate=validate.Length(min=1, max=16)
    )


class EventsQuerySchema(Schema):
    """``GET .../events`` query: ``after`` (version), ``wait`` (seconds), ``limit``."""

    class Meta:
        unknown = EXCLUDE

    after = QueryInteger(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    wait = QueryNumber(
        load_default=0.0, allow_nan=False, validate=validate.Range(min=0, max=MAX_LONG_POLL_S)
    )
    limit = QueryInteger(
        load_default=MAX_EVENTS_PAGE, validate=validate.Range(min=1, max=MAX_EVENTS_PAGE)
    )


class LegalActionsQuerySchema(Schema):
    """``GET .../legal-actions`` query: ``wait`` (seconds to long-poll on the seat's own
    decision, see :meth:`service.usecases.reads.Reads.legal_actions`; 0: answer now)."""

    class Meta:
        unknown = EXCLUDE

    wait = QueryNumber(
        load_default=0.0, allow_nan=False, validate=validate.Range(min=0, max=MAX_LONG_POLL_S)
    )


class ActQuerySchema(Schema):
    """``POST .../actions`` query: ``wait`` (seconds; with ``Prefer: return=representation``
    the answer waits, once the command is in, until the seat has its next decision, see
    :meth:`service.usecases.reads.Reads.representation_when_pending`; 0: answer at once)."""

    class Meta:
        unknown = EXCLUDE

    wait = QueryNumber(
        load_default=0.0, allow_nan=False, validate=validate.Range(min=0, max=MAX_LONG_POLL_S)
    )


class StreamQuerySchema(Schema):
    """``GET .../events/stream`` query: ``after`` (overridden by Last-Event-ID), ``max_s``,
    ``views`` (``true``/``1``: batch ends carry the viewer's ``seat_state``)."""

    class Meta:
        unknown = EXCLUDE

    after = QueryInteger(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    max_s = QueryNumber(load_default=60.0, allow_nan=False, validate=validate.Range(min=0, max=300))
    views = fields.Boolean(load_default=False, truthy={"true", "1"}, falsy={"false", "0"})


class StateQuerySchema(Schema):
    """``GET .../state`` query: the ``version`` (events folded) to show."""

    class Meta:
        unknown = EXCLUDE

    version = QueryInteger(required=True, validate=validate.Range(min=1, max=MAX_VERSION))
    #: a finished match's past view as that seat saw it (its whole log is public by then)
    seat = QueryInteger(load_default=None, validate=validate.Range(min=0, max=15))


# -- replays ------------------------------------------------------------------------------


class MatchLogSchema(Schema):
    """``POST /v1/replays`` body: an exported log (``apocalypse-arena/log@3``, or an older
    ``log@2`` / ``log@1`` one: :data:`service.log.codec.LOG_FORMATS`)."""

    class Meta:
        unknown = EXCLUDE

    format = fields.String(required=True, validate=validate.OneOf(LOG_FORMATS))
    match_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats = fields.List(
        JsonObject(keys=fields.String()), required=True, validate=validate.Length(min=1, max=16)
    )
    options = JsonObject(keys=fields.String(), required=True)
    seed = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-fA-F]+$"))
    seed_commitment = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))
    #: checked by :func:`match_log` after the count cap: one compiled schema over the whole
    #: list, stopping at the first bad envelope (a Nested field per event took ~7 s of CPU
    #: and a 42 MB answer for 100,000 empty events)
    events = fields.Raw(required=True)


#: Default of ``ARENA_MAX_LOG_EVENTS``: the most events ``POST /v1/replays`` takes. The
#: longest logs played here have ~700 events (8-seat A.I.Pokalypse, random bots).
DEFAULT_MAX_LOG_EVENTS = 10_000

#: One envelope of an imported log (docs/CONTRACTS.md "Event envelope"; openapi
#: ``Envelope``), as a JSON Schema for the domain's validator: other members are kept.
ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": [
        "version",
        "type",
        "seat",
        "data",
        "command_id",
        "cause",
        "at",
        "prev_hash",
        "hash",
    ],
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "type": {"type": "string", "minLength": 1, "maxLength": 128},
        "seat": {"type": ["integer", "null"], "minimum": 0},
        "data": {"type": "object"},
        "command_id": {"type": ["string", "null"]},
        "cause": {"enum": ["setup", "player", "bot", "timeout", "join", "abandon"]},
        "at": {"type": "string"},
        "prev_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
}
EVENTS_SCHEMA: dict[str, Any] = {"type": "array", "minItems": 1, "items": ENVELOPE_SCHEMA}


def match_log(max_events: int = DEFAULT_MAX_LOG_EVENTS) -> dict[str, Any]:
    """The validated log of ``POST /v1/replays``; the original JSON is what is verified
    (field values are not normalised, so hashes are recomputed over what was sent).

    The cheap checks come first: a list of more than ``max_events`` events is refused
    before any per-event work, then the top-level members (marshmallow), then the envelopes
    with one compiled JSON Schema (:mod:`domain.schema_check`) that stops at the first bad
    one, so the answer names that one event only.

    Raises:
        Problem: 413 ``too_many_events`` (with ``cap``: ``max_events``, and ``count``);
            400 ``validation_error`` (``errors.events.<index>`` names the first bad envelope).
    """
    body = json_body()
    events = body.get("events") if isinstance(body, Mapping) else None
    if isinstance(events, list) and len(events) > max_events:
        raise Problem(
            413,
            "too_many_events",
            f"The log has {len(events)} events; this server verifies at most "
            f"{max_events} (ARENA_MAX_LOG_EVENTS).",
            cap=max_events,
            count=len(events),
        )
    load(MatchLogSchema, body)
    try:
        schema_check.checker(EVENTS_SCHEMA).check(events)
    except SchemaViolation as error:
        where = error.violation
        where = Violation(("events", *where.path), where.keyword, where.message)
        raise validation_problem(
            where.errors(), f"The log is not valid: {where.sentence()}"
        ) from None
    return body


# -- players and leaderboards (issue 22) --------------------------------------------------

PLAYER_ID_PATTERN = re.compile(r"^[0-9a-f]{16}$")


class CreatePlayerSchema(Schema):
    """``POST /v1/players`` body: ``{"name"}`` (the name rules are the service's: 422
    ``invalid_player_name`` / ``player_name_reserved`` / ``player_name_taken``)."""

    class Meta:
        unknown = RAISE

    # (an empty name reaches the service: 422 invalid_player_name, as the docs say)
    name = fields.String(required=True, validate=validate.Length(max=256))


class PlayerMatchesQuerySchema(Schema):
    """``GET /v1/players/{id}/matches`` query: ``game``, ``mode``, ``status`` (running,
    finished, abandoned), ``rated`` (true/false), ``cursor``, ``limit``."""

    class Meta:
        unknown = RAISE

    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    mode = fields.String(validate=validate.Length(min=1, max=32), load_default=None)
    status = fields.String(
        validate=validate.OneOf(["running", "finished", "abandoned"]), load_default=None
    )
    rated = fields.Boolean(load_default=None, truthy={"true"}, falsy={"false"})
    cursor = fields.String(validate=validate.Length(min=1, max=256), load_default=None)
    limit = QueryInteger(load_default=20, validate=validate.Range(min=1, max=100))


class LeaderboardQuerySchema(Schema):
    """``GET /v1/games/{game}/leaderboard`` query: ``mode`` (a family of the game; default
    its first), ``offset``, ``limit`` (top N)."""

    class Meta:
        unknown = RAISE

    mode = fields.String(validate=validate.Length(min=1, max=32), load_default=None)
    offset = QueryInteger(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = QueryInteger(load_default=50, validate=validate.Range(min=1, max=100))


def check_player_id(player_id: str) -> str:
    """``player_id`` when it has a player id's shape, else 404 ``player_not_found``."""
    if not PLAYER_ID_PATTERN.match(player_id):
        raise Problem(404, "player_not_found", f"No player {player_id!r}.")
    return player_id


# -- game-specific payloads ---------------------------------------------------------------


def create_match_body() -> dict[str, Any]:
    """The validated ``POST /v1/matches`` body, options checked against the game's schema.

    Raises:
        Problem: 404 ``unknown_game``; 400 ``validation_error`` (also for a bot level the
            game does not have).
    """
    body = load(CreateMatchSchema, json_body())
    game = runtime().game(body["game"])
    if game is None:
        raise Problem(404, "unknown_game", f"There is no game {body['game']!r}.")
    check_seats(game, body["seats"])
    try:
        body["options"] = runtime().options_schema(body["game"]).check(body["options"])
    except SchemaViolation as error:
        where = error.violation
        raise validation_problem(
            {"options": where.errors()},
            f"The options are not valid: {where.sentence('The options')}",
        ) from None
    return body


def check_seats(game: Mapping[str, Any], seats: list[dict[str, Any]] | None) -> None:
    """Seat count within the game's bounds; bot levels among the game's ``bots``; each bot
    seat's ``bot_options`` valid against its level's schema (strict: unknown keys are
    refused; a level without options takes only ``{}``), normalised in place.

    Raises:
        Problem: 400 ``validation_error`` with ``errors.seats.<index>.bot`` or
            ``errors.seats.<index>.bot_options.<field>``.
    """
    if seats is None:
        return
    low, high = game["min_seats"], game["max_seats"]
    if not low <= len(seats) <= high:
        raise validation_problem({"seats": [f"{game['id']} seats {low} to {high} players."]})
    levels = list(game.get("bots") or [])
    errors: dict[int, Any] = {
        i: {"bot": [f"Unknown bot level; one of {levels}."]}
        for i, seat in enumerate(seats)
        if seat["kind"] == "bot" and seat.get("bot", "random") not in levels
    }
    for index, seat in enumerate(seats):
        if index in errors or seat["kind"] != "bot" or "bot_options" not in seat:
            continue
        schema = runtime().bot_options_schema(game["id"], seat.get("bot", "random"))
        try:
            seat["bot_options"] = check_bot_options(schema, seat["bot_options"])
        except InvalidBotOptions as error:
            messages = [error.detail]
            errors[index] = {"bot_options": {error.field: messages} if error.field else messages}
    if errors:
        raise validation_problem({"seats": errors})


def command_body(game_id: str) -> tuple[dict[str, Any], int | None, str | None]:
    """The command of ``POST .../actions``, its expected version and its decision id.

    The body is the command object plus an optional ``expected_version`` and an optional
    ``decision_id`` (a string from ``GET .../legal-actions``); the ``If-Match`` header
    (``"<version>"``) is the other way to send the version (both must agree).

    Raises:
        Problem: 400 ``validation_error`` (no string ``type``, fields not matching the
            command's JSON Schema, disagreeing versions); 422 ``unknown_action`` is raised
            as :class:`domain.engine.UnknownAction`.
    """
    body = json_body()
    if not isinstance(body, dict):
        raise validation_problem({"_schema": ["The command must be a JSON object."]})
    command = dict(body)
    expected = _expected_version(command.pop("expected_version", None))
    decision = command.pop("decision_id", None)
    if decision is not None and (
        not isinstance(decision, str) or not DECISION_ID_PATTERN.match(decision)
    ):
        raise validation_problem(
            {"decision_id": ['A decision id from legal-actions ("<version>-<16 hex digits>").']}
        )
    kind = command.get("type")
    if not isinstance(kind, str) or not kind:
        raise validation_problem({"type": ["A command needs a string 'type'."]})
    schema = runtime().command_schema(game_id, kind)
    if schema is None:
        raise UnknownAction(kind)
    try:
        command = dict(schema.check(command))
    except SchemaViolation as error:
        where = error.violation
        raise validation_problem(
            where.errors(), f"The {kind!r} command is not valid: {where.sentence('The command')}"
        ) from None
    header = if_match_version()
    if header is not None and expected is not None and header != expected:
        raise validation_problem({"expected_version": ["Disagrees with the If-Match header."]})
    return command, expected if expected is not None else header, decision


def _expected_version(value: Any) -> int | None:
    """A body's ``expected_version``: a JSON integer as every integer field reads one
    (:class:`api.fields.StrictInteger`: ``9.0`` is 9, as fork's ``version``; a probe found
    the two disagreeing), 0..``MAX_VERSION``; else 400 ``validation_error``."""
    if value is None:
        return None
    try:
        return int(_EXPECTED_VERSION.deserialize(value))
    except ValidationError:
        raise validation_problem(
            {"expected_version": ["Must be a non-negative integer."]}
        ) from None


#: ``expected_version`` read as every integer field of a body
_EXPECTED_VERSION = StrictInteger(validate=validate.Range(min=0, max=MAX_VERSION))


def if_match_version() -> int | None:
    """The version in an ``If-Match`` header (``"12"``, ``W/"12"``, ``12`` or the match
    view's ETag ``"12-<digest>"``), else ``None``.

    ``*`` matches any current version (RFC 9110 section 13.1.1), so it also gives ``None``.
    """
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    found = _IF_MATCH.match(header)
    if not found:
        raise validation_problem({"If-Match": ['Expected a match version such as "12".']})
    return int(found.group(1))


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header (1-128 visible ASCII characters) or ``None``."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY_PATTERN.match(key):
        raise validation_problem({"Idempotency-Key": ["1-128 visible ASCII characters."]})
    return key


def last_event_id() -> int | None:
    """The SSE ``Last-Event-ID`` header as a version, or ``None``."""
    value = request.headers.get("Last-Event-ID")
    if value is None or not value.strip():
        return None
    if not value.strip().isdigit() or len(value.strip()) > 18:
        raise validation_problem({"Last-Event-ID": ["Must be an event version."]})
    return int(value)
