"""``decide``: validate one seat's command against the rules and return the events it causes.

This game's parts of the :class:`domain.decider.GameRules` template, checked in its order:
the match runs (``match_finished``), the seat owes a decision (``not_your_turn``), the
command is a known type (``unknown_action``) with a body its JSON Schema accepts
(``invalid_command``), then it must be one of :func:`actions.legal_actions`; when it is
not, the most precise reason: a kind the pending decision does not take (``wrong_step``),
the rule itself with a fine code (``card_not_in_hand``, ``cell_not_available``, ...), else
``illegal_move``. The seat's event is followed by every automatic event it unlocks
(:func:`flow.advance`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.decider import GameRules
from domain.engine import Event, IllegalMove

from . import actions as A
from . import flow, powers, roles, solo
from .duo import DISCARD
from .recorder import Recorder
from .spec import AI6_DRAW, AI6_MIN_HAND, COMMAND_SCHEMAS
from .state import MatchState, clone
from .tableau import placement_cells
from .turn_scoring import score_copy_points, score_played_card

# Which command types answer which pending decision kind.
ANSWERS: dict[str, tuple[str, ...]] = {
    A.CHOOSE_AI_SIDE: ("choose_ai_side",),
    A.KEEP_RESERVE: ("keep_reserve",),
    A.DRAFT: ("draft", "use_ai5", "use_ai6"),
    A.AI6_DISCARD: ("ai6_discard",),
    DISCARD: ("discard",),
    A.PLACE: ("place", "use_ai5"),
    A.COPY: ("copy",),
    A.EXCHANGE_RESERVE: ("exchange_reserve",),
    A.MOVE_CARD: ("move_card", "decline"),
    A.PLACE_EXTRA: ("place_extra",),
}


class Rules(GameRules):
    """The parts of the :class:`domain.decider.GameRules` template for this game."""

    command_schemas = COMMAND_SCHEMAS
    wait_detail = "You have no decision to make now; wait for the other seats."

    def finished(self, state: MatchState) -> bool:
        """The match has a result."""
        return state.result is not None

    def pending_kind(self, state: MatchState, seat: int) -> str | None:
        """:func:`actions.seat_pending` for a seat of the match, else ``None``."""
        return A.seat_pending(state, seat) if seat < state.seat_count else None

    def is_legal(self, state: MatchState, seat: int, command: dict[str, Any], kind: str) -> bool:
        """One of :func:`actions.legal_actions` (canonical form, :func:`actions.is_legal`)."""
        return A.is_legal(state, seat, command)

    def rejection(
        self, state: MatchState, seat: int, command: dict[str, Any], kind: str
    ) -> IllegalMove:
        """``wrong_step`` when the command does not answer the pending ``kind``, else the
        fine code of :func:`_explain_rejection`, else ``illegal_move``."""
        ctype = command["type"]
        if ctype not in ANSWERS[kind]:
            return IllegalMove(
                f"Now you must decide {kind!r}; {ctype!r} is not possible.", "wrong_step"
            )
        return _explain_rejection(state, seat, command) or IllegalMove(
            "The rules do not allow this command now."
        )

    def apply(
        self, state: MatchState, seat: int, command: dict[str, Any], rng: random.Random
    ) -> list[Event]:
        """The seat's own events, then every automatic event they unlock (:func:`flow.advance`)."""
        rec = Recorder(clone(state))
        _own_events(rec, seat, command)
        flow.advance(rec, rng)
        return rec.events


#: this game's rules; ``decide(state, seat, command, rng)`` is :meth:`GameRules.decide`
RULES = Rules()
decide = RULES.decide


def apply_unchecked(rec: Recorder, seat: int, command: Mapping[str, Any]) -> None:
    """Emit into ``rec`` the events of ``seat``'s own ``command`` (the seat's decision only,
    not the automatic transitions that follow: call :func:`flow.advance` for those).

    Unlike :func:`decide` nothing is validated: ``command`` must already be one of
    :func:`actions.legal_actions` for ``seat`` in ``rec.state`` (a look-ahead such as the
    ``expert`` bot's rollouts builds only such commands). An illegal command leaves the
    state inconsistent or raises ``KeyError``/``ValueError``/``IndexError`` from the fold.
    Rulebook B (draft, place), A.1 (reserve), "Copying cards", the black cards and AI
    powers, "2-Player Mode" (discard) and "Solo Mode" (taking from the draft grid).
    """
    _own_events(rec, seat, command)


