"""Black (Hacking) cards 099-118 and special cards 119/120 as ``score_effect`` sees them
(rulebook Cards Details "Black Cards", "Special cards"; RULINGS on copies and 105/106)."""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring import score_effect

from .test_scoring_support import tab

# The black card sits at (0,1) of its owner's tableau.
OWN = tab("Y1 #107 B1")


@pytest.mark.parametrize("card", ["099", "100", "101", "102", "103", "104", "105", "106"])
def test_copy_and_copy_points_cards_score_zero_here(card):
    # 099-104 need a chosen target (the flow calls score_effect with the copied id);
    # 105/106 take the neighbours' VP of the turn (computed by the flow).
    neighbour = tab("B1 B2 B3\nG1 Y1 Y2")
    assert score_effect(card, OWN, (0, 1), [neighbour]) == 0


@pytest.mark.parametrize(
    "card,vp", [("115", -2), ("116", -2), ("117", 2), ("118", 3), ("119", 2), ("120", 3)]
)
def test_flat_vp_of_special_cards(card, vp):
    assert score_effect(card, OWN, (0, 1)) == vp


# Neighbour A: numbers 5,5,1 in row 0 and 2,4,4 in row 1; colours R,R,B / G,Y,P.
NEIGHBOUR_A = tab("R5 R5 B1\nG2 Y4 P4")
# Neighbour B: numbers 5,5,5 / 1,1,2,2 ; colours G,G,G / R,B,Y,K.
NEIGHBOUR_B = tab("G5 G5 G5 .\nR1 B1 Y2 K2")

CASES = [
    # 107 2 VP per card numbered 5 in an adjacent tableau: A has 2, B has 3 -> best 6.
    ("107", (0, 1), 6),
    # 108 numbered 1: A has 1, B has 2 -> 4.
    ("108", (0, 1), 4),
    # 109 numbered 2: A has 1, B has 2 -> 4.
    ("109", (0, 1), 4),
    # 110 numbered 4: A has 2, B has 0 -> 4.
    ("110", (0, 1), 4),
    # 111/112 the corresponding row (row 0), 2 VP per different colour: A row 0 R,R,B -> 2
    # colours -> 4; B row 0 G,G,G -> 1 -> 2. Best 4.
    ("111", (0, 1), 4),
    ("112", (0, 1), 4),
    # Played in row 1: A row 1 G,Y,P -> 3 -> 6; B row 1 R,B,Y,K -> 4 -> 8. Best 8.
    ("111", (1, 1), 8),
    # 113/114 the corresponding row, 3 VP per card of their most colour: row 0: A R,R -> 2 -> 6;
    # B G,G,G -> 3 -> 9. Best 9.
    ("113", (0, 1), 9),
    ("114", (0, 1), 9),
]


@pytest.mark.parametrize("card,pos,vp", CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_copy_points_cards_take_the_best_adjacent_player(card, pos, vp):
    own = tab("Y1 Y2 B1\nY3 Y4 B2")
    assert score_effect(card, own, pos, [NEIGHBOUR_A, NEIGHBOUR_B]) == vp


def test_copy_points_cards_score_zero_without_neighbours():
    assert score_effect("107", OWN, (0, 1), []) == 0
    assert score_effect("113", OWN, (0, 1)) == 0


def test_copy_points_read_only_one_neighbour_when_alone():
    # 2-player game against a single neighbour: 107 over A alone -> 2 fives -> 4.
    assert score_effect("107", OWN, (0, 1), [NEIGHBOUR_A]) == 4


def test_copied_effect_is_evaluated_in_the_copiers_tableau_around_the_black_card():
    # The copier plays 101 (copy a green card) at (1,1) and copies 056's twin idea with 073
    # (adjacent green/yellow 1/3/7/12): around the copier's (1,1) are Y,Y,G,G -> 4 -> 12,
    # whatever the copied card's surroundings in the neighbour's tableau.
    copier = tab("Y1 Y2 G1\nG2 #101 R1")
    assert score_effect("073", copier, (1, 1)) == 12
