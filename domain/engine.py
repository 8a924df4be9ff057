"""The game-engine contract every game under ``domain/games/`` implements.

Source: ``shared/DESIGN.md`` ("The decider contract"). The domain is pure: no Flask,
Redis, RQ, clock or I/O. Randomness enters only through the ``rng`` argument of
``new_match``/``decide``; every random outcome is written into an event, so folding
(``evolve``) never needs the RNG.

Shapes used throughout
----------------------
- seat: ``int`` in ``0..n-1`` (clockwise; left neighbour of s is s+1 mod n).
- command: a JSON object ``{"type": str, ...fields}`` (an imperative request).
- :class:`Event`: a past-tense fact ``(type, data, seat)``; ``data`` is JSON-serialisable.
- state: game-owned object. ``evolve`` may mutate and return it (the fold owns it);
  ``dump_state``/``load_state`` turn it into/from a JSON-serialisable dict (snapshots).
- viewer: a seat number, or ``None`` for a spectator.
- bot options: a JSON object configuring one seat's bot (e.g. the ``expert`` bot's
  per-decision time budget). An engine declares them per bot level
  (``bot_options_schema`` + ``make_bot``); :func:`build_bot` validates and builds, and a
  level without a schema accepts only ``{}``.

Every engine derives from :class:`EngineBase`, which gives the hooks most games do not need
(``redact_type``, ``bot_options_schema``, ``make_bot``) their defaults; a game overrides
the ones it needs. The service calls them directly (no attribute probing).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from domain import schema_check


@dataclass(frozen=True, slots=True)
class Event:
    """A domain event: a past-tense fact produced by ``new_match`` or ``decide``.

    ``type`` is PascalCase past tense (``CardDrafted``); ``data`` a JSON object;
    ``seat`` the seat the fact is about (or ``None`` for table-wide facts).
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type", "seat", "data"}`` (JSON-serialisable)."""
        return {"type": self.type, "seat": self.seat, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`; extra keys (envelope fields) are ignored."""
        return cls(type=d["type"], data=d.get("data") or {}, seat=d.get("seat"))


class RuleError(Exception):
    """A command the rules reject. Nothing is appended.

    Attributes:
        code: stable machine code, snake_case (``not_your_turn``, ``illegal_move``,
            ``unknown_action``, ``invalid_command``, ``match_finished``, or a finer
            game-specific code such as ``cell_not_adjacent``).
        detail: one sentence a player understands.
        status: HTTP status the API answers with (409 for turn/finish conflicts,
            422 for rule violations, 400 for malformed commands).
    """

    def __init__(self, code: str, detail: str, status: int = 422):
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status


class NotYourTurn(RuleError):
    """The seat has no pending decision now (HTTP 409, code ``not_your_turn``)."""

    def __init__(self, detail: str = "It is not your turn to act."):
        super().__init__("not_your_turn", detail, 409)


class MatchFinished(RuleError):
    """The match has a result; no command is accepted (HTTP 409, ``match_finished``)."""

    def __init__(self, detail: str = "The match is finished."):
        super().__init__("match_finished", detail, 409)


class UnknownAction(RuleError):
    """The command ``type`` is not one this game knows (HTTP 422, ``unknown_action``)."""

    def __init__(self, action: str):
        shown = action if len(action) <= 64 else action[:64] + "..."  # never echo a huge type
        super().__init__("unknown_action", f"Unknown action type {shown!r}.", 422)


class InvalidCommand(RuleError):
    """The command (or the match options) is malformed (HTTP 400, ``invalid_command``).

    Attributes:
        field: the field at fault as :attr:`domain.schema_check.Violation.field` names it
            (``"cell[1]"``), ``None`` when not one field (e.g. a cross-field rule).
    """

    def __init__(self, detail: str, field: str | None = None):
        super().__init__("invalid_command", detail, 400)
        self.field = field


class IllegalMove(RuleError):
    """A well-formed command the rules forbid now (HTTP 422, ``illegal_move`` or finer)."""

    def __init__(self, detail: str, code: str = "illegal_move"):
        super().__init__(code, detail, 422)


class InvalidBotOptions(RuleError):
    """Per-seat bot options the bot level does not accept (HTTP 400, ``invalid_bot_options``).

    Attributes:
        field: the option at fault (``None`` when the options as a whole are wrong, e.g.
            not an object); the service reports it with the seat index.
    """

    def __init__(self, detail: str, field: str | None = None):
        super().__init__("invalid_bot_options", detail, 400)
        self.field = field


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``new_match`` needs: seat count and validated, normalised game options."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Bot(Protocol):
    """A named policy. ``choose`` returns one command from ``legal_actions(state, seat)``.

    A bot reads only what ``view(state, seat)`` would show that seat (no peeking).
    """

    name: str

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]: ...


@runtime_checkable
class Engine(Protocol):
    """One game's decider (see module docstring and DESIGN.md)."""

    game_id: str  # URL-safe id, e.g. "ai-100-human"
    title: str  # e.g. "AI: 100% Human"
    min_seats: int
    max_seats: int
    schema_version: int  # bump when the state layout changes (snapshots invalidate)
    options_schema: Mapping[str, Any]  # JSON Schema (object) of the match options
    command_schemas: Mapping[str, Mapping[str, Any]]  # command type -> JSON Schema
    bots: Mapping[str, Bot]  # level name -> policy ("random" always present)
    timeout_bot: str  # bot level that decides for a timed-out seat
    # level -> JSON Schema (object) of that level's per-seat bot options; a level without
    # an entry takes none (only ``{}``). See :func:`bot_options_schema` for the keywords
    # honoured. Default (EngineBase): no level takes options.
    bot_options_schema: Mapping[str, Mapping[str, Any]]
    # the version of the rules this engine decides by (part of a match's verifiable
    # roster: a log decided under other rules does not verify). Default (EngineBase): "1".
    rules_version: str

    def resigned(self, state: Any) -> frozenset[int]:
        """The seats that resigned (``{"type": "resign"}``, :mod:`domain.lifecycle`); a
        match that plays on has their decisions made by the ``timeout_bot``. Default
        (EngineBase): none (a game without resignation)."""

    def as_older_rules(self, events: list[Event], rules_version: str) -> list[Event]:
        """``events`` (this engine's ``decide`` answer) as the older rules
        ``rules_version`` (a key of ``older_rules_verified``) recorded them, for the
        verifier's comparison with an older log. Default (EngineBase): ``events``."""

    def make_bot(self, level: str, options: Mapping[str, Any]) -> Bot:
        """A bot of ``level`` configured by validated ``options``; raises
        :class:`InvalidBotOptions` (or ValueError) for values its schema cannot express.
        Callers use :func:`build_bot`. Default (EngineBase): the shared ``bots[level]``
        for ``{}``, TypeError otherwise (a level with options must override it)."""

    def redact_type(self, event: Event, viewer: int | None, state: Any = None) -> str:
        """The envelope ``type`` of ``event`` that ``viewer`` may see, for games where the
        kind of a hidden move is itself a secret (e.g. a neutral ``"RecruitmentMoveMade"``).
        Default (EngineBase): ``event.type``. Callers use :func:`redacted_type`."""

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return normalised options (defaults filled); raise :class:`InvalidCommand`."""

    def new_match(self, setup: Setup, rng: random.Random) -> list[Event]:
        """Set-up events (seating, shuffles, deals). The first event starts the fold."""

    def decide(
        self, state: Any, seat: int | None, command: Mapping[str, Any], rng: random.Random
    ) -> list[Event]:
        """Validate ``command`` for ``seat``; return the events it causes; raise RuleError.
        ``seat`` is ``None`` only for the platform's abandonment (:mod:`domain.lifecycle`),
        which no seat sends."""

    def evolve(self, state: Any, event: Event) -> Any:
        """Fold one event (``state`` is ``None`` before the first). Total, deterministic."""

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` may see (JSON). Spectator when ``None``."""

    def redact(self, event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
        """The event's ``data`` as ``viewer`` may see it (``state`` is the state *after* it);
        its envelope ``type`` comes from :meth:`redact_type`."""

    def pending(self, state: Any) -> dict[int, str]:
        """Seats that must act now -> decision kind (several for simultaneous steps)."""

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """Every command ``seat`` may send now (empty when it has nothing to do)."""

    def result(self, state: Any) -> dict[str, Any] | None:
        """``None`` while running; else ``{"scores": [...], "ranking": [...], "winners": [...]}``
        (plus game-specific members); ``ranking`` is ``[{"seat", "score", "rank"}, ...]`` best
        first in every game (docs/CONTRACTS.md "Result")."""

    def public_cards(self) -> dict[str, Any]:
        """The game's public card data (``GET /v1/games/{game}/cards``): printed names,
        colours, numbers, connectors and effect text, as plain JSON read from the card
        files; at least ``{"cards": [{"id", ...}]}``. Never hidden information (no deck
        order). Default (EngineBase): ``{"cards": []}``. Callers use :func:`public_cards`."""

    def dump_state(self, state: Any) -> dict[str, Any]:
        """JSON-serialisable snapshot of ``state``."""

    def load_state(self, data: Mapping[str, Any]) -> Any:
        """Inverse of :meth:`dump_state`."""


def redacted_type(engine: Engine, event: Event, viewer: int | None, state: Any = None) -> str:
    """The envelope ``type`` of ``event`` as ``viewer`` may see it: ``engine.redact_type(...)``
    (``event.type`` unless the game overrides :meth:`EngineBase.redact_type`). Raises
    ``TypeError`` when the engine answers something other than a non-empty string (a bug in
    the engine, never shown to a client)."""
    shown = engine.redact_type(event, viewer, state)
    if not isinstance(shown, str) or not shown:
        raise TypeError(f"redact_type must return a non-empty str, got {shown!r}")
    return shown


#: The options schema of a bot level that declares none: only ``{}`` is accepted.
NO_BOT_OPTIONS: Mapping[str, Any] = MappingProxyType(
    {"type": "object", "properties": {}, "additionalProperties": False}
)


def bot_options_schema(engine: Engine, level: str) -> dict[str, Any]:
    """The JSON Schema of ``level``'s bot options: ``engine.bot_options_schema[level]`` when
    the engine declares one, else :data:`NO_BOT_OPTIONS`. Raises KeyError when
    ``engine.bots`` has no such level."""
    if level not in engine.bots:
        raise KeyError(level)
    return dict(engine.bot_options_schema.get(level) or NO_BOT_OPTIONS)


def bot_options_schemas(engine: Any) -> dict[str, dict[str, Any]]:
    """Every bot level of ``engine`` -> the JSON Schema of its options (``{}`` only when
    the level declares none), for the game catalogue."""
    return {level: bot_options_schema(engine, level) for level in sorted(engine.bots)}


def check_bot_options(schema: Mapping[str, Any], options: Any) -> dict[str, Any]:
    """Validate per-seat bot ``options`` against a level's ``schema`` with the one validator
    (:mod:`domain.schema_check`); return them normalised (keys sorted, integral numbers of
    ``integer`` options as ``int``).

    Bot options are always strict: a key the schema does not list is refused
    (``additionalProperties: false`` whatever the schema says). Omitted keys stay omitted
    (the bot's own default applies). JSON types are strict: ``true`` is not an integer,
    NaN and infinities are not numbers.

    Raises:
        InvalidBotOptions: ``options`` is not an object (``field`` None), or names an
            unknown option or has a value of the wrong type or range (``field`` = its key).
    """
    if not isinstance(options, Mapping):
        raise InvalidBotOptions("Bot options must be a JSON object.")
    try:
        clean = schema_check.checker(schema, closed=True).check(options)
    except schema_check.SchemaViolation as error:
        where = error.violation
        key = str(where.path[0]) if where.path else None
        if where.keyword == "additionalProperties" and len(where.path) == 1:
            known = ", ".join(sorted(schema.get("properties") or {})) or "none"
            raise InvalidBotOptions(
                f"Unknown bot option {key!r} (this level takes: {known}).", key
            ) from None
        raise InvalidBotOptions(f"Bot option {where.sentence('The bot options')}", key) from None
    return {key: clean[key] for key in sorted(clean, key=str)}


def build_bot(engine: Any, level: str, options: Mapping[str, Any] | None = None) -> Bot:
    """The bot of ``level`` configured by per-seat ``options`` (``None`` = ``{}``).

    Options are checked with :func:`check_bot_options` against :func:`bot_options_schema`;
    no options give the engine's shared ``engine.bots[level]``; otherwise the engine's
    ``make_bot(level, options)`` builds a new bot (a ValueError it raises becomes
    :class:`InvalidBotOptions`).

    Raises:
        KeyError: ``engine.bots`` has no ``level``.
        InvalidBotOptions: options the level does not accept.
        TypeError: the engine declares options for ``level`` but keeps the default
            :meth:`EngineBase.make_bot`.
    """
    clean = check_bot_options(bot_options_schema(engine, level), options or {})
    if not clean:
        return engine.bots[level]
    try:
        return engine.make_bot(level, clean)
    except InvalidBotOptions:
        raise
    except ValueError as error:
        raise InvalidBotOptions(f"Bot options of {level!r} are not valid: {error}") from None


class EngineBase:
    """The defaults of the :class:`Engine` hooks a game overrides only when it needs them.

    - ``bot_options_schema``: no bot level takes per-seat options (each accepts only ``{}``).
    - :meth:`make_bot`: the shared ``bots[level]`` for no options; TypeError for options
      (an engine declaring options for a level must override it).
    - :meth:`redact_type`: every viewer sees the stored event type.
    - ``rules_version`` ``"1"``, no ``older_rules_verified``, :meth:`as_older_rules` (the
      events as they are), and :meth:`resigned` (nobody resigned).
    - :meth:`public_cards`: no card data (``{"cards": []}``).
    - :meth:`estimator`: no estimator (``None``).

    Every engine (:class:`domain.modular.ModularEngine` and the platform tests' games)
    derives from it, so the service calls the hooks directly.
    """

    game_id: str
    bots: Mapping[str, Bot]
    bot_options_schema: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
    rules_version: str = "1"
    #: older rules versions whose logs this engine still re-decides exactly -> the event
    #: types with which the versions' events may differ (a log holding one is refused)
    older_rules_verified: Mapping[str, frozenset[str]] = MappingProxyType({})

    def resigned(self, state: Any) -> frozenset[int]:
        """No seat ever resigned (a game that does not implement resignation)."""
        return frozenset()

    def as_older_rules(self, events: list[Event], rules_version: str) -> list[Event]:
        """``events`` unchanged: the older rules versions re-decide exactly."""
        return events

    def make_bot(self, level: str, options: Mapping[str, Any]) -> Bot:
        """The shared ``bots[level]`` when ``options`` is empty; raises TypeError otherwise
        (the level declares options but the engine keeps this default)."""
        if not options:
            return self.bots[level]
        raise TypeError(
            f"{self.game_id} declares bot options for {level!r} but does not override make_bot"
        )

    def redact_type(self, event: Event, viewer: int | None, state: Any = None) -> str:
        """``event.type``: the kind of no event is hidden from any viewer."""
        return event.type

    def public_cards(self) -> dict[str, Any]:
        """``{"cards": []}``: a game without printed card data to show."""
        return {"cards": []}

    def estimator(self) -> Any:
        """The game's :class:`domain.estimates.Estimator` (its expert's search, used by
        match analysis), or ``None`` when the game has none."""
        return None


def derive_rng(seed: bytes, version: int) -> random.Random:
    """The RNG for the command decided at stream ``version`` (events so far).

    ``Random(int(SHA-256(seed || version as 8-byte big-endian)))`` — anyone holding the
    revealed seed re-derives every shuffle (DESIGN.md, "provably fair dealing").
    """
    digest = hashlib.sha256(seed + version.to_bytes(8, "big")).digest()
    return random.Random(int.from_bytes(digest, "big"))


def fold(engine: Engine, events: Iterable[Event], state: Any = None) -> Any:
    """Fold ``events`` into ``state`` (``None`` = from the beginning) with ``engine.evolve``."""
    for event in events:
        state = engine.evolve(state, event)
    return state


def public_cards(engine: Engine) -> dict[str, Any]:
    """``engine.public_cards()`` as a new dict; raises ``TypeError`` when the engine answers
    something other than an object with a ``cards`` list (a bug in the engine)."""
    data = engine.public_cards()
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise TypeError(f"public_cards must return {{'cards': [...]}}, got {type(data).__name__}")
    return dict(data)