def _own_events(rec: Recorder, seat: int, command: Mapping[str, Any]) -> None:
    s = rec.state.seats[seat]
    ctype = command["type"]
    if ctype == "choose_ai_side":
        rec.emit("AISideChosen", {"card": command["card"]}, seat)
    elif ctype == "keep_reserve":
        kept = sorted(command["cards"])
        rec.emit("ReserveKept", {"kept": kept}, seat)
    elif ctype == "draft" and rec.state.mode == "solo":
        solo.take(rec, seat, command["card"])
    elif ctype == "draft":
        rec.emit("CardDrafted", {"card": command["card"], "forced": False}, seat)
    elif ctype == DISCARD:
        rec.emit("CardDiscarded", {"card": command["card"], "forced": False}, seat)
    elif ctype == "place":
        rec.emit("PlacementChosen", {"card": command["card"], "cell": list(command["cell"])}, seat)
    elif ctype in ("copy", "exchange_reserve", "move_card", "decline"):
        rec.emit("ResolutionChosen", {"command": _plain(command)}, seat)
    elif ctype == "use_ai5":
        rec.emit(
            "AIPowerUsed",
            {
                "power": roles.EXCHANGE_TWO,
                "ai_card": s.ai_card,
                "cells": [list(c) for c in command["cells"]],
            },
            seat,
        )
    elif ctype == "use_ai6":  # R-AI6-STEPS step 1: the draw, recorded
        drawn = list(rec.state.deck[:AI6_DRAW])
        rec.emit(
            "AIPowerUsed", {"power": roles.DRAW_TWO, "ai_card": s.ai_card, "drawn": drawn}, seat
        )
    elif ctype == "ai6_discard":  # step 2: the discard, after seeing the draw
        rec.emit(
            "PowerCardsDiscarded",
            {"power": roles.DRAW_TWO, "ai_card": s.ai_card, "cards": sorted(command["cards"])},
            seat,
        )
    elif ctype == "place_extra":
        card, pos = command["card"], (command["cell"][0], command["cell"][1])
        rec.emit("ExtraCardPlaced", {"card": card, "cell": list(pos), "via": s.ai_card}, seat)
        if roles.role(card) == roles.COPY_POINTS and rec.state.mode == "solo":
            score_copy_points(rec, seat, card, pos, via=s.ai_card)
        elif roles.role(card) == roles.COPY_POINTS:
            rec.emit(
                "VPScored",
                {
                    "reason": "card",
                    "card": card,
                    "cell": list(pos),
                    "vp": 0,
                    "from_seat": None,
                    "via": s.ai_card,
                },
                seat,
            )
        else:
            score_played_card(rec, seat, card, pos, copy=command.get("copy"), via=s.ai_card)


def _explain_rejection(
    state: MatchState, seat: int, command: Mapping[str, Any]
) -> IllegalMove | None:
    """The most precise rule error for a command that is not legal (fine codes), ``None``
    when there is no finer reason than ``illegal_move``."""
    s = state.seats[seat]
    ctype = command["type"]
    card = command.get("card")
    if ctype == "choose_ai_side" and card not in s.ai_pair:
        return IllegalMove(
            "Choose one of the two sides of the AI card you were dealt.", "side_not_dealt"
        )
    if ctype == "keep_reserve":
        cards = command["cards"]
        if any(c not in s.dealt for c in cards):
            return IllegalMove("Keep only cards dealt to you for the reserve.", "card_not_dealt")
        if len(cards) != A.keep_count(state, seat):
            return IllegalMove(
                f"Keep exactly {A.keep_count(state, seat)} cards.", "wrong_keep_count"
            )
    if ctype == "draft" and state.mode == "solo":
        if card not in {c for _, c in solo.offer(state)}:
            return IllegalMove(
                "Take one of the cards of the row/column where your standee is.", "card_not_offered"
            )
    elif ctype in ("draft", DISCARD) and card not in s.hand:
        return IllegalMove("That card is not in your hand.", "card_not_in_hand")
    if ctype in ("place", "place_extra"):
        if card not in s.reserve:
            return IllegalMove("That card is not in your reserve.", "card_not_in_reserve")
        if card == s.locked:
            return IllegalMove(
                "The card returned to the reserve cannot be placed this turn.", "card_locked"
            )
        cells = (
            placement_cells(s.tableau, diagonal=powers.diagonal(state, seat))
            if ctype == "place"
            else [tuple(a["cell"]) for a in powers.extra_placements(state, seat)]
        )
        if tuple(command["cell"]) not in cells:
            return IllegalMove(
                "A card must go to an empty cell next to a card of your tableau, inside the frame.",
                "cell_not_available",
            )
    if ctype == "use_ai6":
        if roles.ai_power(s.ai_card) != roles.DRAW_TWO:
            return IllegalMove("Only the AI-6 side has this power.", "not_your_power")
        if s.ai6_used:
            return IllegalMove("AI-6 can be used once per phase.", "power_used")
        if not powers.ai6_available(state, seat):
            return IllegalMove(
                f"AI-6 needs at least {AI6_MIN_HAND} cards in your hand to "
                "discard (solo: 3 cards in the standee's row/column).",
                "hand_too_small",
            )
    if ctype == "ai6_discard" and any(
        c not in powers.ai6_hand(state, seat) for c in command["cards"]
    ):
        return IllegalMove(
            "Discard two cards from your hand (solo: from the standee's row/column).",
            "card_not_in_hand",
        )
    if ctype == "use_ai5":
        if roles.ai_power(s.ai_card) != roles.EXCHANGE_TWO:
            return IllegalMove("Only the AI-5 side has this power.", "not_your_power")
        if s.ai5_used:
            return IllegalMove("AI-5 can be used once per game.", "power_used")
    if ctype == "copy" and card not in {a["card"] for a in A.legal_actions(state, seat)}:
        return IllegalMove(
            "Copy a card of the printed colour from an adjacent player's tableau.",
            "invalid_copy_target",
        )
    return None


def _plain(command: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in command.items()}
