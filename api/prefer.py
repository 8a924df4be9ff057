"""The ``Prefer`` request header (RFC 7240) as far as the API honours it.

Grammar (RFC 7240 section 2): ``Prefer: preference *("," preference)``, a preference being
``token [BWS "=" BWS word] *(OWS ";" [OWS parameter])`` with ``word = token /
quoted-string``; names are case-insensitive, several ``Prefer`` header lines are one list,
and a preference the server does not understand is ignored (section 2). The API honours
``return=representation`` / ``return=minimal`` (section 4.2) on ``POST .../actions``; when
several ``return`` preferences are given the first one counts (section 2: "the first
instance"). The answer names what it applied in ``Preference-Applied`` (section 3).

The header is at most :data:`MAX_LENGTH` characters (all its lines, joined by ``", "``), as
``openapi.yaml`` says: a longer one is 400 ``validation_error`` (``errors.Prefer``), like an
over-long ``Idempotency-Key``, read before anything is done.
"""

from __future__ import annotations

from flask import request

from api.errors import validation_problem

REPRESENTATION = "return=representation"
#: the longest ``Prefer`` header read (characters; openapi.yaml's ``maxLength``)
MAX_LENGTH = 1024


def _preferences(values: list[str]) -> list[tuple[str, str]]:
    """``(name lower-cased, value unquoted or "")`` of every preference in ``values``
    (the header lines), in order; parameters after ``;`` are dropped."""
    out = []
    for line in values:
        for item in _split(line, ","):
            head = _split(item, ";")[0].strip()
            if not head:
                continue
            name, _, value = head.partition("=")
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            out.append((name.strip().lower(), value))
    return out


def _split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside quoted strings."""
    parts, current, quoted, escaped = [], [], False, False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\" and quoted:
            current.append(ch)
            escaped = True
        elif ch == '"':
            current.append(ch)
            quoted = not quoted
        elif ch == sep and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def wants_representation() -> bool:
    """True when the request's first ``return`` preference is ``return=representation``
    (value compared case-insensitively); ``return=minimal``, none, or an unknown value:
    False. Raises Problem 400 ``validation_error`` for a header over :data:`MAX_LENGTH`."""
    values = request.headers.getlist("Prefer")
    if not values:
        return False
    if len(", ".join(values)) > MAX_LENGTH:
        raise validation_problem(
            {"Prefer": [f"At most {MAX_LENGTH} characters."]},
            f"The Prefer header is longer than {MAX_LENGTH} characters.",
        )
    for name, value in _preferences(values):
        if name == "return":
            return value.lower() == "representation"
    return False
