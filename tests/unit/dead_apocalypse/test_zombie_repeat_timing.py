"""Repeat: "the active player decides when to resolve a Repeat ability during their turn.
Typically Zombie Repeat abilities should be resolved at the beginning of the turn."
(ruling R-ZOMBIE-REPEAT, issue 17 item 6)."""

from __future__ import annotations

import pytest

from domain.engine import RuleError
from domain.games.dead_apocalypse import ENGINE as E

from .support import act, of, table, total_damage, types

DECK = {0: [f"survivor#s0.{k}" for k in range(1, 8)]}
SCREAMER_ROW = ["screamer#1", "shambler#1", None, None, None]
HAND = ["shotgun#2", "soldier#2", "infection#1"]


def test_zombie_repeats_wait_for_the_active_players_decision_listed_first():
    state = table(
        zombie_row=["spitter#1", "plague-carrier#1", "screamer#1", "shambler#1", "crawler#1"],
        hands={0: []},
        decks=DECK,
        repeat_used=["spitter#1", "plague-carrier#1", "screamer#1"],
        resource_stack=["scout#1", "scout#2", "scout#3", "radio#2", "radio#3", "police-officer#1"],
    )
    events, state = act(state, 0, {"type": "end_turn"})
    later = types(events)[types(events).index("TurnStarted") :]
    assert "InfectionGained" not in later and "CardDiscarded" not in later
    assert state.resource_stack == [
        "scout#2",
        "scout#3",
        "radio#2",
        "radio#3",
        "police-officer#1",
    ]  # 1 no-kill Ditch
    legal = E.legal_actions(state, 0)
    assert legal[:3] == [
        {"type": "use_repeat", "card": c} for c in ("spitter#1", "plague-carrier#1", "screamer#1")
    ]
    assert {"type": "end_turn"} not in legal
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "end_turn"}, None)
    assert err.value.code == "repeat_unused"
    _, state = act(state, 0, {"type": "use_repeat", "card": "plague-carrier#1"})
    assert state.resource_stack == ["radio#3", "police-officer#1"]  # the top 3 Ditched
    events, state = act(state, 0, {"type": "use_repeat", "card": "spitter#1"})
    assert of(events, "InfectionGained") == [{"seat": 0, "card": "infection#1"}]
    assert {"type": "use_repeat", "card": "spitter#1"} not in E.legal_actions(
        state, 0
    )  # once per turn
    _, state = act(state, 0, {"type": "use_repeat", "card": "screamer#1"})
    assert len(state.seats[0].hand) == 4 and {"type": "end_turn"} in E.legal_actions(state, 0)


def test_screamer_at_the_beginning_of_the_turn_may_discard_a_card_that_deals_damage():
    """Resolved first, the Screamer picks among the 3 cards: with seed 0 the Soldier (3)."""
    state = table(zombie_row=SCREAMER_ROW, hands={0: list(HAND)})
    events, state = act(state, 0, {"type": "use_repeat", "card": "screamer#1"}, seed=0)
    assert of(events, "CardDiscarded") == [{"seat": 0, "card": "soldier#2", "from": "hand"}]
    _, state = act(state, 0, {"type": "play", "card": "shotgun#2"})
    assert total_damage(state) == 3 and state.seats[0].hand == ["infection#1"]


def test_screamer_resolved_after_playing_the_hand_can_only_discard_what_was_kept():
    """Resolved after both damage cards are played, the same seed can only take the
    Infection (the one card left in hand): 6 damage instead of 3."""
    state = table(zombie_row=SCREAMER_ROW, hands={0: list(HAND)})
    _, state = act(state, 0, {"type": "play", "card": "shotgun#2"})
    _, state = act(state, 0, {"type": "play", "card": "soldier#2"})
    assert {"type": "end_turn"} not in E.legal_actions(state, 0)
    events, state = act(state, 0, {"type": "use_repeat", "card": "screamer#1"}, seed=0)
    assert of(events, "CardDiscarded") == [{"seat": 0, "card": "infection#1", "from": "hand"}]
    assert (
        total_damage(state) == 6
        and state.seats[0].hand == []
        and "infection#1" in state.seats[0].discard
    )


def test_a_zombie_cannot_be_defeated_before_its_repeat_resolved():
    """The player decides *when*, not whether ("each turn that card resolves its ability"):
    with 4 damage the Screamer (HP 4) can be defeated only after its Repeat resolved — here
    after the Assault Rifle was played, so it discards the Infection."""
    state = table(zombie_row=SCREAMER_ROW, hands={0: ["assault-rifle#1", "infection#1"]})
    _, state = act(state, 0, {"type": "play", "card": "assault-rifle#1"})
    assert {"type": "defeat", "column": 0} not in E.legal_actions(state, 0)
    assert {"type": "defeat", "column": 1} in E.legal_actions(
        state, 0
    )  # the Shambler has no Repeat
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "defeat", "column": 0}, None)
    assert err.value.code == "repeat_unused"
    events, state = act(state, 0, {"type": "use_repeat", "card": "screamer#1"})
    assert of(events, "CardDiscarded") == [{"seat": 0, "card": "infection#1", "from": "hand"}]
    _, state = act(state, 0, {"type": "defeat", "column": 0})
    assert "screamer#1" in state.ditch and {"type": "end_turn"} in E.legal_actions(state, 0)


def test_an_assisting_seat_cannot_resolve_the_zombie_repeat():
    state = table(
        seats=2,
        zombie_row=SCREAMER_ROW,
        attackers=[1],
        hands={0: [], 1: ["shotgun#2"]},
        help={"called": True, "queue": [], "assisting": 1, "assisted": [1]},
    )
    assert {"type": "use_repeat", "card": "screamer#1"} not in E.legal_actions(state, 1)
    with pytest.raises(RuleError):
        E.decide(state, 1, {"type": "use_repeat", "card": "screamer#1"}, None)
