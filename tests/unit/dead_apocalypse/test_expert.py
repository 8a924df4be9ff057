"""The ``expert`` bot and the estimator of Dead Apocalypse (issue 23): legal commands only,
decided from the seat's view (no peeking), deterministic for a seed, within the rollout
budget; options checked like every bot level's. Strength is measured by
``benchmarks/tournament.py`` (too noisy for a unit-test sample)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.engine import InvalidBotOptions, Setup, build_bot, fold
from domain.estimates import Estimator
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse import expert as X
from domain.games.dead_apocalypse.cards import catalogue
from domain.games.dead_apocalypse.determinize import _instances, sample_world, visible
from domain.games.dead_apocalypse.views import view

SMALL = X.ExpertBot(budget=4, candidates=3, time_cap_s=600)


def _states(seats: int, seed: int, options: dict | None = None):
    """Every state of a match played by the cooperative team, with the deciding seat."""
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, options or {})), rng))
    while E.result(state) is None:
        seat = min(E.pending(state))
        yield state, seat
        command = E.bots["cooperative"].choose(state, seat, rng)
        state = fold(E, E.decide(state, seat, command, rng), state)


def _searched(seats: int, seed: int, skip: int = 0):
    """The ``skip``-th state of a cooperative match where the expert searches: at least two
    candidates and a cooperative choice that is not played without search."""
    found = 0
    for state, seat in _states(seats, seed):
        options = E.legal_actions(state, seat)
        first = X.POLICY.choose(state, seat, random.Random(0))
        if len(options) < 2 or first["type"] in X.NO_SEARCH:
            continue
        v = view(state, seat)
        if X._wins_now(v, first) or len(X.candidates(v, seat, options, first, 3)) < 2:
            continue
        if found == skip:
            return state, seat
        found += 1
    raise AssertionError("no searched decision in the match")


def test_expert_is_a_bot_level_with_options():
    assert set(E.bots) == {"random", "cooperative", "idle", "expert"}
    assert isinstance(E.bots["expert"], X.ExpertBot) and E.bots["expert"].name == "expert"
    assert list(E.bots)[1] == "cooperative"  # still the game's default bot level
    assert set(E.bot_options_schema["expert"]["properties"]) == {
        "budget",
        "candidates",
        "time_budget_ms",
    }


def test_options_build_a_configured_expert():
    bot = build_bot(E, "expert", {"budget": 6, "candidates": 2, "time_budget_ms": 400})
    assert (bot.budget, bot.candidates, bot.time_cap_s) == (6, 2, 0.4)
    assert build_bot(E, "expert", {}) is E.bots["expert"]


@pytest.mark.parametrize(
    "options,field",
    [
        ({"budget": -1}, "budget"),
        ({"budget": 5000}, "budget"),
        ({"budget": 1.5}, "budget"),
        ({"candidates": 0}, "candidates"),
        ({"time_budget_ms": 10}, "time_budget_ms"),
        ({"depth": 3}, "depth"),
        ({"budget": True}, "budget"),
    ],
)
def test_bad_options_are_refused_with_invalid_bot_options(options, field):
    with pytest.raises(InvalidBotOptions) as caught:
        build_bot(E, "expert", options)
    assert caught.value.code == "invalid_bot_options" and caught.value.field == field


def test_options_are_refused_for_levels_without_options():
    with pytest.raises(InvalidBotOptions):
        build_bot(E, "cooperative", {"budget": 3})


@pytest.mark.parametrize("seats,seed", [(1, 3), (3, 4)])
def test_expert_chooses_legal_commands_along_a_whole_match(seats, seed):
    """Every decision kind the match brings (turn, prompts, Call for Help answers): the
    expert's command is one of the legal actions; searched decisions ran rollouts."""
    bot = X.ExpertBot(budget=2, candidates=2, time_cap_s=600)
    kinds, searched = Counter(), 0
    for i, (state, seat) in enumerate(_states(seats, seed)):
        if i % 5:
            continue
        choice = bot.choose(state, seat, random.Random(i))
        assert choice in E.legal_actions(state, seat)
        kinds[E.pending(state)[seat]] += 1
        searched += bot.last_rollouts > 0
    assert kinds["turn"] > 10 and searched > 0


