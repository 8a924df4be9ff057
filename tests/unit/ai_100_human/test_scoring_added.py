"""``scoring.Placements`` (the expert's card x cell weighing over one own tableau, read
once) equals the public scorers on the tableau with the card added, for development
cards on every open cell of random legal tableaux (AI-10's alternative boards included;
AI-2's card outside the frame, where it falls back to the plain path)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.ai_100_human.scoring import (
    Placements,
    score_ai_card,
    score_effect,
    score_objective,
)
from domain.games.ai_100_human.tableau import AI_POS, placement_cells
from tests.support import depth

from .test_scoring_exactness import AI_SIDES, DEVELOPMENT, OBJECTIVES, SETTINGS, tableaux


@settings(max_examples=depth.examples(60), **SETTINGS)
@given(tableau=tableaux(), moved=st.integers(min_value=-1, max_value=14))
def test_placements_equal_the_public_scorers(tableau, moved):
    """``Placements`` (one read of the own tableau, the expert's rollouts) gives exactly
    ``score_effect`` / ``score_objective`` / ``score_ai_card`` of the tableau with the card
    added, for development cards on every open cell (inside and outside the frame), every
    objective and every AI side (its own and the others); ``moved``: the AI card swapped
    with another card first (AI-5 may move it), so AI cards reading their own position
    read the moved one."""
    tableau = dict(tableau)
    others = sorted(p for p in tableau if p != AI_POS)
    if moved >= 0 and others:
        other = others[moved % len(others)]
        tableau[AI_POS], tableau[other] = tableau[other], tableau[AI_POS]
    cards = [c for c in DEVELOPMENT if c not in tableau.values()]
    cells = placement_cells(tableau, diagonal=True) + placement_cells(tableau, frame=False)
    scorer = Placements(tableau)
    for card in cards[::3]:
        for pos in cells:
            added = {**tableau, pos: card}
            assert scorer.effect(card, pos) == score_effect(card, added, pos), (card, pos)
    for card in cards[::11]:
        for pos in cells:
            added = {**tableau, pos: card}
            for objective in OBJECTIVES:
                assert scorer.objective(objective, card, pos) == score_objective(
                    objective, added
                ), (objective, card, pos)
            for ai in AI_SIDES:
                assert scorer.ai_card(ai, card, pos) == score_ai_card(ai, added), (ai, card, pos)
