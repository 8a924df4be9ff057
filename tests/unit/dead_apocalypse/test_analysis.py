"""Computer analysis of a Dead Apocalypse match (issue 23 item 3): a hand-built position
from the rulebook where one move is clearly better gets the worse move labelled a mistake
(or worse). Determinism and no peeking are checked for every analysed game by
``tests/unit/test_analysis.py`` (Dead Apocalypse included)."""

from __future__ import annotations

import random

from domain.analysis import THRESHOLDS, Turn, analyse_decision
from domain.engine import Setup, fold
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.state import clone, dump_state, load_state


def _cdc_within_reach():
    """Game Ends: "Players win when a player gains the Center for Disease Control (CDC)
    card" and "Players lose when there are no cards left in the Resource Stack"; Ending
    your Turn: "If no Zombies were defeated ... during your turn, Ditch a card from the top
    of the Resource Stack for each player".

    A 1-seat standard match played by the ``cooperative`` bot (seed 21) up to the first
    own-turn decision where a Zombie can be defeated and nothing was defeated yet; then, by
    hand, the CDC takes the place of that Zombie's Resource Row card (which goes to the
    Ditch Pile with every Resource Stack card but one). Defeating that Zombie gains the CDC
    and wins at once; ending the turn Ditches the last Resource Stack card and loses.
    Returns ``(state, column)``."""
    rng = random.Random(21)
    state = fold(E, E.new_match(Setup(1, E.validate_options(1, {})), rng))
    while True:
        assert E.result(state) is None, "the match ended before a defeat was possible"
        legal = E.legal_actions(state, 0)
        defeats = [c for c in legal if c["type"] == "defeat" and "spend" not in c]
        if (
            E.pending(state).get(0) == "turn"
            and state.defeated == 0
            and defeats
            and {"type": "end_turn"} in legal
        ):
            break
        command = E.bots["cooperative"].choose(state, 0, rng)
        state = fold(E, E.decide(state, 0, command, rng), state)
    column = defeats[0]["column"]
    data = dump_state(state)
    data["zombie_stack"].remove("cdc#1")
    data["ditch"] += [data["resource_row"][column], *data["resource_stack"][1:]]
    data["resource_row"][column] = "cdc#1"
    data["resource_stack"] = data["resource_stack"][:1]
    return load_state(data), column


def test_ending_the_turn_instead_of_gaining_the_cdc_is_a_blunder():
    """The position of :func:`_cdc_within_reach`: ending the turn is labelled a blunder
    (win probability 0 against 1), defeating the CDC's Zombie is not labelled."""
    state, column = _cdc_within_reach()
    win, end = {"type": "defeat", "column": column}, {"type": "end_turn"}
    assert win in E.legal_actions(state, 0) and end in E.legal_actions(state, 0)
    rng = random.Random(0)
    for command, outcome in ((win, "won"), (end, "lost")):
        after = fold(E, E.decide(state, 0, command, rng), clone(state))
        assert E.result(after)["outcome"] == outcome

    def entry(command):
        turn = Turn(0, 0, command, "player", E.decide(state, 0, command, random.Random(0)))
        return analyse_decision(E, state, turn, 24, b"dead-apocalypse")

    worse, better = entry(end), entry(win)
    # every rollout after the defeat wins, none after the end of the turn (the best
    # alternative may be another command after which the team still takes the CDC)
    assert worse["label"] == "blunder", worse
    assert worse["loss"] >= THRESHOLDS["win_probability"]["mistake"]
    assert (worse["best_value"], worse["played_value"]) == (1.0, 0.0)
    assert better["label"] is None and better["loss"] == 0.0 and better["played_value"] == 1.0
