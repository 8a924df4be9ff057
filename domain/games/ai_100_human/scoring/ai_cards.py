"""End-of-game AI card scoring (rulebook "AI Cards Details", "2 Phases Overview" F)."""

from __future__ import annotations

from domain.games.ai_100_human.scoring.plans import CARD_PLANS, board_plan
from domain.games.ai_100_human.tableau import AI_POS, Tableau


def score_ai_card(ai_id: str, tableau: Tableau) -> int:
    """End-of-game VP of AI card side ``ai_id`` ("AI-1".."AI-12") for ``tableau``.

    Flat VP: AI-5 and AI-8 give 5, AI-10 gives 4; AI-2 (its extra card is scored by the
    flow with ``score_effect``) and AI-6 (no end VP in the book) give 0. AI-7's "adjacent
    to the played card" is the 8 cards around the AI card. Raises ``KeyError`` for an
    unknown id. Reference: ``max(evaluate(effect, b, pos) for b in boards(tableau))``
    for board-reading effects (compiled plan, :mod:`.plans`).
    """
    plan = CARD_PLANS[ai_id]
    if plan.kind == "flat":
        return plan.score(tableau, AI_POS)
    if not getattr(board_plan(plan), "needs_pos", False):
        return plan.score(tableau, AI_POS)  # the scope does not read the position
    pos = next((p for p, cid in tableau.items() if cid == ai_id), AI_POS)
    return plan.score(tableau, pos)
