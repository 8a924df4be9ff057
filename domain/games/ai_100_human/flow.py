"""The automatic part of the flow: what happens once every seat has decided a step.

Rulebook "2 Phases Overview": A (reserve creation, deal 7), B/C (draft, pass, place,
reveal, score) x7, D (last turn, discard the reserve), E (phase objective), then Phase 2
the same way passing right, then F (AI card scoring) and the end. ``advance`` emits the
events of every automatic transition until some seat owes a decision or the match ends.
Randomness (shuffles, objective choice, AI card deal) comes only from ``rng``.
The 2-player mode (:mod:`.duo`) and the solo mode (:mod:`.solo`) plug in at set-up, after
the draft and at the end of each turn; everything else is the same flow.
"""

from __future__ import annotations

import random
from typing import Any

from domain.lifecycle import demote

from . import duo, hacking, roles, solo
from .actions import COPY, EXCHANGE_RESERVE, MOVE_CARD, PLACE_EXTRA, pending
from .cards import catalogue
from .powers import diagonal, extra_placements
from .recorder import Recorder
from .scoring import score_ai_card, score_objective
from .spec import (
    HAND_SIZE,
    PASS_DIRECTION,
    RESERVE_DEAL,
    STARTER_OBJECTIVES,
    TURNS_PER_PHASE,
    mode_for,
    option_default,
)
from .state import MatchState
from .turn_scoring import score_turn


def start_match(rec: Recorder, seats: int, options: dict[str, Any], rng: random.Random) -> None:
    """Setup 3-5 and Phase 1 A.1: objectives, AI cards, Phase 1 deck, 4 cards per seat.

    The mode follows ``seats`` (spec.mode_for). Solo: every AI side is offered to the seat
    ("Choose your AI card", R-SOLO-AI); otherwise one random physical card per seat.
    """
    cat = catalogue()
    chosen = options.get("objectives", option_default("objectives"))
    if chosen == "starter":
        objectives = {"1": STARTER_OBJECTIVES[1], "2": STARTER_OBJECTIVES[2]}
    elif chosen == "random":
        objectives = {str(p): rng.choice(cat.objectives_for(p)) for p in (1, 2)}
    else:
        objectives = {"1": chosen["phase1"], "2": chosen["phase2"]}
    mode = mode_for(seats)
    rec.emit(
        "MatchStarted", {"seats": seats, "options": options, "objectives": objectives, "mode": mode}
    )
    if mode == "solo":
        rec.emit("AICardsDealt", {"cards": [solo.all_ai_sides()]})
    else:
        pairs = rng.sample(list(cat.ai_cards), seats)
        rec.emit("AICardsDealt", {"cards": [list(p) for p in pairs]})
    start_phase(rec, 1, rng)


def start_phase(rec: Recorder, phase: int, rng: random.Random) -> None:
    """A.1 of ``phase``: shuffle its 60 cards, deal 4 to each seat for the reserve
    (2-player mode: first reveal 2 neutral grid columns; solo: see :func:`solo.start_phase`)."""
    rec.emit("PhaseStarted", {"phase": phase})
    order = list(catalogue().phase_deck(phase))
    rng.shuffle(order)
    rec.emit("DeckShuffled", {"phase": phase, "reason": "phase", "order": order})
    if rec.state.mode == "solo":
        solo.start_phase(rec, phase, rng)
        return
    if rec.state.mode == "duo":
        duo.reveal_neutral(rec, phase)
    for seat in range(rec.state.seat_count):
        rec.emit("CardsDealt", {"purpose": "reserve", "cards": rec.state.deck[:RESERVE_DEAL]}, seat)


def advance(rec: Recorder, rng: random.Random) -> None:
    """Emit automatic transitions while nobody owes a decision and the match runs."""
    while rec.state.result is None and not pending(rec.state):
        step = rec.state.step
        if step == "setup":
            _finish_setup(rec, rng)
        elif step == "draft":
            _finish_draft(rec)
        elif step == duo.DISCARD:
            duo.finish_discard(rec)
        elif step == "place":
            _finish_place(rec, rng)
        elif step == "resolve":
            score_turn(rec)
            _end_turn(rec, rng)
        elif step == "extra":
            _end_match(rec)
        else:  # pragma: no cover - every step is handled above
            raise AssertionError(f"unknown step {step!r}")


def _finish_setup(rec: Recorder, rng: random.Random) -> None:
    """Phase set-up done (sides chosen, cards kept): reveal the AI sides together (Phase 1),
    shuffle the cards not kept back into the deck and deal the turn hands. RULINGS R-SETUP."""
    state = rec.state
    if state.phase == 1 and not all(s.ai_revealed for s in state.seats):
        rec.emit("AISidesRevealed", {"cards": [s.ai_card for s in state.seats]})
    if state.mode == "solo":
        solo.finish_setup(rec)
    order = list(state.deck)
    rng.shuffle(order)
    rec.emit("DeckShuffled", {"phase": state.phase, "reason": "returned", "order": order})
    if state.mode != "solo":  # solo drafts from the grid, it has no hand
        for seat in range(state.seat_count):
            rec.emit("CardsDealt", {"purpose": "hand", "cards": rec.state.deck[:HAND_SIZE]}, seat)
    _start_turn(rec, 1)


