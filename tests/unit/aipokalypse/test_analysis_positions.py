"""Match analysis of A.I.Pokalypse (issue 23 item 3) at hand-built positions from the
rulebook where one move is clearly better: the analysis (``domain.analysis`` with the
expert's estimator, ``ENGINE.estimator()``) labels the worse move a mistake (or worse) with
the better one as the best alternative, and leaves the better move unlabelled.

The generic analysis tests (``tests/unit/test_analysis.py``: deterministic for a seed, a
seat's entry unchanged by re-deals of what it cannot see) cover this game too."""

from __future__ import annotations

import random

from domain.analysis import THRESHOLDS, Turn, analyse_decision
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import give_ammo, ids, put, table
from tests.unit.aipokalypse.test_rules_battle import _battle

PASS = {"type": "pass"}
AMMO = {"type": "react_ammo", "count": 1}


def _last_point_in_sudden_death():
    """Sudden Death, both health point stacks empty, a battle of one battle card. Seat 0's
    Commander (blue, strength 5) draws a Recruit (1): 6; seat 1's Commander (strength 6)
    draws another Recruit: 7, the point. Seat 0 holds one ammo, seat 1 no card and no
    ammo. Rulebook: "you can spend as much ammo as you'd like. Each spent ammo
    increases your battle strength by 2" (seat 0: 8, the point), "all players lose health
    points in an amount equal to the difference between their score and the score of the
    player with the most points" and "Any player who would lose a health point in Sudden
    Death and has no cards left on their health point stack is eliminated from the game and
    loses": spending the ammo wins the match, passing loses it."""
    state = table(2)
    state.sudden_death = True
    put(state, 0, ids("Commander", 3)[0], SCALE.index(5))
    put(state, 1, ids("Commander", 3)[1], SCALE.index(6))
    give_ammo(state, 0, 1)
    for p in state.players:
        p.health = []
    state, _ = _battle(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    assert pending(state) == {0: "react"}
    assert legal_actions(state, 0) == [AMMO, PASS]
    return state


def _entry(state, command):
    events = ENGINE.decide(state, 0, command, random.Random(0))
    return analyse_decision(ENGINE, state, Turn(0, 0, command, "player", events), 8, b"aip")


def test_passing_the_last_point_of_sudden_death_is_a_blunder_spending_the_ammo_is_not():
    state = _last_point_in_sudden_death()
    worse, better = _entry(state, PASS), _entry(state, AMMO)
    assert worse["label"] in ("mistake", "blunder"), worse
    assert worse["best"] == AMMO
    assert worse["loss"] >= THRESHOLDS["win_probability"]["mistake"]
    assert (worse["played_value"], worse["best_value"]) == (0.0, 1.0)
    assert better["label"] is None and better["loss"] == 0.0 and better["best"] == PASS


def test_the_entry_of_a_hand_built_position_is_the_same_for_the_same_seed():
    state = _last_point_in_sudden_death()
    assert _entry(state, PASS) == _entry(state, PASS)
