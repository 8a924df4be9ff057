"""Declarative game type of *Dead Apocalypse*: players, variants, options, command schemas.

Rulebook sections: "Game Setup", "Turn Sequence", "Game Play Variations". Co-operative,
1-4 seats (RULINGS "Dead Apocalypse"); the variants of the book are options:

- ``difficulty``: ``standard`` | ``easy`` | ``easier`` | ``easiest`` ("For an easy game",
  "For an easier game", "For the easiest game"; each includes the ones before it).
- ``no_kill_ditch``: 1 (book), 2 or 3 cards per player Ditched from the Resource Stack on
  a turn without a defeated Zombie ("For a more difficult game", first rule).
- ``attack_ditch_half_hp``: on each undefeated attacker Ditch ceil(HP/2) cards from the
  Resource Stack instead of 1 ("For a more difficult game", second rule).
- ``competitive``: the end of "For a more competitive game" (most Humans, then fewest
  Infections, then the CDC holder).

The harder rules only apply to ``standard`` (the easy rules remove those Ditches).
``turn_limit`` (ruling R-TURN-LIMIT): in the easy games nothing Ditches the Resource
Stack, so a team that can no longer defeat a Zombie would play forever; the match is lost
(reason ``turn_limit``) when the turn after ``turn_limit`` would start — in the easiest
game, which cannot be lost, it is ``stopped`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain import game_schemas
from domain.engine import InvalidCommand
from domain.modular import checked_options

GAME_ID = "dead-apocalypse"
TITLE = "Dead Apocalypse"
MIN_SEATS = 1
MAX_SEATS = 4
SCHEMA_VERSION = 1
RULES_VERSION = "3"  # in every match's verifiable roster; 2: resignation and abandonment;
# 3: the standing seats' ranks renumbered below a resignation (R-RESIGN: 1, 2, 3, not 1, 3, 4)
#: rules 2 differs from 3 only at an ending after a resignation: a log of rules 2 without a
#: SeatResigned is re-decided exactly by rules 3 (older exports keep verifying)
OLDER_RULES_VERIFIED = {"2": frozenset({"SeatResigned"})}
ROW_SIZE = 5  # Game Setup: 5 Zombies / 5 Resources face up
HAND_SIZE = 5  # Game Setup / Ending your Turn: draw 5
CDC_BOTTOM = 10  # Game Setup: CDC shuffled into the bottom 10 Zombie Stack cards
DIFFICULTIES = ("standard", "easy", "easier", "easiest")


#: the game's JSON Schemas (``schemas/*.json``: options, commands, events, views, result)
SCHEMAS = game_schemas.load(Path(__file__).resolve().parent / "schemas")

#: command type -> JSON Schema of the command (``schemas/commands.json``)
COMMAND_SCHEMAS: dict[str, dict[str, Any]] = SCHEMAS.commands

#: JSON Schema of the match options (``schemas/options.json``)
OPTIONS_SCHEMA: dict[str, Any] = SCHEMAS.options
if OPTIONS_SCHEMA["properties"]["difficulty"]["enum"] != list(DIFFICULTIES):
    raise game_schemas.GameSchemaError("dead-apocalypse options.json disagrees with DIFFICULTIES")


def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalised options (every option of :data:`OPTIONS_SCHEMA`): checked against the
    schema by the one validator, an omitted option set to its schema default
    (:func:`domain.modular.checked_options`).

    Raises :class:`InvalidCommand` for a seat count outside 1..4, unknown keys or values the
    schema refuses, a harder rule combined with an easy difficulty (they contradict), or
    ``competitive`` with one seat (it ranks "both players").
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidCommand(f"Dead Apocalypse is played by {MIN_SEATS} to {MAX_SEATS} seats.")
    out = checked_options(OPTIONS_SCHEMA, options)
    if out["difficulty"] != "standard" and (
        out["no_kill_ditch"] != 1 or out["attack_ditch_half_hp"]
    ):
        raise InvalidCommand("The harder rules only combine with the standard difficulty.")
    if out["competitive"] and seats < 2:
        # "For a more competitive game": "both players then add up the number of Humans in
        # their individual decks. The player with the most wins." - a ranking of players
        raise InvalidCommand(
            "The competitive game (For a more competitive game) ranks the players against "
            "each other: it needs at least 2 seats."
        )
    return out


def easy(options: Mapping[str, Any]) -> bool:
    """ "For an easy game" applies (easy, easier and easiest). RULINGS R-EASY."""
    return options["difficulty"] != "standard"


def no_events(options: Mapping[str, Any]) -> bool:
    """ "For an easier game": Event cards are removed from the Zombie Stack."""
    return options["difficulty"] in ("easier", "easiest")


def easiest(options: Mapping[str, Any]) -> bool:
    """ "For the easiest game": no Zombie After Combat effects; the Resource Stack reforms."""
    return options["difficulty"] == "easiest"
