"""Effects compiled once per card id into plans (what ``score_effect`` & co. run).

The reference semantics are the board evaluators (``effects.evaluate`` over
``board.boards``); a plan gives exactly their VP (property tests in
``tests/unit/ai_100_human/test_scoring_exactness*.py`` compare both over random tableaux
for every card, objective and AI card, and for random effects of the whole vocabulary). A plan reads
its effect object once, then per
call reads the tableau once (:mod:`.grid`: a packed bitboard, or the card id per cell)
and scores it:

- :mod:`.region_plans` / :mod:`.group_plans`: sets, counts, row ends and groups, by
  bitmask arithmetic over the regions of the placement requirement (rows, columns, the
  cells around the played card);
- :mod:`.corner_plans`: connectors and diamonds, from the corners of the cards;
- here: flat/copy constants and the neighbour counts of 107-114.

AI-10 ("act as a green 4 or a black 2"): the reference takes the best over the printed
board and one board per alternative (corners stay printed). Corner plans score the
printed board alone (alternatives keep the printed corners). Region plans: when exactly
one card has alternatives, only the region holding it depends on the choice and the
regions partition the cells, so "best board" is "best alternative inside that region,
the other regions as printed" (their sum or their best); with two or more such cards
(not in legal play) every alternative board is scored in full, as the reference does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring.corner_plans import Connection, Diamond
from domain.games.ai_100_human.scoring.grid import FACES
from domain.games.ai_100_human.scoring.group_plans import Group
from domain.games.ai_100_human.scoring.plan import Plan
from domain.games.ai_100_human.scoring.predicates import compile_measure
from domain.games.ai_100_human.scoring.region_plans import Count, RowEnds, Set
from domain.games.ai_100_human.tableau import Pos, Tableau


class Constant(Plan):
    """``flat`` (its ``vp``), ``copy`` and ``copy_points`` (0: the flow resolves them)."""

    reads_board = False

    def __init__(self, vp: int):
        self.vp = vp

    def score(self, tableau: Tableau, pos: Pos | None, neighbours: Sequence[Tableau] = ()) -> int:
        return self.vp


class Neighbour(Plan):
    """``neighbour`` (107-114, ``counts.score_neighbour``): ``vp`` x the measure of the
    best neighbour's printed tableau, or of its row with ``pos``'s row index; 0 without
    neighbours."""

    reads_board = False

    def __init__(self, effect: Mapping[str, Any]):
        self.vp = effect["vp"]
        self.measure = compile_measure(effect["measure"])
        self.this_row = effect["scope"] == "this_row"

    def score(self, tableau: Tableau, pos: Pos | None, neighbours: Sequence[Tableau] = ()) -> int:
        boards = [[(p, FACES[cid]) for p, cid in n.items()] for n in neighbours]
        best = 0
        for board in boards:
            if self.this_row:
                assert pos is not None  # this_row: scored for a placed card
                members = [f for p, f in board if p[0] == pos[0]]
            else:
                members = [f for _, f in board]
            best = max(best, self.vp * self.measure(members))
        return best


def _kinds() -> dict[str, Callable[[Mapping[str, Any]], Plan]]:
    return {
        "group": Group,
        "set": Set,
        "count": Count,
        "row_ends": RowEnds,
        "connection": Connection,
        "diamond": Diamond,
        "neighbour": Neighbour,
    }


def compile_effect(effect: Mapping[str, Any]) -> Plan:
    """The plan of an effect object (``cards.py`` vocabulary). Raises ``ValueError`` for
    an unknown kind."""
    kind = effect["kind"]
    kinds = _kinds()
    if kind == "flat":
        plan: Plan = Constant(effect["vp"])
    elif kind in ("copy", "copy_points"):
        plan = Constant(0)
    elif kind in kinds:
        plan = kinds[kind](effect)
    else:
        raise ValueError(f"unknown effect kind {kind!r}")
    plan.kind = kind
    return plan


def board_plan(plan: Plan) -> Plan:
    """``plan`` when it reads the own board (the kinds of the reference
    ``effects.evaluate``); raises ``ValueError`` like ``evaluate`` for the others."""
    if not plan.reads_board:
        raise ValueError(f"effect kind {plan.kind!r} does not read a board")
    return plan


class _CardPlans(dict):
    """card id (development or AI card) -> plan, compiled on first use."""

    def __missing__(self, card_id: str) -> Plan:
        value = self[card_id] = compile_effect(catalogue().cards[card_id].effect)
        return value


class _ObjectivePlans(dict):
    """objective id -> plan, compiled on first use."""

    def __missing__(self, objective_id: str) -> Plan:
        value = self[objective_id] = compile_effect(catalogue().objectives[objective_id].effect)
        return value


CARD_PLANS: dict[str, Plan] = _CardPlans()
OBJECTIVE_PLANS: dict[str, Plan] = _ObjectivePlans()
