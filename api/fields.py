"""Strict JSON marshmallow fields of the HTTP envelope (request bodies, query strings).

The game payloads inside it (commands, match options, bot options) are checked against the
engines' JSON Schemas by :mod:`domain.schema_check`, not here. JSON types are strict:
``true`` is not an integer, ``"3"`` is not a number.
"""

from __future__ import annotations

import math
from typing import Any

from marshmallow import fields


class StrictInteger(fields.Integer):
    """A JSON integer: rejects booleans, strings and non-integral numbers."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
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
    """A JSON ``true`` or ``false``: rejects ``0``/``1`` (which Python compares equal to
    the booleans, so ``truthy={True}`` alone let them through), strings and ``null``."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class JsonObject(fields.Dict):
    """A JSON object with string keys (values unchecked)."""
