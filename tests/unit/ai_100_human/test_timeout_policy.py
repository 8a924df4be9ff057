"""Issue 17, item 2 for AI: 100% Human: a timeout never spends for the player. Shared
RULINGS: "A seat whose turn timer runs out takes the answer that uses nothing and changes
least: pass, keep, decline every optional ("may", "can") effect, spend no card, ammo or
health". The engine's ``timeout_bot`` is ``idle`` (R-AI6-TIMEOUT): before issue 17 it was
``greedy``, which started AI-6 ("you may draw 2 cards ... Then discard any 2 cards from your
hand") at its first chance, spending 2 hand cards for a timed-out seat."""

from __future__ import annotations

import random

from domain.games.ai_100_human.bots import GreedyBot

from .test_flow_ai6 import HANDS, ai6_state
from .test_flow_black import place_all, turn
from .test_flow_support import E, given, run, state_of

TIMEOUT = E.bots[E.timeout_bot]


def test_the_timeout_policy_is_idle_and_never_starts_ai6():
    """AI-6 offered with 2 cards in the deck: greedy starts it, the timeout drafts instead —
    the 4 hand cards are the seat's until it drafts one, the 2 deck cards stay in the deck,
    and no discard step follows."""
    assert E.timeout_bot == "idle"
    state = ai6_state()
    assert {"type": "use_ai6"} in E.legal_actions(state, 0)
    assert GreedyBot().choose(state, 0, random.Random(0)) == {"type": "use_ai6"}
    answer = TIMEOUT.choose(state, 0, random.Random(0))
    assert answer["type"] == "draft" and answer["card"] in HANDS[0]
    state, out = run(state, [(0, answer)])
    assert "AIPowerUsed" not in [e.type for e in out] and state.deck == ["061", "063", "065"]
    assert E.pending(state).get(0) != "ai6_discard" and not state.seats[0].ai6_discarding


def test_the_timeout_never_exchanges_with_ai5():
    """AI-5: "During the game, exchange 2 cards. You may exchange a card with an empty
    space" — once per game, optional: the timeout drafts and keeps AI-5 unused."""
    state = state_of(
        given(
            ai=["AI-5", "AI-3", "AI-1"],
            hands=HANDS,
            tableaux={0: {(1, 1): "001", (1, 3): "003", (0, 3): "005"}},
        )
    )
    assert any(a["type"] == "use_ai5" for a in E.legal_actions(state, 0))
    answer = TIMEOUT.choose(state, 0, random.Random(0))
    assert answer["type"] == "draft"
    state, _ = run(state, [(0, answer)])
    assert not state.seats[0].ai5_used


def test_the_timeout_declines_the_119_move():
    """119/120: "you may exchange a card with an empty space": the timeout answers
    ``decline`` and the tableau keeps 001 on (1, 1)."""
    state = turn(3, tableaux={0: {(1, 1): "001"}}, reserves={0: ["119"], 1: ["003"], 2: ["005"]})
    state, _ = place_all(state, {0: ("119", (1, 3)), 1: ("003", (1, 1)), 2: ("005", (1, 1))})
    assert E.pending(state) == {0: "move_card"}
    assert TIMEOUT.choose(state, 0, random.Random(0)) == {"type": "decline"}
    state, _ = run(state, [(0, {"type": "decline"})])
    assert state.seats[0].tableau == {(1, 1): "001", (1, 2): "AI-3", (1, 3): "119"}


def test_a_forced_decision_is_answered_as_greedy_does():
    """AI-6's discard once the player started it is forced ("Then discard any 2 cards"): the
    timeout discards greedy's pair (the two hand cards of lowest immediate VP)."""
    state, _ = run(ai6_state(), [(0, {"type": "use_ai6"})])
    assert TIMEOUT.choose(state, 0, random.Random(0)) == GreedyBot().choose(
        state, 0, random.Random(0)
    )
