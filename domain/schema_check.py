"""The one JSON Schema validator of what the domain is sent: commands, match options and
per-seat bot options (and what the API checks against the same schemas).

Every schema a game declares (``spec.COMMAND_SCHEMAS``, ``spec.OPTIONS_SCHEMA``, its bots'
``BOT_OPTIONS``) is JSON Schema draft 2020-12, the contract's dialect. It is compiled once,
on first use, by `fastjsonschema <https://horejsek.github.io/python-fastjsonschema/>`_ (a
maintained library that turns a schema into one generated Python function; no I/O) and
the compiled check is cached for the life of the process (:func:`checker`).

fastjsonschema implements draft 7, so a schema may only use the keywords whose meaning
draft 7 and draft 2020-12 share (:data:`KEYWORDS`); :func:`checker` refuses any other
(``prefixItems``, ``$defs``, ``unevaluatedProperties``, an array ``items``, ...) with
:class:`SchemaDefinitionError`, so no 2020-12 keyword is ever silently ignored.

A failed check is one :class:`Violation` (the first found): where in the value, which
keyword, and a phrase a player understands; callers turn it into their stable error code
(``invalid_command``, ``validation_error``, ``invalid_bot_options``). A value that passes is
returned *normalised*: an integral number at an ``integer`` place becomes an ``int``
(JSON Schema counts ``2.0`` as the integer 2; the rules index with it), and a number that
is not finite (NaN, infinities: not JSON, RFC 8259 section 6) fails as a wrong type.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import fastjsonschema

#: The keywords a schema may use: assertions whose meaning draft 7 (what fastjsonschema
#: implements) and draft 2020-12 share, and annotations no validator asserts.
KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "$schema",
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SUBSCHEMA = (
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
)
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


class SchemaDefinitionError(ValueError):
    """A schema is not one :func:`checker` can compile faithfully (a keyword outside
    :data:`KEYWORDS`, another ``$schema`` dialect, or a malformed schema). A bug in a game's
    declarations, never a client's fault."""


@dataclass(frozen=True)
class Violation:
    """Why a value does not match its schema.

    Attributes:
        path: where in the value (object keys and array indices); for a missing or unknown
            field its key is the last element; ``()`` is the whole value.
        keyword: the JSON Schema keyword that failed (``type``, ``required``, ...).
        message: a phrase completing "<the field> ...", e.g. ``"must be an integer"``.
    """

    path: tuple[str | int, ...]
    keyword: str
    message: str

    @property
    def field(self) -> str:
        """The path as one name: ``"cell[1]"``, ``"objectives.phase1"``; ``""`` for the
        whole value."""
        out = ""
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
        return out

    def sentence(self, whole: str = "The value") -> str:
        """One sentence naming the field: ``"'cell[1]' must be an integer."``; ``whole``
        names the value itself when the path is empty."""
        return f"'{self.field}' {self.message}." if self.path else f"{whole} {self.message}."

    def errors(self) -> Any:
        """The violation as marshmallow-style ``errors`` (field -> messages, nested for
        nested fields; a list of messages when the whole value is at fault), as the API's
        ``validation_error`` problems carry them."""
        tree: Any = [self.message[0].upper() + self.message[1:] + "."]
        for part in reversed(self.path):
            tree = {str(part): tree}
        return tree


class SchemaViolation(ValueError):
    """Raised by :meth:`Checker.check`; ``violation`` says why."""

    def __init__(self, violation: Violation):
        super().__init__(violation.sentence())
        self.violation = violation


class Checker:
    """One schema compiled once: :meth:`check` validates and normalises a value.

    Built by :func:`checker` (cached); raises :class:`SchemaDefinitionError` for a schema it
    cannot compile faithfully.
    """

    __slots__ = ("schema", "_validate", "_normalise")

    def __init__(self, schema: Mapping[str, Any]):
        _check_keywords(schema, "#")
        if schema.get("$schema", DIALECT) != DIALECT:
            raise SchemaDefinitionError(f"unsupported dialect {schema['$schema']!r}")
        plain = json.loads(json.dumps(schema, default=_plain))  # plain dicts and lists
        plain.pop("$schema", None)
        try:
            self._validate = fastjsonschema.compile(
                plain, handlers={}, use_default=False, use_formats=False
            )
        except fastjsonschema.JsonSchemaDefinitionException as error:
            raise SchemaDefinitionError(str(error)) from None
        self.schema = schema
        self._normalise = _normaliser(schema)

    def check(self, value: Any) -> Any:
        """``value`` (an object given as any Mapping is read as a dict) if it matches the
        schema, normalised (see the module docstring); raises :class:`SchemaViolation`."""
        if isinstance(value, Mapping) and not isinstance(value, dict):
            value = dict(value)
        try:
            self._validate(value)
        except fastjsonschema.JsonSchemaValueException as error:
            raise SchemaViolation(_violation(error, value)) from None
        if self._normalise is None:
            return value
        try:
            return self._normalise(value)
        except _NotFinite as error:
            path = tuple(reversed(error.path))
            raise SchemaViolation(Violation(path, "type", "must be a finite number")) from None

    def violation(self, value: Any) -> Violation | None:
        """The :class:`Violation` of ``value``, ``None`` when it matches."""
        try:
            self.check(value)
        except SchemaViolation as error:
            return error.violation
        return None


