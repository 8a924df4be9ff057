"""Declarative game type of "A.I.Pokalypse": seats, options, constants and command schemas.

Rulebook sections: "Game Setup", "Phase 1: Recruitment", "Phase 2: Battle", "Good to Know"
("remember the number 6"), "5-8 Player Variant", "Solo / Cooperative Mode". Modes (option
``mode``, :data:`MODES`): ``competitive`` for 2-8 seats (from 5 seats the 5-8 Player Variant
applies by itself: the second copy's basic units and ammo, ruling R-large), ``solo`` (1 seat)
and ``coop`` (2 seats as one team) against the simulated A.I.Toma with a ``difficulty``.
"""
from __future__ import annotations

from typing import Any, Mapping

from domain.engine import InvalidCommand
from domain.modular import checked_options

GAME_ID = "aipokalypse"
TITLE = "A.I.Pokalypse"
MIN_SEATS = 1
MAX_SEATS = 8
SCHEMA_VERSION = 4                    # 3: the A.I.Toma (solo/co-op) and the second copy (5-8 seats);
RULES_VERSION = "2"                # in every match's verifiable roster; 2: resignation and abandonment
                                      # 4: the A.I.Toma's board is shown as the battle left it
MODES = {"competitive": (2, 8), "solo": (1, 1), "coop": (2, 2)}    # mode -> (min, max) seats
TOMA_MODES = ("solo", "coop")
BASE_MAX_SEATS = 4                    # "limited to 4 players"; 5-8 seats add a second copy
# "A.I.Toma difficulty — starting cards": Handy-Man 1, Boss 3, Endboss 5, Untamed A.I. 7
DIFFICULTIES = {"handy_man": 1, "boss": 3, "endboss": 5, "untamed": 7}
DEFAULT_DIFFICULTY = "boss"

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
                          "Slots & Recruitment: place a basic unit from your hand face down as a new slot; "
                          "a Special Unit from your hand is played as a Red Slot (Triples, Red Slots)."),
    "recruit": _command("recruit", {"card": _CARD, "slot": _SLOT, "target": _SLOT}, ("card", "slot"),
                        "Recruit a hand card onto an empty slot at strength 1 (`target`: the unit its "
                        "recruit effect aims at)."),
    "discard": _command("discard", {"card": _CARD, "target": _SLOT}, ("card",),
                        "Discard a card from your hand or a slot; its discard effect resolves."),
    "spend_ammo": _command("spend_ammo", {"slot": _SLOT}, ("slot",),
                           "Ammo: spend 1 ammo, the unit on `slot` gains 1 strength permanently."),
    "triple": _command("triple", {"cards": {"type": "array", "items": _CARD, "minItems": 0, "maxItems": 3,
                                            "uniqueItems": True},
                                  "source": {"enum": ["pool", "health", "deck", "partner"]},
                                  "special": _CARD, "pay": {"enum": ["cards", "pair_ammo", "ammo"]}},
                       ("cards", "source"),
                       "Special Units and Triples: discard a Triple (or W4TCHM3N pair + ammo, Berserker "
                       "3 ammo) to recruit a Special Unit from your pool, health stack, (Priest) the deck "
                       "or (Cooperative Mode, once per game, as your first Recruitment move) your "
                       "partner's pool."),
    "choose_special": _command("choose_special", {"special": _CARD}, ("special",),
                               "Keep one of the drawn Special Units; the other goes under its stack."),
    "ready": _command("ready", {}, (), "End your Recruitment Phase."),
    "react_card": _command("react_card", {"card": _CARD}, ("card",),
                           "Increasing Battle Strength: replace your battle card with a hand card."),
    "react_ammo": _command("react_ammo", {"count": {"type": "integer", "minimum": 1, "maximum": 8}},
                           ("count",), "Increasing Battle Strength: spend ammo, +2 each for this point."),
    "pass": _command("pass", {}, (), "Do not react in this reaction window."),
    "choose": _command("choose", {"option": {"type": ["string", "integer"], "maxLength": 16,
                                             "minimum": -1, "maximum": 99,
                                             "description": "one of the listed options"}},
                       ("option",),
                       "Answer an effect's open decision (\"you can choose ...\" in the card notes): "
                       "a card id, slot index, seat, colour, count or \"stop\" from legal-actions."),
    "exchange_unit": _command("exchange_unit", {"card": _CARD, "slot": _SLOT, "unit": _CARD},
                              ("card", "slot", "unit"),
                              "Megagneto: discard `card`, take the basic unit on `slot` back to your hand and "
                              "put `unit` from your hand into that slot at the same strength."),
    "cash_pool": _command("cash_pool", {"card": _CARD}, ("card",),
                          "Big Benji: discard a Special Unit from your pool for 1 ammo (any time "
                          "you have a decision, even in battle)."),
    "draft_special": _command("draft_special", {"special": _CARD}, ("special",),
                              "Expert Variant: set one Special Unit of your packet aside for your "
                              "health stack; the rest passes to your left neighbour."),
    "order_health": _command("order_health", {"cards": {"type": "array", "items": _CARD, "minItems": 6,
                                                        "maxItems": 6, "uniqueItems": True}},
                             ("cards",), "Expert Variant (health_order 'chosen'): your drafted Special "
                                         "Units as your health stack, top first."),
    "give_ammo": _command("give_ammo", {}, (), "Cooperative Mode: \"Once per game, one player may give 1 ammo "
                                              "to his partner\" (in your Recruitment Phase)."),
    "place_card": _command("place_card", {"slot": _SLOT}, ("slot",),
                           "Battle Cards: your card fits no active unit; put it on an empty slot "
                           "or an active unit (which is then exhausted)."),
}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "mode": {"enum": list(MODES),
                 "description": "competitive: 2-8 seats (5-8 seats play the 5-8 Player Variant with a "
                                "second copy's basic units and ammo); solo: 1 seat against the A.I.Toma; "
                                "coop: 2 seats as a team against the A.I.Toma. Default: solo for 1 seat, "
                                "else competitive."},
        "difficulty": {"enum": list(DIFFICULTIES), "default": DEFAULT_DIFFICULTY,
                       "description": "Solo / Cooperative Mode only: the A.I.Toma's starting cards "
                                      "(handy_man 1, boss 3, endboss 5, untamed 7)."},
        "expert": {"type": "boolean", "default": False,
                   "description": "Expert Variant: draft the 6 Special Units of your health stack "
                                  "(7 dealt, keep one and pass the rest to the left)."},
        "health_order": {"enum": ["shuffled", "chosen"], "default": "shuffled",
                         "description": "Expert Variant: each player shuffles the drafted stack, or "
                                        "puts it into their preferred order."},
        "force_the_luck": {"type": "boolean", "default": False,
                           "description": "Variant \"Force the Luck\": the Engineer Guild faction lies "
                                          "in the middle of the table; every player may use its effect."},
    },
    "additionalProperties": False,
}

