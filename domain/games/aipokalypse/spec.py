"""Declarative game type of "A.I.Pokalypse": seats, options, constants and command schemas.

Rulebook sections: "Game Setup", "Phase 1: Recruitment", "Phase 2: Battle", "Good to Know"
("remember the number 6"). Only the competitive 2-4 seat game is playable here; the state
keeps a ``mode`` field so the 5-8 seat variant (second copy of the basic units), the expert
draft and the solo/co-op A.I.Toma mode can be added without a new layout.
"""
from __future__ import annotations

from typing import Any, Mapping

from domain.engine import InvalidCommand

GAME_ID = "aipokalypse"
TITLE = "A.I.Pokalypse"
MIN_SEATS = 2
MAX_SEATS = 4
SCHEMA_VERSION = 1
MODES = {"competitive": (2, 4)}       # "large" (5-8), "expert" draft and "solo"/"coop" later

SCALE: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15)   # strength scale positions
MAX_POS = len(SCALE) - 1              # index of 15
HAND_SIZE = 6                         # "draw ... until each player has 6 cards"
MAX_SLOTS = 6                         # "You can have a maximum of 6 slots"
MAX_AMMO = 6                          # "You can store a maximum of 6 ammo"
HEALTH_POINTS = 6                     # "Each player receives 6 special units"
FACTIONS_OFFERED = 2                  # "Each player draws 2 cards ... as their faction cards"
AMMO_RECRUIT_STRENGTH = 1             # "Each ammo permanently improves any unit by 1 strength"
AMMO_BATTLE_STRENGTH = 2              # "Each ammo temporarily strengthens any unit by 2"
TRIPLE_SIZE = 3
HEALTH_DRAW = 2                       # "draw up to 2 Special Units from your health point stack"

COLORS = ("blue", "red", "yellow", "purple", "green")
WILD_COLORS = ("purple", "green")     # Rogues and A.I.Lien fight with any colour

_CARD = {"type": "string", "minLength": 2, "maxLength": 8, "description": "card id, e.g. \"B017\""}
_SLOT = {"type": "integer", "minimum": 0, "maximum": 7, "description": "slot index, 0 = leftmost"}


def _command(name: str, props: Mapping[str, Any], required: tuple[str, ...], doc: str) -> dict:
    properties: dict[str, Any] = {"type": {"const": name}}
    properties.update(props)
    return {"type": "object", "description": doc, "properties": properties,
            "required": ["type", *required], "additionalProperties": False}


COMMAND_SCHEMAS: dict[str, dict[str, Any]] = {
    "choose_faction": _command("choose_faction", {"faction": _CARD}, ("faction",),
                               "Game Setup (B): keep one of your 2 offered factions."),
    "open_slot": _command("open_slot", {"card": _CARD}, ("card",),
                          "Slots & Recruitment: place a basic unit from your hand face down as a new slot."),
    "recruit": _command("recruit", {"card": _CARD, "slot": _SLOT, "target": _SLOT}, ("card", "slot"),
                        "Recruit a hand card onto an empty slot at strength 1 (`target`: the unit its "
                        "recruit effect aims at)."),
    "discard": _command("discard", {"card": _CARD, "target": _SLOT}, ("card",),
                        "Discard a card from your hand or a slot; its discard effect resolves."),
    "spend_ammo": _command("spend_ammo", {"slot": _SLOT}, ("slot",),
                           "Ammo: spend 1 ammo, the unit on `slot` gains 1 strength permanently."),
    "triple": _command("triple", {"cards": {"type": "array", "items": _CARD, "minItems": 0, "maxItems": 3,
                                            "uniqueItems": True},
                                  "source": {"enum": ["pool", "health", "deck"]},
                                  "special": _CARD, "pay": {"enum": ["cards", "pair_ammo", "ammo"]}},
                       ("cards", "source"),
                       "Special Units and Triples: discard a Triple (or W4TCHM3N pair + ammo, Berserker "
                       "3 ammo) to recruit a Special Unit from your pool, health stack or (Priest) the deck."),
    "choose_special": _command("choose_special", {"special": _CARD}, ("special",),
                               "Keep one of the drawn Special Units; the other goes under its stack."),
    "ready": _command("ready", {}, (), "End your Recruitment Phase."),
    "react_card": _command("react_card", {"card": _CARD}, ("card",),
                           "Increasing Battle Strength: replace your battle card with a hand card."),
    "react_ammo": _command("react_ammo", {"count": {"type": "integer", "minimum": 1, "maximum": 8}},
                           ("count",), "Increasing Battle Strength: spend ammo, +2 each for this point."),
    "pass": _command("pass", {}, (), "Do not react in this reaction window."),
    "place_card": _command("place_card", {"slot": _SLOT}, ("slot",),
                           "Battle Cards: your card fits no active unit; put it on an empty slot "
                           "or an active unit (which is then exhausted)."),
}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "mode": {"enum": ["competitive"], "default": "competitive",
                 "description": "Only the competitive 2-4 seat game is available."},
    },
    "additionalProperties": False,
}


def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise options to ``{"mode": "competitive"}``.

    Raises :class:`InvalidCommand` for a seat count outside 2..4, unknown keys or modes.
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidCommand(f"A.I.Pokalypse is played by {MIN_SEATS} to {MAX_SEATS} seats here.")
    options = dict(options or {})
    unknown = set(options) - {"mode"}
    if unknown:
        raise InvalidCommand(f"Unknown option(s): {', '.join(sorted(unknown))}.")
    mode = options.get("mode", "competitive")
    if mode not in MODES:
        raise InvalidCommand(f"Unknown mode {mode!r}; only 'competitive' is available.")
    return {"mode": mode}
