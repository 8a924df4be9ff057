"""Declarative game type of "AI: 100% Human": players, modes, options and command schemas.

Rulebook sections: "Setup", "2 Phases Overview" (3-6 players), "2-Player Mode" and "Solo
Mode". The mode follows the seat count (:func:`mode_for`): 1 seat ``"solo"``, 2 seats
``"duo"``, 3-6 seats ``"standard"``; there is no option to choose it.
"""
from __future__ import annotations

from domain.modular import checked_options, command_schema
from typing import Any, Mapping

from domain.engine import InvalidCommand

GAME_ID = "ai-100-human"
TITLE = "AI: 100% Human"
MIN_SEATS = 1
MAX_SEATS = 6
SCHEMA_VERSION = 1                    # the mode fields have defaults: old snapshots still load
RULES_VERSION = "2"                # in every match's verifiable roster; 2: resignation and abandonment
MODES = {"solo": (1, 1), "duo": (2, 2), "standard": (3, 6)}   # mode -> (min, max) seats

PHASES = (1, 2)
TURNS_PER_PHASE = 7                   # "2 Phases Overview": 7 drafting turns per phase
RESERVE_DEAL = 4                      # A.1 "deal 4 Development cards to each player"
RESERVE_KEEP = 2                      # A.1 "each player chooses 2 cards"
RESERVE_KEEP_ONGOING = 3              # 117/118 "At the start of Phase 2, keep 3 cards"
HAND_SIZE = 7                         # A.2 "deal 7 Development cards to each player"
PASS_DIRECTION = {1: "left", 2: "right"}   # B.2 left in Phase 1, right in Phase 2
STARTER_OBJECTIVES = {1: "Omega-3", 2: "Omega-4"}   # Setup 3 / Objective Cards Details

# Cards with a flow of their own are recognised from their effect data (see roles.py):
# 099-104 copy, 105/106 copy points, 115/116 exchange with the reserve, 117/118 draw,
# 119/120 move to an empty cell; AI-5 exchange two, AI-6 draw two, AI-2 extra placement,
# AI-8 diagonal placement.
# AI-6 "draw 2 cards ... Then discard any 2 cards from your hand" (ruling R-AI6-HAND): the
# 2 discards must be possible in full, so the hand must hold at least 2 cards; in solo the
# standee's line stands for the hand and must still leave a card to take (R-SOLO-AI6).
AI6_DRAW = 2                          # "you may draw 2 cards and add them to your reserve"
AI6_DISCARD = 2                       # "Then discard any 2 cards from your hand"
AI6_MIN_HAND = AI6_DISCARD
AI6_MIN_SOLO_OFFER = AI6_DISCARD + 1

# "2-Player Mode": the neutral grid is 3 rows; 2 columns are revealed in each phase.
NEUTRAL_ROWS = 3
NEUTRAL_COLUMNS_PER_PHASE = 2
# "Solo Mode": a 3x3 draft grid, 3 dividers on the rows and 3 on the columns, an 18-card
# timer stack per phase, 105/106 worth a flat 4 VP.
GRID_SIZE = 3
DIVIDER_COLORS = ("red", "yellow", "blue", "black", "purple", "green")   # one per colour
TIMER_STACK = 18
SOLO_COPY_POINTS_VP = 4
# "Solo Mode" / "Scoring": (lowest score, rating), best first; below 111 is a Failure.
RATING_LADDER = ((142, "PRIV8"), (135, "Skynet"), (129, "Cortana"), (123, "Shyrka"),
                 (117, "AL9000"), (111, "Mentat"))
RATING_FAILURE = "Failure"


def mode_for(seats: int) -> str:
    """The rulebook mode played by ``seats`` seats: ``"solo"`` (1), ``"duo"`` (2, "2-Player
    Mode") or ``"standard"`` (3-6). Raises ``ValueError`` outside 1..6."""
    for mode, (low, high) in MODES.items():
        if low <= seats <= high:
            return mode
    raise ValueError(f"no mode for {seats} seats")


def rating(score: int) -> str:
    """The solo rating ladder ("Scoring"): 110 or less Failure, 111 Mentat, 117 AL9000,
    123 Shyrka, 129 Cortana, 135 Skynet, 142 PRIV8 (each from that score up)."""
    for lowest, name in RATING_LADDER:
        if score >= lowest:
            return name
    return RATING_FAILURE

_CELL = {"type": "array", "items": {"type": "integer", "minimum": -1, "maximum": 5},
         "minItems": 2, "maxItems": 2,
         "description": "[row, column]; rows 0..2 top to bottom, columns 0..4 left to right"}
_CARD = {"type": "string", "minLength": 1, "maxLength": 8, "description": "card id, e.g. \"082\""}


_command = command_schema