def test_expert_is_deterministic_for_a_seed():
    state, seat = _searched(2, 5)
    first = [SMALL.choose(state, seat, random.Random(7)), SMALL.last_rollouts]
    again = [SMALL.choose(state, seat, random.Random(7)), SMALL.last_rollouts]
    assert first == again and first[1] > 0


def test_expert_respects_its_budget(monkeypatch):
    state, seat = _searched(1, 6)
    played = []
    real = X.rollout
    monkeypatch.setattr(X, "rollout", lambda *a: played.append(1) or real(*a))
    for budget in (1, 3, 5):
        played.clear()
        X.ExpertBot(budget=budget, candidates=3, time_cap_s=600).choose(
            state, seat, random.Random(1)
        )
        assert 1 <= len(played) <= budget
    played.clear()
    coop = E.bots["cooperative"].choose(state, seat, random.Random(0))
    assert X.ExpertBot(budget=0).choose(state, seat, random.Random(1)) == coop
    assert played == []


def test_expert_stops_at_its_cpu_time_cap(monkeypatch):
    """A CPU clock that jumps 10 s per reading: the first sample is dropped unfinished, no
    rollout counts, the cooperative choice stands."""
    state, seat = _searched(1, 6)
    ticks = iter(range(0, 10_000, 10))
    monkeypatch.setattr(X.time, "thread_time", lambda: float(next(ticks)))
    bot = X.ExpertBot(budget=64, candidates=3, time_cap_s=1.0)
    coop = E.bots["cooperative"].choose(state, seat, random.Random(0))
    assert bot.choose(state, seat, random.Random(2)) == coop and bot.last_rollouts == 0


def test_expert_refuses_a_seat_without_a_decision():
    state, seat = _searched(2, 5)
    other = 1 - seat
    with pytest.raises(ValueError):
        SMALL.choose(state, other, random.Random(0))


def _hidden_replaced(state, seat: int, seed: int):
    """The same position with everything ``seat`` cannot see dealt again (another
    arrangement consistent with its view); asserts that the view is unchanged and that
    the hidden cards did move."""
    other = sample_world(view(state, seat), seat, random.Random(seed))
    other.resigned = list(state.resigned)
    assert view(other, seat) == view(state, seat)
    moved = (
        other.resource_stack != state.resource_stack
        or other.zombie_stack != state.zombie_stack
        or any(a.deck != b.deck for a, b in zip(other.seats, state.seats, strict=True))
    )
    assert moved
    return other


@pytest.mark.parametrize("seats,seed,skip", [(1, 8, 0), (2, 9, 1), (4, 10, 0)])
def test_expert_does_not_peek(seats, seed, skip):
    """Replacing the hidden cards (decks, other hands, both stacks) consistently with the
    seat's view leaves its decision unchanged for the same seed."""
    state, seat = _searched(seats, seed, skip)
    other = _hidden_replaced(state, seat, 99)
    assert SMALL.choose(state, seat, random.Random(4)) == SMALL.choose(
        other, seat, random.Random(4)
    )


