"""``pending`` and ``legal_actions``: who decides now and every command they may send.

Game Setup (B): every seat chooses its faction at once. Recruitment: every living seat that
is not ready (``recruit``, or ``choose_special`` after drawing Special Units). Battle: the
seats with an open reaction decision (``react``), several at once; when no reaction is
open, the seats whose battle card fits no active unit choose where it goes (``place_card``).
"""
from __future__ import annotations

from typing import Any, Mapping

from . import battle, recruitment
from .state import alive


def pending(state: Mapping[str, Any]) -> dict[int, str]:
    """Seats that must act now -> decision kind."""
    phase = state["phase"]
    if phase == "faction":
        return {s: "choose_faction" for s, p in enumerate(state["players"]) if not p["faction"]}
    if phase == "recruitment":
        return {s: ("choose_special" if state["players"][s]["offer"] else "recruit")
                for s in alive(state) if not state["players"][s]["ready"]}
    if phase == "battle":
        react = {s: "react" for s in battle.eligible(state)}
        return react or {s: "place_card" for s in battle.placing(state)}
    return {}


def legal_actions(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now (empty when it has no pending decision)."""
    kind = pending(state).get(seat)
    if kind is None:
        return []
    if kind == "choose_faction":
        return [{"type": "choose_faction", "faction": f} for f in state["players"][seat]["offered"]]
    if kind in ("recruit", "choose_special"):
        return recruitment.legal(state, seat)
    if kind == "place_card":
        return [{"type": "place_card", "slot": i} for i in battle.needs_placement(state, seat)]
    return battle.reactions(state, seat)
