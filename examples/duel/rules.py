"""Duel's decider: the set-up events (:func:`start`), a play (:func:`decide`), and the
platform commands (:func:`resign`, :func:`abandon`). Rules: ``RULES.md``."""
from __future__ import annotations

import random
from typing import Any, Mapping

from domain.engine import Event, IllegalMove, MatchFinished, NotYourTurn
from domain.lifecycle import abandoned_result, check_abandon, check_resign, demote
from domain.modular import check_command

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
        hand = sorted(deck[seat * tricks:(seat + 1) * tricks])
        events.append(Event("HandDealt", {"cards": hand}, seat))
    return events


def decide(state: State, seat: int, command: Mapping[str, Any], rng: random.Random) -> list[Event]:
    """RULES.md "A trick": ``CardLaid {card}`` for ``seat``; when both seats have laid,
    ``TrickRevealed {cards: [seat 0's, seat 1's], winner}`` and after the last trick
    ``MatchEnded`` (the result). Raises MatchFinished, NotYourTurn (laid already),
    InvalidCommand (not ``{"type": "play", "card": "Dnn"}``), IllegalMove
    ``card_not_in_hand``."""
    if state.result is not None:
        raise MatchFinished()
    if seat not in pending(state):
        raise NotYourTurn("You laid a card in this trick already.")
    command = check_command(spec.COMMAND_SCHEMAS, command)
    if command not in legal_actions(state, seat):
        raise IllegalMove(f"Card {command['card']} is not in your hand.", "card_not_in_hand")
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


def final_result(won: list[int], reason: str) -> dict[str, Any]:
    """RULES.md "End": ``{"outcome": "finished", "reason", "scores": tricks won, "ranking":
    [{"seat", "score", "rank"}] best first, "winners"}`` (equal tricks share rank 1)."""
    order = sorted(range(len(won)), key=lambda s: (-won[s], s))
    ranking = [{"seat": s, "score": won[s], "rank": 1 + sum(w > won[s] for w in won)}
               for s in order]
    best = max(won)
    return {"outcome": "finished", "reason": reason, "scores": list(won), "ranking": ranking,
            "winners": [s for s in range(len(won)) if won[s] == best]}


def resign(state: State, seat: int, command: Mapping[str, Any]) -> list[Event]:
    """RULINGS D-resign: ``SeatResigned {seat}`` and ``MatchEnded``: the other seat wins
    (the tricks won so far are the scores). Raises as :func:`domain.lifecycle.check_resign`."""
    check_resign(command, seat, state.seat_count, state.resigned, state.result is not None)
    result = demote(final_result(list(state.won), "resignation"), [seat])
    result["winners"] = [1 - seat]
    result["ranking"] = [{**entry, "rank": 1 if entry["seat"] != seat else 2}
                         for entry in result["ranking"]]
    result["outcome"] = "resigned"
    return [Event("SeatResigned", {"seat": seat}, seat), Event("MatchEnded", result)]


def abandon(state: State, seat: Any, command: Mapping[str, Any]) -> list[Event]:
    """RULINGS D-abandoned: ``MatchEnded`` with the platform's abandoned result."""
    idle = check_abandon(command, seat, state.result is not None)
    return [Event("MatchEnded", abandoned_result(state.seat_count, idle))]
