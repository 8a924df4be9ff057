"""The reference scorer of *AI: 100% Human*: the straightforward code path the public
scoring functions ran before they were compiled into plans (``scoring/plans.py``).

Each function builds every board of the tableau (``board.boards``: the printed board plus
one per AI-10 alternative), evaluates the card's effect object on each with the plain
board evaluators (``effects.evaluate`` -> ``groups``/``sets``/``counts``/``connections``/
``diamonds``) and takes the best. ``test_scoring_exactness.py`` checks that the fast
public functions give exactly these values.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring.board import boards, printed_board
from domain.games.ai_100_human.scoring.counts import score_neighbour
from domain.games.ai_100_human.scoring.effects import evaluate
from domain.games.ai_100_human.tableau import AI_POS, Pos, Tableau


def reference_score_effect(
    effect_card_id: str, tableau: Tableau, pos: Pos, neighbours: Sequence[Tableau] = ()
) -> int:
    """``scoring.score_effect`` as it was: flat VP, 0 for copies, the best neighbour for
    107-114, else the best ``evaluate`` over ``boards(tableau)``."""
    effect = catalogue().cards[effect_card_id].effect
    kind = effect["kind"]
    if kind == "flat":
        return effect["vp"]
    if kind in ("copy", "copy_points"):
        return 0
    if kind == "neighbour":
        return score_neighbour(effect, [printed_board(n) for n in neighbours], pos)
    return max(evaluate(effect, b, pos) for b in boards(tableau))


def reference_score_objective(objective_id: str, tableau: Tableau) -> int:
    """``scoring.score_objective`` as it was: the best ``evaluate`` over the boards."""
    effect = catalogue().objectives[objective_id].effect
    return max(evaluate(effect, b, None) for b in boards(tableau))


def reference_score_ai_card(ai_id: str, tableau: Tableau) -> int:
    """``scoring.score_ai_card`` as it was: flat VP, else the best ``evaluate`` over the
    boards for the AI card's position (the frame centre when absent)."""
    effect = catalogue().cards[ai_id].effect
    if effect["kind"] == "flat":
        return effect["vp"]
    pos = next((p for p, cid in tableau.items() if cid == ai_id), AI_POS)
    return max(evaluate(effect, b, pos) for b in boards(tableau))


class ReferencePlacements:
    """``scoring.Placements`` as the plain path: each score of one card added to
    ``tableau`` is the reference function on the tableau with the card added (no reading
    once, no shortcut)."""

    def __init__(self, tableau: Tableau):
        self.tableau = tableau

    def effect(self, card: str, pos: Pos) -> int:
        """``reference_score_effect(card, {**tableau, pos: card}, pos)``."""
        return reference_score_effect(card, {**self.tableau, pos: card}, pos)

    def objective(self, objective: str, card: str, pos: Pos) -> int:
        """``reference_score_objective(objective, {**tableau, pos: card})``."""
        return reference_score_objective(objective, {**self.tableau, pos: card})

    def ai_card(self, ai: str, card: str, pos: Pos) -> int:
        """``reference_score_ai_card(ai, {**tableau, pos: card})``."""
        return reference_score_ai_card(ai, {**self.tableau, pos: card})
