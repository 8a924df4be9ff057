"""The example game Duel (``examples/duel/RULES.md``) plays by its rules: the deal, a
simultaneous hidden choice, the higher card wins the trick, most tricks win, resignation
and abandonment, and the errors of a wrong command. (The generic tests check that it keeps
the platform's promises; these check its own rules.)"""

from __future__ import annotations

import random

import pytest

from domain.engine import IllegalMove, InvalidCommand, MatchFinished, NotYourTurn, Setup, fold
from domain.games import registry

DUEL = registry(("examples.duel",))["duel"]


def _start(tricks: int = 3, seed: int = 1):
    options = DUEL.validate_options(2, {"tricks": tricks})
    return fold(DUEL, DUEL.new_match(Setup(2, options), random.Random(seed)))


def _play(state, seat: int, card: str):
    events = DUEL.decide(state, seat, {"type": "play", "card": card}, random.Random(0))
    return fold(DUEL, events, state), events


def test_each_seat_is_dealt_one_card_per_trick_all_different():
    state = _start(tricks=4)
    assert [len(hand) for hand in state.hands] == [4, 4]
    assert not set(state.hands[0]) & set(state.hands[1])
    assert DUEL.pending(state) == {0: "play", 1: "play"}  # both choose at once


def test_a_laid_card_is_hidden_until_both_have_laid_then_the_higher_wins():
    state = _start()
    low, high = sorted([min(state.hands[0]), max(state.hands[1])])
    seat_low = 0 if low in state.hands[0] else 1
    state, events = _play(state, seat_low, low)
    assert [e.type for e in events] == ["CardLaid"]
    assert DUEL.redact(events[0], 1 - seat_low) == {} and DUEL.redact(events[0], None) == {}
    assert DUEL.view(state, 1 - seat_low)["laid"][seat_low] is True
    assert "my_card" not in DUEL.view(state, None)
    with pytest.raises(NotYourTurn):
        _play(state, seat_low, state.hands[seat_low][0])
    state, events = _play(state, 1 - seat_low, high)
    revealed = events[-1]
    assert revealed.type == "TrickRevealed" and revealed.data["winner"] == 1 - seat_low
    assert state.won[1 - seat_low] == 1 and state.laid == [None, None]


def test_most_tricks_win_and_equal_tricks_share_the_first_rank():
    state = _start(tricks=2, seed=5)
    while DUEL.result(state) is None:
        for seat in sorted(DUEL.pending(state)):
            state, _ = _play(state, seat, max(state.hands[seat]))
    result = DUEL.result(state)
    assert sum(result["scores"]) == 2 and result["outcome"] == "finished"
    best = max(result["scores"])
    assert result["winners"] == [s for s in (0, 1) if result["scores"][s] == best]
    assert all(e["rank"] == 1 for e in result["ranking"] if e["seat"] in result["winners"])
    with pytest.raises(MatchFinished):
        _play(state, 0, "D01")


def test_a_card_not_in_hand_and_a_malformed_command_are_refused():
    state = _start()
    missing = next(f"D{n:02d}" for n in range(1, 21) if f"D{n:02d}" not in state.hands[0])
    with pytest.raises(IllegalMove) as caught:
        _play(state, 0, missing)
    assert caught.value.code == "card_not_in_hand"
    with pytest.raises(InvalidCommand):
        DUEL.decide(state, 0, {"type": "play", "card": 7}, random.Random(0))


def test_only_two_seats_and_one_to_nine_tricks():
    with pytest.raises(InvalidCommand):
        DUEL.validate_options(3, {})
    with pytest.raises(InvalidCommand):
        DUEL.validate_options(2, {"tricks": 10})
    assert DUEL.validate_options(2, {}) == {"tricks": 5}


def test_the_seat_that_resigns_loses_at_once():
    state = _start()
    events = DUEL.decide(state, 1, {"type": "resign"}, random.Random(0))
    assert [e.type for e in events] == ["SeatResigned", "MatchEnded"]
    result = DUEL.result(fold(DUEL, events, state))
    assert result["winners"] == [0] and result["resigned"] == [1]
    assert [(e["seat"], e["rank"]) for e in result["ranking"]] == [(0, 1), (1, 2)]


def test_an_abandoned_match_has_no_winner():
    state = _start()
    ended = DUEL.decide(state, None, {"type": "abandon", "idle_s": 600}, random.Random(0))
    result = DUEL.result(fold(DUEL, ended, state))
    assert result["outcome"] == "abandoned" and result["winners"] == []


def test_a_snapshot_round_trips():
    state, _ = _play(_start(), 0, _start().hands[0][0])
    assert DUEL.load_state(DUEL.dump_state(state)) == state


def test_clone_copies_every_field_and_shares_no_list_with_the_original():
    from dataclasses import fields

    from examples.duel.state import State, clone

    state = State(2, 3, [[1, 2], [3]], [4, None], 1, [1, 0], [5, 6], [1], {"winners": [0]})
    copied = clone(state)
    assert copied == state and {f.name for f in fields(State)} == set(vars(copied))
    for field in fields(State):
        value = getattr(state, field.name)
        if isinstance(value, (list, dict)):
            assert getattr(copied, field.name) is not value, field.name
    copied.hands[0].append(9)
    assert state.hands[0] == [1, 2]
