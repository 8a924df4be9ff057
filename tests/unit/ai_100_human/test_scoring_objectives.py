"""Objective cards (rulebook "Objective Cards Details"). Diamonds objectives (4, 12-14)
and Omega-9 (connections) are in test_scoring_diamonds / test_scoring_connections; the
rulebook examples in test_rulebook_examples_scoring."""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring import score_objective

from .test_scoring_support import tab

CASES = [
    # Omega-1 each column, vertical same number, 3 VP: column 0 1,1,2 -> 1; column 1 3,3,3 -> 1
    # (overlapping pairs); column 2 4,5 -> 0. Total 6.
    ("Omega-1", "R1 B3 G4\nY1 K3 P5\nR2 B3 .", 6),
    # Omega-2 each column, vertical 2 cards adding to 6, 4 VP: column 0 1,5,1 -> 1;
    # column 1 2,4,2 -> 1; column 2 3,3,3 -> 1. Total 12.
    ("Omega-2", "R1 B2 G3\nY5 K4 P3\nR1 B2 G3", 12),
    # Omega-3 "in this row": the best single row; row 0 has 3 different numbers (3 VP),
    # row 1 has 1..5 (12 VP) -> 12.
    ("Omega-3", "R1 R2 R3 .  .\nB1 B2 B3 B4 B5", 12),
    # Omega-3 with 4 different numbers in the best row (1,2,3,4,4) -> 7.
    ("Omega-3", "R1 R2 R3 R4 B4\nG1 G1 .  .  .", 7),
    # Omega-7 diagonal same colour, 3 VP: G(0,0)-G(1,1), B(0,2)-B(1,3) -> 6.
    ("Omega-7", "G1 .  B1 .\n.  G2 .  B2", 6),
    # Omega-8 each row, horizontal same colour, 3 VP: row 0 R R R R Y -> 2; row 1 B G -> 0. Total 6.
    ("Omega-8", "R1 R2 R3 R4 Y1\nB1 G1 .  .  .", 6),
    # Omega-10 least x most: R x4, B x2, G x1 -> 1 x 4 = 4.
    ("Omega-10", "R1 R2 R3 R4\nB1 B2 G1 .", 4),
    # Omega-11 0/1/3/6/10/15 for 1..6 colours: R,B,G,Y -> 4 colours -> 6.
    ("Omega-11", "R1 B1 G1 Y1 R2", 6),
    # Omega-11 with all 6 colours -> 15.
    ("Omega-11", "R1 B1 G1 Y1 K1 P1", 15),
    # Omega-5 each column, 7 VP if all 3 cards share a colour: column 0 R,R,R yes; column 1
    # B,B,G no; column 2 has 2 cards. Total 7.
    ("Omega-5", "R1 B1 Y1\nR2 B2 Y2\nR3 G1 .", 7),
    # Omega-6 each row, full house of colours, 11 VP: row 0 R,R,R,B,B yes; row 1 all green
    # (5 of a colour) yes; row 2 R,R,B,B,G no. Total 22.
    ("Omega-6", "R1 R2 R3 B1 B2\nG1 G2 G3 G4 G5\nR4 R5 B3 B4 Y1", 22),
    # Omega-15 each row, full house of numbers, 11 VP: row 0 2,2,2,4,4 yes; row 1 1,1,3,3,5 no. Total 11.
    ("Omega-15", "R2 B2 G2 Y4 K4\nR1 B1 G3 Y3 K5", 11),
    # Omega-16 each row, four of a kind, 13 VP: row 0 2,2,2,2,5 yes; row 1 3,3,3,1,1 no. Total 13.
    ("Omega-16", "R2 B2 G2 Y2 K5\nR3 B3 G3 Y1 K1", 13),
]


@pytest.mark.parametrize("objective,picture,vp", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_objective(objective, picture, vp):
    assert score_objective(objective, tab(picture)) == vp


def test_objectives_score_zero_when_unmet():
    t = tab("R1 B2 G3\nY4 K5 P1")  # no pairs, no sums to 6 vertically (1+4, 2+5, 3+1)
    for oid in (
        "Omega-1",
        "Omega-2",
        "Omega-5",
        "Omega-6",
        "Omega-7",
        "Omega-8",
        "Omega-15",
        "Omega-16",
    ):
        assert score_objective(oid, t) == 0, oid
