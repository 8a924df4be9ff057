"""Scoring engine of *AI: 100% Human* (pure domain, no I/O).

Public API (other packages code against exactly these names):

- :func:`score_effect` — VP of a development card's effect for a card at a position;
- :func:`score_objective` — VP of an Objective card at the end of a phase;
- :func:`score_ai_card` — end-of-game VP of an AI card;
- :func:`effective` — the (colour, number) pairs a card may count as (AI-10).

Every evaluator obeys the golden rule ("a card and a connector can only count toward a
single combination during scoring") with an exact packing, and maximises VP wherever the
rulebook lets the player choose how to count (RULINGS, General).
"""
from __future__ import annotations

from typing import Sequence

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring.ai_cards import score_ai_card
from domain.games.ai_100_human.scoring.board import acts_as, boards, printed_board
from domain.games.ai_100_human.scoring.counts import score_neighbour
from domain.games.ai_100_human.scoring.effects import evaluate
from domain.games.ai_100_human.scoring.objectives import score_objective
from domain.games.ai_100_human.tableau import Pos, Tableau

__all__ = ["score_effect", "score_objective", "score_ai_card", "effective"]


def score_effect(effect_card_id: str, tableau: Tableau, pos: Pos,
                 neighbours: Sequence[Tableau] = ()) -> int:
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
    """
    effect = catalogue().cards[effect_card_id].effect
    kind = effect["kind"]
    if kind == "flat":
        return effect["vp"]
    if kind in ("copy", "copy_points"):
        return 0
    if kind == "neighbour":
        return score_neighbour(effect, [printed_board(n) for n in neighbours], pos)
    return max(evaluate(effect, b, pos) for b in boards(tableau))


def effective(card_id: str, tableau: Tableau) -> list[tuple[str, int]]:
    """The ``(colour, number)`` pairs ``card_id`` may count as in ``tableau``: the printed
    pair, plus AI-10's green 4 and black 2 when that card lies in ``tableau``."""
    options = acts_as(card_id)
    if card_id in tableau.values():
        return list(options)
    return [options[0]]
