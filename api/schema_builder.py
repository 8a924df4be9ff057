"""Build marshmallow schemas from the JSON Schema dicts the game engines declare.

Each engine publishes ``command_schemas`` (command type -> JSON Schema of the command
object) and ``options_schema``. The API validates request bodies against them with
marshmallow, so a bad command is a 400 ``validation_error`` with per-field messages and
never reaches the service. Nothing here knows any particular game.

Supported JSON Schema (draft 2020-12) keywords: ``type`` (one type or a list, ``"null"``
allowed), ``properties``, ``required``, ``additionalProperties`` (``false`` rejects unknown
fields), ``enum``, ``const``, ``minLength``/``maxLength``/``pattern``, ``minimum``/
``maximum``/``exclusiveMinimum``/``exclusiveMaximum``, ``items``/``minItems``/``maxItems``,
``uniqueItems``, ``anyOf``/``oneOf``. Annotation keywords (``title``, ``description``,
``default``, ``examples``) are ignored. JSON types are strict: ``true`` is not an integer,
``"3"`` is not a number.
"""
from __future__ import annotations

import math
import numbers
import re
from typing import Any, Mapping

from marshmallow import RAISE, INCLUDE, Schema, ValidationError, fields, validate


class StrictInteger(fields.Integer):
    """A JSON integer: rejects booleans, strings and non-integral numbers."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Number):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid")
        return int(value)


class StrictNumber(fields.Float):
    """A finite JSON number: rejects booleans, strings, NaN and infinities."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float | int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.make_error("special")
        return value


class StrictBoolean(fields.Boolean):
    """A JSON boolean (``true``/``false`` only, not ``1`` or ``"yes"``)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class JsonObject(fields.Dict):
    """A JSON object with string keys (values unchecked)."""


class AnyOf(fields.Field):
    """A value valid against at least one of several fields (``anyOf``/``oneOf``)."""

    def __init__(self, choices: list[fields.Field], **kwargs: Any):
        super().__init__(**kwargs)
        self.choices = choices

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        messages: list[Any] = []
        for choice in self.choices:
            try:
                return choice.deserialize(value)
            except ValidationError as error:
                messages.append(error.messages)
        raise ValidationError(f"Not valid against any allowed shape: {messages}")


def _range_validators(schema: Mapping[str, Any]) -> list[validate.Validator]:
    out: list[validate.Validator] = []
    if "minimum" in schema or "maximum" in schema:
        out.append(validate.Range(min=schema.get("minimum"), max=schema.get("maximum")))
    if "exclusiveMinimum" in schema:
        out.append(validate.Range(min=schema["exclusiveMinimum"], min_inclusive=False))
    if "exclusiveMaximum" in schema:
        out.append(validate.Range(max=schema["exclusiveMaximum"], max_inclusive=False))
    return out


def _unique(values: list[Any]) -> bool:
    seen: list[Any] = []
    for value in values:
        if value in seen:
            raise ValidationError("Items must be unique.")
        seen.append(value)
    return True


def field_for(schema: Mapping[str, Any], *, required: bool = False) -> fields.Field:
    """The marshmallow field validating one JSON Schema ``schema``.

    Args:
        schema: a JSON Schema dict (see module docstring for the keywords honoured).
        required: whether the enclosing object lists this property in ``required``.
    """
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    allow_none = "null" in kinds
    kinds = [k for k in kinds if k != "null"]
    common: dict[str, Any] = {"required": required, "allow_none": allow_none}
    checks: list[Any] = []
    if "enum" in schema:
        checks.append(validate.OneOf(list(schema["enum"])))
    if "const" in schema:
        checks.append(validate.Equal(schema["const"]))

    for keyword in ("anyOf", "oneOf"):
        if keyword in schema and not kinds:
            return AnyOf([field_for(sub) for sub in schema[keyword]], validate=checks, **common)
    if len(kinds) > 1:
        sub = [field_for({**schema, "type": k}) for k in kinds]
        return AnyOf(sub, validate=checks, **common)
    kind = kinds[0] if kinds else None
    if kind is None and "properties" in schema:
        kind = "object"

    if kind == "string":
        if "minLength" in schema or "maxLength" in schema:
            checks.append(validate.Length(min=schema.get("minLength"), max=schema.get("maxLength")))
        if "pattern" in schema:
            checks.append(validate.Regexp(re.compile(schema["pattern"]), match_fn=re.Pattern.search))
        return fields.String(validate=checks, **common)
    if kind == "integer":
        return StrictInteger(validate=checks + _range_validators(schema), **common)
    if kind == "number":
        return StrictNumber(validate=checks + _range_validators(schema), **common)
    if kind == "boolean":
        return StrictBoolean(validate=checks, **common)
    if kind == "array":
        if "minItems" in schema or "maxItems" in schema:
            checks.append(validate.Length(min=schema.get("minItems"), max=schema.get("maxItems")))
        if schema.get("uniqueItems"):
            checks.append(_unique)
        items = schema.get("items")
        inner = field_for(items) if isinstance(items, Mapping) else fields.Raw(allow_none=True)
        return fields.List(inner, validate=checks, **common)
    if kind == "object":
        if "properties" in schema:
            return fields.Nested(schema_for(schema), validate=checks, **common)
        return JsonObject(keys=fields.String(), validate=checks, **common)
    return fields.Raw(validate=checks, **{**common, "allow_none": True})


def schema_for(schema: Mapping[str, Any], *, name: str = "JsonSchemaObject") -> Schema:
    """A marshmallow :class:`Schema` instance for a JSON Schema of ``type: object``.

    Unknown fields raise (``additionalProperties: false``) or pass through unchanged.
    """
    required = set(schema.get("required", ()))
    declared = {
        prop: field_for(sub, required=prop in required)
        for prop, sub in (schema.get("properties") or {}).items()
    }
    for prop in required - declared.keys():
        declared[prop] = fields.Raw(required=True, allow_none=True)
    unknown = RAISE if schema.get("additionalProperties") is False else INCLUDE
    cls = Schema.from_dict(declared, name=name)
    return cls(unknown=unknown)