_BY_ID: dict[tuple[int, bool], tuple[Mapping[str, Any], Checker]] = {}
_BY_TEXT: dict[str, Checker] = {}
_BY_ID_LIMIT = 1024


def checker(schema: Mapping[str, Any], *, closed: bool = False) -> Checker:
    """The compiled :class:`Checker` of ``schema`` (``closed``: of the schema with
    ``additionalProperties: false`` at its top, whatever it says), built once and cached.

    The cache is by the schema object's identity (a game's schemas are module constants:
    one changed after its first use is not recompiled; the entry keeps the object alive, so
    its identity is never reused), then by its content, so a fresh copy of a known schema
    costs one ``json.dumps``, not a compilation. Raises :class:`SchemaDefinitionError` for
    a schema outside :data:`KEYWORDS`."""
    key = (id(schema), closed)
    entry = _BY_ID.get(key)
    if entry is not None and entry[0] is schema:
        return entry[1]
    body = {**schema, "additionalProperties": False} if closed else schema
    text = json.dumps(body, sort_keys=True, default=_plain)
    compiled = _BY_TEXT.get(text)
    if compiled is None:
        compiled = _BY_TEXT[text] = Checker(body)
    if len(_BY_ID) >= _BY_ID_LIMIT:  # many fresh copies: forget them (content cache stays)
        _BY_ID.clear()
    _BY_ID[key] = (schema, compiled)
    return compiled


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"a schema holds only JSON values, not {type(value).__name__}")


def check(schema: Mapping[str, Any], value: Any) -> Any:
    """``checker(schema).check(value)``: the normalised value, or :class:`SchemaViolation`."""
    return checker(schema).check(value)


def with_defaults(schema: Mapping[str, Any], value: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the object ``value`` with every property of ``schema`` it omits set to that
    property's ``default`` (top level only; a property without a default stays omitted)."""
    out = dict(value)
    for key, prop in (schema.get("properties") or {}).items():
        if key not in out and isinstance(prop, Mapping) and "default" in prop:
            out[key] = prop["default"]
    return out


# ------------------------------------------------------------------ internals


def _check_keywords(schema: Any, where: str) -> None:
    if isinstance(schema, bool):
        return
    if not isinstance(schema, Mapping):
        raise SchemaDefinitionError(f"{where}: a schema is an object or a boolean")
    unknown = sorted(set(schema) - KEYWORDS)
    if unknown:
        raise SchemaDefinitionError(
            f"{where}: keyword(s) {', '.join(unknown)} are not "
            "supported (see domain.schema_check.KEYWORDS)"
        )
    if "items" in schema and not isinstance(schema["items"], (Mapping, bool)):
        raise SchemaDefinitionError(
            f"{where}/items: an array form of items is draft-7 only; "
            "draft 2020-12 spells it prefixItems"
        )
    for key, sub in (schema.get("properties") or {}).items():
        _check_keywords(sub, f"{where}/properties/{key}")
    for key in _SUBSCHEMA:
        if key in schema:
            _check_keywords(schema[key], f"{where}/{key}")
    for key in _SCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key) or ()):
            _check_keywords(sub, f"{where}/{key}/{i}")


def _locate(names: list[str], value: Any) -> tuple[str | int, ...]:
    """fastjsonschema's path (strings after ``"data"``) as keys and list indices."""
    path: list[str | int] = []
    current = value
    for name in names[1:]:
        if isinstance(current, (list, tuple)):
            index = int(name)
            path.append(index)
            current = current[index]
        else:
            path.append(name)
            current = current.get(name) if isinstance(current, Mapping) else None
    return tuple(path)


