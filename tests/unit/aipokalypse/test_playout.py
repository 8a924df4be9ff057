"""Seeded random playouts (hypothesis): every bot game finishes, folding the log equals the
live state, dump/load round-trips, the same seed replays identically."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from tests.support import depth

MAX_STEPS = 5000


def play(seed: int, levels: list[str]):
    """Play one match with bots; returns (state, events, steps)."""
    secret = seed.to_bytes(8, "big")
    events = ENGINE.new_match(Setup(len(levels), {}), derive_rng(secret, 0))
    state = fold(ENGINE, events)
    rng = random.Random(seed)
    steps = 0
    while ENGINE.result(state) is None:
        pend = ENGINE.pending(state)
        assert pend, f"stuck in {state['phase']}"
        seat = rng.choice(sorted(pend))
        cmd = ENGINE.bots[levels[seat]].choose(state, seat, rng)
        assert cmd in ENGINE.legal_actions(state, seat)
        new = ENGINE.decide(state, seat, cmd, derive_rng(secret, len(events)))
        for e in new:
            state = ENGINE.evolve(state, e)
        events += new
        steps += 1
        assert steps < MAX_STEPS
        if steps % 25 == 0:
            assert ENGINE.load_state(ENGINE.dump_state(state)) == state
    return state, events, steps


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(2, 4),
    levels=st.lists(st.sampled_from(["random", "tactician"]), min_size=4, max_size=4),
)
def test_bot_games_finish_and_the_fold_equals_the_live_state(seed, seats, levels):
    state, events, _ = play(seed, levels[:seats])
    result = ENGINE.result(state)
    assert result["reason"] in ("elimination", "aipokalypse", "alternative_win")
    assert sorted(r["seat"] for r in result["ranking"]) == list(range(seats)) and result["winners"]
    assert fold(ENGINE, events) == state
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state


def test_same_seed_replays_identically():
    a = play(42, ["tactician", "random", "random", "tactician"])
    b = play(42, ["tactician", "random", "random", "tactician"])
    assert [e.to_dict() for e in a[1]] == [e.to_dict() for e in b[1]]


def test_tactician_beats_random_clearly():
    wins = {"tactician": 0, "random": 0}
    for seed in range(16):
        levels = ["tactician", "random"] * 2 if seed % 2 else ["random", "tactician"] * 2
        state, _, _ = play(1000 + seed, levels)
        for w in ENGINE.result(state)["winners"]:
            wins[levels[w]] += 1 / len(ENGINE.result(state)["winners"])
    assert wins["tactician"] >= 3 * wins["random"], wins


def _canon(cmd):
    """A Triple's cards are a set: any order names the same command."""
    return dict(cmd, cards=sorted(cmd["cards"])) if "cards" in cmd else dict(cmd)


def _candidates(state, seat, rng):
    """Commands near the legal ones: every legal command plus mutated and random ones."""
    legal = ENGINE.legal_actions(state, seat)
    p = state.players[seat]
    ids = list(p.hand) + [s.unit for s in p.slots if s.unit] + list(p.pool) + ["B001", "S01", "F01"]
    out = list(legal)
    for _ in range(12):
        kind = rng.choice(sorted(ENGINE.command_schemas))
        cmd = {"type": kind}
        if kind in ("open_slot", "recruit", "discard", "react_card", "cash_pool"):
            cmd["card"] = rng.choice(ids)
        if kind in ("recruit", "spend_ammo"):
            cmd["slot"] = rng.randrange(0, 7)
        if kind in ("recruit", "discard") and rng.random() < 0.5:
            cmd["target"] = rng.randrange(0, 7)
        if kind == "react_ammo":
            cmd["count"] = rng.randrange(1, 7)
        if kind == "choose_special":
            cmd["special"] = rng.choice(ids)
        if kind == "choose_faction":
            cmd["faction"] = rng.choice(["F01", "F02"] + list(p.offered))
        if kind == "choose":
            options = (state.choice or {}).get("options") or [0]
            cmd["option"] = rng.choice(list(options) + ids + ["stop", 99])
        if kind == "triple":
            cmd.update(
                cards=rng.sample(ids, min(3, len(ids))),
                source=rng.choice(["pool", "health", "deck"]),
            )
            if cmd["source"] == "pool":
                cmd["special"] = rng.choice(ids)
        out.append(cmd)
    return out


@settings(max_examples=depth.examples(12), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_decide_accepts_exactly_the_legal_actions(seed):
    from domain.engine import RuleError

    rng = random.Random(seed)
    secret = seed.to_bytes(8, "big")
    events = ENGINE.new_match(Setup(3, {}), derive_rng(secret, 0))
    state = fold(ENGINE, events)
    for _ in range(60):
        if ENGINE.result(state) is not None:
            break
        for seat in range(3):
            legal = ENGINE.legal_actions(state, seat)
            for cmd in _candidates(state, seat, rng):
                try:
                    ENGINE.decide(state, seat, cmd, random.Random(0))
                    accepted = True
                except RuleError:
                    accepted = False
                assert accepted == (_canon(cmd) in [_canon(c) for c in legal]), (cmd, state.phase)
        seat = rng.choice(sorted(ENGINE.pending(state)))
        cmd = ENGINE.bots["tactician"].choose(state, seat, rng)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(secret, len(events))):
            state = ENGINE.evolve(state, e)
            events.append(e)
