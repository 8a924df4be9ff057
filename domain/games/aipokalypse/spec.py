"""Declarative game type of "A.I.Pokalypse": seats, options, constants and command schemas.

Rulebook sections: "Game Setup", "Phase 1: Recruitment", "Phase 2: Battle", "Good to Know"
("remember the number 6"), "5-8 Player Variant", "Solo / Cooperative Mode". Modes (option
``mode``, :data:`MODES`): ``competitive`` for 2-8 seats (from 5 seats the 5-8 Player Variant
applies by itself: the second copy's basic units and ammo, ruling R-LARGE), ``solo`` (1 seat)
and ``coop`` (2 seats as one team) against the simulated A.I.Toma with a ``difficulty``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain import game_schemas
from domain.engine import InvalidCommand
from domain.modular import checked_options

GAME_ID = "aipokalypse"
TITLE = "A.I.Pokalypse"
MIN_SEATS = 1
MAX_SEATS = 8
SCHEMA_VERSION = 5  # 3: the A.I.Toma (solo/co-op) and the second copy (5-8 seats);
# 4: the A.I.Toma's board is shown as the battle left it;
# 5: an open choice names its decline (the timeout's answer)
RULES_VERSION = "4"  # in every match's verifiable roster; 2: resignation and abandonment;
# 3: issue 17 (Vault A.F.K.'s round 1, timeouts decline, Lieutenant
# Dan's and Big Benji's ammo, declinable steal and swap); 4: a reshuffle of the draw pile
# caused by a seat's card move in the Recruitment Phase is that seat's hidden event, inside
# the move's one RecruitmentMoves event (R-HIDDEN-BATCH), not a public event between two
# batches that told the other seats the move drew past the end of the pile
#: older rules versions this server still re-decides, with the event types it decides
#: differently (a log holding one is refused by name). Rules 3 logs re-decide exactly but for
#: a reshuffle in the Recruitment Phase, which the verifier compares as rules 3 recorded it
#: (``AIPokalypseEngine.as_older_rules``: ``batching.as_rules_3``), so they verify too
OLDER_RULES_VERIFIED: dict[str, frozenset[str]] = {"3": frozenset()}
MODES = {"competitive": (2, 8), "solo": (1, 1), "coop": (2, 2)}  # mode -> (min, max) seats
TOMA_MODES = ("solo", "coop")
BASE_MAX_SEATS = 4  # "limited to 4 players"; 5-8 seats add a second copy
# "A.I.Toma difficulty — starting cards": Handy-Man 1, Boss 3, Endboss 5, Untamed A.I. 7
DIFFICULTIES = {"handy_man": 1, "boss": 3, "endboss": 5, "untamed": 7}
DEFAULT_DIFFICULTY = "boss"

SCALE: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15)  # strength scale positions
MAX_POS = len(SCALE) - 1  # index of 15
HAND_SIZE = 6  # "draw ... until each player has 6 cards"
MAX_SLOTS = 6  # "You can have a maximum of 6 slots"
MAX_AMMO = 6  # "You can store a maximum of 6 ammo"
HEALTH_POINTS = 6  # "Each player receives 6 special units"
FACTIONS_OFFERED = 2  # "Each player draws 2 cards ... as their faction cards"
AMMO_BATTLE_STRENGTH = 2  # "Each ammo temporarily strengthens any unit by 2"
TRIPLE_SIZE = 3
HEALTH_DRAW = 2  # "draw up to 2 Special Units from your health point stack"

COLORS = ("blue", "red", "yellow", "purple", "green")
WILD_COLORS = ("purple", "green")  # Rogues and A.I.Lien fight with any colour


#: the game's JSON Schemas (``schemas/*.json``: options, commands, events, views, result)
SCHEMAS = game_schemas.load(Path(__file__).resolve().parent / "schemas")

#: command type -> JSON Schema of the command (``schemas/commands.json``)
COMMAND_SCHEMAS: dict[str, dict[str, Any]] = SCHEMAS.commands

#: JSON Schema of the match options (``schemas/options.json``)
OPTIONS_SCHEMA: dict[str, Any] = SCHEMAS.options
if (
    OPTIONS_SCHEMA["properties"]["mode"]["enum"] != list(MODES)
    or OPTIONS_SCHEMA["properties"]["difficulty"]["enum"] != list(DIFFICULTIES)
    or OPTIONS_SCHEMA["properties"]["difficulty"]["default"] != DEFAULT_DIFFICULTY
):
    raise game_schemas.GameSchemaError(
        "aipokalypse options.json disagrees with MODES / DIFFICULTIES"
    )

EXPERT_PACKET = 7  # "each player receives 7 Special Units in hand"
FORCE_THE_LUCK_FACTION = "Engineer Guild"


def validate_options(seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise options to ``{"mode", "expert", "health_order", "force_the_luck"}`` plus
    ``"difficulty"`` in the ``solo`` and ``coop`` modes.

    The options are checked against :data:`OPTIONS_SCHEMA` by the one validator, and an
    omitted option takes its schema default (:func:`domain.modular.checked_options`) --
    except ``mode``, whose default follows the seat count: ``solo`` for 1 seat,
    ``competitive`` otherwise; 5-8 competitive seats play the 5-8 Player Variant (no option:
    ruling R-LARGE). Raises :class:`InvalidCommand` for a seat count outside 1..8 or the
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
        raise InvalidCommand(
            f"The {mode} mode is played by {low}-{high} seats, not {seats}."
            if low != high
            else f"The {mode} mode is played by {low} seat(s), not {seats}.",
            "mode",
        )
    if mode not in TOMA_MODES:
        if "difficulty" in given:
            raise InvalidCommand(
                "'difficulty' is the A.I.Toma's: only for the solo and coop modes.", "difficulty"
            )
        del out["difficulty"]
    return out
