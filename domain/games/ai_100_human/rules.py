"""``decide``: validate one seat's command against the rules and return the events it causes.

Checks, in order: the match runs (``match_finished``), the command is a known type
(``unknown_action``) with a body its JSON Schema accepts (``invalid_command``,
:func:`domain.modular.check_command`), the seat owes a
decision (``not_your_turn``) of a kind this command answers (``wrong_step``), then the
rule itself with a fine code (``card_not_in_hand``, ``cell_not_available``, ...). Finally
the command must be one of :func:`actions.legal_actions` (``illegal_move``). The seat's
event is followed by every automatic event it unlocks (:func:`flow.advance`).
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from domain.engine import Event, IllegalMove, MatchFinished, NotYourTurn
from domain.modular import check_command

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


def decide(state: MatchState, seat: int, command: Mapping[str, Any],
           rng: random.Random) -> list[Event]:
    """Events caused by ``seat`` sending ``command`` (``state`` is not modified).

    Raises: MatchFinished, UnknownAction, InvalidCommand, NotYourTurn, IllegalMove.
    """
    if state.result is not None:
        raise MatchFinished()
    command = check_command(COMMAND_SCHEMAS, command)
    ctype = command["type"]
    if not isinstance(seat, int) or not 0 <= seat < state.seat_count:
        raise NotYourTurn("This seat does not exist in the match.")
    kind = A.seat_pending(state, seat)
    if kind is None:
        raise NotYourTurn("You have no decision to make now; wait for the other seats.")
    if ctype not in ANSWERS[kind]:
        raise IllegalMove(f"Now you must decide {kind!r}; {ctype!r} is not possible.", "wrong_step")
    _explain_rejection(state, seat, command)
    if not A.is_legal(state, seat, command):       # one of legal_actions (canonical form)
        raise IllegalMove("The rules do not allow this command now.")
    rec = Recorder(clone(state))
    _own_events(rec, seat, command)
    flow.advance(rec, rng)
    return rec.events


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
        rec.emit("AIPowerUsed", {"power": roles.EXCHANGE_TWO, "ai_card": s.ai_card,
                                 "cells": [list(c) for c in command["cells"]]}, seat)
    elif ctype == "use_ai6":                 # R-AI6-STEPS step 1: the draw, recorded
        drawn = list(rec.state.deck[:AI6_DRAW])
        rec.emit("AIPowerUsed", {"power": roles.DRAW_TWO, "ai_card": s.ai_card, "drawn": drawn},
                 seat)
    elif ctype == "ai6_discard":             # step 2: the discard, after seeing the draw
        rec.emit("PowerCardsDiscarded", {"power": roles.DRAW_TWO, "ai_card": s.ai_card,
                                         "cards": sorted(command["cards"])}, seat)
    elif ctype == "place_extra":
        card, pos = command["card"], (command["cell"][0], command["cell"][1])
        rec.emit("ExtraCardPlaced", {"card": card, "cell": list(pos), "via": s.ai_card}, seat)
        if roles.role(card) == roles.COPY_POINTS and rec.state.mode == "solo":
            score_copy_points(rec, seat, card, pos, via=s.ai_card)
        elif roles.role(card) == roles.COPY_POINTS:
            rec.emit("VPScored", {"reason": "card", "card": card, "cell": list(pos), "vp": 0,
                                  "from_seat": None, "via": s.ai_card}, seat)
        else:
            score_played_card(rec, seat, card, pos, copy=command.get("copy"), via=s.ai_card)


def _explain_rejection(state: MatchState, seat: int, command: Mapping[str, Any]) -> None:
    """Raise the most precise rule error for a command that is not legal (fine codes)."""
    s = state.seats[seat]
    ctype = command["type"]
    card = command.get("card")
    if ctype == "choose_ai_side" and card not in s.ai_pair:
        raise IllegalMove("Choose one of the two sides of the AI card you were dealt.", "side_not_dealt")
    if ctype == "keep_reserve":
        cards = command["cards"]
        if any(c not in s.dealt for c in cards):
            raise IllegalMove("Keep only cards dealt to you for the reserve.", "card_not_dealt")
        if len(cards) != A.keep_count(state, seat):
            raise IllegalMove(f"Keep exactly {A.keep_count(state, seat)} cards.", "wrong_keep_count")
    if ctype == "draft" and state.mode == "solo":
        if card not in {c for _, c in solo.offer(state)}:
            raise IllegalMove("Take one of the cards of the row/column where your standee is.",
                              "card_not_offered")
    elif ctype in ("draft", DISCARD) and card not in s.hand:
        raise IllegalMove("That card is not in your hand.", "card_not_in_hand")
    if ctype in ("place", "place_extra"):
        if card not in s.reserve:
            raise IllegalMove("That card is not in your reserve.", "card_not_in_reserve")
        if card == s.locked:
            raise IllegalMove("The card returned to the reserve cannot be placed this turn.",
                              "card_locked")
        cells = (placement_cells(s.tableau, diagonal=powers.diagonal(state, seat))
                 if ctype == "place" else
                 [tuple(a["cell"]) for a in powers.extra_placements(state, seat)])
        if tuple(command["cell"]) not in cells:
            raise IllegalMove("A card must go to an empty cell next to a card of your tableau, "
                              "inside the frame.", "cell_not_available")
    if ctype == "use_ai6":
        if roles.ai_power(s.ai_card) != roles.DRAW_TWO:
            raise IllegalMove("Only the AI-6 side has this power.", "not_your_power")
        if s.ai6_used:
            raise IllegalMove("AI-6 can be used once per phase.", "power_used")
        if not powers.ai6_available(state, seat):
            raise IllegalMove(f"AI-6 needs at least {AI6_MIN_HAND} cards in your hand to "
                              "discard (solo: 3 cards in the standee's row/column).",
                              "hand_too_small")
    if ctype == "ai6_discard" and any(c not in powers.ai6_hand(state, seat)
                                      for c in command["cards"]):
        raise IllegalMove("Discard two cards from your hand (solo: from the standee's "
                          "row/column).", "card_not_in_hand")
    if ctype == "use_ai5":
        if roles.ai_power(s.ai_card) != roles.EXCHANGE_TWO:
            raise IllegalMove("Only the AI-5 side has this power.", "not_your_power")
        if s.ai5_used:
            raise IllegalMove("AI-5 can be used once per game.", "power_used")
    if ctype == "copy" and card not in {a["card"] for a in A.legal_actions(state, seat)}:
        raise IllegalMove("Copy a card of the printed colour from an adjacent player's tableau.",
                          "invalid_copy_target")


def _plain(command: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in command.items()}
