"""``scoring.score_effect_added`` (the expert's card x cell weighing over one own tableau,
read once) equals ``score_effect`` on the tableau with the card added, for every
development card on every open cell of random legal tableaux (AI-10 and AI-2's outside
card included, where it falls back to the plain path)."""
from __future__ import annotations

from hypothesis import given, settings

from domain.games.ai_100_human.scoring import score_effect, score_effect_added
from domain.games.ai_100_human.tableau import placement_cells

from .test_scoring_exactness import DEVELOPMENT, SETTINGS, tableaux


@settings(max_examples=120, **SETTINGS)
@given(tableau=tableaux())
def test_added_card_scores_equal_the_plain_scorer(tableau):
    cards = [c for c in DEVELOPMENT if c not in tableau.values()]
    read: list = []
    cells = placement_cells(tableau, diagonal=True) + placement_cells(tableau, frame=False)
    for card in cards[::3]:
        for pos in cells:
            assert score_effect_added(card, tableau, pos, read) == \
                score_effect(card, {**tableau, pos: card}, pos), (card, pos)