def _violation(error: fastjsonschema.JsonSchemaValueException, value: Any) -> Violation:
    path = _locate(list(error.path), value)
    rule, definition, at = error.rule, error.definition or {}, error.value
    if rule == "required" and isinstance(at, Mapping):
        missing = next((k for k in error.rule_definition if k not in at), "")
        return Violation((*path, missing), rule, "is required")
    if rule == "additionalProperties" and isinstance(at, Mapping):
        known = definition.get("properties") or {}
        extra = sorted((k for k in at if k not in known), key=str)
        return Violation((*path, extra[0] if extra else ""), rule, "is not a known field")
    return Violation(path, rule or "", _phrase(rule, definition, error))


def _between(low: Any, high: Any, unit: str = "") -> str:
    if low is not None and high is not None:
        return f"exactly {low}{unit}" if low == high else f"between {low} and {high}{unit}"
    return f"at least {low}{unit}" if low is not None else f"at most {high}{unit}"


def _phrase(
    rule: str | None, definition: Mapping[str, Any], error: fastjsonschema.JsonSchemaValueException
) -> str:
    """The message of a failed keyword (see :class:`Violation`)."""
    if rule == "type":
        kinds = definition.get("type")
        kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
        return "must be " + " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
    if rule == "const":
        return f"must be {json.dumps(definition.get('const'))}"
    if rule == "enum":
        return "must be one of " + ", ".join(json.dumps(v) for v in definition.get("enum", ()))
    if rule in ("minimum", "maximum"):
        return "must be " + _between(definition.get("minimum"), definition.get("maximum"))
    if rule == "exclusiveMinimum":
        return f"must be greater than {definition['exclusiveMinimum']}"
    if rule == "exclusiveMaximum":
        return f"must be less than {definition['exclusiveMaximum']}"
    if rule in ("minLength", "maxLength"):
        return "must have " + _between(
            definition.get("minLength"), definition.get("maxLength"), " characters"
        )
    if rule in ("minItems", "maxItems"):
        return "must have " + _between(
            definition.get("minItems"), definition.get("maxItems"), " items"
        )
    if rule in ("minProperties", "maxProperties"):
        return "must have " + _between(
            definition.get("minProperties"), definition.get("maxProperties"), " fields"
        )
    if rule == "uniqueItems":
        return "must not repeat an item"
    if rule == "multipleOf":
        return f"must be a multiple of {definition['multipleOf']}"
    if rule == "pattern":
        return f"must match the pattern {definition['pattern']}"
    if rule in ("oneOf", "anyOf"):
        return "must match one of the allowed forms"
    return f"is not valid ({error.message})"


Normaliser = Callable[[Any], Any]


class _NotFinite(Exception):
    """A NaN or infinity met while normalising; ``path`` is filled in while unwinding."""

    def __init__(self) -> None:
        super().__init__()
        self.path: list[str | int] = []


def _normalise_number(to_int: bool) -> Normaliser:
    def number(value: Any) -> Any:
        if type(value) is float:
            if not math.isfinite(value):
                raise _NotFinite()
            return int(value) if to_int else value
        return value

    return number


def _normaliser(schema: Any) -> Normaliser | None:
    """A function making an already valid value's integral numbers at ``integer`` places
    ``int`` (copying only what changes) and raising :class:`_NotFinite` for NaN or an
    infinity; ``None`` when ``schema`` has no number place (then it costs nothing). Union
    keywords (``oneOf``...) are not entered: a value under one stays as it is."""
    if not isinstance(schema, Mapping):
        return None
    kinds = schema.get("type")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or ())
    props = tuple(
        (k, n)
        for k, sub in (schema.get("properties") or {}).items()
        if (n := _normaliser(sub)) is not None
    )
    items = _normaliser(schema.get("items"))
    number = (
        _normalise_number("integer" in kinds and "number" not in kinds)
        if kinds & {"integer", "number"}
        else None
    )
    if not (number or props or items):
        return None

    def normalise(value: Any) -> Any:
        if type(value) is float:
            return number(value) if number is not None else value
        if props and type(value) is dict:
            out = value
            for key, sub in props:
                if key in value:
                    old = value[key]
                    try:
                        new = sub(old)
                    except _NotFinite as error:
                        error.path.append(key)
                        raise
                    if new is not old:
                        out = dict(value) if out is value else out
                        out[key] = new
            return out
        if items is not None and isinstance(value, (list, tuple)):
            out_list = None
            for index, old in enumerate(value):
                try:
                    new = items(old)
                except _NotFinite as error:
                    error.path.append(index)
                    raise
                if new is not old:
                    out_list = list(value) if out_list is None else out_list
                    out_list[index] = new
            if out_list is None:
                return value
            return out_list if isinstance(value, list) else tuple(out_list)
        return value

    return normalise
