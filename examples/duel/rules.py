"""Duel's decider: the set-up events (:func:`start`), a play (:data:`RULES`, the parts of the one
``decide`` template), and the
platform commands (:func:`resign`, :func:`abandon`). Rules: ``RULES.md``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.decider import GameRules
from domain.engine import Event, IllegalMove
from domain.lifecycle import abandoned_result, check_abandon, check_resign, demote

from . import spec
from .actions import legal_actions, pending
from .state import State


def start(seats: int, options: Mapping[str, Any], rng: random.Random) -> list[Event]:
    """RULES.md "Set-up": ``MatchStarted {seats, tricks}``, then one ``HandDealt {cards}``
    per seat (``tricks`` cards each from the shuffled 20; the rest are never dealt)."""
    deck = list(spec.DECK)
    rng.shuffle(deck)
    tricks = options["tricks"]
    events = [Event("MatchStarted", {"seats": seats, "tricks": tricks})]
    for seat in range(seats):
        hand = sorted(deck[seat * tricks : (seat + 1) * tricks])
        events.append(Event("HandDealt", {"cards": hand}, seat))
    return events


class Rules(GameRules):
    """Duel's parts of the one ``decide`` template (:class:`domain.decider.GameRules`).
    ``RULES.decide`` raises MatchFinished, NotYourTurn (laid already), UnknownAction /
    InvalidCommand (not ``{"type": "play", "card": "Dnn"}``), IllegalMove
    ``card_not_in_hand``."""

    command_schemas = spec.COMMAND_SCHEMAS
    wait_detail = "You laid a card in this trick already."

    def finished(self, state: State) -> bool:
        """The match has a result."""
        return state.result is not None

    def pending_kind(self, state: State, seat: int) -> str | None:
        """:func:`actions.pending` of ``seat`` (``"play"`` until it laid its card)."""
        return pending(state).get(seat)

    def is_legal(self, state: State, seat: int, command: dict[str, Any], kind: str) -> bool:
        """One of :func:`actions.legal_actions` (a card of the seat's hand)."""
        return command in legal_actions(state, seat)

    def rejection(self, state: State, seat: int, command: dict[str, Any], kind: str) -> IllegalMove:
        """``card_not_in_hand``."""
        return IllegalMove(f"Card {command['card']} is not in your hand.", "card_not_in_hand")

    def apply(
        self, state: State, seat: int, command: dict[str, Any], rng: random.Random
    ) -> list[Event]:
        """RULES.md "A trick": ``CardLaid {card}`` for ``seat``; when both seats have laid,
        ``TrickRevealed {cards: [seat 0's, seat 1's], winner}`` and after the last trick
        ``MatchEnded`` (the result)."""
        events = [Event("CardLaid", {"card": command["card"]}, seat)]
        other = 1 - seat
        if state.laid[other] is None:
            return events
        cards = ["", ""]
        cards[seat], cards[other] = command["card"], state.laid[other]
        winner = 0 if spec.value(cards[0]) > spec.value(cards[1]) else 1
        events.append(Event("TrickRevealed", {"cards": cards, "winner": winner}))
        if state.played + 1 == state.tricks:
            won = list(state.won)
            won[winner] += 1
            events.append(Event("MatchEnded", final_result(won, "all tricks played")))
        return events


#: Duel's rules; ``decide(state, seat, command, rng)`` is the template's
RULES = Rules()
decide = RULES.decide


def final_result(won: list[int], reason: str) -> dict[str, Any]:
    """RULES.md "End": ``{"outcome": "finished", "reason", "scores": tricks won, "ranking":
    [{"seat", "score", "rank"}] best first, "winners"}`` (equal tricks share rank 1)."""
    order = sorted(range(len(won)), key=lambda s: (-won[s], s))
    ranking = [
        {"seat": s, "score": won[s], "rank": 1 + sum(w > won[s] for w in won)} for s in order
    ]
    best = max(won)
    return {
        "outcome": "finished",
        "reason": reason,
        "scores": list(won),
        "ranking": ranking,
        "winners": [s for s in range(len(won)) if won[s] == best],
    }


def resign(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """RULINGS D-resign: ``SeatResigned {seat}`` and ``MatchEnded``: the other seat wins
    (the tricks won so far are the scores). Raises as :func:`domain.lifecycle.check_resign`."""
    check_resign(command, seat, state.seat_count, state.resigned, state.result is not None)
    result = demote(final_result(list(state.won), "resignation"), [seat])
    result["winners"] = [1 - seat]
    result["ranking"] = [
        {**entry, "rank": 1 if entry["seat"] != seat else 2} for entry in result["ranking"]
    ]
    result["outcome"] = "resigned"
    return [Event("SeatResigned", {"seat": seat}, seat), Event("MatchEnded", result)]


def abandon(state: State, seat: Any, command: Mapping[str, Any]) -> list[Event]:
    """RULINGS D-abandoned: ``MatchEnded`` with the platform's abandoned result."""
    idle = check_abandon(command, seat, state.result is not None)
    return [Event("MatchEnded", abandoned_result(state.seat_count, idle))]