EXPERT_PACKET = 7                     # "each player receives 7 Special Units in hand"
FORCE_THE_LUCK_FACTION = "Engineer Guild"


def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise options to ``{"mode", "expert", "health_order", "force_the_luck"}`` plus
    ``"difficulty"`` in the ``solo`` and ``coop`` modes.

    The options are checked against :data:`OPTIONS_SCHEMA` by the one validator, and an
    omitted option takes its schema default (:func:`domain.modular.checked_options`) --
    except ``mode``, whose default follows the seat count: ``solo`` for 1 seat,
    ``competitive`` otherwise; 5-8 competitive seats play the 5-8 Player Variant (no option:
    ruling R-large). Raises :class:`InvalidCommand` for a seat count outside 1..8 or the
    mode's range (solo 1, coop 2, competitive 2-8), unknown keys or values the schema
    refuses, a difficulty outside the A.I.Toma modes.
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidCommand(f"A.I.Pokalypse is played by {MIN_SEATS} to {MAX_SEATS} seats here.")
    given = dict(options or {})
    out = checked_options(OPTIONS_SCHEMA, given)
    mode = out.setdefault("mode", "solo" if seats == 1 else "competitive")
    low, high = MODES[mode]
    if not low <= seats <= high:
        raise InvalidCommand(f"The {mode} mode is played by {low}-{high} seats, not {seats}."
                             if low != high else f"The {mode} mode is played by {low} seat(s), not {seats}.",
                             "mode")
    if mode not in TOMA_MODES:
        if "difficulty" in given:
            raise InvalidCommand("'difficulty' is the A.I.Toma's: only for the solo and coop modes.",
                                 "difficulty")
        del out["difficulty"]
    return out
