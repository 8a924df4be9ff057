"""A decision's rollouts split between analysis slices (issue 23 item 3): an estimate that
stops after any rollout and goes on from its JSON document, in another call with the
decision's RNG seeded again, answers exactly what one uninterrupted estimate answers, for
every game with an estimator; and a log analysed in slices of a few rollouts each, every
slice ending inside a decision, gives the same entries as one uninterrupted run.

Before, a slice of a match analysis ended only between decisions, and one decision at
budget 512 held its RQ worker 16.8-31.2 s (bot turns waited behind it). Rollouts are
counted here, never timed."""

from __future__ import annotations

import json
import random

import pytest

from domain.analysis import analyse_slice, analyse_turns, decision_rng
from domain.engine import fold
from domain.games import registry
from tests.unit.test_analysis import ANALYSED, _setup, played_log


def _decisions(game: str, seed: int, count: int, skip: int, widest: int):
    """Yields ``(engine, state, seat, legal commands)`` at ``count`` decisions with
    2..``widest`` legal commands of a random log of ``game``, after its first ``skip``
    turns (a generator: the fold goes on in place once the caller is done with one)."""
    seats, options = _setup(game)
    setup, turns = played_log(game, seats, options, seed=seed, max_turns=skip + 120)
    engine = registry()[game]
    state, found = fold(engine, setup), 0
    for index, turn in enumerate(turns):
        if index >= skip and turn.seat in engine.pending(state):
            legal = engine.legal_actions(state, turn.seat)
            if 2 <= len(legal) <= widest:
                yield engine, state, turn.seat, legal
                found += 1
                if found == count:
                    return
        state = fold(engine, turn.events, state)
    raise AssertionError(f"{game}: {found} decisions")


def _round_trip(doc):
    """``doc`` written and read back as the analysis store does (JSON text)."""
    return json.loads(json.dumps(doc, sort_keys=True, separators=(",", ":")))


@pytest.mark.parametrize("game", ANALYSED)
def test_an_estimate_stopped_every_few_rollouts_is_the_uninterrupted_one(game):
    """At 2 decisions of a random log (budget: two samples and one rollout more), the
    estimate stopped after every 3rd rollout and resumed from its JSON document with a
    freshly seeded RNG, call after call, is the whole estimate float for float; each call
    but the last ran exactly 3 rollouts, and all of them together as many as the whole (a
    sample the rules refuse ends at its refused rollout)."""
    counted = [0]

    def count() -> bool:
        counted[0] += 1
        return True

    def three() -> bool:
        counted[0] += 1
        return counted[0] % 3 != 0

    for engine, state, seat, legal in _decisions(game, seed=3, count=2, skip=12, widest=5):
        estimator = engine.estimator()
        budget = 2 * len(legal) + 1
        counted[0] = 0

        whole = estimator.estimate_part(state, seat, legal, budget, random.Random(5), None, count)
        assert whole == estimator.estimate(state, seat, legal, budget, random.Random(5))
        rollouts, counted[0] = counted[0], 0
        per_call, resume = [], None
        while True:
            before = counted[0]
            out = estimator.estimate_part(
                state, seat, legal, budget, random.Random(5), resume, three
            )
            per_call.append(counted[0] - before)
            if isinstance(out, list):
                break
            resume = _round_trip(out)
        assert out == whole, (game, per_call)
        assert sum(per_call) == rollouts > 3 and set(per_call[:-1]) == {3}


#: the games of the slices test; Dead Apocalypse's rollouts play to the end of the match
#: (11 s on a busy machine): not in the quick subset
SLICED = [
    pytest.param(game, marks=pytest.mark.slow) if game == "dead-apocalypse" else game
    for game in ANALYSED
]


@pytest.mark.parametrize("game", SLICED)
def test_a_log_analysed_in_slices_of_four_rollouts_is_the_uninterrupted_analysis(game):
    """Slices of at most 4 rollouts each (``enough`` counts them), each going on from the
    :data:`domain.analysis.Pending` document of the one before (through JSON), give the
    entries of one uninterrupted run; most slices end inside a decision."""
    seats, options = _setup(game)
    setup, turns = played_log(game, seats, options, seed=5, max_turns=14)
    engine = registry()[game]
    whole = analyse_turns(engine, setup, turns, 6, b"split")
    decisions, start, pending, inside, slices = [], 0, None, 0, 0
    while start < len(turns):
        done = analyse_slice(
            engine, setup, turns, 6, b"split", start, pending=pending, enough=lambda n: n >= 4
        )
        assert done.rollouts <= 4 and (done.next, done.pending) != (start, pending)
        decisions += done.decisions
        start, pending = done.next, _round_trip(done.pending)
        inside += pending is not None
        slices += 1
    assert decisions == whole
    assert inside >= 2 and slices > len([d for d in whole if d["choices"] > 1])


def test_a_pruned_played_command_is_weighed_again_across_slices():
    """AI: 100% Human's prior prunes all but 6 commands; a played command it pruned is
    weighed against the best one in a second estimate (``stage`` ``pair``). Stopped after
    every rollout, through both stages, the entry is the uninterrupted one, and no call
    runs more than the one rollout it was allowed."""
    if "ai-100-human" not in ANALYSED:
        pytest.skip("AI: 100% Human has no estimator")
    from domain.analysis import Turn, analyse_decision, decision_part

    engine = registry()["ai-100-human"]
    seats, options = _setup("ai-100-human")
    setup, turns = played_log("ai-100-human", seats, options, seed=2, max_turns=80)
    state = fold(engine, setup)
    for turn in turns:
        legal = engine.legal_actions(state, turn.seat) if turn.seat in engine.pending(state) else []
        if len(legal) > 6:
            values = engine.estimator().estimate(
                state, turn.seat, legal, 6, decision_rng(b"pair", turn.version, turn.seat)
            )
            if values[legal.index(turn.command)] == float("-inf"):
                break
        state = fold(engine, turn.events, state)
    else:
        pytest.fail("no pruned played command in the log")
    assert isinstance(turn, Turn)
    whole = analyse_decision(engine, state, turn, 6, b"pair")
    asked = [0]

    def stop() -> bool:
        asked[0] += 1
        return False

    stages, per_call, pending, begun = [], [], None, []
    while True:
        before = asked[0]
        entry, pending = decision_part(engine, state, turn, 6, b"pair", pending, stop)
        per_call.append(asked[0] - before)
        if pending is None:
            break
        pending = _round_trip(pending)
        stages.append(pending["stage"])
        begun.append(pending["estimate"] is not None)
    assert entry == whole and whole["best_value"] is not None
    # 6 rollouts of the shortlist, then 6 of the pair (3 samples of 2), one a call: the
    # call whose last rollout ended the shortlist's stage does not begin the pair's
    assert stages == ["all"] * 5 + ["pair"] * 6 and per_call == [1] * 12
    assert begun == [True] * 5 + [False] + [True] * 5
