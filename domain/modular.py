"""An :class:`domain.engine.Engine` assembled from a game folder's modules.

Every game folder reads top-down (STYLE.md): ``spec`` (ids, seats, options and command
schemas, ``validate_options``), ``rules`` (``RULES``, the game's parts of the one
``decide`` template, :class:`domain.decider.GameRules`), ``fold`` (``evolve``), ``actions``
(``pending``, ``legal_actions``), ``views`` (``view``, ``redact``), ``state``
(``dump_state``, ``load_state``) and ``bots`` (``BOTS``; a game whose bots take per-seat
options also has ``BOT_OPTIONS``, level -> JSON Schema, and ``BOT_FACTORIES``, level ->
``factory(options) -> Bot``, which its engine class names). :class:`ModularEngine` wires
them once, so a game's ``game.py`` only says how a match starts and where its result is.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

from domain import schema_check
from domain.engine import (
    EngineBase,
    Event,
    InvalidBotOptions,
    InvalidCommand,
    Setup,
    UnknownAction,
    check_bot_options,
)
from domain.engine import bot_options_schema as level_options_schema
from domain.lifecycle import ABANDON, RESIGN, platform_kind


class ModularEngine(EngineBase):
    """Base class: subclasses set the module attributes and implement :meth:`start`.

    Class attributes a subclass sets: ``spec``, ``rules``, ``fold``, ``actions``,
    ``views``, ``state_module`` (modules), ``bots`` (level -> Bot), ``timeout_bot`` and
    ``cards_module`` (the card catalogue whose ``public_cards()`` the hook answers).
    ``game_id``, ``title``, ``min_seats``, ``max_seats``, ``schema_version``,
    ``options_schema`` and ``command_schemas`` are read from ``spec`` (``GAME_ID``,
    ``TITLE``, ...). A game hiding the kind of some events overrides ``redact_type``
    (default :meth:`EngineBase.redact_type`: the stored type).

    Bot options (see :func:`domain.engine.build_bot`): a subclass sets
    ``bot_options_schema`` (level -> JSON Schema) and ``bot_factories`` (level ->
    ``factory(options) -> Bot``), usually its ``bots`` module's ``BOT_OPTIONS`` /
    ``BOT_FACTORIES``; by default every level takes no options. A level with a schema must
    be one of ``bots`` and have a factory (``TypeError`` when the class is defined).
    """

    spec: ModuleType
    rules: ModuleType
    fold: ModuleType
    actions: ModuleType
    views: ModuleType
    state_module: ModuleType
    # read from ``spec`` by __init_subclass__
    title: str
    min_seats: int
    max_seats: int
    schema_version: int
    options_schema: Mapping[str, Any]
    command_schemas: Mapping[str, Mapping[str, Any]]
    schemas: Any  # domain.game_schemas.GameSchemas, or None for a game without schemas
    bots: Mapping[str, Any]
    #: the game folder's card catalogue module, whose ``public_cards()`` the
    #: :meth:`public_cards` hook answers (``None``: a game without card data to show)
    cards_module: ModuleType | None = None
    timeout_bot: str
    bot_factories: Mapping[str, Callable[[dict[str, Any]], Any]] = MappingProxyType({})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.spec
        for level in cls.bot_options_schema:
            if level not in cls.bots or level not in cls.bot_factories:
                raise TypeError(
                    f"{cls.__name__}: bot level {level!r} has an options schema "
                    "but no bot or no factory"
                )
        cls.game_id = spec.GAME_ID
        cls.title = spec.TITLE
        cls.min_seats = spec.MIN_SEATS
        cls.max_seats = spec.MAX_SEATS
        cls.schema_version = spec.SCHEMA_VERSION
        cls.options_schema = spec.OPTIONS_SCHEMA
        cls.command_schemas = spec.COMMAND_SCHEMAS
        #: every JSON Schema of the game (:class:`domain.game_schemas.GameSchemas`), or
        #: ``None`` for a game without a schema folder (test games)
        cls.schemas = getattr(spec, "SCHEMAS", None)
        cls.rules_version = spec.RULES_VERSION
        cls.older_rules_verified = MappingProxyType(getattr(spec, "OLDER_RULES_VERIFIED", {}))

    def start(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """The set-up events of a match with validated ``options`` (game-specific)."""
        raise NotImplementedError

    def make_bot(self, level: str, options: Mapping[str, Any]) -> Any:
        """A bot of ``level`` configured by per-seat ``options`` (checked against
        ``bot_options_schema[level]``): the shared ``bots[level]`` for ``{}``, else
        ``bot_factories[level](options)``. Raises KeyError (unknown level) or
        InvalidBotOptions (options the level does not take, or values its factory refuses)."""
        clean = check_bot_options(level_options_schema(self, level), options)
        if not clean:
            return self.bots[level]
        try:
            return self.bot_factories[level](clean)
        except ValueError as error:
            raise InvalidBotOptions(f"Bot options of {level!r} are not valid: {error}") from None

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Normalised options (``spec.validate_options``); raises InvalidCommand."""
        return self.spec.validate_options(seats, options)

    def new_match(self, setup: Setup, rng: random.Random) -> list[Event]:
        """Validated options, then :meth:`start`."""
        return self.start(setup.seats, self.validate_options(setup.seats, setup.options), rng)

    def decide(
        self, state: Any, seat: int | None, command: Mapping[str, Any], rng: random.Random
    ) -> list[Event]:
        """``rules.RULES.decide`` (the one template, :class:`domain.decider.GameRules`):
        the events ``command`` causes; raises RuleError. The platform commands of
        :mod:`domain.lifecycle` go to :meth:`resign` / :meth:`abandon`."""
        kind = platform_kind(command)
        if kind == ABANDON:
            return self.abandon(state, seat, command)
        assert seat is not None, command  # only the abandonment comes from no seat
        if kind == RESIGN:
            return self.resign(state, seat, command, rng)
        return self.rules.RULES.decide(state, seat, command, rng)

    def resign(
        self, state: Any, seat: int, command: Mapping[str, Any], rng: random.Random
    ) -> list[Event]:
        """The events of ``seat``'s resignation (the game's ruling); default: the game
        has none (UnknownAction)."""
        raise UnknownAction(RESIGN)

    def abandon(self, state: Any, seat: Any, command: Mapping[str, Any]) -> list[Event]:
        """The events of the match's abandonment; default: UnknownAction."""
        raise UnknownAction(ABANDON)

    def evolve(self, state: Any, event: Event) -> Any:
        """``fold.evolve``: fold one event (``state`` is ``None`` before the first)."""
        return self.fold.evolve(state, event)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """``views.view``: what ``viewer`` (a seat, or ``None`` for a spectator) may see."""
        return self.views.view(state, viewer)

    def redact(self, event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
        """``views.redact``: the event's data as ``viewer`` may see it."""
        return self.views.redact(event, viewer, state)

    def pending(self, state: Any) -> dict[int, str]:
        """``actions.pending``: seats that must act now -> decision kind."""
        return self.actions.pending(state)

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """``actions.legal_actions``: every command ``seat`` may send now."""
        return self.actions.legal_actions(state, seat)

    def result(self, state: Any) -> dict[str, Any] | None:
        """``None`` while running, else the game's result object."""
        return state.result

    def public_cards(self) -> dict[str, Any]:
        """The ``public_cards`` hook: ``cards_module.public_cards()`` (the game's printed
        card faces as plain data from its card files), ``{"cards": []}`` when the subclass
        sets no ``cards_module``; plus ``"phrasebook"`` (:func:`phrasebook_of`) when the
        game's folder has one. Never hidden information."""
        if self.cards_module is None:
            return {"cards": []}
        data = dict(self.cards_module.public_cards())
        book = phrasebook_of(self.cards_module)
        if book is not None:
            data["phrasebook"] = book
        return data

    def dump_state(self, state: Any) -> dict[str, Any]:
        """``state.dump_state``: a JSON-serialisable snapshot."""
        return self.state_module.dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> Any:
        """``state.load_state``: inverse of :meth:`dump_state`."""
        return self.state_module.load_state(data)


class RandomBot:
    """Uniform choice over a game's legal actions (every game's ``random`` level).

    Args:
        legal_actions: the game's ``legal_actions(state, seat) -> list[command]``.
    """

    name = "random"

    def __init__(self, legal_actions: Callable[[Any, int], list[dict[str, Any]]]):
        self._legal_actions = legal_actions

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat``; raises ValueError when it has none."""
        options = self._legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        return rng.choice(options)


def read_card_file(path: Path, error: type[Exception]) -> Any:
    """The JSON document of a game's card data file at ``path``; raises ``error`` with
    "<file name>: cannot be read as JSON: ..." when it is missing or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise error(f"{path.name}: cannot be read as JSON: {exc}") from exc


def card_list(doc: Any, name: str, error: type[Exception]) -> list:
    """The ``cards`` list of a card data document ``{"cards": [...]}`` read from file
    ``name``; raises ``error`` when the document has another shape."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise error(f"{name}: expected an object with a 'cards' list")
    return doc["cards"]


def freeze(value: Any) -> Any:
    """A read-only deep copy of loaded card data: dicts -> ``MappingProxyType``, lists ->
    tuples (so a card's effect can never be mutated by the code that reads it)."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(x) for k, x in value.items()})
    if isinstance(value, list):
        return tuple(freeze(x) for x in value)
    return value


def command_schema(
    name: str, props: Mapping[str, Any], required: tuple[str, ...], doc: str
) -> dict[str, Any]:
    """The JSON Schema of one command ``{"type": name, **props}`` (no other fields), as
    ``Engine.command_schemas`` declares it; the API builds its marshmallow schema from it."""
    properties: dict[str, Any] = {"type": {"const": name}}
    properties.update(props)
    return {
        "type": "object",
        "description": doc,
        "properties": properties,
        "required": ["type", *required],
        "additionalProperties": False,
    }


def check_command(schemas: Mapping[str, Mapping[str, Any]], command: Any) -> dict[str, Any]:
    """``command`` checked against the schema of its ``type`` in ``schemas`` (a game's
    ``spec.COMMAND_SCHEMAS``) by the one validator (:mod:`domain.schema_check`), returned
    normalised (integral numbers of integer fields as ``int``; the same object when nothing
    changes). Cross-field rules stay with the game.

    Raises:
        InvalidCommand: not an object with a string ``type``, or a field that does not
            match its schema (the detail and ``field`` name it, e.g. ``"cell[1]"``).
        UnknownAction: a ``type`` the game does not know.
    """
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise InvalidCommand('A command is a JSON object with a string "type".')
    kind = command["type"]
    schema = schemas.get(kind)
    if schema is None:
        raise UnknownAction(kind)
    try:
        return schema_check.check(schema, command)
    except schema_check.SchemaViolation as error:
        where = error.violation
        raise InvalidCommand(
            f"Invalid {kind!r} command: {where.sentence('The command')}", where.field or None
        ) from None


def checked_options(schema: Mapping[str, Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Match ``options`` (``None`` = ``{}``) checked against a game's ``spec.OPTIONS_SCHEMA``
    by the one validator, normalised, and every omitted option set to its schema
    ``default`` (:func:`domain.schema_check.with_defaults`). Cross-field rules (seat count,
    option combinations) stay with the game's ``validate_options``.

    Raises:
        InvalidCommand: an unknown option or a value its schema refuses (named in the
            detail and ``field``).
    """
    try:
        clean = schema_check.check(schema, {} if options is None else options)
    except schema_check.SchemaViolation as error:
        where = error.violation
        if where.keyword == "additionalProperties" and len(where.path) == 1:
            detail = f"Unknown option {where.field!r}."
        else:
            detail = f"Invalid options: {where.sentence('The options')}"
        raise InvalidCommand(detail, where.field or None) from None
    return schema_check.with_defaults(schema, clean)


class FoldHandlers:
    """One game's fold handlers, one per event type, and the strict lookup every game's
    ``fold.evolve`` uses: the fold is total over the types registered here
    (docs/CONTRACTS.md "Fold"), so a type without a handler is an error, never skipped.

    A game makes one (``HANDLERS = FoldHandlers("A.I.Pokalypse")``), registers each handler
    with the :meth:`on` decorator and dispatches with :meth:`handler`; the handlers' own
    signature is the game's (the registry only maps types to them).
    """

    FIRST = "MatchStarted"

    def __init__(self, game: str):
        self.game = game
        self._handlers: dict[str, Callable[..., Any]] = {}

    def on(self, event_type: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering the handler of ``event_type``; ValueError when the type
        already has one (two handlers of one fact would make the fold ambiguous)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            if event_type in self._handlers:
                raise ValueError(f"{self.game}: a second fold handler for {event_type!r}")
            self._handlers[event_type] = fn
            return fn

        return register

    def types(self) -> list[str]:
        """Every event type with a handler, sorted: the types the game's events may have
        (its phrasebook says each, tests/unit/test_phrasebooks.py)."""
        return sorted(self._handlers)

    def handler(self, state: Any, event: Event) -> Callable[..., Any]:
        """The handler of ``event`` folded into ``state`` (``None`` before the first event).

        Raises ValueError (a corrupt or foreign log, not a rule violation) when the first
        event is not ``MatchStarted`` or the type has no handler."""
        if state is None and event.type != self.FIRST:
            raise ValueError(
                f"{self.game}: the first event must be {self.FIRST}, not {event.type!r}"
            )
        found = self._handlers.get(event.type)
        if found is None:
            raise ValueError(f"{self.game}: unknown event type {event.type!r}")
        return found


class Recorder:
    """Collects events while ``decide`` runs and folds each into :attr:`state` at once, so
    later steps of the same command read the state the earlier events produce.

    Subclasses set ``evolve`` (the game's fold function) as a ``staticmethod``.
    """

    evolve: Callable[[Any, Event], Any]

    def __init__(self, state: Any):
        self.state = state
        self.events: list[Event] = []

    def emit(
        self, type_: str, data: Mapping[str, Any] | None = None, seat: int | None = None
    ) -> Event:
        """Record ``Event(type_, data, seat)`` and fold it into :attr:`state`."""
        event = Event(type_, dict(data or {}), seat)
        self.state = self.evolve(self.state, event)
        self.events.append(event)
        return event


@functools.cache
def _read_phrasebook(path: str) -> dict[str, Any] | None:
    file = Path(path)
    return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else None


def phrasebook_of(module: ModuleType) -> dict[str, Any] | None:
    """The phrasebook of the game whose folder holds ``module``: its ``phrasebook.json``
    (every event and command type in the rulebook's words, format in
    ``cli/render/phrases.py`` and docs/client-developers.md), read once; ``None`` when the
    folder has none. A copy: callers may not change the cached one."""
    book = _read_phrasebook(str(Path(module.__file__ or "").parent / "phrasebook.json"))
    return copy.deepcopy(book) if book is not None else None
