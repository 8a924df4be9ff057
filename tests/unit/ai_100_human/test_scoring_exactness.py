"""The compiled scorer equals the reference scorer (property tests).

``scoring.score_effect`` / ``score_objective`` / ``score_ai_card`` run compiled plans
(``scoring/plans.py``); ``tests/support/ai_100_human_scoring_reference.py`` keeps the plain
code path they replaced (every board of ``boards(tableau)`` through ``effects.evaluate``).
Over random legal tableaux both must give the same VP for **every** development card (at
the played card's cell; cards whose requirement reads the cell, "this row/column" and
"adjacent", also at another card's cell, as a copy 099-104 is), every Objective card and
every AI card side: connected cards from the catalogue around the AI card (orthogonal
growth, or diagonal as with AI-8), AI-10 in about a third of them, AI-2's end card outside
the frame in about a quarter, and 0-2 random neighbour tableaux for 107-114. About 1,300
tableaux and 100,000 comparisons; ``test_scoring_exactness_vocabulary.py`` does the same
for random effect objects of the whole vocabulary.

The examples are derandomized (a fixed seed per test), so CI always runs the same ones.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring import score_ai_card, score_effect, score_objective
from domain.games.ai_100_human.tableau import AI_POS, FRAME, in_frame, placement_cells
from tests.support import depth
from tests.support.ai_100_human_scoring_reference import (
    reference_score_ai_card,
    reference_score_effect,
    reference_score_objective,
)

CAT = catalogue()
DEVELOPMENT = sorted(c.id for c in CAT.cards.values() if c.kind == "development")
AI_SIDES = sorted(
    (c.id for c in CAT.cards.values() if c.kind == "ai"), key=lambda cid: int(cid.split("-")[1])
)
OBJECTIVES = sorted(CAT.objectives, key=lambda oid: int(oid.split("-")[1]))
BY_POSITION = ("this_row", "this_column", "adjacent")  # scopes that read the cell
SETTINGS = dict(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def tableaux(draw, ai_sides=AI_SIDES):
    """A legal tableau: the AI card at the centre (AI-10 in about a third of them), then
    1-14 development cards each adjacent to a card already there (orthogonally, or also
    diagonally as with AI-8), inside the frame; in about a quarter an AI-2 end card
    orthogonally adjacent to a card outside the frame."""
    ai = draw(st.one_of(st.just("AI-10"), st.sampled_from(ai_sides)))
    diagonal = draw(st.booleans())
    size = draw(st.integers(min_value=1, max_value=len(FRAME)))
    cards = draw(st.lists(st.sampled_from(DEVELOPMENT), min_size=size, max_size=size, unique=True))
    tableau = {AI_POS: ai}
    for card in cards[:-1]:
        cells = placement_cells(tableau, diagonal=diagonal)
        if not cells:
            break
        tableau[draw(st.sampled_from(cells))] = card
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        outside = [p for p in placement_cells(tableau, frame=False) if not in_frame(p)]
        if outside:
            tableau[draw(st.sampled_from(outside))] = cards[-1]
    return tableau


@st.composite
def neighbour_tableaux(draw):
    """0-2 neighbour tableaux: random cards (development and AI) on random frame cells
    (a draft grid or a neutral grid is such a tableau too)."""
    out = []
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        cells = draw(st.lists(st.sampled_from(FRAME), max_size=len(FRAME), unique=True))
        cards = draw(
            st.lists(
                st.sampled_from(DEVELOPMENT + AI_SIDES),
                min_size=len(cells),
                max_size=len(cells),
                unique=True,
            )
        )
        out.append(dict(zip(cells, cards, strict=False)))
    return out


@settings(max_examples=depth.examples(200), **SETTINGS)
@given(tableau=tableaux(), neighbours=neighbour_tableaux(), data=st.data())
def test_every_development_card_effect_equals_the_reference(tableau, neighbours, data):
    cells = sorted(tableau)
    played = data.draw(
        st.sampled_from([p for p in cells if p != AI_POS] or cells), label="played cell"
    )
    other = data.draw(st.sampled_from(cells), label="copier's cell")
    for card in DEVELOPMENT:
        own = dict(tableau)
        if played != AI_POS:  # a normal play: the card sits at its cell
            for p, c in tableau.items():
                if c == card:  # already elsewhere: the two cards swap
                    own[p] = tableau[played]
            own[played] = card
        checks = [(own, played)]
        if CAT.cards[card].effect.get("scope") in BY_POSITION:
            checks.append((tableau, other))  # as a copy: around another card's cell
        for board, pos in checks:
            fast = score_effect(card, board, pos, neighbours)
            ref = reference_score_effect(card, board, pos, neighbours)
            assert fast == ref, (card, pos, board, neighbours)


@settings(max_examples=depth.examples(250), **SETTINGS)
@given(tableau=tableaux())
def test_every_objective_and_ai_card_equals_the_reference(tableau):
    for objective in OBJECTIVES:
        assert score_objective(objective, tableau) == reference_score_objective(
            objective, tableau
        ), (objective, tableau)
    for side in AI_SIDES:
        assert score_ai_card(side, tableau) == reference_score_ai_card(side, tableau), (
            side,
            tableau,
        )


@settings(max_examples=depth.examples(30), **SETTINGS)
@given(tableau=tableaux(ai_sides=["AI-10"]), data=st.data())
def test_two_cards_with_alternatives_score_each_alternative_board(tableau, data):
    """Outside legal play (one AI card per tableau), a mapping may name AI-10 twice: the
    reference then scores one board per single alternative, and so must the plans."""
    spare = [p for p in tableau if p != AI_POS]
    if spare:
        tableau = {**tableau, data.draw(st.sampled_from(sorted(spare))): "AI-10"}
    for card in DEVELOPMENT[:98]:
        pos = data.draw(st.sampled_from(sorted(tableau)))
        assert score_effect(card, tableau, pos) == reference_score_effect(card, tableau, pos)
    for objective in OBJECTIVES:
        assert score_objective(objective, tableau) == reference_score_objective(objective, tableau)
