"""Connection effects 078-094 (rulebook Cards Details "Connections", Icons "Connections").

Horizontal group A|B = A.TR with B.TL; vertical group A over B = A.BR with B.TR (RULINGS).
Boards are hand-made: corners are written "TL TR BL BR"; unlisted corners are dummies that
never meet a condition (see test_scoring_support).
"""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring.connections import horizontal_groups, vertical_groups

from .test_scoring_support import board, effect_vp

# Column 0: (0,0) over (1,0) over (2,0); column 1: (0,1) over (1,1). Only BR of the upper
# card and TR of the lower card matter for vertical groups.
VERTICAL = "R1 R1\nR1 R1\nR1 ."


def vcorners(g1, g2, g3, g4=None):
    """Vertical groups: g1 = (0,0).BR/(1,0).TR, g2 = (1,0).BR/(2,0).TR, g3 = (0,1).BR/(1,1).TR.
    Each gi is a pair of corner tokens; the other corners are x-dummies of colour purple 5
    in the TL/BL slots, which vertical groups never read."""
    filler = "P5"
    return {
        (0, 0): f"{filler} {filler} {filler} {g1[0]}",
        (1, 0): f"{filler} {g1[1]} {filler} {g2[0]}",
        (2, 0): f"{filler} {g2[1]} {filler} {filler}",
        (0, 1): f"{filler} {filler} {filler} {g3[0]}",
        (1, 1): f"{filler} {g3[1]} {filler} {filler}",
    }


V_CASES = [
    # 078 each column, vertical sum 6, 2 VP: 3+3 yes, 1+1 no, 4+2 yes -> 2 groups -> 4.
    ("078", (("R3", "B3"), ("R1", "B1"), ("G4", "Y2")), None, 4),
    # 079 sum 5, 2 VP: 2+3 yes, 4+1 yes, 5+5 no -> 4.
    ("079", (("R2", "B3"), ("R4", "B1"), ("G5", "Y5")), None, 4),
    # 080 sum 7, 3 VP: 3+4 yes, 2+2 no, 5+2 yes -> 6.
    ("080", (("R3", "B4"), ("R2", "B2"), ("G5", "Y2")), None, 6),
    # 084 each column, same number, 2 VP: 3/3 yes, 1/2 no, 4/4 yes -> 4.
    ("084", (("R3", "B3"), ("R1", "B2"), ("G4", "Y4")), None, 4),
    # 088 this column (column 0), different colours, 3 VP: red/blue yes, green/green no;
    # column 1's red/blue not in this column -> 3.
    ("088", (("R3", "B3"), ("G1", "G2"), ("R4", "B4")), (1, 0), 3),
    # 089 each column, blue AND red, 3 VP: blue/red yes, red/red no, red/blue yes -> 6.
    ("089", (("B3", "R3"), ("R1", "R2"), ("R4", "B4")), None, 6),
    # 090 blue AND green, 3 VP: green/blue yes, blue/blue no, green/yellow no -> 3.
    ("090", (("G3", "B3"), ("B1", "B2"), ("G4", "Y4")), None, 3),
    # 091 purple AND black, 3 VP: purple/black yes, black/purple yes, purple/purple no -> 6.
    ("091", (("P3", "K3"), ("K1", "P2"), ("P4", "P4")), None, 6),
    # Omega-9 each column, vertical group of the same colour, 3 VP: Y/Y yes, K/K yes, R/B no -> 6.
    ("Omega-9", (("Y3", "Y1"), ("K1", "K2"), ("R4", "B4")), None, 6),
]


@pytest.mark.parametrize("card,groups,pos,vp", V_CASES, ids=[c[0] for c in V_CASES])
def test_vertical_connection_effect(card, groups, pos, vp):
    b = board(VERTICAL, vcorners(*groups))
    assert effect_vp(card, b, pos or (0, 0)) == vp


