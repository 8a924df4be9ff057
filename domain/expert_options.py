"""The options every game's ``expert`` bot takes (issues 3 and 23): ``budget`` (rollouts),
``candidates`` (commands weighed) and ``time_budget_ms`` (a wall-clock safety net). One
JSON Schema shape and one translation to the bots' constructor arguments for the three
games; each game words its own descriptions and bounds (``domain.engine.build_bot``
validates the options against the schema before :func:`expert_kwargs` sees them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: bounds shared by every game's expert (the server's caps, service.store.quotas, bound
#: ``budget`` and ``time_budget_ms`` further by name)
MAX_BUDGET = 4096
MIN_TIME_BUDGET_MS, MAX_TIME_BUDGET_MS = 50, 10000


def expert_options_schema(
    budget: str, candidates: str, time_budget: str, max_candidates: int
) -> dict[str, Any]:
    """The JSON Schema of an expert's options: ``budget`` 0..:data:`MAX_BUDGET`,
    ``candidates`` 1..``max_candidates``, ``time_budget_ms``
    :data:`MIN_TIME_BUDGET_MS`..:data:`MAX_TIME_BUDGET_MS`, nothing else; the three
    strings are the options' descriptions (each game says what its default is)."""
    return {
        "type": "object",
        "description": "Options of the expert (Monte Carlo) bot; omit one for its default.",
        "properties": {
            "budget": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_BUDGET,
                "description": budget,
            },
            "candidates": {
                "type": "integer",
                "minimum": 1,
                "maximum": max_candidates,
                "description": candidates,
            },
            "time_budget_ms": {
                "type": "integer",
                "minimum": MIN_TIME_BUDGET_MS,
                "maximum": MAX_TIME_BUDGET_MS,
                "description": "Wall-clock budget of one decision in "
                "milliseconds: when it runs out, the rollouts finished so "
                f"far decide. {time_budget}",
            },
        },
        "additionalProperties": False,
    }


def expert_kwargs(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated expert ``options`` as constructor arguments: ``budget`` and ``candidates``
    as they are, ``time_budget_ms`` (ms) as ``time_cap_s`` (s); an omitted option is left
    out, so the constructor's default holds."""
    kwargs: dict[str, Any] = {}
    if "budget" in options:
        kwargs["budget"] = options["budget"]
    if "candidates" in options:
        kwargs["candidates"] = options["candidates"]
    if "time_budget_ms" in options:
        kwargs["time_cap_s"] = options["time_budget_ms"] / 1000.0
    return kwargs