def test_sample_world_deals_every_card_once_and_keeps_what_the_seat_sees():
    state, seat = _searched(3, 11)
    v = view(state, seat)
    world = sample_world(v, seat, random.Random(1))
    places = (
        world.zombie_stack
        + world.resource_stack
        + world.infection_stack
        + world.adept_stack
        + [c for c in world.zombie_row + world.resource_row if c]
        + world.ditch
        + world.events_aside
        + [c for s in world.seats for c in s.deck + s.hand + s.discard + s.played]
        + [
            c
            for s in world.seats
            for loc in s.locations
            for c in [loc["card"], *[o["card"] for o in loc["occupants"]]]
        ]
    )
    real = (
        state.zombie_stack
        + state.resource_stack
        + state.infection_stack
        + state.adept_stack
        + [c for c in state.zombie_row + state.resource_row if c]
        + state.ditch
        + state.events_aside
        + [c for s in state.seats for c in s.deck + s.hand + s.discard + s.played]
        + [
            c
            for s in state.seats
            for loc in s.locations
            for c in [loc["card"], *[o["card"] for o in loc["occupants"]]]
        ]
    )
    assert Counter(places) == Counter(real)
    assert len(places) == len(set(places)) and set(places) <= set(_instances(3))
    assert view(world, seat) == v
    hidden = set(_instances(3)) - visible(v)
    for i, s in enumerate(world.seats):
        assert set(s.deck) <= hidden
        assert len(s.deck) == len(state.seats[i].deck) and len(s.hand) == len(state.seats[i].hand)
        if i != seat:
            assert set(s.hand) <= hidden
        starting = {c for c in hidden if c.split("#")[1].startswith(f"s{i}.")}
        assert starting <= set(s.deck) | set(s.hand)  # a seat's own starting cards stay its own


def test_sample_world_puts_the_cdc_among_the_bottom_eleven_cards():
    cat = catalogue()
    state = next(state for state, _ in _states(1, 12))
    v = view(state, 0)
    spots = set()
    for k in range(60):
        stack = sample_world(v, 0, random.Random(k)).zombie_stack
        cdc = [i for i, c in enumerate(stack) if cat.of(c).kind == "cdc"]
        assert len(cdc) == 1
        spots.add(len(stack) - 1 - cdc[0])
    assert spots <= set(range(11)) and len(spots) > 5


def test_sample_world_leaves_the_events_out_of_the_easier_games():
    cat = catalogue()
    state = next(state for state, _ in _states(1, 13, {"difficulty": "easier"}))
    world = sample_world(view(state, 0), 0, random.Random(0))
    assert not any(cat.of(c).kind == "event" for c in world.zombie_stack)
    assert len(world.zombie_stack) == len(state.zombie_stack)


# -- the estimator -------------------------------------------------------------------


def test_engine_offers_the_win_probability_estimator():
    estimator = E.estimator()
    assert estimator.metric == "win_probability" and estimator is E.estimator()
    assert set(Estimator.__annotations__) == {"metric"} and callable(estimator.estimate)


def test_estimator_gives_one_deterministic_probability_per_command():
    state, seat = _searched(2, 14)
    commands = E.legal_actions(state, seat)[:4]
    first = E.estimator().estimate(state, seat, commands, 8, random.Random(3))
    again = E.estimator().estimate(state, seat, commands, 8, random.Random(3))
    assert first == again and len(first) == len(commands)
    assert all(0.0 <= p <= 1.0 for p in first)


def test_estimator_never_spends_more_than_its_budget(monkeypatch):
    state, seat = _searched(1, 15)
    commands = E.legal_actions(state, seat)[:3]
    played = []
    real = X.rollout
    monkeypatch.setattr(X, "rollout", lambda *a: played.append(1) or real(*a))
    values = E.estimator().estimate(state, seat, commands, 2, random.Random(0))
    assert len(played) == 2 and len(values) == 3
    assert values[2] == (values[0] + values[1]) / 2  # no rollout: the mean of the others


@pytest.mark.parametrize("commands,budget", [([], 4), (None, 0), (None, -2)])
def test_estimator_refuses_no_command_or_no_budget(commands, budget):
    state, seat = _searched(1, 15)
    with pytest.raises(ValueError):
        E.estimator().estimate(
            state,
            seat,
            E.legal_actions(state, seat)[:2] if commands is None else commands,
            budget,
            random.Random(0),
        )


@pytest.mark.parametrize("seats,seed", [(1, 16), (3, 17)])
def test_estimator_does_not_peek(seats, seed):
    state, seat = _searched(seats, seed)
    other = _hidden_replaced(state, seat, 5)
    commands = E.legal_actions(state, seat)[:3]
    assert E.estimator().estimate(
        state, seat, commands, 6, random.Random(9)
    ) == E.estimator().estimate(other, seat, commands, 6, random.Random(9))
