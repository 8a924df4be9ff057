"""``pending`` and ``legal_actions``: who must decide now and every command they may send.

``legal_actions`` is the single source of what may be done: ``decide`` accepts exactly
these commands (compared in the canonical form :func:`canonical`), and bots pick from them.
"""
from __future__ import annotations

import json
from itertools import combinations
from typing import Any, Mapping

from . import hacking, powers, roles, solo
from .duo import DISCARD
from .spec import RESERVE_KEEP, RESERVE_KEEP_ONGOING
from .state import MatchState
from .tableau import placement_cells

# decision kinds reported by pending()
CHOOSE_AI_SIDE = "choose_ai_side"
KEEP_RESERVE = "keep_reserve"
DRAFT = "draft"
PLACE = "place"
COPY = "copy"
EXCHANGE_RESERVE = "exchange_reserve"
MOVE_CARD = "move_card"
PLACE_EXTRA = "place_extra"
AI6_DISCARD = "ai6_discard"      # AI-6 step 2 (ruling R-AI6-STEPS), within the draft step
# DISCARD = "discard" (2-player mode, imported from .duo)


def keep_count(state: MatchState, seat: int) -> int:
    """Cards kept when creating the reserve (A.1): 2, or 3 at the start of Phase 2 for a
    seat whose tableau holds 117/118; never more than were dealt."""
    s = state.seats[seat]
    keep = RESERVE_KEEP_ONGOING if state.phase == 2 and roles.keeps_three(s.tableau) else RESERVE_KEEP
    return min(keep, len(s.dealt))


def placeable(state: MatchState, seat: int) -> list[str]:
    """Reserve cards ``seat`` may place this turn (not the card 115/116 returned)."""
    s = state.seats[seat]
    return [c for c in s.reserve if c != s.locked]


def seat_pending(state: MatchState, seat: int) -> str | None:
    """The decision ``seat`` owes in the current step, or ``None``."""
    s = state.seats[seat]
    if state.result is not None or s.done:
        return None
    if state.step == "setup":
        if state.phase == 1 and s.ai_card is None:
            return CHOOSE_AI_SIDE
        return KEEP_RESERVE if s.dealt else None
    if state.step == "draft":
        if s.ai6_discarding:
            return AI6_DISCARD
        if state.mode == "solo":
            return DRAFT if solo.offer(state) else None
        return DRAFT if s.hand else None
    if state.step == DISCARD:
        return DISCARD if s.hand else None
    if state.step == "place":
        return PLACE if placeable(state, seat) else None
    if state.step in ("resolve", "extra"):
        return s.need
    return None


def pending(state: MatchState) -> dict[int, str]:
    """``{seat: decision kind}`` for every seat that must act now (simultaneous steps)."""
    out = {}
    for seat in range(state.seat_count):
        kind = seat_pending(state, seat)
        if kind is not None:
            out[seat] = kind
    return out


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, in canonical form (empty when nothing to do)."""
    if not isinstance(seat, int) or not 0 <= seat < state.seat_count:
        return []
    kind = seat_pending(state, seat)
    s = state.seats[seat]
    if kind is None:
        return []
    if kind == CHOOSE_AI_SIDE:
        return [{"type": CHOOSE_AI_SIDE, "card": c} for c in s.ai_pair]
    if kind == KEEP_RESERVE:
        return [{"type": KEEP_RESERVE, "cards": sorted(combo)}
                for combo in combinations(sorted(s.dealt), keep_count(state, seat))]
    if kind == DRAFT:
        cards = sorted(c for _, c in solo.offer(state)) if state.mode == "solo" else sorted(s.hand)
        return ([{"type": DRAFT, "card": c} for c in cards]
                + powers.ai6_actions(state, seat) + powers.ai5_actions(state, seat))
    if kind == AI6_DISCARD:
        return powers.ai6_discards(state, seat)
    if kind == DISCARD:
        return [{"type": DISCARD, "card": c} for c in sorted(set(s.hand))]
    if kind == PLACE:
        cells = placement_cells(s.tableau, diagonal=powers.diagonal(state, seat))
        return ([{"type": PLACE, "card": c, "cell": [r, col]}
                 for c in sorted(set(placeable(state, seat))) for r, col in cells]
                + powers.ai5_actions(state, seat))
    if kind == COPY:
        return [{"type": COPY, "card": t}
                for t in hacking.copy_targets(state, seat, s.played["card"])]
    if kind == EXCHANGE_RESERVE:
        return hacking.reserve_exchanges(state, seat)
    if kind == MOVE_CARD:
        moves = hacking.moves_to_empty(s.tableau, powers.diagonal(state, seat))
        return ([{"type": MOVE_CARD, "from": [a[0], a[1]], "to": [b[0], b[1]]} for a, b in moves]
                + [{"type": "decline"}])
    if kind == PLACE_EXTRA:
        return powers.extra_placements(state, seat)
    return []


def canonical(command: Mapping[str, Any]) -> str:
    """A comparable key for a command: sorted keys, order-free lists sorted."""
    c = dict(command)
    if c.get("type") == KEEP_RESERVE and isinstance(c.get("cards"), list):
        c["cards"] = sorted(c["cards"], key=str)
    if c.get("type") == AI6_DISCARD and isinstance(c.get("cards"), list):
        c["cards"] = sorted(c["cards"], key=str)
    if c.get("type") == "use_ai5" and isinstance(c.get("cells"), list):
        c["cells"] = sorted((list(x) for x in c["cells"]), key=str)
    return json.dumps(c, sort_keys=True, separators=(",", ":"))
