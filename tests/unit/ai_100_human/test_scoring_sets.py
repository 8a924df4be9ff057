"""Set effects 026-051 (rulebook Cards Details "Sets", "Large Sets").

A set's cards need not be adjacent; each card counts in one set only (golden rule).
Each case: (effect card, tableau picture, played position, VP) with the hand count.
"""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring import score_effect

from .test_scoring_support import tab

CASES = [
    # 026 each column, set of purple AND black, 3 VP: column 0 P,K,P -> min(2,1)=1;
    # column 1 K,P,R -> 1. Total 6.
    ("026", "P1 K1\nK2 P2\nP3 R1", (0, 0), 6),
    # 027 same condition, 2 VP -> 4.
    ("027", "P1 K1\nK2 P2\nP3 R1", (0, 0), 4),
    # 028 each column, green AND yellow, 4 VP: column 0 G,Y,G -> 1; column 1 G,G,G -> 0. Total 4.
    ("028", "G1 G2\nY1 G3\nG4 G5", (0, 0), 4),
    # 029 each column, 2 blue and/or yellow, 2 VP: column 0 B,Y,B -> 3 eligible -> 1 set;
    # column 1 Y,Y,R -> 1. Total 4.
    ("029", "B1 Y1\nY2 Y3\nB2 R1", (0, 0), 4),
    # 030 each column, 2 black and/or green, 2 VP: column 0 K,G,R -> 1; column 1 R,R,R -> 0. Total 2.
    ("030", "K1 R1\nG1 R2\nR3 R4", (0, 0), 2),
    # 031 each column, purple AND (blue or yellow), 3 VP: column 0 P,Y,B -> 1 (one purple);
    # column 1 B,Y,R -> no purple -> 0. Total 3.
    ("031", "P1 B1\nY1 Y2\nB2 R1", (0, 0), 3),
    # 032 each column, 2 of purple/blue/yellow, 2 VP: column 0 P,R,G -> 0; column 1 B,Y,R -> 1. Total 2.
    ("032", "P1 B1\nR1 Y2\nG2 R2", (0, 0), 2),
    # 033 each column, cards numbered 2 AND 4, 3 VP: column 0 2,4,4 -> 1; column 1 2,2,3 -> 0. Total 3.
    ("033", "R2 B2\nG4 Y2\nK4 P3", (0, 0), 3),
    # 034 each column, numbered 2 AND 3, 3 VP: column 0 2,3,1 -> 1; column 1 2,2,4 -> 0. Total 3.
    ("034", "R2 B2\nG3 Y2\nK1 P4", (0, 0), 3),
    # 035 this row (row 0), 2 red, 5 VP: R,R,R,B,R -> 4 red -> 2 sets -> 10; row 1's reds ignored.
    ("035", "R1 R2 R3 B1 R4\nR5 R1 .  .  .", (0, 3), 10),
    # 036 this row (row 1), 2 purple, 6 VP: P,P,P -> 1 set -> 6; row 0's purples ignored.
    ("036", "P1 P2 .\nP3 P4 P5", (1, 0), 6),
    # 037 each row, 2 yellow and/or red, 3 VP: row 0 Y,R,Y,B -> 3 eligible -> 1; row 1 R,R,R,R -> 2. Total 9.
    ("037", "Y1 R1 Y2 B1\nR2 R3 R4 R5", (0, 0), 9),
    # 038 each row, numbered 1 AND 5, 3 VP: row 0 1,5,1,5,3 -> 2; row 1 1,1 -> 0. Total 6.
    ("038", "R1 B5 G1 Y5 P3\nK1 R1 .  .  .", (0, 0), 6),
    # 039 adjacent to (1,1), 2 black, 5 VP: black at (0,0),(0,2),(2,1) around; the played
    # card (1,1) and (1,3) do not count -> 3 black -> 1 set -> 5.
    ("039", "K1 R1 K2 .\nR2 K3 R3 K4\n.  K5 .  .", (1, 1), 5),
    # 040 adjacent to (1,1), 2 black and/or green, 4 VP: around K,G,G,K,R -> 4 eligible -> 2 -> 8.
    ("040", "K1 G1 G2\nK2 R1 R2", (1, 1), 8),
    # 041 each column, 2 of the same colour, 2 VP: column 0 R,B,R -> 1; column 1 G,G,G -> 1. Total 4.
    ("041", "R1 G1\nB1 G2\nR2 G3", (0, 0), 4),
    # 042 each row, 2 with the same number, 2 VP: row 0 1,1,2,2,3 -> 2 pairs (numbers may
    # differ between sets); row 1 4,4,4 -> 1. Total 6.
    ("042", "R1 B1 G2 Y2 P3\nR4 B4 G4 .  .", (0, 0), 6),
    # 043 each column, 4 VP if cards fit blue-or-green / blue-or-purple / purple-or-green:
    # column 0 B,B,P fits (B,B,P); column 1 B,B,B cannot fill the purple-or-green slot;
    # column 2 G,P,B fits. Total 8.
    ("043", "B1 B2 G1\nB3 B4 P1\nP2 B5 B1", (0, 0), 8),
    # 044 each row, 3 blue and/or yellow, 5 VP: row 0 B,Y,Y,B,R -> 4 eligible -> 1; row 1 B,B -> 0. Total 5.
    ("044", "B1 Y1 Y2 B2 R1\nB3 B4 .  .  .", (0, 0), 5),
    # 045 each row, 3 black and/or green, 5 VP: K,G,K,G,K -> 5 eligible -> 1 -> 5.
    ("045", "K1 G1 K2 G2 K3", (0, 0), 5),
    # 046 each row, 3 blue and/or green, 6 VP: B,G,B,G,B -> 1 -> 6.
    ("046", "B1 G1 B2 G2 B3", (0, 0), 6),
    # 047 in your tableau, a single set of 5 different numbers, 7 VP: numbers 1..5 present
    # (twice over) -> still 7.
    ("047", "R1 B2 G3 Y4 P5\nR5 B4 G3 Y2 P1", (0, 0), 7),
    # 048 a single set of 5 different colours, 6 VP: R,B,Y,K,G -> 6.
    ("048", "R1 B1 Y1 K1 G1", (0, 0), 6),
    # 049 6 VP per set of 6 different colours: two of five colours, one purple -> 1 set -> 6.
    ("049", "R1 R2 B1 B2 Y1\nY2 K1 K2 G1 G2\nP1 .  .  .  .", (0, 0), 6),
    # 050 5 VP per set of 4 cards of the same colour: 4 red -> 1, 5 blue -> 1, 3 green -> 0. Total 10.
    ("050", "R1 R2 R3 R4 G1\nB1 B2 B3 B4 B5\nG2 G3 .  .  .", (0, 0), 10),
    # 051 this row, a single set of 4 different numbers, 6 VP: row 0 numbers 1,2,3,4,4 -> 6.
    ("051", "R1 B2 G3 Y4 P4\nR1 R2 .  .  .", (0, 0), 6),
]


@pytest.mark.parametrize("card,picture,pos,vp", CASES, ids=[c[0] for c in CASES])
def test_set_effect(card, picture, pos, vp):
    assert score_effect(card, tab(picture), pos) == vp


def test_large_sets_need_the_full_set():
    # 047: numbers 1..4 only -> 0. 048: 4 colours -> 0. 051: row 1,1,2,3 has 3 numbers -> 0.
    assert score_effect("047", tab("R1 B2 G3 Y4 P4"), (0, 0)) == 0
    assert score_effect("048", tab("R1 B1 Y1 K1 R2"), (0, 0)) == 0
    assert score_effect("051", tab("R1 B1 G2 Y3"), (0, 0)) == 0


def test_049_counts_two_rainbows_in_a_full_tableau():
    # Every colour at least twice (red 3 times) in 13 cards -> 2 disjoint sets of 6 -> 12.
    t = tab("R1 R2 B1 B2 Y1\nY2 K1 K2 G1 G2\nP1 P2 R3 .  .")
    assert score_effect("049", t, (0, 0)) == 12
