"""The compiled plans equal the reference evaluators over the whole effect vocabulary.

``test_scoring_exactness.py`` covers the cards of the catalogue; here random effect objects
built from the vocabulary of ``cards.py`` (every kind, scope, shape, condition and measure,
accepted by ``cards.check_effect``) are compiled (``scoring.plans.compile_effect``) and
compared with the reference (``effects.evaluate`` over ``board.boards``; 107-114's
``counts.score_neighbour``) on random legal tableaux, so a future card using another
combination scores exactly too. Also: unknown card ids raise ``KeyError`` like the
reference, and emptying the memo tables (their memory budget) changes no result.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.ai_100_human.cards import ATTRS, COLORS, NUMBERS, SHAPES, check_effect
from domain.games.ai_100_human.scoring import memo, score_effect, score_objective
from domain.games.ai_100_human.scoring.board import boards, printed_board
from domain.games.ai_100_human.scoring.counts import score_neighbour
from domain.games.ai_100_human.scoring.effects import evaluate
from domain.games.ai_100_human.scoring.plans import compile_effect
from domain.games.ai_100_human.tableau import AI_POS
from tests.support import depth
from tests.support.ai_100_human_scoring_reference import reference_score_effect

from .test_scoring_exactness import neighbour_tableaux, tableaux
from .test_scoring_support import tab

SETTINGS = dict(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ALL_SCOPES = (
    "tableau",
    "each_row",
    "each_column",
    "this_row",
    "this_column",
    "adjacent",
    "best_row",
    "best_column",
)


def values(attr: str):
    """A non-empty list of colours or numbers."""
    domain = COLORS if attr == "color" else NUMBERS
    return st.lists(st.sampled_from(domain), min_size=1, max_size=3, unique=True)


@st.composite
def conditions(
    draw,
    kinds=("each", "slots", "same", "different", "sum", "consecutive", "full_house"),
    slots: int | None = None,
):
    """A condition of the vocabulary (``slots``: that many slots, else 1-4);
    ``consecutive`` on numbers only (AI-11)."""
    kind = draw(st.sampled_from(kinds))
    # "consecutive" colours mean nothing: check_effect rejects them (test_cards)
    attr = "number" if kind == "consecutive" else draw(st.sampled_from(ATTRS))
    if kind == "each":
        return {"each": {attr: draw(values(attr))}}
    if kind == "slots":
        n = slots or draw(st.integers(min_value=1, max_value=4))
        return {"slots": {"attr": attr, "values": [draw(values(attr)) for _ in range(n)]}}
    if kind == "sum":
        return {"sum": draw(st.integers(min_value=2, max_value=25))}
    return {kind: attr}


@st.composite
def effects(draw):
    """A board-reading or neighbour effect object accepted by ``check_effect``."""
    kind = draw(
        st.sampled_from(("group", "set", "count", "connection", "diamond", "row_ends", "neighbour"))
    )
    vp = draw(st.integers(min_value=1, max_value=20))
    if kind == "group":
        effect = {
            "kind": "group",
            "scope": draw(st.sampled_from(ALL_SCOPES)),
            "vp": vp,
            "shapes": [
                {"shape": draw(st.sampled_from(SHAPES)), "condition": draw(conditions())}
                for _ in range(draw(st.integers(min_value=1, max_value=3)))
            ],
        }
        if draw(st.booleans()):
            effect["per"] = draw(st.integers(min_value=1, max_value=4))
    elif kind == "set":
        size = draw(st.integers(min_value=2, max_value=6))
        effect = {
            "kind": "set",
            "scope": draw(st.sampled_from(ALL_SCOPES)),
            "size": size,
            "condition": draw(conditions(slots=size)),
            "vp": vp,
        }
        if draw(st.booleans()):
            effect["single"] = draw(st.booleans())
    elif kind in ("count", "neighbour"):
        measure = draw(st.sampled_from(("cards", "most", "least", "distinct", "least_times_most")))
        attr = draw(st.sampled_from(ATTRS))
        spec = {"cards": {attr: draw(values(attr))}} if measure == "cards" else {measure: attr}
        scopes = ALL_SCOPES if kind == "count" else ("tableau", "this_row")
        effect = {"kind": kind, "scope": draw(st.sampled_from(scopes)), "measure": spec}
        if kind == "count" and draw(st.booleans()):
            effect["ladder"] = draw(
                st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=6)
            )
        else:
            effect["vp"] = vp
    elif kind == "connection":
        axis = draw(st.sampled_from(("horizontal", "vertical")))
        scopes = (
            ("each_row", "this_row") if axis == "horizontal" else ("each_column", "this_column")
        )
        effect = {
            "kind": "connection",
            "axis": axis,
            "scope": draw(st.sampled_from(scopes)),
            "condition": draw(conditions(("each", "slots", "same", "different", "sum"))),
            "vp": vp,
        }
    elif kind == "diamond":
        if draw(st.booleans()):
            items = [
                {a: draw(st.sampled_from(COLORS if a == "color" else NUMBERS))}
                for a in draw(st.lists(st.sampled_from(ATTRS), min_size=1, max_size=3))
            ]
            cond = {"has": items}
        else:
            rule = draw(st.sampled_from(("different", "same", "sum")))
            cond = {
                rule: (
                    draw(st.integers(min_value=2, max_value=20))
                    if rule == "sum"
                    else draw(st.sampled_from(ATTRS))
                ),
                "count": draw(st.integers(min_value=2, max_value=4)),
            }
        effect = {"kind": "diamond", "scope": "tableau", "condition": cond, "vp": vp}
    else:
        effect = {
            "kind": "row_ends",
            "scope": "each_row",
            "attr": draw(st.sampled_from(ATTRS)),
            "vp": vp,
        }
    check_effect("synthetic", effect)
    return effect


def reference(effect, tableau, pos, neighbours):
    """The reference VP of an effect object (``scoring.score_effect`` before the plans)."""
    if effect["kind"] == "neighbour":
        return score_neighbour(effect, [printed_board(n) for n in neighbours], pos)
    return max(evaluate(effect, b, pos) for b in boards(tableau))


@settings(max_examples=depth.examples(400), **SETTINGS)
@given(effect=effects(), tableau=tableaux(), neighbours=neighbour_tableaux(), data=st.data())
def test_any_effect_of_the_vocabulary_equals_the_reference(effect, tableau, neighbours, data):
    pos = data.draw(st.sampled_from(sorted(tableau)), label="played cell")
    plan = compile_effect(effect)
    assert plan.score(tableau, pos, neighbours) == reference(effect, tableau, pos, neighbours)


def test_unknown_card_ids_raise_key_error_like_the_reference():
    tableau = {AI_POS: "AI-3", (1, 1): "no-such-card"}
    outside = {AI_POS: "AI-3", (1, 1): "001", (-1, 2): "no-such-card"}
    for board in (tableau, outside):
        for card in ("052", "081", "095", "017"):  # count, connection, diamond, group
            with pytest.raises(KeyError):
                reference_score_effect(card, board, AI_POS)
            with pytest.raises(KeyError):
                score_effect(card, board, AI_POS)
    with pytest.raises(KeyError):
        score_effect("999", {AI_POS: "AI-3"}, AI_POS)
    with pytest.raises(KeyError):
        score_objective("Omega-99", {AI_POS: "AI-3"})


def test_emptying_the_memo_tables_changes_no_result(monkeypatch):
    # Omega-5 (each column, a single set of 3 of the same colour, 7 VP): columns 0 and 1
    # hold 3 red / 3 blue cards = 14 VP, whatever the tables remembered before.
    t = tab("R1 B2 .\nR2 B3 @3\nR3 B4 .")
    assert score_objective("Omega-5", t) == 14
    monkeypatch.setattr(memo, "LIMIT", 3)  # a tiny budget: tables empty all the time
    for _ in range(3):
        assert score_objective("Omega-5", t) == 14
        assert score_effect("017", t, (0, 0)) == 0  # 017: horizontal pairs, same number
    memo.clear()
    assert score_objective("Omega-5", t) == 14
