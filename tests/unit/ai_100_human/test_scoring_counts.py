"""Per-card counting 052-067, least colour 068/069, progressive scoring 070-077
(rulebook Cards Details). Cases: (effect card, picture, played position, VP)."""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring import score_effect

from .test_scoring_support import tab

CASES = [
    # 052 in your tableau, 1 VP per red card: 3 red -> 3.
    ("052", "R1 B1 R2\nR3 G1 .", (0, 1), 3),
    # 053 this row (row 0), 3 VP per yellow: Y,Y,B -> 6; the yellow in row 1 is ignored.
    ("053", "Y1 Y2 B1\nY3 .  .", (0, 2), 6),
    # 054 this row, 2 VP per black and/or green: K,G,R,K -> 3 -> 6.
    ("054", "K1 G1 R1 K2\nG2 G3 .  .", (0, 0), 6),
    # 055 this row, 2 VP per purple and/or red: P,R,B -> 2 -> 4.
    ("055", "P1 R1 B1\nR2 .  .", (0, 2), 4),
    # 056 adjacent to (1,1), 2 VP per red: red at (0,0),(2,2); the played red (1,1) and the
    # red at (1,3) (two columns away) do not count -> 2 -> 4.
    ("056", "R1 B1 .  .\nG1 R2 B2 R3\n.  .  R4 .", (1, 1), 4),
    # 057/058 adjacent to (1,1), 2 VP per purple: purple at (0,1),(1,0),(2,2) -> 6.
    ("057", "B1 P1 .\nP2 B2 .\n.  .  P3", (1, 1), 6),
    ("058", "B1 P1 .\nP2 B2 .\n.  .  P3", (1, 1), 6),
    # 059/060 in your tableau, 1 VP per card of the colour you have most of: R,R,R,B,B,G -> 3.
    ("059", "R1 R2 R3\nB1 B2 G1", (0, 0), 3),
    ("060", "R1 R2 R3\nB1 B2 G1", (0, 0), 3),
    # 061/062 this row, 2 VP per card of the most colour: G,G,B,B,Y -> tie, one colour counts -> 2 -> 4.
    ("061", "G1 G2 B1 B2 Y1\nR1 R2 R3 .  .", (0, 0), 4),
    ("062", "G1 G2 B1 B2 Y1\nR1 R2 R3 .  .", (0, 0), 4),
    # 063/064 this row, 2 VP per different colour: R,R,B,G -> 3 colours -> 6.
    ("063", "R1 R2 B1 G1\nY1 P1 .  .", (0, 0), 6),
    ("064", "R1 R2 B1 G1\nY1 P1 .  .", (0, 0), 6),
    # 065 this row, 2 VP per card with the same number: 1,1,1,2,2 -> 3 -> 6.
    ("065", "R1 B1 G1 Y2 P2", (0, 0), 6),
    # 066 this column (column 0), 2 VP per different colour: R,B,R -> 2 -> 4; column 1 ignored.
    ("066", "R1 G1\nB1 Y1\nR2 P1", (1, 0), 4),
    # 067 adjacent to (1,1), 2 VP per card of the most colour, regardless of the played card:
    # around B,B,B,G,G,R (the played (1,1) is blue but excluded) -> 3 -> 6.
    ("067", "B1 B2 B3\nG1 B4 G2\nR1 .  .", (1, 1), 6),
    # 068/069 in your tableau, 3 VP per card of the least colour: R x3, B x2, P x1 -> 1 -> 3.
    ("068", "R1 R2 R3\nB1 B2 P1", (0, 0), 3),
    ("069", "R1 R2 R3\nB1 B2 P1", (0, 0), 3),
    # 070/071 this column, 2/4/8 VP for 1/2/3 purple and/or red: column 1 P,R,B -> 2 -> 4.
    ("070", "R1 P1\nR2 R3\nR4 B1", (2, 1), 4),
    # 071 column 0 P,R,R -> 3 -> 8.
    ("071", "P1 B1\nR2 B2\nR3 B3", (0, 0), 8),
    # 072 adjacent, 1/3/7/12 for 1/2/3/4+ red: 5 red around (1,1) -> 4+ -> 12.
    ("072", "R1 R2 R3\nR4 B1 R5\nG1 .  .", (1, 1), 12),
    # 073 adjacent, 1/3/7/12 green and/or yellow: Y,Y,G around -> 3 -> 7.
    ("073", "Y1 Y2 .\nG1 R1 B1", (1, 1), 7),
    # 074 adjacent, 1/3/7/11 green and/or yellow: 5 around -> 11.
    ("074", "Y1 Y2 G1\nG2 R1 Y3\nB1 .  .", (1, 1), 11),
    # 075 adjacent, 1/3/7/11 blue and/or green: B,G around -> 2 -> 3.
    ("075", "B1 G1 .\nR1 R2 K1", (1, 1), 3),
    # 076 adjacent, 1/3/7/12 black and/or blue: K,B,K,B around -> 4 -> 12.
    ("076", "K1 B1 K2\nB2 R1 .", (1, 1), 12),
    # 077 adjacent, 1/3/8/13 for cards with the same number: around numbers 2,2,2,5
    # (the played card's own number 1 is irrelevant) -> 3 -> 8.
    ("077", "R2 B2 G2\nY5 P1 .", (1, 1), 8),
]


@pytest.mark.parametrize("card,picture,pos,vp", CASES, ids=[c[0] for c in CASES])
def test_count_effect(card, picture, pos, vp):
    assert score_effect(card, tab(picture), pos) == vp


def test_progressive_scoring_is_zero_without_a_card_and_uses_each_step():
    # 070: column with no purple/red -> 0; 1 -> 2; 072: 1 red around -> 1, 2 -> 3.
    assert score_effect("070", tab("B1\nB2\nG1"), (0, 0)) == 0
    assert score_effect("070", tab("P1\nB2\nG1"), (0, 0)) == 2
    assert score_effect("072", tab("R1 B1\nG1 B2"), (1, 1)) == 1
    assert score_effect("072", tab("R1 R2\nG1 B2"), (1, 1)) == 3


def test_least_colour_counts_only_colours_present():
    # 068 with 3 red and 3 blue only: least present colour has 3 cards -> 9 (absent colours
    # do not make it 0).
    assert score_effect("068", tab("R1 R2 R3\nB1 B2 B3"), (0, 0)) == 9
