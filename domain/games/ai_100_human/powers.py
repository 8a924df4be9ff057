"""AI card powers that need decisions (rulebook "AI Cards Details").

Timing (ruling R-POWERS): AI-5 (once per game) and AI-6 (once per phase) are optional
actions a seat may take during its own draft step before drafting; AI-5 also during its
own place step before choosing its placement. AI-6 needs at least 3 hand cards (so a card
is still drafted after discarding 2). AI-2 places one reserve card at the end of Phase 2,
after the Phase 2 objective and before AI card scoring.
"""
from __future__ import annotations

from itertools import combinations

from . import roles, solo
from .hacking import card_swaps, copy_targets, moves_to_empty
from .spec import AI6_MIN_HAND
from .state import MatchState
from .tableau import placement_cells


def diagonal(state: MatchState, seat: int) -> bool:
    """AI-8: "you may place Development cards diagonally adjacent"."""
    return roles.ai_power(state.seats[seat].ai_card) == roles.DIAGONAL_PLACEMENT


def ai5_actions(state: MatchState, seat: int) -> list[dict]:
    """``use_ai5`` commands: swap two development cards, or one with an empty cell
    (connectivity kept, R-ADJ); empty when AI-5 is not this seat's side or was used."""
    s = state.seats[seat]
    if not s.ai_revealed or roles.ai_power(s.ai_card) != roles.EXCHANGE_TWO or s.ai5_used:
        return []
    pairs = card_swaps(s.tableau) + moves_to_empty(s.tableau, diagonal(state, seat))
    return [{"type": "use_ai5", "cells": [[a[0], a[1]], [b[0], b[1]]]} for a, b in pairs]


def ai6_actions(state: MatchState, seat: int) -> list[dict]:
    """``use_ai6`` commands (one per pair of hand cards to discard); empty when unavailable.
    Solo (R-SOLO-AI6): the "hand" is the offer of the standee's line."""
    s = state.seats[seat]
    hand = solo.ai6_offer(state) if state.mode == "solo" else sorted(s.hand)
    if (not s.ai_revealed or roles.ai_power(s.ai_card) != roles.DRAW_TWO or s.ai6_used
            or len(hand) < AI6_MIN_HAND):
        return []
    return [{"type": "use_ai6", "discard": sorted(pair)}
            for pair in combinations(hand, 2)]


def extra_placements(state: MatchState, seat: int) -> list[dict]:
    """AI-2 ``place_extra`` commands: a reserve card (not one 115/116 returned this turn)
    orthogonally adjacent to any card, outside the frame allowed (RULINGS, AI-2)."""
    s = state.seats[seat]
    cells = placement_cells(s.tableau, diagonal=False, frame=False)
    out = []
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
