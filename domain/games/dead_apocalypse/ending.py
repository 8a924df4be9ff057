"""Game Ends and "For a more competitive game": the MatchEnded event and its result.

Co-operative (default): everyone wins (score 1) when a seat gains the CDC, everyone loses
(score 0) when the Resource Stack runs out (RULINGS "Dead Apocalypse": as soon as it holds
no card). ``stopped`` (score 0, no winner, not a loss) only ends an easiest game at its
``turn_limit`` (ruling R-TURN-LIMIT). Competitive win: score = Humans among the seat's cards (deck, hand,
discard, played, occupying); ties broken by fewer Infections, then by holding the CDC.
"""

from __future__ import annotations

from typing import Any

from domain.lifecycle import demote

from .cards import catalogue
from .recorder import GameOver, Recorder
from .state import MatchState


def owned_cards(state: MatchState, seat: int) -> list[str]:
    """Every card of ``seat``'s individual deck wherever it is (Locations and occupants too)."""
    me = state.seats[seat]
    cards = me.deck + me.hand + me.discard + me.played
    for loc in me.locations:
        cards = cards + [loc["card"]] + [o["card"] for o in loc["occupants"]]
    return cards


def competitive_key(state: MatchState, seat: int) -> tuple[int, int, int]:
    """Sort key (smaller is better): (-Humans, Infections, 0 if CDC holder else 1).

    RULINGS R-COMPETITIVE.
    """
    cat = catalogue()
    cards = owned_cards(state, seat)
    humans = sum(1 for c in cards if cat.of(c).kind == "human")
    infections = sum(1 for c in cards if cat.of(c).kind == "infection")
    return (-humans, infections, 0 if state.cdc_holder == seat else 1)


def result_data(state: MatchState, outcome: str, reason: str) -> dict[str, Any]:
    """``{"outcome", "reason", "scores", "ranking": [{"seat","score","rank",...}], "winners"}``."""
    n = state.seat_count
    if outcome == "won" and state.options["competitive"]:
        keys = {s: competitive_key(state, s) for s in range(n)}
        order = sorted(range(n), key=lambda s: (keys[s], s))
        ranking = []
        for s in order:
            rank = 1 + sum(1 for t in range(n) if keys[t] < keys[s])
            ranking.append(
                {
                    "seat": s,
                    "score": -keys[s][0],
                    "rank": rank,
                    "infections": keys[s][1],
                    "cdc": keys[s][2] == 0,
                }
            )
        scores = [-keys[s][0] for s in range(n)]
        winners = sorted(r["seat"] for r in ranking if r["rank"] == 1)
    else:
        score = 1 if outcome == "won" else 0
        scores = [score] * n
        ranking = [{"seat": s, "score": score, "rank": 1} for s in range(n)]
        winners = list(range(n)) if outcome == "won" else []
    result = {
        "outcome": outcome,
        "reason": reason,
        "scores": scores,
        "ranking": ranking,
        "winners": winners,
    }
    if state.options["competitive"] and outcome == "won":
        return demote(result, list(state.resigned))  # RULINGS R-RESIGN
    if state.resigned:
        result["resigned"] = list(state.resigned)
    return result


def finish(rec: Recorder, outcome: str, reason: str) -> None:
    """Record ``MatchEnded`` and stop the command (raises :class:`GameOver`)."""
    rec.emit("MatchEnded", result_data(rec.state, outcome, reason))
    raise GameOver(reason)
