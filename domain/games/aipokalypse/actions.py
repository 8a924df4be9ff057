"""``pending`` and ``legal_actions``: who decides now and every command they may send.

Expert Variant: every seat drafts at once (:mod:`.draft`). Game Setup (B): every seat
chooses its faction at once. Recruitment: every living seat that
is not ready (``recruit``, or ``choose_special`` after drawing Special Units). An open effect
decision (``choice``, see :mod:`.rules`) blocks everyone but its chooser. Battle: the
seats with an open reaction decision (``react``), several at once; when no reaction is
open, the seats whose battle card fits no active unit choose where it goes (``place_card``).
"""

from __future__ import annotations

from typing import Any

from . import battle, draft, recruitment
from .effects import modifiers
from .state import MatchState, alive, choice_of


def pending(state: MatchState) -> dict[int, str]:
    """Seats that must act now -> decision kind."""
    phase = state.phase
    choice = state.choice
    if choice:
        return {choice["seat"]: "choose"}  # an effect waits for this decision
    if phase == "draft":
        return draft.pending(state)
    if phase == "faction":
        return {s: "choose_faction" for s in range(state.n) if not state.players[s].faction}
    if phase == "recruitment":
        return {
            s: ("choose_special" if state.players[s].offer else "recruit")
            for s in alive(state)
            if not state.players[s].ready
        }
    if phase == "battle":
        react = {s: "react" for s in battle.eligible(state)}
        return react or {s: "place_card" for s in battle.placing(state, none_eligible=True)}
    return {}


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now (empty when it has no pending decision)."""
    kind = pending(state).get(seat)
    if kind is None:
        return []
    if kind == "choose":
        return [{"type": "choose", "option": o} for o in choice_of(state)["options"]]
    if kind in ("draft_special", "order_health"):
        return draft.legal(state, seat)
    if kind == "choose_faction":
        return [{"type": "choose_faction", "faction": f} for f in state.players[seat].offered]
    if kind in ("recruit", "choose_special"):
        return recruitment.legal(state, seat)
    if kind == "place_card":
        p = state.players[seat]
        return [{"type": "place_card", "slot": i} for i in battle.needs_placement(state, seat)] + [
            {"type": "cash_pool", "card": c} for c in modifiers.can_cash(state, p)
        ]  # Big Benji
    return battle.reactions(state, seat)
