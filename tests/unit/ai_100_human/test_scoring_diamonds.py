"""Diamond effects 095-098, AI-3 and Omega-4, 12, 13, 14 (rulebook Icons "Diamonds").

A diamond on an interior grid point is made of the upper-left card's BR, the upper-right
card's BL, the lower-left card's TR and the lower-right card's TL (RULINGS). The 3x5 frame
has 8 such points. Partial diamonds score when the present triangles meet the condition.
"""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring.diamonds import diamond_points

from .test_scoring_support import board, effect_vp

SQUARE = "R1 R1\nR1 R1"


def one_diamond(ul_br, ur_bl, ll_tr, lr_tl):
    """Corners for a 2x2 board whose single diamond (point (1,1)) has the given triangles."""
    return {
        (0, 0): f"P5 P5 P5 {ul_br}",
        (0, 1): f"P5 P5 {ur_bl} P5",
        (1, 0): f"P5 {ll_tr} P5 P5",
        (1, 1): f"{lr_tl} P5 P5 P5",
    }


CASES = [
    # 095 at least 1 yellow and 1 purple, 2 VP: triangles Y,P,R,R -> 2.
    ("095", ("Y1", "P2", "R3", "R4"), 2),
    # 096 red and black: R,K,... -> 2.
    ("096", ("R1", "B2", "K3", "B4"), 2),
    # 097 red and purple: P,G,G,R -> 2.
    ("097", ("P1", "G2", "G3", "R4"), 2),
    # 098 yellow and black: Y,Y,B,B -> no black -> 0.
    ("098", ("Y1", "Y2", "B3", "B4"), 0),
    # AI-3 yellow + black + a 3, 3 VP: Y3 meets both "yellow" and "numbered 3"; K1 -> 3.
    ("AI-3", ("Y3", "K1", "R1", "R1"), 3),
    # Omega-4 4 different colours, 5 VP: R,B,Y,K -> 5.
    ("Omega-4", ("R1", "B2", "Y3", "K4"), 5),
    # Omega-12 3 connections with the same number, 5 VP: numbers 2,2,2,5 -> 5.
    ("Omega-12", ("R2", "B2", "Y2", "K5"), 5),
    # Omega-13 4 different numbers, 5 VP: 1,2,3,5 -> 5.
    ("Omega-13", ("R1", "R2", "R3", "R5"), 5),
    # Omega-14 4 connections adding up to 13, 5 VP: 5+4+3+1 = 13 -> 5.
    ("Omega-14", ("R5", "B4", "Y3", "K1"), 5),
]


@pytest.mark.parametrize("card,tris,vp", CASES, ids=[c[0] for c in CASES])
def test_diamond_effect(card, tris, vp):
    assert effect_vp(card, board(SQUARE, one_diamond(*tris)), (0, 0)) == vp


NEGATIVE = [
    # AI-3 without any 3: Y1,K1,R2,R2 -> 0.
    ("AI-3", ("Y1", "K1", "R2", "R2")),
    # Omega-4 with a repeated colour: R,B,Y,R -> 0.
    ("Omega-4", ("R1", "B2", "Y3", "R4")),
    # Omega-12 with only two equal numbers: 2,2,3,4 -> 0.
    ("Omega-12", ("R2", "B2", "Y3", "K4")),
    # Omega-13 with a repeated number: 1,2,3,3 -> 0.
    ("Omega-13", ("R1", "R2", "R3", "R3")),
    # Omega-14 adding up to 12 -> 0.
    ("Omega-14", ("R5", "B4", "Y2", "K1")),
]


@pytest.mark.parametrize("card,tris", NEGATIVE, ids=[c[0] for c in NEGATIVE])
def test_diamond_effect_not_met(card, tris):
    assert effect_vp(card, board(SQUARE, one_diamond(*tris)), (0, 0)) == 0


def test_partial_diamond_scores_when_present_triangles_meet_the_condition():
    # Only the two upper cards: point (1,1) has UL.BR yellow and UR.BL purple -> 095 gives 2.
    b = board("R1 R1", {(0, 0): "R1 R1 R1 Y1", (0, 1): "R1 R1 P1 R1"})
    assert effect_vp("095", b, (0, 0)) == 2
    # Omega-4 needs 4 connections: the same 2-triangle diamond gives nothing.
    b = board("R1 R1", {(0, 0): "R1 R1 R1 Y1", (0, 1): "R1 R1 P1 R1"})
    assert effect_vp("Omega-4", b, (0, 0)) == 0


def test_a_full_frame_has_8_diamonds_and_each_counts():
    full = board(
        "\n".join(["R1 R1 R1 R1 R1"] * 3),
        {(r, c): "Y1 Y1 P1 P1" for r in range(3) for c in range(5)},
    )
    assert len(diamond_points(full)) == 8
    # Every diamond: UL.BR purple, UR.BL purple, LL.TR yellow, LR.TL yellow -> 8 x 2 = 16.
    assert effect_vp("095", full, (0, 0)) == 16