COMMAND_SCHEMAS: dict[str, dict[str, Any]] = {
    "choose_ai_side": _command("choose_ai_side", {"card": _CARD}, ("card",),
                               "Setup 4: choose the side (AI card id) of your AI card."),
    "keep_reserve": _command("keep_reserve", {"cards": {"type": "array", "items": _CARD,
                                                        "minItems": 2, "maxItems": 3,
                                                        "uniqueItems": True}},
                             ("cards",), "A.1: keep 2 (3 with 117/118 in Phase 2) of the 4 dealt cards."),
    "draft": _command("draft", {"card": _CARD}, ("card",),
                      "B.1: move one hand card into your reserve (solo: one card of the "
                      "draft grid's row/column where the standee is)."),
    "discard": _command("discard", {"card": _CARD}, ("card",),
                        "2-Player Mode: after drafting, discard one hand card (face down); "
                        "a card is then drawn into your hand."),
    "place": _command("place", {"card": _CARD, "cell": _CELL}, ("card", "cell"),
                      "B.3: choose a reserve card and the tableau cell it goes to (face down)."),
    "copy": _command("copy", {"card": _CARD}, ("card",),
                     "099-104: the card of the required colour in an adjacent player's tableau to copy."),
    "exchange_reserve": _command("exchange_reserve", {"cell": _CELL, "card": _CARD, "copy": _CARD},
                                 ("cell", "card"),
                                 "115/116: swap the card at `cell` with reserve card `card` "
                                 "(`copy` when the card put into play is 099-104)."),
    "move_card": _command("move_card", {"from": _CELL, "to": _CELL}, ("from", "to"),
                          "119/120: move a tableau card to an empty cell (it must stay adjacent)."),
    "decline": _command("decline", {}, (), "119/120: do not use the optional exchange."),
    "use_ai5": _command("use_ai5", {"cells": {"type": "array", "items": _CELL,
                                              "minItems": 2, "maxItems": 2}},
                        ("cells",), "AI-5 (once per game): exchange two cells of your tableau."),
    "use_ai6": _command("use_ai6", {}, (),
                        "AI-6 (once per phase), step 1: draw 2 cards from the phase deck into "
                        "your reserve; step 2 (`ai6_discard`) follows at once."),
    "ai6_discard": _command("ai6_discard", {"cards": {"type": "array", "items": _CARD,
                                                      "minItems": 2, "maxItems": 2,
                                                      "uniqueItems": True}},
                            ("cards",), "AI-6 step 2, after seeing the drawn cards: discard 2 "
                            "hand cards (solo: 2 cards of the standee's line)."),
    "place_extra": _command("place_extra", {"card": _CARD, "cell": _CELL, "copy": _CARD},
                            ("card", "cell"),
                            "AI-2 (end of game): place one reserve card next to any card."),
}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The mode follows the seat count: 1 seat solo, 2 seats 2-player mode, "
                   "3-6 seats the standard game.",
    "properties": {
        "objectives": {
            "description": "\"random\" (default), \"starter\" (Omega-3 / Omega-4) or explicit ids.",
            "default": "random",
            "oneOf": [
                {"type": "string", "enum": ["random", "starter"]},
                {"type": "object",
                 "properties": {"phase1": {"type": "string"}, "phase2": {"type": "string"}},
                 "required": ["phase1", "phase2"], "additionalProperties": False},
            ],
        },
    },
    "additionalProperties": False,
}


def option_default(name: str) -> Any:
    """The ``default`` of option ``name`` as :data:`OPTIONS_SCHEMA` declares it (the one
    place an option's default is written). Raises KeyError for an option without one."""
    return OPTIONS_SCHEMA["properties"][name]["default"]


def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise match options: ``{"objectives": "random"|"starter"|{"phase1","phase2"}}``;
    the options are checked against :data:`OPTIONS_SCHEMA` by the one validator and an
    omitted option takes its schema default (:func:`domain.modular.checked_options`).

    Raises :class:`InvalidCommand` for a seat count outside 1..6, unknown keys or values the
    schema refuses, or an objective id that does not exist for its phase (Objective Cards
    Details).
    """
    from domain.games.ai_100_human.cards import catalogue

    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidCommand(f"AI: 100% Human is played by {MIN_SEATS} to {MAX_SEATS} seats here.")
    out = checked_options(OPTIONS_SCHEMA, options)
    objectives = out["objectives"]
    if isinstance(objectives, str):
        return out
    cat = catalogue()
    for phase in PHASES:
        oid = objectives[f"phase{phase}"]
        if oid not in cat.objectives_for(phase):
            raise InvalidCommand(f"{oid!r} is not a Phase {phase} objective.", f"objectives.phase{phase}")
    return {"objectives": {"phase1": objectives["phase1"], "phase2": objectives["phase2"]}}
