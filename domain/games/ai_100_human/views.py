"""What one seat (or a spectator, ``viewer=None``) may see: ``view`` and ``redact``.

Public: tableaux, scores, phase/turn/step, objectives, dealt AI cards (the chosen side once
all chose), hand/reserve/deck counts, who has decided this step (not what), last reveal.
Private to the owning seat: hand, reserve, reserve-creation cards, its chosen AI side before
the reveal, its hidden choice of the step, cards it drew or discarded (AI-6: both steps,
``AIPowerUsed`` and ``PowerCardsDiscarded``, show others counts only). Never shown: the
deck order (DESIGN.md "Hidden information").

2-player mode adds the public ``neutral_grid``; the discard and the drawn card are private
(others see that a card was discarded / drawn, not which). Solo adds ``solo``: the draft
grid (face up), dividers, standee, tilted cells, the timer stack's count (never its
order), the rating ladder and, once finished, the rating.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from domain.engine import Event

from . import solo
from .actions import PLACE, legal_actions, seat_pending
from .spec import GAME_ID
from .state import MatchState, tableau_json
from .turn_scoring import placement_previews


def view(state: MatchState, viewer: int | None) -> dict[str, Any]:
    """The match as ``viewer`` sees it (JSON-serialisable)."""
    seats = []
    for index, s in enumerate(state.seats):
        seats.append(
            {
                "seat": index,
                "score": s.score,
                "turn_vp": s.turn_vp,
                "ai_cards_dealt": list(s.ai_pair),
                "ai_card": s.ai_card if s.ai_revealed else None,
                "tableau": tableau_json(s.tableau),
                "hand_count": len(s.hand),
                "reserve_count": len(s.reserve),
                "dealt_count": len(s.dealt),
                "pending": seat_pending(state, index),
                "decided": _decided(state, index),
                "ai5_used": s.ai5_used,
                "ai6_used": s.ai6_used,
            }
        )
    out: dict[str, Any] = {
        "game": GAME_ID,
        "mode": state.mode,
        "seat_count": state.seat_count,
        "phase": state.phase,
        "turn": state.turn,
        "step": state.step,
        "objectives": {"phase1": state.objectives["1"], "phase2": state.objectives["2"]},
        "current_objective": state.objectives[str(state.phase)],
        "pass_direction": "left" if state.phase == 1 else "right",
        "deck_count": len(state.deck),
        "last_reveal": copy.deepcopy(state.last_reveal),
        "seats": seats,
        "result": state.result,
        "you": None,
    }
    if state.mode == "duo":
        out["neutral_grid"] = tableau_json(state.neutral)
    if state.mode == "solo":
        out["pass_direction"] = None
        out["solo"] = {
            "draft_grid": tableau_json(state.grid),
            "dividers": {k: list(v) for k, v in state.dividers.items()},
            "standee": dict(state.standee) if state.standee else None,
            "offer": [c for _, c in solo.offer(state)] if state.step == "draft" else [],
            "tilted": [list(p) for p in state.tilted],
            "timer_count": len(state.timer),
            "ladder": solo.ladder_json(),
            "rating": state.result.get("rating") if state.result else None,
        }
    if isinstance(viewer, int) and 0 <= viewer < state.seat_count:
        s = state.seats[viewer]
        out["you"] = {
            "seat": viewer,
            "ai_card": s.ai_card,
            "hand": list(s.hand),
            "reserve": list(s.reserve),
            "dealt": list(s.dealt),
            "choice": copy.deepcopy(s.choice) if s.choice else None,
            "locked": s.locked,
            "pending": seat_pending(state, viewer),
            "previews": (
                placement_previews(
                    state, viewer, [a for a in legal_actions(state, viewer) if a["type"] == PLACE]
                )
                if seat_pending(state, viewer) == PLACE
                else []
            ),
        }
    return out


def _decided(state: MatchState, seat: int) -> bool:
    """True when ``seat`` already decided in a step where it had something to decide."""
    s = state.seats[seat]
    if state.step == "setup":
        return s.ai_card is not None and not s.dealt
    return s.done


# ---------------------------------------------------------------- redaction


def redact(event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
    """``event.data`` as ``viewer`` may see it (the owner of a private event sees all).

    RULINGS R-HIDDEN, R-HIDDEN-MODES.
    """
    rule = _REDACTIONS.get(event.type)
    data = dict(event.data)
    if rule is None:
        return data
    return rule(data, event.seat is not None and viewer == event.seat)


def _private(keep: Callable[[Mapping[str, Any]], dict[str, Any]]):
    def _rule(data: Mapping[str, Any], own: bool) -> dict[str, Any]:
        return dict(data) if own else keep(data)

    return _rule


def _shuffle(data: Mapping[str, Any], own: bool) -> dict[str, Any]:
    """The deck order is hidden from everyone, the owner of no seat included."""
    return {"phase": data["phase"], "reason": data["reason"], "count": len(data["order"])}


def _power(data: Mapping[str, Any], own: bool) -> dict[str, Any]:
    """AI-6 step 1: others see that the power was used and how many cards were drawn
    (``discarded_count`` too in a log of the former one-step AI-6)."""
    if own or "drawn" not in data:
        return dict(data)
    out = {"power": data["power"], "ai_card": data["ai_card"], "drawn_count": len(data["drawn"])}
    if "discarded" in data:
        out["discarded_count"] = len(data["discarded"])
    return out


_REDACTIONS: dict[str, Callable[[Mapping[str, Any], bool], dict[str, Any]]] = {
    "DeckShuffled": _shuffle,
    "CardsDealt": _private(lambda d: {"purpose": d["purpose"], "count": len(d["cards"])}),
    "AISideChosen": _private(lambda d: {}),
    "ReserveKept": _private(lambda d: {"kept_count": len(d["kept"])}),
    "CardDrafted": _private(lambda d: {"forced": d["forced"]}),
    "PlacementChosen": _private(lambda d: {}),
    "ResolutionChosen": _private(lambda d: {}),
    "CardsDrawn": _private(
        lambda d: {
            "count": len(d["cards"]),
            "reason": d["reason"],
            **({"to": d["to"]} if "to" in d else {}),
        }
    ),
    "CardDiscarded": _private(lambda d: {"forced": d["forced"]}),
    "AIPowerUsed": _power,
    "PowerCardsDiscarded": _private(
        lambda d: {"power": d["power"], "ai_card": d["ai_card"], "count": len(d["cards"])}
    ),
}
