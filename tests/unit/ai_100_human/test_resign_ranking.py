"""RULINGS R-RESIGN (AI: 100% Human, rules version 3): a seat that resigned is never among
the winners and ranks below every seat that did not resign, also when the match goes on
and ends normally (before rules version 3 the copy ``decide`` folded into forgot who had
resigned, and such a seat was ranked by its score: seed 5 below ranked it first)."""

from __future__ import annotations

import random

from domain.engine import Setup, fold
from domain.games.ai_100_human import spec
from domain.lifecycle import demote

from .test_flow_support import E


def _played_with_an_early_resignation(seed: int, seats: int = 3) -> tuple[object, list]:
    """A ``seats``-seat match from ``Random(seed)``: seat 0 resigns at its first decision
    of turn 2, the others play the greedy bot to the end; ``(final state, its events)``."""
    rng = random.Random(seed)
    events = E.new_match(Setup(seats, {}), rng)
    state = fold(E, events)
    while E.result(state) is None:
        seat = min(E.pending(state))
        if seat == 0 and state.turn >= 2 and 0 not in E.resigned(state):
            command = {"type": "resign"}
        else:
            command = E.bots["greedy"].choose(state, seat, rng)
        new = E.decide(state, seat, command, rng)
        events += new
        state = fold(E, new, state)
    return state, events


def test_a_seat_that_resigned_ranks_last_when_the_match_ends_normally():
    assert spec.RULES_VERSION == "3"
    state, events = _played_with_an_early_resignation(5)
    result = E.result(state)
    assert E.resigned(state) == {0}
    assert events[-1].type == "MatchEnded" and events[-1].data.get("reason") != "resignation"
    assert 0 not in result["winners"]
    # seat 0 had the second-best score (85 against 96 and 65): the ruling, not the score,
    # puts it last, and the ranks are renumbered without a gap
    assert result["scores"] == [85, 96, 65]
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(1, 1), (2, 2), (0, 3)]
    assert result["winners"] == [1] and result["resigned"] == [0]


def test_demote_renumbers_the_standing_ranks_and_keeps_their_ties():
    ranking = [
        {"seat": 0, "score": 9, "rank": 1},
        {"seat": 1, "score": 7, "rank": 2},
        {"seat": 2, "score": 7, "rank": 2},
        {"seat": 3, "score": 5, "rank": 4},
    ]
    out = demote({"ranking": ranking, "winners": [0]}, [0])
    assert [(r["seat"], r["rank"]) for r in out["ranking"]] == [(1, 1), (2, 1), (3, 3), (0, 4)]
    assert out["winners"] == [1, 2]  # every winner resigned: the best standing seats win
    two_gone = demote({"ranking": ranking, "winners": [0]}, [3, 1])
    assert [(r["seat"], r["rank"]) for r in two_gone["ranking"]] == [
        (0, 1),
        (2, 2),
        (1, 3),
        (3, 4),
    ]  # the earliest to resign ranks last
