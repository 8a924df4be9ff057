"""``decide`` accepts exactly ``legal_actions`` and refuses the rest with stable codes."""

from __future__ import annotations

import random

import pytest

from domain.engine import RuleError
from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table


def code(state, seat, command):
    with pytest.raises(RuleError) as err:
        E.decide(state, seat, command, random.Random(0))
    return err.value.code, err.value.status


def test_error_codes():
    state = table(seats=2, hands={0: ["survivor#s0.1", "infection#1", "soldier#2"]})
    state.seats[0].locations = [
        {"card": "gun-shop#1", "occupants": [{"card": "soldier#1", "upright": True}]}
    ]
    state.repeat_used = ["gun-shop#1"]
    assert code(state, 1, {"type": "end_turn"}) == ("not_your_turn", 409)
    assert code(state, 0, {"type": "fly"}) == ("unknown_action", 422)
    assert code(state, 0, {"type": "play"}) == ("invalid_command", 400)
    assert code(state, 0, {"type": "play", "card": 7}) == ("invalid_command", 400)
    assert code(state, 0, {"type": "end_turn", "extra": 1}) == ("invalid_command", 400)
    assert code(state, 0, {"type": "defeat", "column": 5}) == ("invalid_command", 400)
    assert code(state, 0, {"type": "play", "card": "shotgun#3"}) == ("card_not_in_hand", 422)
    assert code(state, 0, {"type": "play", "card": "infection#1"}) == ("card_not_playable", 422)
    assert code(
        state, 0, {"type": "occupy", "card": "survivor#s0.1", "location": "base-camp#s0.1"}
    ) == ("location_not_in_play", 422)
    assert code(
        state, 0, {"type": "occupy", "card": "survivor#s0.1", "location": "gun-shop#1"}
    ) == ("location_full", 422)
    assert code(state, 0, {"type": "occupy", "card": "infection#1", "location": "gun-shop#1"}) == (
        "not_a_human",
        422,
    )
    assert code(state, 0, {"type": "use_repeat", "card": "gun-shop#1"}) == (
        "repeat_unavailable",
        422,
    )
    assert code(state, 0, {"type": "assist"}) == ("not_allowed_now", 422)
    assert code(state, 0, {"type": "claim", "choice": "adept"}) == ("not_allowed_now", 422)
    state.zombie_row[1] = None
    assert code(state, 0, {"type": "defeat", "column": 1}) == ("no_zombie", 422)


def test_prompt_errors():
    state = table(hands={0: ["crowbar#1", "survivor#s0.1", "infection#1"]})
    _, state = act(state, 0, {"type": "play", "card": "crowbar#1"})
    assert code(state, 0, {"type": "choose", "card": "shotgun#3"}) == ("not_ditchable", 422)
    assert code(state, 0, {"type": "end_turn"}) == ("not_allowed_now", 422)


def test_every_legal_action_is_accepted_and_decide_never_mutates_its_input():
    state = table(
        seats=2,
        attackers=[0],
        hands={0: ["survivor#s0.1", "scout#1", "base-camp#s0.1"]},
        decks={0: ["radio#2", "soldier#2"]},
    )
    before = E.dump_state(state)
    for command in E.legal_actions(state, 0):
        E.decide(state, 0, command, random.Random(1))
        assert E.dump_state(state) == before


def test_options_are_validated():
    from domain.engine import InvalidCommand

    assert E.validate_options(4, {})["difficulty"] == "standard"
    for seats, options in (
        (0, {}),
        (5, {}),
        (2, {"difficulty": "nightmare"}),
        (2, {"no_kill_ditch": 4}),
        (2, {"difficulty": "easy", "no_kill_ditch": 2}),
        (2, {"colour": "red"}),
        (2, {"competitive": "yes"}),
    ):
        with pytest.raises(InvalidCommand):
            E.validate_options(seats, options)


def test_the_competitive_game_needs_two_players():
    """The book, "For a more competitive game": "both players then add up the number of Humans ...
    The player with the most wins" - one seat has nobody to be ranked against."""
    from domain.engine import InvalidCommand

    with pytest.raises(InvalidCommand, match="at least 2 seats"):
        E.validate_options(1, {"competitive": True})
    assert E.validate_options(2, {"competitive": True})["competitive"] is True
    assert E.validate_options(1, {"competitive": False})["competitive"] is False
