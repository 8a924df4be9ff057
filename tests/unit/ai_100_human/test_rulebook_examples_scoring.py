"""The rulebook's worked examples (End of Phase 1 / End of the Game), scoring parts.

Where the book's numbers and the card text disagree the card text is followed
(cards/DESIGN-NOTES.md, "Book / card discrepancies").
"""

from __future__ import annotations

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring import score_ai_card, score_effect, score_objective
from domain.games.ai_100_human.scoring.board import printed_board
from domain.games.ai_100_human.scoring.connections import horizontal_groups

from .test_scoring_support import tab


def test_renaud_073_with_2_yellow_and_1_green_adjacent_scores_7():
    # "Renaud plays the red card (73) ... he has 2 yellow cards and 1 green card, he scores 7 VP."
    t = tab("Y1 Y2 B1\nG1 #073 @1\nR2 .  .")
    assert catalogue().cards["073"].color == "red"
    assert score_effect("073", t, (1, 1)) == 7


def test_omega_3_counts_one_row_and_follows_the_card_for_3_numbers():
    # Pierrick: 3 different numbers on the middle and bottom rows; only one row counts.
    # The book says 4 VP, the Omega-3 card says 3 VP for 3 different numbers (followed).
    pierrick = tab("R1 B1 G1 .  .\nR2 B3 @7 .  .\n.  K1 R4 G5 .")
    assert score_objective("Omega-3", pierrick) == 3
    # Renaud: 5 different numbers in the middle row -> 12.
    renaud = tab(".  R1 .  .  .\nB3 G2 @1 Y4 K5\n.  .  B5 .  .")
    # middle row numbers 3, 2, 1 (AI-1 is a red 1), 4, 5
    assert score_objective("Omega-3", renaud) == 12


# Pierrick's Phase 1 tableau (7 development cards + AI-7), with the black 103 at (2,2).
PIERRICK = {
    (0, 1): "065",
    (0, 2): "053",
    (0, 3): "021",
    (1, 0): "097",
    (1, 1): "043",
    (1, 2): "AI-7",
    (1, 3): "019",
    (2, 2): "103",
}


def test_pierrick_copies_082_in_his_own_tableau_and_scores_6():
    # 103 copies Renaud's yellow 082 ("in each row, 3 VP per horizontal group of 2
    # connections adding up to exactly 5"), evaluated in Pierrick's tableau.
    cards = catalogue().cards
    assert cards["103"].is_black and cards["103"].phase == 1
    assert cards["082"].color == "yellow" and cards["082"].phase == 1
    sums = [g[2][1] + g[3][1] for g in horizontal_groups(printed_board(PIERRICK))]
    # Row 0: 065.TR 4 + 053.TL 1 = 5; 053.TR 1 + 021.TL 5 = 6.
    # Row 1: 097.TR 4 + 043.TL 2 = 6; 043.TR 1 + AI-7.TL 4 = 5; AI-7.TR 1 + 019.TL 3 = 4.
    assert sums == [5, 6, 6, 5, 4]
    # Two groups add up to 5 -> 2 x 3 = 6 VP.
    assert score_effect("082", PIERRICK, (2, 2)) == 6


def test_pierrick_069_with_one_purple_and_one_black_scores_3():
    # "he has 1 single purple card and 1 single black card. He scores 3 VP (1x3)."
    t = tab("G1 G2 G3 R1 R2\nB1 B2 @11 #069 .\nP1 K1 R3 B3 .")
    # green: G1, G2, G3, AI-11 (green), 069 -> 5; red 3; blue 3; purple 1; black 1.
    assert catalogue().cards["069"].color == "green"
    assert score_effect("069", t, (1, 3)) == 3


# Complete tableaux found with a seeded search, checked diamond by diamond below.
PIERRICK_END = {
    (0, 0): "104",
    (0, 1): "056",
    (0, 2): "086",
    (0, 3): "024",
    (0, 4): "101",
    (1, 0): "103",
    (1, 1): "027",
    (1, 2): "AI-1",
    (1, 3): "004",
    (1, 4): "044",
    (2, 0): "015",
    (2, 1): "049",
    (2, 2): "017",
    (2, 3): "053",
    (2, 4): "113",
}
RENAUD_END = {
    (0, 0): "052",
    (0, 1): "073",
    (0, 2): "034",
    (0, 3): "063",
    (0, 4): "058",
    (1, 0): "075",
    (1, 1): "011",
    (1, 2): "AI-1",
    (1, 3): "118",
    (1, 4): "047",
    (2, 0): "041",
    (2, 1): "068",
    (2, 2): "117",
    (2, 3): "001",
    (2, 4): "067",
}


def test_omega_4_three_and_five_diamonds_of_4_colours_give_15_and_25():
    from domain.games.ai_100_human.scoring.diamonds import diamond_points, triangles

    def rainbow(t):
        return [
            p
            for p in diamond_points(printed_board(t))
            if len({c for c, _ in triangles(printed_board(t), p)}) == 4
        ]

    # Pierrick: diamonds (1,1) R,Y,G,B; (1,3) R,P,Y,G; (1,4) P,B,K,G are all different ->
    # 3 x 5 = 15 (the book's "4 VP per diamond" summary contradicts its own 3x5 and the card).
    assert rainbow(PIERRICK_END) == [(1, 1), (1, 3), (1, 4)]
    assert score_objective("Omega-4", PIERRICK_END) == 15
    # Renaud: 5 rainbow diamonds -> 25.
    assert len(rainbow(RENAUD_END)) == 5
    assert score_objective("Omega-4", RENAUD_END) == 25


def test_pierrick_ai_1_square_and_l_score_14():
    # Red/blue 2x3 block (rows 0-1, cols 0-2, the red AI-1 at (1,2)) holds two overlapping
    # squares: "the cards belong to only one combination" -> 1 square. Yellow/black L at
    # (1,3),(1,4),(2,3). Row 2 G,P,B is no green/purple line. 2 x 7 = 14.
    t = tab("R1 B1 R2 .  .\nB2 R3 @1 Y1 K1\nG1 P1 B3 Y2 .")
    assert score_ai_card("AI-1", t) == 14


# Renaud's complete tableau with 087 at (2,1): all 12 horizontal groups differ in colour.
RENAUD_087 = {
    (0, 0): "103",
    (0, 1): "106",
    (0, 2): "071",
    (0, 3): "035",
    (0, 4): "092",
    (1, 0): "101",
    (1, 1): "116",
    (1, 2): "AI-11",
    (1, 3): "008",
    (1, 4): "110",
    (2, 0): "043",
    (2, 1): "087",
    (2, 2): "021",
    (2, 3): "022",
    (2, 4): "117",
}


def test_renaud_087_on_a_complete_tableau_scores_12():
    cards = catalogue().cards
    assert cards["087"].color == "green" and cards["087"].phase == 2
    groups = horizontal_groups(printed_board(RENAUD_087))
    assert len(groups) == 12 and all(a[0] != b[0] for *_, a, b in groups)
    assert score_effect("087", RENAUD_087, (2, 1)) == 12


def test_renauds_ai_card_scores_3_per_column_of_consecutive_numbers():
    # The book calls it "AI card (08)"; the effect is AI-11's. Columns: 1,2,3 yes; 4,4,1 no;
    # 2,3(AI-11),4 yes; 5,1,5 no; 2,2,2 no -> 2 x 3 = 6.
    t = tab("R1 B4 G2 Y5 K2\nR2 B4 @11 Y1 K2\nR3 B1 G4 Y5 K2")
    assert score_ai_card("AI-11", t) == 6
