"""Every JSON answer checked against ``openapi.yaml`` with undeclared fields forbidden
(issue 10 items 1-2): :class:`Contract` finds the documented response of an answer
(path template, method, status, media type) and validates its body against draft 2020-12
(the document's components as the ``$ref`` base) with :class:`Validator`: the compiled
``jsonschema_rs`` decides (the pure-Python ``jsonschema`` took three quarters of the
contract e2e test's time), and a body it rejects is validated again by ``jsonschema`` for a
message naming the field (a body only the compiled validator rejects fails too, with its
message);
:class:`CheckedHttp` is :class:`tests.e2e.http_helpers.Http` that checks every answer it
gets, and ``text/event-stream`` answers message by message (each ``data`` against the
``SseMessage`` schema's ``contentSchema``).

Strictness: every object schema of the contract that lists ``properties`` and says nothing
about other members is treated as ``additionalProperties: false`` (the contract's own
schemas are closed already; this makes a lapse fail too), so a field the server sends and
the contract lacks fails the check.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from tests.e2e.http_helpers import Http
from tests.support.openapi_doc import openapi_document

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"


def strict(node: Any) -> Any:
    """``node`` (a schema tree) with every open object schema closed (see module doc), and
    every ``oneOf`` with a ``discriminator`` mapping validated by that mapping (see
    :func:`dispatch`)."""
    if isinstance(node, dict):
        out = {k: strict(v) for k, v in node.items()}
        if (
            "properties" in out
            and "additionalProperties" not in out
            and "unevaluatedProperties" not in out
        ):
            out["additionalProperties"] = False
        if "oneOf" in out and "mapping" in out.get("discriminator", {}):
            out = dispatch(out)
        return out
    if isinstance(node, list):
        return [strict(v) for v in node]
    return node


def dispatch(schema: dict[str, Any]) -> dict[str, Any]:
    """A ``oneOf`` + ``discriminator`` schema as the same constraint checked by the
    discriminator: the property must hold one of the mapping's keys, and the value must
    match the branch that key names (``if``/``then``), instead of every branch being tried
    (jsonschema ignores ``discriminator``; the unions of views, commands and envelopes
    have up to a hundred branches). Every branch of the contract's discriminated unions
    pins the property with ``const``, so at most one branch can match either way; a
    mapping that does not name every branch keeps the plain ``oneOf``."""
    name, mapping = schema["discriminator"]["propertyName"], schema["discriminator"]["mapping"]
    if sorted(mapping.values()) != sorted(b.get("$ref", "") for b in schema["oneOf"]):
        return schema
    out = {k: v for k, v in schema.items() if k not in ("oneOf", "discriminator")}
    out["required"] = sorted({*out.get("required", []), name})
    out["properties"] = {**out.get("properties", {}), name: {"enum": list(mapping)}}
    out["allOf"] = [
        *out.get("allOf", []),
        *(
            {"if": {"properties": {name: {"const": key}}}, "then": {"$ref": ref}}
            for key, ref in mapping.items()
        ),
    ]
    return out


class ContractViolation(AssertionError):
    """An answer that ``openapi.yaml`` does not describe (status, media type or body)."""


class Contract:
    """The operations and schemas of one OpenAPI document (default: the repository's)."""

    def __init__(self, path: Path = OPENAPI):
        self.document = openapi_document(path)
        self.components = strict(self.document["components"])
        self.routes = []
        for template, item in self.document["paths"].items():
            pattern = re.sub(r"\{[a-z_]+\}", "[^/]+", template.replace(".", r"\."))
            self.routes.append((re.compile(f"^{pattern}$"), template, item))
        self.checked: dict[str, int] = {}
        self._validators: dict[str, Validator] = {}

    def validator(self, schema: dict[str, Any]) -> Validator:
        """A :class:`Validator` of ``schema`` whose ``#/components/...`` refs resolve in
        this document (built once per schema)."""
        key = json.dumps(schema, sort_keys=True)
        if key not in self._validators:
            self._validators[key] = Validator({**schema, "components": self.components})
        return self._validators[key]

    def response_schema(
        self, method: str, path: str, status: int, media: str
    ) -> tuple[str, dict[str, Any] | None]:
        """``(template, schema)`` of the documented answer; raises ContractViolation when
        the path, method, status (or ``default``) or media type is undocumented."""
        bare = path.split("?", 1)[0]
        for pattern, template, item in self.routes:  # noqa: B007 - the match is used below
            if pattern.match(bare):
                break
        else:
            raise ContractViolation(f"{method} {bare}: no documented path")
        operation = item.get(method.lower())
        if operation is None:
            raise ContractViolation(f"{method} {template}: no documented operation")
        responses = operation["responses"]
        response = responses.get(str(status)) or responses.get("default")
        if response is None:
            raise ContractViolation(f"{method} {template}: status {status} undocumented")
        response = self.resolve(response)
        content = response.get("content") or {}
        if not content:
            return template, None
        if media not in content:
            raise ContractViolation(
                f"{method} {template} {status}: media type {media!r} "
                f"undocumented (documented: {sorted(content)})"
            )
        return template, content[media].get("schema")

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        """``node`` with a top-level ``$ref`` (``#/components/...``) followed."""
        while "$ref" in node:
            where = node["$ref"].removeprefix("#/").split("/")
            node = self.document
            for part in where:
                node = node[part]
        return node

    def check(self, method: str, path: str, status: int, media: str, body: Any) -> None:
        """Validate one answer; raises ContractViolation naming the field that fails."""
        template, schema = self.response_schema(method, path, status, media)
        key = f"{method} {template} {status}"
        self.checked[key] = self.checked.get(key, 0) + 1
        if schema is None:
            return
        if media == "text/event-stream":
            envelope = self.components["schemas"]["SseMessage"]["properties"]["data"][
                "contentSchema"
            ]
            validator = self.validator(envelope)
            for message in sse_messages(body):
                if "data" in message:
                    self._validate(validator, json.loads(message["data"]), key + " (SSE data)")
            return
        self._validate(self.validator(schema), body, key)

    @staticmethod
    def _validate(validator: Validator, body: Any, key: str) -> None:
        validator.validate(body, key)


class Validator:
    """One draft 2020-12 schema (formats not checked), compiled twice: ``jsonschema_rs``
    decides, ``jsonschema`` (built on the first rejected body) explains."""

    def __init__(self, schema: dict[str, Any]):
        self.schema = schema
        self.fast = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
        self._explainer: jsonschema.Draft202012Validator | None = None

    def validate(self, body: Any, key: str) -> None:
        """Return when ``body`` is valid; else raise ContractViolation naming the field
        (``key``: the answer's ``METHOD template status``)."""
        if self.fast.is_valid(body):
            return
        if self._explainer is None:
            self._explainer = jsonschema.Draft202012Validator(self.schema, format_checker=None)
        error = jsonschema.exceptions.best_match(self._explainer.iter_errors(body))
        if error is not None:
            deepest = _deepest(error)
            where = "/".join(str(p) for p in deepest.absolute_path)
            raise ContractViolation(f"{key}: at /{where}: {deepest.message[:400]}")
        fast_error = next(iter(self.fast.iter_errors(body)))
        raise ContractViolation(f"{key}: {str(fast_error)[:400]}")


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The failing leaf of a union's error that reaches furthest into the value (the branch
    the value most nearly matched), for a readable message."""
    best = error
    for sub in error.context or ():
        leaf = _deepest(sub)
        if len(leaf.absolute_path) > len(best.absolute_path):
            best = leaf
    return best


def sse_messages(text: str) -> list[dict[str, str]]:
    """The messages of a ``text/event-stream`` body: field -> value (comments dropped)."""
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        if fields:
            out.append(fields)
    return out


@lru_cache(maxsize=1)
def contract() -> Contract:
    """The repository's contract, loaded once per test process."""
    return Contract()


class CheckedHttp(Http):
    """:class:`Http` whose every answer is checked against the contract (``contract``,
    default :func:`contract`) before it is returned."""

    def __init__(self, target: Any, checker: Contract | None = None):
        super().__init__(target)
        self.contract = checker or contract()

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        content_type: str | None = None,
    ) -> tuple[int, Any, Any]:
        status, resp_headers, parsed = super().call(
            method, path, token, body, headers, raw, content_type
        )
        media = resp_headers.get("Content-Type", "").split(";")[0].strip()
        self.contract.check(method, path, status, media, parsed)
        return status, resp_headers, parsed
