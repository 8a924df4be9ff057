"""Bots never peek (issue 23 item 2): every bot level of every installed game (read from
the engines, so a new level is covered the day it lands) and every game's estimator
decide the same when everything their seat cannot see is replaced by another arrangement
consistent with what it can see.

Positions: seeded playouts of each game's view set-ups and modes (``testing.py``) by the ``random``
level, stopped at random versions. At each one the game's own re-deal
(``GameTesting.redeal``, written from the rules) builds the other arrangement; the test
first checks that it is one (the seat's view and legal actions are unchanged) and that
re-deals do change hidden cards (else the test could not fail), then asks each bot for a
decision on both states with the same seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.engine import Setup, bot_options_schema, build_bot, fold
from domain.games import registry
from tests.support.game_settings import games, modes, settings, setup_id, view_setups

#: every game's view set-ups and modes (its own ``testing.py``)
SETUPS = list(
    dict.fromkeys(
        (game, seats, tuple(sorted(options.items())))
        for game, seats, options in view_setups() + modes()
    )
)
SETUPS = [(game, seats, dict(options)) for game, seats, options in SETUPS]
#: positions examined per set-up (each at a random version of its own playout)
POSITIONS = 6
#: the search budget a level with a ``budget`` option gets here (its rollouts cost time)
TEST_BUDGET = 6


def _bot_options(engine: Any, level: str) -> dict[str, Any]:
    """Options that keep a searching level deterministic and quick: a small ``budget``,
    the largest ``time_budget_ms`` (its wall-clock cap must never decide in a test)."""
    props = bot_options_schema(engine, level).get("properties") or {}
    options: dict[str, Any] = {}
    if "budget" in props:
        low, high = props["budget"].get("minimum", 1), props["budget"].get("maximum", TEST_BUDGET)
        options["budget"] = max(low, min(TEST_BUDGET, high))
    if "time_budget_ms" in props:
        options["time_budget_ms"] = props["time_budget_ms"]["maximum"]
    return options


def _playout(engine: Any, seats: int, options: dict, seed: int, stops: list[int] | None):
    """Play one ``random``-level match from ``Random(seed)``; yield ``(steps, state)``
    after each step in ``stops`` (every step when ``None``)."""
    rng = random.Random(seed)
    state = fold(
        engine, engine.new_match(Setup(seats, engine.validate_options(seats, options)), rng)
    )
    steps = 0
    while engine.result(state) is None:
        seat = rng.choice(sorted(engine.pending(state)))
        command = engine.bots["random"].choose(state, seat, rng)
        for event in engine.decide(state, seat, command, rng):
            state = engine.evolve(state, event)
        steps += 1
        if (stops is None or steps in stops) and engine.result(state) is None:
            yield steps, state


def positions(engine: Any, seats: int, options: dict, seed: int):
    """``(state, seat)`` at :data:`POSITIONS` random versions of one ``random``-level
    playout from ``Random(seed)`` (``seat``: one pending there, drawn at random)."""
    length = max((steps for steps, _ in _playout(engine, seats, options, seed, None)), default=0)
    pick = random.Random(seed)
    stops = set(pick.sample(range(1, length + 1), min(POSITIONS, length)))
    for _, state in _playout(engine, seats, options, seed, stops):
        deciding = [
            seat for seat in sorted(engine.pending(state)) if engine.legal_actions(state, seat)
        ]
        if deciding:  # (the A.I.Toma's pending turn is no seat's decision)
            yield state, pick.choice(deciding)


@pytest.mark.parametrize("game,seats,options", SETUPS, ids=[setup_id(*s) for s in SETUPS])
def test_no_bot_and_no_estimator_reads_what_its_seat_cannot_see(game, seats, options):
    engine = registry()[game]
    redeal = settings(game).redeal
    assert redeal is not None, f"{game}'s testing.py has no redeal"
    bots = {level: build_bot(engine, level, _bot_options(engine, level)) for level in engine.bots}
    estimator = engine.estimator()
    examined = changed = 0
    for index, (state, seat) in enumerate(positions(engine, seats, options, seed=23)):
        before = engine.dump_state(state)
        other = redeal(state, seat, random.Random(1000 + index))
        assert engine.dump_state(state) == before, "the re-deal changed its input"
        assert engine.view(other, seat) == engine.view(state, seat), "not consistent with the view"
        legal = engine.legal_actions(state, seat)
        assert engine.legal_actions(other, seat) == legal
        changed += engine.dump_state(other) != before
        for level, bot in sorted(bots.items()):
            mine = bot.choose(state, seat, random.Random(index))
            assert bot.choose(other, seat, random.Random(index)) == mine, (
                f"{game} bot {level!r} (seat {seat}) decided differently after a re-deal "
                "of what it cannot see: it peeks"
            )
        if estimator is not None and len(legal) > 1:
            values = estimator.estimate(state, seat, legal, 4, random.Random(index))
            assert estimator.estimate(other, seat, legal, 4, random.Random(index)) == values, (
                f"{game}'s estimator peeks"
            )
        examined += 1
    assert examined >= 1, f"{game}: no running position examined"
    assert changed >= 1, f"{game}: no re-deal changed anything (the test could not fail)"


def test_every_installed_game_has_a_redeal_and_is_checked():
    assert {game for game, _, _ in SETUPS} == set(games())
    assert all(settings(game).redeal is not None for game in games())


def test_a_peeking_bot_is_caught():
    """The check fails for a bot that reads a hidden card (Duel: the other seat's hand)."""
    engine = registry()["duel"]

    class Peeker:
        name = "peeker"

        def choose(self, state, seat, rng):
            # plays its lowest card when the other seat holds D20, else its highest
            legal = engine.legal_actions(state, seat)
            return legal[0] if "D20" in state.hands[1 - seat] else legal[-1]

    redeal = settings("duel").redeal
    caught = 0
    for state, seat in positions(engine, 2, {"tricks": 9}, seed=5):
        for attempt in range(8):
            other = redeal(state, seat, random.Random(attempt))
            caught += Peeker().choose(other, seat, None) != Peeker().choose(state, seat, None)
    assert caught