def _start_turn(rec: Recorder, turn: int) -> None:
    """B/C: a new drafting turn; a hand of a single card goes to the reserve by itself (D).

    RULINGS R-LAST.
    """
    state = rec.state
    rec.emit("StepStarted", {"phase": state.phase, "turn": turn, "step": "draft"})
    for seat, s in enumerate(rec.state.seats):
        if len(s.hand) == 1:
            rec.emit("CardDrafted", {"card": s.hand[0], "forced": True}, seat)


def _finish_draft(rec: Recorder) -> None:
    state = rec.state
    if state.mode == "duo":
        duo.start_discard(rec)
        return
    if state.mode == "standard" and any(s.hand for s in state.seats):
        rec.emit("HandsPassed", {"direction": PASS_DIRECTION[state.phase]})
    rec.emit("StepStarted", {"phase": state.phase, "turn": state.turn, "step": "place"})


def _finish_place(rec: Recorder, rng: random.Random) -> None:
    state = rec.state
    placements = [
        {"seat": i, "card": s.choice["card"], "cell": s.choice["cell"]}
        for i, s in enumerate(state.seats)
        if s.choice
    ]
    rec.emit("PlacementsRevealed", {"placements": placements})
    needs = {}
    for seat in range(len(rec.state.seats)):
        kind = resolution_needed(rec.state, seat)
        if kind:
            needs[str(seat)] = kind
    if needs:
        rec.emit(
            "StepStarted",
            {"phase": state.phase, "turn": state.turn, "step": "resolve", "needs": needs},
        )
    else:
        score_turn(rec)
        _end_turn(rec, rng)


def resolution_needed(state: MatchState, seat: int) -> str | None:
    """The decision a just-revealed card asks of its owner, when it has any option: the
    action kind ``"copy"``, ``"exchange_reserve"`` or ``"move_card"``, or None (rulebook,
    "Resolve the effects": a hacking card whose effect has no target asks nothing).

    Shared by the flow (the resolve step's ``needs``) and the expert bot's determinised
    states, so both read one test."""
    s = state.seats[seat]
    if not s.played:
        return None
    card = s.played["card"]
    r = roles.role(card)
    if r == roles.COPY and hacking.copy_targets(state, seat, card):
        return COPY
    if r == roles.EXCHANGE_RESERVE and hacking.reserve_exchanges(state, seat):
        return EXCHANGE_RESERVE
    if r == roles.EXCHANGE_EMPTY and hacking.moves_to_empty(s.tableau, diagonal(state, seat)):
        return MOVE_CARD
    return None


def _end_turn(rec: Recorder, rng: random.Random) -> None:
    state = rec.state
    if state.mode == "duo":
        duo.pass_hands(rec)
    elif state.mode == "solo":
        solo.refill(rec)
    if state.turn < TURNS_PER_PHASE:
        _start_turn(rec, state.turn + 1)
        return
    kept_by = [
        i
        for i, s in enumerate(state.seats)
        if state.phase == 2 and roles.ai_power(s.ai_card) == roles.EXTRA_PLACEMENT
    ]
    rec.emit(
        "ReservesDiscarded",
        {
            "counts": [0 if i in kept_by else len(s.reserve) for i, s in enumerate(state.seats)],
            "kept_by": kept_by,
        },
    )
    objective = state.objectives[str(state.phase)]
    for seat, s in enumerate(rec.state.seats):
        rec.emit(
            "VPScored",
            {
                "reason": "objective",
                "objective": objective,
                "vp": score_objective(objective, s.tableau),
            },
            seat,
        )
    if state.phase == 1:
        if state.mode == "solo":
            solo.discard_grid(rec)
        start_phase(rec, 2, rng)
        return
    needs = {str(i): PLACE_EXTRA for i in kept_by if extra_placements(rec.state, i)}
    if needs:
        rec.emit("StepStarted", {"phase": 2, "turn": state.turn, "step": "extra", "needs": needs})
    else:
        _end_match(rec)


def _end_match(rec: Recorder) -> None:
    """F: AI card scoring for every seat, then the result (shared victory on ties; solo:
    with its rating on the ladder)."""
    for seat, s in enumerate(rec.state.seats):
        rec.emit(
            "VPScored",
            {"reason": "ai_card", "card": s.ai_card, "vp": score_ai_card(s.ai_card, s.tableau)},
            seat,
        )
    scores = [s.score for s in rec.state.seats]
    result = demote(result_of(scores), list(rec.state.resigned))  # RULINGS R-RESIGN
    rec.emit("MatchEnded", solo.with_rating(result) if rec.state.mode == "solo" else result)


def result_of(scores: list[int]) -> dict[str, Any]:
    """``{"scores", "ranking": [{"seat","score","rank"}], "winners"}``; equal scores share
    a rank and the victory ("In case of tie, share the victory"). RULINGS R-RESULT."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    ranking = []
    for i in order:
        rank = 1 + sum(1 for x in scores if x > scores[i])
        ranking.append({"seat": i, "score": scores[i], "rank": rank})
    best = max(scores)
    return {
        "scores": list(scores),
        "ranking": ranking,
        "winners": [i for i, x in enumerate(scores) if x == best],
    }
