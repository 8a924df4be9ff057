"""Property test: the fast legality check ``actions.is_legal`` (what ``decide`` asks) agrees
with membership in ``legal_actions`` (canonical form) for random states of every mode
(solo, 2-player, 3-6 seats) and for commands near the legal ones: every legal action, and
each one with another card, another cell, a reordered or shortened card list, an extra
field, a bool or float coordinate, another command type."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.engine import Setup, fold
from domain.games.ai_100_human import actions as A
from tests.support import depth

from .test_flow_support import E

SETTINGS = settings(
    max_examples=depth.examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _cards(state) -> list[str]:
    out = set(state.deck) | set(state.grid.values())
    for s in state.seats:
        out |= (
            set(s.hand) | set(s.reserve) | set(s.dealt) | set(s.tableau.values()) | set(s.ai_pair)
        )
    return sorted(out)


def _variants(command: dict, cards: list[str], rng: random.Random) -> list[dict]:
    """Commands near ``command`` (most of them illegal, some legal again)."""
    out = [dict(command), {**command, "extra": 1}]
    for key, value in command.items():
        if key == "type":
            for other in ("draft", "place", "discard", "keep_reserve", "use_ai6", "decline"):
                out.append({**command, "type": other})
            continue
        rest = {k: v for k, v in command.items() if k != key}
        out.append(rest)
        if isinstance(value, str):
            out += [{**command, key: c} for c in rng.sample(cards, min(4, len(cards)))]
            out.append({**command, key: [value]})
        elif isinstance(value, list) and value and all(isinstance(x, int) for x in value):
            r, c = value
            out += [
                {**command, key: cell}
                for cell in (
                    [r + 1, c],
                    [r, c - 1],
                    [r - 1, c + 1],
                    (r, c),
                    [True, c] if r == 1 else [r, True],
                    [float(r), c],
                    [r],
                    [r, c, 0],
                    [str(r), c],
                )
            ]
        elif isinstance(value, list) and value and all(isinstance(x, str) for x in value):
            out += [
                {**command, key: list(reversed(value))},
                {**command, key: value[:-1]},
                {**command, key: value + [value[0]]},
                {**command, key: [value[0]] * len(value)},
                {**command, key: value[:-1] + [rng.choice(cards)]},
                {**command, key: value[0]},
            ]
        elif isinstance(value, list) and value:  # use_ai5's cells
            out += [
                {**command, key: list(reversed(value))},
                {**command, key: value[:1]},
                {**command, key: [[x[0], x[1] + 1] for x in value]},
            ]
    return out


def _agrees(state, seat: int, rng: random.Random, cards: list[str]) -> int:
    legal = A.legal_actions(state, seat)
    keys = {A.canonical(c) for c in legal}
    checked = 0
    probes = list(legal) if len(legal) <= 25 else rng.sample(legal, 25)
    for base in probes:
        for command in _variants(base, cards, rng):
            assert A.is_legal(state, seat, command) == (A.canonical(command) in keys), command
            checked += 1
    for command in ({"type": "draft", "card": c} for c in cards[:6]):
        assert A.is_legal(state, seat, command) == (A.canonical(command) in keys), command
    return checked


@SETTINGS
@given(seats=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_is_legal_agrees_with_membership_in_legal_actions(seats, seed):
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, {})), rng))
    checked = 0
    while E.result(state) is None:
        pending = E.pending(state)
        cards = _cards(state)
        for seat in range(-1, seats + 1):
            if seat in pending or rng.random() < 0.1:
                checked += _agrees(state, seat, rng, cards)
        seat = min(pending)
        state = fold(
            E, E.decide(state, seat, E.bots["random"].choose(state, seat, rng), rng), state
        )
    assert checked > 0


def test_a_seat_without_a_decision_or_outside_the_match_has_nothing_legal():
    state = fold(E, E.new_match(Setup(3, E.validate_options(3, {})), random.Random(4)))
    side = A.legal_actions(state, 0)[0]
    assert A.is_legal(state, 0, side)
    for seat in (-1, 3, True, "0", None):
        assert not A.is_legal(state, seat, side)
    assert not A.is_legal(state, 0, ["choose_ai_side"])
