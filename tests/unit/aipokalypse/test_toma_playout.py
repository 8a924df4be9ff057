"""Solo and co-op games against the A.I.Toma played to the end by the bots, for every difficulty:
the fold of the log equals the live state, the same seed replays identically, the A.I.Toma's
health stack and the other seat's hand never show, and ``decide`` accepts exactly the legal
actions (also the co-op ones)."""

from __future__ import annotations

import json
import random

import pytest

from domain.engine import RuleError, Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.cards import catalogue
from domain.games.aipokalypse.spec import DIFFICULTIES
from tests.unit.aipokalypse.test_playout import _candidates, _canon

MAX_STEPS = 8000


def play(seed: int, levels: list[str], options: dict):
    """One bot match; returns (state, [(event, state after)])."""
    secret = seed.to_bytes(8, "big")
    events = ENGINE.new_match(
        Setup(len(levels), ENGINE.validate_options(len(levels), options)), derive_rng(secret, 0)
    )
    state = fold(ENGINE, events)
    log = [(e, ENGINE.load_state(ENGINE.dump_state(state))) for e in events]
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if ENGINE.result(state) is not None:
            return state, log
        pend = ENGINE.pending(state)
        assert pend and state.toma.seat not in pend, state.phase
        seat = rng.choice(sorted(pend))
        cmd = ENGINE.bots[levels[seat]].choose(state, seat, rng)
        assert cmd in ENGINE.legal_actions(state, seat)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(secret, len(log))):
            state = ENGINE.evolve(state, e)
            log.append((e, ENGINE.load_state(ENGINE.dump_state(state))))
    raise AssertionError("the match did not end")


def _check_result(state, seats):
    result = ENGINE.result(state)
    assert result["outcome"] in ("won", "lost")
    assert result["winners"] == (list(range(seats)) if result["outcome"] == "won" else [])
    assert result["reason"] in ("elimination", "aipokalypse", "alternative_win")
    assert sorted(r["seat"] for r in result["ranking"]) == list(range(seats))
    assert result["toma"]["strength"] >= 0


@pytest.mark.parametrize("difficulty", sorted(DIFFICULTIES))
@pytest.mark.parametrize("level", ["random", "tactician"])
def test_a_solo_game_ends_for_every_difficulty(difficulty, level):
    state, log = play(sum(map(ord, difficulty + level)), [level], {"difficulty": difficulty})
    _check_result(state, 1)
    assert fold(ENGINE, [e for e, _ in log]) == state
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state


@pytest.mark.parametrize("difficulty", sorted(DIFFICULTIES))
def test_a_coop_game_ends_for_every_difficulty(difficulty):
    state, log = play(
        7 + len(difficulty), ["tactician", "random"], {"mode": "coop", "difficulty": difficulty}
    )
    _check_result(state, 2)
    assert fold(ENGINE, [e for e, _ in log]) == state
    types = {e.type for e, _ in log}
    assert {"BattleCardRevealed", "PointScored", "HealthLost", "MatchEnded"} <= types


def test_a_solo_game_replays_identically_from_its_seed():
    a = play(99, ["tactician"], {"difficulty": "endboss"})
    b = play(99, ["tactician"], {"difficulty": "endboss"})
    assert [e.to_dict() for e, _ in a[1]] == [e.to_dict() for e, _ in b[1]]


def test_the_toma_acts_on_its_own_with_its_whole_rule_set_over_many_games():
    """Over several seeded games every kind of A.I.Toma step happens: new slots, ammo spent,
    cards moved and drawn, forced discards, health points taken from the players."""
    seen = set()
    for seed in range(24):
        level = ["tactician", "random"]
        _, log = play(500 + seed, level, {"mode": "coop", "difficulty": "untamed"})
        toma = log[-1][1].toma.seat
        for e, _ in log:
            if e.seat == toma or e.type in ("HandDiscardsDue", "HandDiscardsResolved"):
                seen.add(e.type)
    assert {
        "TomaSlotOpened",
        "AmmoSpent",
        "TomaCardMoved",
        "TomaCardPlaced",
        "HandDiscardsDue",
        "HandDiscardsResolved",
        "AmmoGained",
        "HealthLost",
    } <= seen, seen


def _toma_secret(snapshot):
    toma = snapshot.players[snapshot.toma.seat]
    return set(toma.health)


def test_nobody_sees_the_toma_health_stack_or_the_partners_hand():
    state, log = play(31, ["tactician", "random"], {"mode": "coop", "difficulty": "boss"})
    ids = list(catalogue().cards)
    for viewer in (None, 0, 1):
        for index, (event, after) in enumerate(log):
            before = log[index - 1][1] if index else after
            text = json.dumps(ENGINE.redact(event, viewer, after))
            leaked = {c for c in ids if f'"{c}"' in text}
            secret = _toma_secret(before) & _toma_secret(after)
            if viewer is not None:
                other = before.players[1 - viewer]
                secret |= set(other.hand) & set(after.players[1 - viewer].hand)
            assert not (leaked & secret), (viewer, event.type, leaked & secret)
        for _, snap in log[::9]:
            text = json.dumps(ENGINE.view(snap, viewer))
            for c in _toma_secret(snap):
                assert f'"{c}"' not in text, (viewer, c)
            assert json.loads(text)["toma"]["health_count"] <= 6


def test_decide_accepts_exactly_the_legal_actions_in_coop():
    rng = random.Random(3)
    secret = b"coop"
    events = ENGINE.new_match(
        Setup(2, ENGINE.validate_options(2, {"mode": "coop"})), derive_rng(secret, 0)
    )
    state = fold(ENGINE, events)
    for _ in range(80):
        if ENGINE.result(state) is not None:
            break
        for seat in range(3):
            legal = ENGINE.legal_actions(state, seat)
            candidates = (
                _candidates(state, seat, rng) if seat < 2 else [{"type": "ready"}, {"type": "pass"}]
            )
            candidates += [{"type": "give_ammo"}]
            if seat < 2:
                pool = state.players[1 - seat].pool or ["S01"]
                candidates.append(
                    {"type": "triple", "cards": [], "source": "partner", "special": pool[0]}
                )
            for cmd in candidates:
                try:
                    ENGINE.decide(state, seat, cmd, random.Random(0))
                    accepted = True
                except RuleError:
                    accepted = False
                assert accepted == (_canon(cmd) in [_canon(c) for c in legal]), (
                    seat,
                    cmd,
                    state.phase,
                )
        seat = rng.choice(sorted(ENGINE.pending(state)))
        cmd = ENGINE.bots["random"].choose(state, seat, rng)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(secret, len(events))):
            state = ENGINE.evolve(state, e)
            events.append(e)
