"""Scoring engine of *AI: 100% Human* (pure domain, no I/O).

Public API (other packages code against exactly these names):

- :func:`score_effect` — VP of a development card's effect for a card at a position;
- :func:`score_objective` — VP of an Objective card at the end of a phase;
- :func:`score_ai_card` — end-of-game VP of an AI card;
- :func:`effective` — the (colour, number) pairs a card may count as (AI-10);
- :class:`Placements` — the three scores above for one card added to an unchanged
  tableau, the tableau read once (the expert bot's card x cell weighing).

Every evaluator obeys the golden rule ("a card and a connector can only count toward a
single combination during scoring") with an exact packing, and maximises VP wherever the
rulebook lets the player choose how to count (RULINGS, General).

Two layers (the bots call these functions hundreds of thousands of times per match):

- the **reference semantics**: the board evaluators (:func:`.effects.evaluate` over
  :func:`.board.boards`, i.e. ``groups``, ``sets``, ``counts``, ``connections``,
  ``diamonds``) read one effect object on one board of faces, plainly. They are the
  rules as written, and what the hand-made-board tests read;
- the **compiled plans** that these public functions run (:mod:`.plans`): each card and
  objective effect is compiled once (by id); per call the tableau is read once into a
  packed bitboard (:mod:`.grid`: one integer, a lane of cells per colour and number) or
  into card ids per cell; groups, sets, counts and row ends are bitmask arithmetic over
  regions laid out once per geometry and played position (:mod:`.region_plans`),
  connectors and diamonds read the corners (:mod:`.corner_plans`), and results that are
  pure functions of a small input (the lanes a rule reads, the card ids of a line or of
  a diamond, a set of placements to pack) are remembered in bounded tables
  (:mod:`.memo`). They give exactly the reference's VP:
  ``tests/unit/ai_100_human/test_scoring_exactness.py`` compares both over random legal
  tableaux for every card, objective and AI card
  (``tests/support/ai_100_human_scoring_reference.py`` keeps the former public path).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.ai_100_human.scoring.added import Placements
from domain.games.ai_100_human.scoring.ai_cards import score_ai_card
from domain.games.ai_100_human.scoring.board import acts_as
from domain.games.ai_100_human.scoring.objectives import score_objective
from domain.games.ai_100_human.scoring.plans import CARD_PLANS
from domain.games.ai_100_human.tableau import Pos, Tableau

__all__ = ["score_effect", "score_objective", "score_ai_card", "effective", "Placements"]


def score_effect(
    effect_card_id: str, tableau: Tableau, pos: Pos, neighbours: Sequence[Tableau] = ()
) -> int:
    """VP the effect of ``effect_card_id`` gives when evaluated for the card at ``pos``.

    ``tableau`` (position -> card id) already holds the played card at ``pos``. For a
    normal play ``effect_card_id == tableau[pos]``; for a copy (099-104) the flow passes
    the copied card's id with the copier's tableau and position (RULINGS: "this row",
    "this column" and "adjacent" relative to the copier's black card).

    - 001-098: the card's condition in its placement requirement (Cards Details);
    - 099-104 (copy, needs a chosen target) and 105/106 (copy points, computed from the
      neighbours' VP this turn) return 0: the flow resolves them;
    - 107-114: the best of ``neighbours`` (0, 1 or 2 adjacent players' tableaux, printed
      cards; 111-114 read the row with ``pos``'s row index); 0 without neighbours;
    - 115/116: -2; 117: 2; 118: 3; 119: 2; 120: 3 (the flow does exchanges/draws).

    With AI-10 in ``tableau`` the best of printed / green 4 / black 2 counts.
    Raises ``KeyError`` for an unknown card id.
    RULINGS R-SHARED-MAX.
    """
    return CARD_PLANS[effect_card_id].score(tableau, pos, neighbours)


def effective(card_id: str, tableau: Tableau) -> list[tuple[str, int]]:
    """The ``(colour, number)`` pairs ``card_id`` may count as in ``tableau``: the printed
    pair, plus AI-10's green 4 and black 2 when that card lies in ``tableau``."""
    options = acts_as(card_id)
    if card_id in tableau.values():
        return list(options)
    return [options[0]]
