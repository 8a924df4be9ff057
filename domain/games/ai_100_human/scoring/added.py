"""Scores of one card added to one unchanged own tableau, the tableau read once.

The expert bot weighs every card x open cell of its own tableau, and the end value
(phase objective + AI card) of the best few, many thousand times per decision. A
:class:`Placements` reads the tableau once: into its packed bitboard
(:func:`.grid.read_board`, for the region plans: sets, counts, row ends, groups) and, on
first use, into its card ids per cell (:func:`.grid.read_ids`, for the corner plans:
connectors, diamonds). A card on an empty frame cell then adds its pattern to the board
(the patterns of distinct cells share no bit, also on AI-10's alternative boards) or its
id to a copy of the ids, so each card and cell costs one addition and the plan's memo
look-up instead of reading the whole tableau again.

Every method gives exactly the public function on the tableau with the card added
(``tests/unit/ai_100_human/test_scoring_added.py`` compares them over random legal
tableaux): where the shortcut does not hold (a geometry other than the frame, AI-2's card
outside it; an added card off the frame or acting as another) it runs the public function.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.games.ai_100_human.scoring.ai_cards import score_ai_card
from domain.games.ai_100_human.scoring.corner_plans import Connection, Diamond
from domain.games.ai_100_human.scoring.grid import FRAME, card_tables, read_board, read_ids
from domain.games.ai_100_human.scoring.objectives import score_objective
from domain.games.ai_100_human.scoring.plans import CARD_PLANS, OBJECTIVE_PLANS, Plan
from domain.games.ai_100_human.scoring.region_plans import RegionPlan
from domain.games.ai_100_human.tableau import AI_POS, Pos


class Placements:
    """Scores of single cards added to ``tableau`` (position -> card id; not mutated and
    not changed by the caller while this object is used; no neighbours, i.e. cards
    107-114 score 0 as with ``score_effect``'s default).

    - :meth:`effect` ``(card, pos)`` == ``score_effect(card, {**tableau, pos: card}, pos)``;
    - :meth:`objective` ``(objective, card, pos)`` ==
      ``score_objective(objective, {**tableau, pos: card})``;
    - :meth:`ai_card` ``(ai, card, pos)`` == ``score_ai_card(ai, {**tableau, pos: card})``.

    ``pos`` must be empty in ``tableau``. Raises ``KeyError`` for an unknown card,
    objective or AI card id, like the public functions."""

    __slots__ = ("tableau", "_read", "_ids", "_placed", "_acting")

    def __init__(self, tableau: Mapping[Pos, str]):
        self.tableau = tableau
        t = card_tables()
        g, board, alternatives = read_board(tableau)
        self._read = (board, alternatives) if g is FRAME else None
        self._ids: list | None = None  # read_ids(tableau) on first use
        self._placed = t.placed
        self._acting = t.acting

    def _score(self, plan: Plan, card: str, pos: Pos, at: Pos | None) -> int | None:
        """``plan.score({**tableau, pos: card}, at)`` for a board-reading ``plan`` from the
        tableau read once; ``None`` where the shortcut does not hold (module doc)."""
        if card in self._acting or pos not in FRAME.index:
            return None
        if isinstance(plan, RegionPlan):
            if self._read is None:
                return None
            board, alternatives = self._read
            placed = self._placed((pos, card))
            if alternatives:  # the added card's pattern joins every alternative board
                alternatives = tuple(
                    (i, tuple(o + placed for o in others)) for i, others in alternatives
                )
            return plan.score_read(FRAME, board + placed, alternatives, at)
        if isinstance(plan, (Connection, Diamond)):
            if self._ids is None:
                g, ids = read_ids(self.tableau)
                self._ids = ids if g is FRAME else []
            if not self._ids:
                return None
            ids = self._ids.copy()
            ids[FRAME.index[pos]] = card
            return plan.score_ids(FRAME, ids, at)
        return None

    def effect(self, card: str, pos: Pos) -> int:
        """VP of ``card``'s effect played at the empty ``pos`` (class doc)."""
        plan = CARD_PLANS[card]
        if not plan.reads_board:  # constants; 107-114 without neighbours: 0
            return plan.score(self.tableau, pos, ())
        vp = self._score(plan, card, pos, pos)
        return plan.score({**self.tableau, pos: card}, pos, ()) if vp is None else vp

    def objective(self, objective: str, card: str, pos: Pos) -> int:
        """VP of Objective card ``objective`` for the tableau with ``card`` at ``pos``."""
        plan = OBJECTIVE_PLANS[objective]
        vp = self._score(plan, card, pos, None) if plan.reads_board else None
        return score_objective(objective, {**self.tableau, pos: card}) if vp is None else vp

    def ai_card(self, ai: str, card: str, pos: Pos) -> int:
        """End-of-game VP of AI card side ``ai`` for the tableau with ``card`` at ``pos``
        (read at the AI card's cell when its scope needs one, as ``score_ai_card``)."""
        plan = CARD_PLANS[ai]
        vp = None
        if plan.kind == "flat":
            return plan.score(self.tableau, AI_POS)
        if plan.reads_board and card != ai:
            at = AI_POS
            if getattr(plan, "needs_pos", False):
                at = next((p for p, cid in self.tableau.items() if cid == ai), AI_POS)
            vp = self._score(plan, card, pos, at)
        return score_ai_card(ai, {**self.tableau, pos: card}) if vp is None else vp