# Row 0: (0,0)|(0,1)|(0,2) -> groups h1 = (0,0).TR/(0,1).TL, h2 = (0,1).TR/(0,2).TL;
# row 1: (1,0)|(1,1) -> h3 = (1,0).TR/(1,1).TL.
HORIZONTAL = "R1 R1 R1\nR1 R1 ."


def hcorners(h1, h2, h3):
    f = "P5"
    return {
        (0, 0): f"{f} {h1[0]} {f} {f}",
        (0, 1): f"{h1[1]} {h2[0]} {f} {f}",
        (0, 2): f"{h2[1]} {f} {f} {f}",
        (1, 0): f"{f} {h3[0]} {f} {f}",
        (1, 1): f"{h3[1]} {f} {f} {f}",
    }


H_CASES = [
    # 081 each row, horizontal sum 7, 2 VP: 3+4 yes, 5+5 no, 2+5 yes -> 4.
    ("081", (("R3", "B4"), ("R5", "B5"), ("G2", "Y5")), None, 4),
    # 082 sum 5, 3 VP: 1+4 yes, 2+3 yes, 3+3 no -> 6.
    ("082", (("R1", "B4"), ("R2", "B3"), ("G3", "Y3")), None, 6),
    # 083 sum 6, 2 VP: 1+5 yes, 2+3 no, 3+3 yes -> 4.
    ("083", (("R1", "B5"), ("R2", "B3"), ("G3", "Y3")), None, 4),
    # 085 this row (row 0), same number, 3 VP: 2/2 yes, 4/4 yes; row 1's 5/5 not in this row -> 6.
    ("085", (("R2", "B2"), ("R4", "G4"), ("G5", "Y5")), (0, 1), 6),
    # 086 each row, same colour, 2 VP: red/red yes, blue/green no, yellow/yellow yes -> 4.
    ("086", (("R2", "R1"), ("B4", "G4"), ("Y5", "Y3")), None, 4),
    # 087 each row, different colours, 1 VP: red/blue yes, green/green no, yellow/black yes -> 2.
    ("087", (("R2", "B1"), ("G4", "G4"), ("Y5", "K3")), None, 2),
    # 092 black AND purple, 3 VP: purple/black yes, black/black no, black/purple yes -> 6.
    ("092", (("P2", "K1"), ("K4", "K4"), ("K5", "P3")), None, 6),
    # 093 blue AND green, 3 VP: blue/green yes, green/blue yes, blue/blue no -> 6.
    ("093", (("B2", "G1"), ("G4", "B4"), ("B5", "B3")), None, 6),
    # 094 blue AND red, 3 VP: blue/red yes, blue/green no, red/red no -> 3.
    ("094", (("B2", "R1"), ("B4", "G4"), ("R5", "R3")), None, 3),
]


@pytest.mark.parametrize("card,groups,pos,vp", H_CASES, ids=[c[0] for c in H_CASES])
def test_horizontal_connection_effect(card, groups, pos, vp):
    b = board(HORIZONTAL, hcorners(*groups))
    assert effect_vp(card, b, pos or (0, 0)) == vp


def test_only_top_and_right_halves_connect():
    # A|B reads A.TR and B.TL only: matching BL/BR corners (bottom half) give no 082 group.
    b = board("R1 R1", {(0, 0): "R5 R5 R1 R2", (0, 1): "R5 R5 R3 R4"})
    assert effect_vp("082", b, (0, 0)) == 0  # 5+5 = 10; 2+3 = 5 is the bottom half
    # A over B reads A.BR and B.TR only: A.BL + B.TL = 5 does not count for 079.
    b = board("R1\nR1", {(0, 0): "R5 R5 R2 R5", (1, 0): "R3 R5 R5 R5"})
    assert effect_vp("079", b, (0, 0)) == 0


def test_full_tableau_has_12_horizontal_and_10_vertical_groups():
    b = board("\n".join(["R1 R1 R1 R1 R1"] * 3))
    assert len(horizontal_groups(b)) == 12
    assert len(vertical_groups(b)) == 10
