"""Duel's declarations: ids, seats, options and command schemas (``schemas/*.json``).

Rules: ``RULES.md`` ("Set-up"). Options: ``tricks`` (1-9, default 5): the number of tricks
played, and so the size of each hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain import game_schemas
from domain.engine import InvalidCommand
from domain.modular import checked_options

GAME_ID = "duel"
TITLE = "Duel (example)"
MIN_SEATS = 2
MAX_SEATS = 2
SCHEMA_VERSION = 1  # bump when the state layout changes (snapshots)
RULES_VERSION = "1"  # part of every match's verifiable roster
DECK = tuple(f"D{n:02d}" for n in range(1, 21))  # RULES.md "Set-up": D01 (1) .. D20 (20)

#: the game's JSON Schemas (options, commands, events, views, result)
SCHEMAS = game_schemas.load(Path(__file__).resolve().parent / "schemas")
COMMAND_SCHEMAS: dict[str, dict[str, Any]] = SCHEMAS.commands
OPTIONS_SCHEMA: dict[str, Any] = SCHEMAS.options


def value(card: str) -> int:
    """The number printed on ``card`` (``"D07"`` -> 7)."""
    return int(card[1:])


def validate_options(seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked against ``schemas/options.json`` with defaults filled:
    ``{"tricks": int}``. Raises :class:`domain.engine.InvalidCommand` (unknown option, wrong
    type or range) and for a seat count other than 2."""
    if seats != MIN_SEATS:
        raise InvalidCommand(f"{TITLE} is played by exactly {MIN_SEATS} seats, not {seats}.")
    return checked_options(OPTIONS_SCHEMA, options)
