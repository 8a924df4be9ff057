"""Declarative game type of "AI: 100% Human": players, modes, options and command schemas.

Rulebook sections: "Setup", "2 Phases Overview" (3-6 players), "2-Player Mode" and "Solo
Mode". The mode follows the seat count (:func:`mode_for`): 1 seat ``"solo"``, 2 seats
``"duo"``, 3-6 seats ``"standard"``; there is no option to choose it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain import game_schemas
from domain.engine import InvalidCommand
from domain.games.ai_100_human.cards import catalogue
from domain.modular import checked_options

GAME_ID = "ai-100-human"
TITLE = "AI: 100% Human"
MIN_SEATS = 1
MAX_SEATS = 6
SCHEMA_VERSION = 1  # the mode fields have defaults: old snapshots still load
RULES_VERSION = "3"  # in every match's verifiable roster; 2: resignation and abandonment;
# 3: a seat that resigned ranks last when the match then ends normally, the standing
# seats' ranks renumbered (R-RESIGN: 1, 2, 3, not 1, 3, 4)
#: rules 2 differs from 3 only at an ending after a resignation: a log of rules 2 without a
#: SeatResigned is re-decided exactly by rules 3 (older exports keep verifying)
OLDER_RULES_VERIFIED = {"2": frozenset({"SeatResigned"})}
MODES = {"solo": (1, 1), "duo": (2, 2), "standard": (3, 6)}  # mode -> (min, max) seats

PHASES = (1, 2)
TURNS_PER_PHASE = 7  # "2 Phases Overview": 7 drafting turns per phase
RESERVE_DEAL = 4  # A.1 "deal 4 Development cards to each player"
RESERVE_KEEP = 2  # A.1 "each player chooses 2 cards"
RESERVE_KEEP_ONGOING = 3  # 117/118 "At the start of Phase 2, keep 3 cards"
HAND_SIZE = 7  # A.2 "deal 7 Development cards to each player"
PASS_DIRECTION = {1: "left", 2: "right"}  # B.2 left in Phase 1, right in Phase 2
STARTER_OBJECTIVES = {1: "Omega-3", 2: "Omega-4"}  # Setup 3 / Objective Cards Details

# Cards with a flow of their own are recognised from their effect data (see roles.py):
# 099-104 copy, 105/106 copy points, 115/116 exchange with the reserve, 117/118 draw,
# 119/120 move to an empty cell; AI-5 exchange two, AI-6 draw two, AI-2 extra placement,
# AI-8 diagonal placement.
# AI-6 "draw 2 cards ... Then discard any 2 cards from your hand" (ruling R-AI6-HAND): the
# 2 discards must be possible in full, so the hand must hold at least 2 cards; in solo the
# standee's line stands for the hand and must still leave a card to take (R-SOLO-AI6).
AI6_DRAW = 2  # "you may draw 2 cards and add them to your reserve"
AI6_DISCARD = 2  # "Then discard any 2 cards from your hand"
AI6_MIN_HAND = AI6_DISCARD
AI6_MIN_SOLO_OFFER = AI6_DISCARD + 1

# "2-Player Mode": the neutral grid is 3 rows; 2 columns are revealed in each phase.
NEUTRAL_ROWS = 3
NEUTRAL_COLUMNS_PER_PHASE = 2
# "Solo Mode": a 3x3 draft grid, 3 dividers on the rows and 3 on the columns, an 18-card
# timer stack per phase, 105/106 worth a flat 4 VP.
GRID_SIZE = 3
DIVIDER_COLORS = ("red", "yellow", "blue", "black", "purple", "green")  # one per colour
TIMER_STACK = 18
SOLO_COPY_POINTS_VP = 4
# "Solo Mode" / "Scoring": (lowest score, rating), best first; below 111 is a Failure.
RATING_LADDER = (
    (142, "PRIV8"),
    (135, "Skynet"),
    (129, "Cortana"),
    (123, "Shyrka"),
    (117, "AL9000"),
    (111, "Mentat"),
)
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


#: the game's JSON Schemas (``schemas/*.json``: options, commands, events, views, result)
SCHEMAS = game_schemas.load(Path(__file__).resolve().parent / "schemas")

#: command type -> JSON Schema of the command (``schemas/commands.json``)
COMMAND_SCHEMAS: dict[str, dict[str, Any]] = SCHEMAS.commands

#: JSON Schema of the match options (``schemas/options.json``)
OPTIONS_SCHEMA: dict[str, Any] = SCHEMAS.options


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
    RULINGS R-OBJ.
    """
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
            raise InvalidCommand(
                f"{oid!r} is not a Phase {phase} objective.", f"objectives.phase{phase}"
            )
    return {"objectives": {"phase1": objectives["phase1"], "phase2": objectives["phase2"]}}
