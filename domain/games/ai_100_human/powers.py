"""AI card powers that need decisions (rulebook "AI Cards Details").

Timing (ruling R-POWERS): AI-5 (once per game) and AI-6 (once per phase) are optional
actions a seat may take during its own draft step before drafting; AI-5 also during its
own place step before choosing its placement. AI-6 is two steps (R-AI6-STEPS, "you may
draw 2 cards and add them to your reserve. Then discard any 2 cards from your hand"):
``use_ai6`` draws, then ``ai6_discard`` names the 2 hand cards, chosen after seeing the
drawn ones. It needs at least 2 hand cards (R-AI6-HAND; solo: 3 offered cards,
R-SOLO-AI6). AI-2 places one reserve card at the end of Phase 2, after the Phase 2
objective and before AI card scoring.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from . import roles, solo
from .hacking import card_swaps, copy_targets, moves_to_empty
from .spec import AI6_DISCARD, AI6_MIN_HAND, AI6_MIN_SOLO_OFFER
from .state import MatchState
from .tableau import placement_cells


def diagonal(state: MatchState, seat: int) -> bool:
    """AI-8: "you may place Development cards diagonally adjacent"."""
    return roles.ai_power(state.seats[seat].ai_card) == roles.DIAGONAL_PLACEMENT


def ai5_actions(state: MatchState, seat: int) -> list[dict]:
    """``use_ai5`` commands: swap two development cards, or one with an empty cell
    (connectivity kept, R-ADJ); empty when AI-5 is not this seat's side or was used.

    RULINGS R-POWERS.
    """
    s = state.seats[seat]
    if not s.ai_revealed or roles.ai_power(s.ai_card) != roles.EXCHANGE_TWO or s.ai5_used:
        return []
    pairs = card_swaps(s.tableau) + moves_to_empty(s.tableau, diagonal(state, seat))
    return [{"type": "use_ai5", "cells": [[a[0], a[1]], [b[0], b[1]]]} for a, b in pairs]


def ai6_hand(state: MatchState, seat: int) -> list[str]:
    """The cards AI-6's "discard any 2 cards from your hand" chooses from, sorted: the
    seat's hand (the cards right of its Divider, the ones it drafts from and passes on;
    never its reserve, where the 2 drawn cards go). Solo (R-SOLO-AI6): the cards offered
    by the standee's line."""
    if state.mode == "solo":
        return solo.ai6_offer(state)
    return sorted(state.seats[seat].hand)


def ai6_available(state: MatchState, seat: int) -> bool:
    """True when ``seat`` may start AI-6 now (step 1): its revealed side is AI-6, the token
    is on its active side this phase, and the hand can pay the 2 discards in full
    (R-AI6-HAND: at least 2 hand cards; solo: 3 offered cards, so one is still taken)."""
    s = state.seats[seat]
    least = AI6_MIN_SOLO_OFFER if state.mode == "solo" else AI6_MIN_HAND
    return (
        s.ai_revealed
        and roles.ai_power(s.ai_card) == roles.DRAW_TWO
        and not s.ai6_used
        and not s.ai6_discarding
        and len(ai6_hand(state, seat)) >= least
    )


def ai6_actions(state: MatchState, seat: int) -> list[dict]:
    """AI-6 step 1: ``[{"type": "use_ai6"}]`` when :func:`ai6_available`, else ``[]``.

    RULINGS R-POWERS.
    RULINGS R-AI6-STEPS.
    """
    return [{"type": "use_ai6"}] if ai6_available(state, seat) else []


def ai6_discards(state: MatchState, seat: int) -> list[dict]:
    """AI-6 step 2: one ``{"type": "ai6_discard", "cards": [a, b]}`` per pair of
    :func:`ai6_hand` cards (sorted pairs in canonical order); ``[]`` unless the seat owes
    the discard (``ai6_discarding``)."""
    if not state.seats[seat].ai6_discarding:
        return []
    return [
        {"type": "ai6_discard", "cards": list(pair)}
        for pair in combinations(ai6_hand(state, seat), AI6_DISCARD)
    ]


def extra_placements(state: MatchState, seat: int) -> list[dict]:
    """AI-2 ``place_extra`` commands: a reserve card (not one 115/116 returned this turn)
    orthogonally adjacent to any card, outside the frame allowed (RULINGS, AI-2).

    RULINGS R-SHARED-AI2, R-AI2.
    """
    s = state.seats[seat]
    cells = placement_cells(s.tableau, diagonal=False, frame=False)
    out: list[dict[str, Any]] = []
    for card in sorted(set(s.reserve)):
        if card == s.locked:
            continue
        targets = copy_targets(state, seat, card) if roles.role(card) == roles.COPY else []
        for pos in cells:
            base = {"type": "place_extra", "card": card, "cell": [pos[0], pos[1]]}
            if targets:
                out.extend({**base, "copy": t} for t in targets)
            else:
                out.append(base)
    return out
