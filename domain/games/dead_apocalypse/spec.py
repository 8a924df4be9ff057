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

from domain.modular import checked_options, command_schema
from typing import Any, Mapping

from domain.engine import InvalidCommand

GAME_ID = "dead-apocalypse"
TITLE = "Dead Apocalypse"
MIN_SEATS = 1
MAX_SEATS = 4
SCHEMA_VERSION = 1
RULES_VERSION = "2"                # in every match's verifiable roster; 2: resignation and abandonment
ROW_SIZE = 5                  # Game Setup: 5 Zombies / 5 Resources face up
HAND_SIZE = 5                 # Game Setup / Ending your Turn: draw 5
CDC_BOTTOM = 10               # Game Setup: CDC shuffled into the bottom 10 Zombie Stack cards
DIFFICULTIES = ("standard", "easy", "easier", "easiest")

_CARD = {"type": "string", "minLength": 1, "maxLength": 40,
         "description": "card instance id, e.g. \"shotgun#2\""}


_command = command_schema

_SPEND = {"type": "array", "maxItems": 60,
          "items": {"type": "array", "minItems": 2, "maxItems": 2,
                    "items": {"type": "integer", "minimum": 0, "maximum": 1000}},
          "description": "[[pool entry index, amount], ...]: the damage that defeats the Zombie"}


COMMAND_SCHEMAS: dict[str, dict[str, Any]] = {
    "play": _command("play", {"card": _CARD}, ("card",),
                     "Playing Cards from your Hand: play a Human, Equipment or Location and resolve it."),
    "occupy": _command("occupy", {"card": _CARD, "location": _CARD}, ("card", "location"),
                       "Occupying Locations: place a Human from your hand beneath one of your Locations."),
    "use_repeat": _command("use_repeat", {"card": _CARD}, ("card",),
                           "Repeat: resolve the ability of one of your Locations in play (once per turn)."),
    "defeat": _command("defeat", {"column": {"type": "integer", "minimum": 0, "maximum": ROW_SIZE - 1},
                                  "spend": _SPEND},
                       ("column",), "Combating Zombies: spend damage equal to the HP of the Zombie in `column` "
                       "(`spend` chooses which damage: one of the legal actions; without it the default)."),
    "call_for_help": _command("call_for_help", {}, (), "Call for Help: ask the other seats to assist."),
    "assist": _command("assist", {}, (), "Call for Help: answer yes and play cards from your hand."),
    "decline": _command("decline", {}, (), "Call for Help: do not assist."),
    "end_assist": _command("end_assist", {}, (), "Call for Help: finish assisting."),
    "choose": _command("choose", {"card": _CARD, "location": _CARD}, ("card",),
                       "Answer an ability prompt: the card to Ditch, or the Human (and `location`) to occupy."),
    "skip": _command("skip", {}, (), "Answer an ability prompt: choose nothing more (the rest is optional)."),
    "claim": _command("claim", {"choice": {"enum": ["resource", "adept"]}}, ("choice",),
                      "After Combat (assisted): take the adjacent Resource Row card or an Adept Survivor."),
    "end_turn": _command("end_turn", {}, (), "Ending your Turn: resolve undefeated Zombies, discard, draw 5."),
}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "difficulty": {"enum": list(DIFFICULTIES), "default": "standard",
                       "description": "Game Play Variations: standard, easy, easier or easiest."},
        "no_kill_ditch": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1,
                          "description": "Cards per player Ditched on a turn without a defeated Zombie."},
        "attack_ditch_half_hp": {"type": "boolean", "default": False,
                                 "description": "Undefeated attackers Ditch ceil(HP/2) Resource Stack cards."},
        "competitive": {"type": "boolean", "default": False,
                        "description": "For a more competitive game: rank by Humans, Infections, CDC."},
        "turn_limit": {"type": "integer", "minimum": 20, "maximum": 2000, "default": 300,
                       "description": "Ruling R-TURN-LIMIT: the match ends after this many turns (lost; easiest: stopped)."},
    },
    "additionalProperties": False,
}

def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalised options (every option of :data:`OPTIONS_SCHEMA`): checked against the
    schema by the one validator, an omitted option set to its schema default
    (:func:`domain.modular.checked_options`).

    Raises :class:`InvalidCommand` for a seat count outside 1..4, unknown keys or values the
    schema refuses, or a harder rule combined with an easy difficulty (they contradict).
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidCommand(f"Dead Apocalypse is played by {MIN_SEATS} to {MAX_SEATS} seats.")
    out = checked_options(OPTIONS_SCHEMA, options)
    if out["difficulty"] != "standard" and (out["no_kill_ditch"] != 1 or out["attack_ditch_half_hp"]):
        raise InvalidCommand("The harder rules only combine with the standard difficulty.")
    return out


def easy(options: Mapping[str, Any]) -> bool:
    """"For an easy game" applies (easy, easier and easiest)."""
    return options["difficulty"] != "standard"


def no_events(options: Mapping[str, Any]) -> bool:
    """"For an easier game": Event cards are removed from the Zombie Stack."""
    return options["difficulty"] in ("easier", "easiest")


def easiest(options: Mapping[str, Any]) -> bool:
    """"For the easiest game": no Zombie After Combat effects; the Resource Stack reforms."""
    return options["difficulty"] == "easiest"
