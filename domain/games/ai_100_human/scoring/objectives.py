"""Objective cards scored at the end of each phase (rulebook "Objective Cards Details",
"2 Phases Overview" E)."""

from __future__ import annotations

from domain.games.ai_100_human.scoring.plans import OBJECTIVE_PLANS, board_plan
from domain.games.ai_100_human.tableau import Tableau


def score_objective(objective_id: str, tableau: Tableau) -> int:
    """VP the Objective card ``objective_id`` ("Omega-1".."Omega-16") gives ``tableau``.

    "In this row/column" objectives score the best single row/column (RULINGS). With
    AI-10 in the tableau the AI card is evaluated as printed, green 4 and black 2 and the
    best counts ("Choose again when scoring the objective"). Raises ``KeyError`` for an
    unknown id. Reference: ``max(evaluate(effect, b, None) for b in boards(tableau))``
    (compiled plan, :mod:`.plans`).
    """
    return board_plan(OBJECTIVE_PLANS[objective_id]).score(tableau, None)
