"""AI cards' end-of-game scoring (rulebook "AI Cards Details") and AI-10's choice
(RULINGS: counting choices maximise VP). AI sides and their printed faces (designed,
cards/DESIGN-NOTES.md): AI-1/2 red 1, AI-3/4 yellow 2, AI-5/6 blue 3, AI-7/8 black 4,
AI-9/10 purple 5, AI-11/12 green 3."""

from __future__ import annotations

import pytest

from domain.games.ai_100_human.scoring import (
    effective,
    score_ai_card,
    score_effect,
    score_objective,
)

from .test_scoring_support import tab


@pytest.mark.parametrize(
    "ai,vp", [("AI-2", 0), ("AI-5", 5), ("AI-6", 0), ("AI-8", 5), ("AI-10", 4)]
)
def test_flat_ai_cards(ai, vp):
    # AI-2's extra card is scored by the flow with score_effect; AI-6 gives no end VP.
    t = tab(f"R1 B1 G1\nY1 @{ai[3:]} K1")
    assert score_ai_card(ai, t) == vp


def test_ai_1_shapes_can_repeat_and_mix():
    # Square of red/blue: rows 0-1 x cols 0-1 (R,B / B,R) -> 7. Second square rows 0-1 x
    # cols 3-4 (B,R / R,B) -> 7. Horizontal line of 3 green/purple in row 2 (G,P,G) -> 7.
    # The AI card (red 1) at (1,2) sits between the squares; (0,2) is yellow. Total 21.
    t = tab("R1 B1 Y1 B2 R2\nB3 R3 @1 R4 B4\nG1 P1 G2 .  .")
    assert score_ai_card("AI-1", t) == 21


def test_ai_3_counts_diamonds_with_yellow_black_and_a_3():
    # Checked on hand-made boards in test_scoring_diamonds; here an empty neighbourhood:
    # the AI card alone has no diamond -> 0.
    assert score_ai_card("AI-3", {(1, 2): "AI-3"}) == 0


def test_ai_4_multiplies_least_by_most():
    # Colours: red 3, yellow 1 (the AI-4 card itself), blue 1 -> 1 x 3 = 3.
    t = tab("R1 R2 R3 .  .\n.  .  @4 B1 .")
    assert score_ai_card("AI-4", t) == 3


def test_ai_7_counts_red_and_purple_pairs_around_the_ai_card():
    # Around (1,2): R,R,P (row 0), P,P (row 1), B (row 2) -> 2 red, 3 purple -> 2 sets -> 8.
    # The red at (1,4) is not adjacent to the AI card.
    t = tab(".  R1 R2 P1 .\n.  P2 @7 P3 R3\n.  B1 .  .  .")
    assert score_ai_card("AI-7", t) == 8


def test_ai_9_counts_disjoint_rainbows():
    # Red 3, blue 3, yellow 3, black 2, green 2, purple 2 (P1 + the purple AI-9) -> 2 sets -> 14.
    t = tab("R1 R2 B1 B2 Y1\nY2 K1 @9 K2 G1\nG2 P1 R3 B3 Y3")
    assert score_ai_card("AI-9", t) == 14


def test_ai_11_counts_columns_of_consecutive_numbers_in_any_order():
    # Columns: 3,1,2 yes; 2,2,3 no; 2,3(AI-11),4 yes; 1,2,4 no; 5,4,3 yes -> 3 x 3 = 9.
    t = tab("R3 B2 G2 Y1 K5\nR1 B2 @11 Y2 K4\nR2 B3 G4 Y4 K3")
    assert score_ai_card("AI-11", t) == 9


def test_ai_12_counts_rows_whose_end_cards_share_a_number():
    # Row 0 ends 2|2 yes; row 1 ends 3|3 yes; row 2 ends 1|5 no -> 10.
    t = tab("R2 B1 G1 Y1 K2\nR3 B1 @12 Y1 K3\nR1 B2 G2 Y2 K5")
    assert score_ai_card("AI-12", t) == 10


# AI-10 (printed purple 5) may act as a green 4 or a black 2.


def test_ai_10_acts_as_green_4_when_that_scores_more():
    # 059 (1 VP per card of your most colour): printed -> green 3 -> 3; as green -> 4.
    t = tab("G1 G2 G3\n.  .  @10")
    assert score_effect("059", t, (0, 0)) == 4


def test_ai_10_acts_as_black_2_when_that_scores_more():
    # 039 (adjacent, 5 VP per 2 black) played at (1,1): around are K at (0,0) and the AI card
    # at (1,2). Printed purple -> 1 black -> 0; as black -> 2 black -> 5.
    t = tab("K1 B1 .\n.  R1 @10")
    assert score_effect("039", t, (1, 1)) == 5


def test_ai_10_choice_is_made_again_for_the_objective():
    # Omega-5 (7 VP per column of 3 same-coloured cards): column 2 is G, AI-10, G -> as
    # green 4 the column is all green -> 7 (printed purple -> 0).
    t = tab(".  .  G1\n.  .  @10\n.  .  G5")
    assert score_objective("Omega-5", {**t, (1, 2): "AI-7"}) == 0  # a black AI card: no
    assert score_objective("Omega-5", t) == 7


def test_ai_10_in_an_adjacent_tableau_counts_as_printed():
    # 113 (3 VP per card of the neighbour's most colour in the corresponding row): the
    # neighbour's row 1 is G, G, AI-10, Y -> printed purple -> green 2 -> 6 (not 9).
    neighbour = tab(".  .  .\nG1 G2 @10 Y1")
    own = tab("R1 R2 R3\nB1 #113 B2")
    assert score_effect("113", own, (1, 1), [neighbour]) == 6


def test_effective_lists_ai_10s_alternatives_only_when_it_is_in_the_tableau():
    assert effective("AI-10", {(1, 2): "AI-10"}) == [("purple", 5), ("green", 4), ("black", 2)]
    assert effective("AI-10", {}) == [("purple", 5)]
    assert effective("073", {(0, 0): "073"}) == [("red", 1)]


def test_ai_2s_end_card_outside_the_frame_is_scored_with_score_effect():
    # The AI-2 holder places 056 (adjacent, 2 VP per red) at (1,5), right of the frame:
    # around it are (0,4) red, (1,4) red, (2,4) blue -> 2 red -> 4.
    t = tab("B1 B2 B3 B4 R1\nB5 G1 @2 G2 R2\nY1 Y2 Y3 Y4 B1")
    t[(1, 5)] = "056"
    assert score_effect("056", t, (1, 5)) == 4
    # 052 (1 VP per red in your tableau) counts the end card itself: R1, R2, AI-2 (red 1)
    # and 052 if red; the tableau rows extend to column 5.
    t[(1, 5)] = "052"
    from domain.games.ai_100_human.cards import catalogue

    own = 1 if catalogue().cards["052"].color == "red" else 0
    assert score_effect("052", t, (1, 5)) == 3 + own
