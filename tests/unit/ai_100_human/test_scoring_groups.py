"""Group effects 001-025 (rulebook Cards Details "Group"), golden-rule packing.

Each case: (effect card, tableau picture, position of the played card, VP) with the
hand count in the comment. The effect is evaluated with ``score_effect`` on real cards;
the card at the position is whatever the picture shows (as for a copied effect).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.ai_100_human.scoring import score_effect
from domain.games.ai_100_human.scoring.packing import max_disjoint

from .test_scoring_support import tab

CASES = [
    # 001 diagonal purple/red, 2 VP: diagonal pairs form the path (0,0)-(1,1)-(2,2)-(1,3)-(0,4);
    # a card counts once, so 2 disjoint pairs -> 4. (0,2) is blue: no pair.
    ("001", "P1 .  B1 .  R1\n.  R2 .  P2 .\n.  .  P3 .  .", (0, 0), 4),
    # 002 diagonal blue/yellow, 2 VP: (0,0)B-(1,1)Y -> 1 pair -> 2.
    ("002", "B1 .\n.  Y1", (0, 0), 2),
    # 003 diagonal black/blue, 3 VP: (0,0)K-(1,1)B and (1,1)B-(2,0)K share (1,1) -> 1 -> 3.
    ("003", "K1 .\n.  B1\nK2 .", (0, 0), 3),
    # 004/005 diagonal same colour, 3 VP: G(0,0)-G(1,1) and Y(0,2)-Y(1,3); G(1,1)-Y(0,2) mixed -> 2 -> 6.
    ("004", "G1 .  Y1 .\n.  G2 .  Y2", (0, 0), 6),
    ("005", "G1 .  Y1 .\n.  G2 .  Y2", (0, 0), 6),
    # 006/007 each column, vertical black/green, 3 VP: column 0 K,G,K -> overlapping pairs -> 1;
    # column 1 B,B -> 0. Total 3.
    ("006", "K1 B1\nG1 B2\nK2 .", (0, 0), 3),
    ("007", "K1 B1\nG1 B2\nK2 .", (0, 0), 3),
    # 008 each column, vertical blue/red, 3 VP: column 0 B,R,B -> 1; column 1 R,R -> 1. Total 6.
    ("008", "B1 R1\nR2 R2\nB2 .", (0, 0), 6),
    # 009 vertical green/purple scored per column (RULINGS), 3 VP: column 0 G over P -> 1;
    # column 1 P over Y -> 0; the horizontal G|P pair of row 0 does not count. Total 3.
    ("009", "G1 P1\nP2 Y1", (0, 0), 3),
    # 010 each row, horizontal purple/red, 2 VP: row 0 has 5 in a row -> 2 disjoint pairs -> 4;
    # row 1 R|B -> 0. Total 4.
    ("010", "P1 R1 P2 R2 P3\n.  .  R3 B1 .", (0, 0), 4),
    # 011 each row, horizontal blue/red, 2 VP: row 0 B R B Y R -> (0-1),(1-2) overlap -> 1;
    # row 1 R R -> 1. Total 4.
    ("011", "B1 R1 B2 Y1 R2\nR3 R4 .  .  .", (0, 0), 4),
    # 012 this row (row 0), horizontal 2 red, 4 VP: R R R . R -> 1 disjoint pair -> 4;
    # row 1's red pair is not in this row.
    ("012", "R1 R2 R3 .  R4\nR5 R1 .  .  .", (0, 2), 4),
    # 013/014 each column, vertical same number, 3 VP: column 0 numbers 1,1,1 -> 1 pair;
    # column 1 numbers 2,3,2 -> 0. Total 3.
    ("013", "R1 B2\nG1 Y3\nK1 Y2", (0, 0), 3),
    ("014", "R1 B2\nG1 Y3\nK1 Y2", (0, 0), 3),
    # 015 each column, 3 VP if all 3 cards have different numbers: column 0 (1,2,3) yes;
    # column 1 (1,1,2) no; column 2 has only 2 cards. Total 3.
    ("015", "R1 R1 R1\nB2 B1 B2\nG3 G2 .", (0, 0), 3),
    # 016 each column, 3 VP if all 3 cards have different colours: column 0 R,B,G yes;
    # column 1 R,R,B no. Total 3.
    ("016", "R1 R1\nB1 R2\nG1 B1", (0, 0), 3),
    # 017 each row, horizontal same number, 3 VP: row 0 2,2,2,2,4 -> 2 pairs -> 6;
    # row 1 1,3,1 -> 0. Total 6.
    ("017", "R2 B2 G2 Y2 P4\nK1 K3 K1 .  .", (0, 0), 6),
    # 018 each row, horizontal same colour, 3 VP: row 0 G G B G G -> 2 pairs -> 6; row 1 B|Y -> 0.
    ("018", "G1 G2 B1 G3 G4\nB2 Y2 .  .  .", (0, 0), 6),
    # 019 each row, horizontal 3 different colours, 4 VP: row 0 R B Y G P -> triples overlap,
    # 1 disjoint -> 4; row 1 R R B -> 0. Total 4.
    ("019", "R1 B1 Y1 G1 P1\nR2 R3 B2 .  .", (0, 0), 4),
    # 020 L of 3 black/green, 4 VP: a full 2x3 block splits into 2 disjoint Ls -> 8
    # (an L through the middle column first would leave only 1).
    ("020", "K1 G1 K2\nG2 K3 G3", (0, 0), 8),
    # 021 L of 3 same number, 5 VP: (0,0),(0,1),(1,1) are all 3s -> 5; (1,2) is a 1.
    ("021", "R3 B3 .\n.  Y3 G1", (0, 0), 5),
    # 022 L of 3 black/blue, 5 VP: (0,0)K,(0,1)B,(1,0)K -> 5.
    ("022", "K1 B1\nK2 .", (0, 0), 5),
    # 023 square of 4 purple/red, 8 VP: a 2x3 block holds 2 overlapping squares -> 1 -> 8.
    ("023", "P1 R1 P2\nR2 P3 R3", (0, 0), 8),
    # 024 each row, 2 purple/red cards one space apart (designed shape), 3 VP:
    # row 0 P B R B P -> (0,0)-(0,2) and (0,2)-(0,4) overlap -> 1; row 1 R . R -> 1. Total 6.
    ("024", "P1 B1 R1 B2 P2\nR2 .  R3 .  .", (0, 0), 6),
    # 025 7 VP per set of 2 horizontal blue/yellow groups: row 0 B Y B -> 1 disjoint pair,
    # row 1 Y B -> 1; 2 groups = 1 set -> 7.
    ("025", "B1 Y1 B2\nY2 B3 .", (0, 0), 7),
]


@pytest.mark.parametrize("card,picture,pos,vp", CASES, ids=[c[0] for c in CASES])
def test_group_effect(card, picture, pos, vp):
    assert score_effect(card, tab(picture), pos) == vp


def test_group_effects_score_nothing_without_a_match():
    # 023 needs 4 purple/red cards in a square; a 2x2 with one blue card has none.
    assert score_effect("023", tab("P1 R1\nR2 B1"), (0, 0)) == 0
    # 025 with a single blue/yellow horizontal group: 1 group is no set of 2 -> 0.
    assert score_effect("025", tab("B1 Y1 R1"), (0, 0)) == 0


def test_golden_rule_beats_a_greedy_first_fit():
    # 021 (L of 3 same number, 5 VP) on a 2x3 block of 2s. A first-fit greedy that takes
    # the L (0,0),(0,1),(1,1) leaves (0,2),(1,0),(1,2) with no L; the exact packing uses
    # (0,0),(1,0),(1,1) + (0,1),(0,2),(1,2) -> 2 Ls -> 10.
    assert score_effect("021", tab("R2 B2 G2\nY2 K2 P2"), (0, 0)) == 10
    # The same masks: greedy on the first listed L gets 1, the exact answer is 2.
    bits = {p: 1 << i for i, p in enumerate([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)])}
    L = lambda *cells: sum(bits[c] for c in cells)  # noqa: E731
    masks = [L((0, 0), (0, 1), (1, 1)), L((0, 0), (1, 0), (1, 1)), L((0, 1), (0, 2), (1, 2))]
    assert max_disjoint(masks) == 2


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=(1 << 10) - 1), max_size=12))
def test_packing_is_exact_against_brute_force(masks):
    best = 0
    for k in range(len(masks), 0, -1):
        for combo in itertools.combinations(masks, k):
            union = 0
            ok = True
            for m in combo:
                if union & m:
                    ok = False
                    break
                union |= m
            if ok:
                best = max(best, k)
        if best:
            break
    assert max_disjoint(masks) == best
