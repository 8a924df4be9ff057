"""Each game's JSON Schemas (draft 2020-12), one source of truth as data files in
``domain/games/<game>/schemas/`` (issue 10 item 1):

- ``options.json``: the match options (``spec.OPTIONS_SCHEMA`` reads it);
- ``commands.json``: command type -> schema of the command (``spec.COMMAND_SCHEMAS``);
- ``events.json``: event type -> ``{"stored": schema | null, "redacted": schema | null}``,
  the ``data`` of the event as stored (the log, exports, the seat it belongs to) and as
  other viewers see it (``Engine.redact``; ``null``: that form never occurs, e.g. a
  neutral type such as A.I.Pokalypse's ``RecruitmentMoveMade`` exists only redacted);
- ``seat_view.json`` / ``spectator_view.json``: ``Engine.view`` for a seat / for ``None``;
- ``result.json``: ``Engine.result`` of a finished match;
- ``examples.json``: ``{"create": <POST /v1/matches body without "game">, "act": <a
  command>}``, the game's examples in ``openapi.yaml`` (checked here: the options and the
  command against their schemas).

:func:`load` reads a folder and checks every schema when the game is imported: each one
must compile with the domain's one validator (:func:`domain.schema_check.checker`: the
keywords draft 7 and 2020-12 share, so no keyword is silently ignored), each command's
``type`` must be ``const`` its key, and the options schema must close its properties. The
API's ``GET /v1/games`` and ``openapi.yaml`` (``python -m api.openapi_build``) are built
from the same files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain import schema_check

FILES = ("options", "commands", "events", "seat_view", "spectator_view", "result", "examples")
FORMS = ("stored", "redacted")


class GameSchemaError(ValueError):
    """A game's schema folder is missing a file or holds a schema that is not valid (a bug
    in the game's declarations, raised at import, never a client's fault)."""


@dataclass(frozen=True)
class GameSchemas:
    """The schemas of one game, as loaded from its folder (plain JSON data).

    Attributes:
        options: schema of the match ``options`` object.
        commands: command type -> schema of the whole command object.
        events: event type -> ``{"stored": schema | None, "redacted": schema | None}``.
        seat_view / spectator_view: schema of ``MatchView.view`` for a seat / a spectator.
        result: schema of ``MatchView.result`` once the match is finished.
        examples: ``{"create": body of POST /v1/matches without "game", "act": command}``.
    """

    options: dict[str, Any]
    commands: dict[str, dict[str, Any]]
    events: dict[str, dict[str, Any]]
    seat_view: dict[str, Any]
    spectator_view: dict[str, Any]
    result: dict[str, Any]
    examples: dict[str, Any]


def _read(folder: Path, name: str) -> Any:
    path = folder / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameSchemaError(f"{path}: missing") from None
    except json.JSONDecodeError as error:
        raise GameSchemaError(f"{path}: not JSON ({error})") from None


def _checked(where: str, schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise GameSchemaError(f"{where}: a schema is a JSON object")
    try:
        schema_check.checker(schema)
    except schema_check.SchemaDefinitionError as error:
        raise GameSchemaError(f"{where}: {error}") from None
    return schema


def load(folder: Path | str) -> GameSchemas:
    """The checked schemas of the game whose schema folder is ``folder`` (usually
    ``Path(__file__).parent / "schemas"`` of the game's ``spec.py``).

    Raises:
        GameSchemaError: a missing or malformed file, a schema the validator refuses, a
            command whose ``type`` is not ``const`` its key, an event entry without any
            form, options not closed by ``additionalProperties: false``.
    """
    folder = Path(folder)
    data = {name: _read(folder, name) for name in FILES}
    options = _checked(f"{folder}/options.json", data["options"])
    if options.get("additionalProperties") is not False:
        raise GameSchemaError(
            f"{folder}/options.json: options must be closed (additionalProperties: false)"
        )
    commands: dict[str, dict[str, Any]] = {}
    for kind, schema in _mapping(folder, "commands", data["commands"]).items():
        schema = _checked(f"{folder}/commands.json#{kind}", schema)
        if schema.get("properties", {}).get("type") != {"const": kind}:
            raise GameSchemaError(f"{folder}/commands.json#{kind}: type must be const {kind!r}")
        commands[kind] = schema
    events: dict[str, dict[str, Any]] = {}
    for kind, forms in _mapping(folder, "events", data["events"]).items():
        if (
            not isinstance(forms, dict)
            or set(forms) != set(FORMS)
            or all(forms[f] is None for f in FORMS)
        ):
            raise GameSchemaError(
                f"{folder}/events.json#{kind}: needs 'stored' and 'redacted' "
                "(schema or null, not both null)"
            )
        events[kind] = {
            f: None if forms[f] is None else _checked(f"{folder}/events.json#{kind}/{f}", forms[f])
            for f in FORMS
        }
    examples = _examples(folder, data["examples"], options, commands)
    return GameSchemas(
        options=options,
        commands=commands,
        events=events,
        examples=examples,
        seat_view=_checked(f"{folder}/seat_view.json", data["seat_view"]),
        spectator_view=_checked(f"{folder}/spectator_view.json", data["spectator_view"]),
        result=_checked(f"{folder}/result.json", data["result"]),
    )


def _examples(
    folder: Path, value: Any, options: dict[str, Any], commands: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """The checked ``examples.json``: a create body whose ``options`` pass the options schema
    and whose ``seats`` is a non-empty list, and a command one of ``commands`` accepts."""
    where = f"{folder}/examples.json"
    if not isinstance(value, dict) or set(value) != {"create", "act"}:
        raise GameSchemaError(f"{where}: an object with 'create' and 'act'")
    create, act = value["create"], value["act"]
    if (
        not isinstance(create, dict)
        or "game" in create
        or not isinstance(create.get("seats"), list)
        or not create["seats"]
    ):
        raise GameSchemaError(f"{where}#create: a POST /v1/matches body without 'game'")
    if not isinstance(act, dict) or act.get("type") not in commands:
        raise GameSchemaError(f"{where}#act: a command of one of the game's types")
    for what, schema, example in (
        ("create/options", options, create.get("options", {})),
        ("act", commands[act["type"]], act),
    ):
        try:
            schema_check.checker(schema).check(example)
        except schema_check.SchemaViolation as error:
            raise GameSchemaError(f"{where}#{what}: {error}") from None
    return value


def _mapping(folder: Path, name: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict) or not value:
        raise GameSchemaError(f"{folder}/{name}.json: a non-empty object of type -> schema")
    return value
