"""Bots choose legal commands from their own view; ``cooperative`` answers sensibly."""

from __future__ import annotations

import random

import pytest

from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table


def coop(state, seat):
    return E.bots["cooperative"].choose(state, seat, random.Random(0))


def test_bot_levels_and_the_timeout_policy():
    """Timeouts take the answer that uses nothing (shared RULINGS, test_timeout_answers)."""
    assert set(E.bots) == {"random", "cooperative", "idle", "expert"} and E.timeout_bot == "idle"


def _scout(amount, seat=0, ally=False):
    return {
        "seat": seat,
        "source": "scout#2",
        "title": "Scout",
        "kind": "human",
        "faction": "Civilian",
        "amount": amount,
        "ally": ally,
    }


def test_cooperative_takes_the_win_before_calling_for_help():
    """Issue 17 item 7: the Shambler (HP 1) in the CDC's column is not attacking, the Brute
    (HP 7) attacks and 3 damage cannot defeat it, so a Call for Help is legal; after an
    assist only attacking Zombies may be defeated — the bot defeats the Shambler (the win)."""
    state = table(
        seats=2,
        attackers=[0],
        hands={0: [], 1: ["shotgun#2"]},
        zombie_row=["brute#1", None, "shambler#1", None, None],
        resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
    )
    state.damage = [_scout(3)]
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)
    assert coop(state, 0) == {"type": "defeat", "column": 2}
    _, state = act(state, 0, coop(state, 0))
    assert E.result(state)["outcome"] == "won"


def test_cooperative_takes_the_win_before_a_plague_carrier_ends_the_game():
    """The Plague Carrier's Repeat would Ditch the last Resource Stack cards (the loss); the
    win in hand (4 damage, Rotting Walker HP 3 in the CDC's column) comes first."""
    state = table(
        zombie_row=["plague-carrier#1", None, "rotting-walker#1", None, None],
        resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
        resource_stack=["scout#1", "scout#2"],
        hands={0: []},
    )
    state.damage = [_scout(4)]
    assert E.legal_actions(state, 0)[0] == {"type": "use_repeat", "card": "plague-carrier#1"}
    assert coop(state, 0) == {"type": "defeat", "column": 2}


def test_cooperative_ally_judges_the_pooled_shortfall_of_all_attackers_together():
    """Four Rotting Walkers (HP 3) attack and the pool holds 7: two defeats. No single
    attacker has a shortfall (3 < 7 each), yet the ally's Shotgun (3) makes 10: a third
    defeat. It assists and plays the Shotgun, keeping the Survivor."""
    state = table(
        seats=2,
        attackers=[0, 1, 3, 4],
        hands={0: [], 1: ["shotgun#2", "survivor#s1.1"]},
        zombie_row=[
            "rotting-walker#1",
            "rotting-walker#2",
            None,
            "rotting-walker#3",
            "rotting-walker#4",
        ],
        help={"called": True, "queue": [1], "assisting": None, "assisted": []},
    )
    state.damage = [_scout(7)]
    assert coop(state, 1) == {"type": "assist"}
    _, state = act(state, 1, {"type": "assist"})
    assert coop(state, 1) == {"type": "play", "card": "shotgun#2"}
    _, state = act(state, 1, {"type": "play", "card": "shotgun#2"})
    assert coop(state, 1) == {"type": "end_assist"}
    _, state = act(state, 1, {"type": "end_assist"})
    for _ in range(8):  # the defeats and the ally's reward claims
        seat = next(iter(E.pending(state)))
        command = coop(state, seat)
        if command["type"] == "end_turn":
            break
        _, state = act(state, seat, command)
    assert state.defeated == 3 and state.seats[1].hand == ["survivor#s1.1"]


def test_cooperative_ally_declines_when_its_hand_adds_no_defeat():
    """Same table, the ally holds a Survivor (1): 8 damage still defeats two; it declines."""
    state = table(
        seats=2,
        attackers=[0, 1, 3, 4],
        hands={0: [], 1: ["survivor#s1.1"]},
        zombie_row=[
            "rotting-walker#1",
            "rotting-walker#2",
            None,
            "rotting-walker#3",
            "rotting-walker#4",
        ],
        help={"called": True, "queue": [1], "assisting": None, "assisted": []},
    )
    state.damage = [_scout(7)]
    assert coop(state, 1) == {"type": "decline"}


def test_cooperative_resolves_a_zombie_repeat_as_late_as_it_may():
    """R-ZOMBIE-REPEAT: it plays the Assault Rifle (4) first, so the Screamer's Repeat can only
    discard the Infection it kept; then it defeats the Screamer (HP 4); the Spitter's Repeat
    waits until the end of the turn."""
    state = table(
        zombie_row=["spitter#1", "screamer#1", None, None, None],
        hands={0: ["assault-rifle#1", "infection#1"]},
    )
    assert coop(state, 0) == {"type": "play", "card": "assault-rifle#1"}
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "use_repeat", "card": "screamer#1"}
    events, state = act(state, 0, coop(state, 0))
    assert [e.data["card"] for e in events if e.type == "CardDiscarded"] == ["infection#1"]
    assert coop(state, 0) == {"type": "defeat", "column": 1}
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "use_repeat", "card": "spitter#1"}


def test_cooperative_resolves_the_repeat_standing_before_a_win_then_wins():
    """The Screamer (HP 4) in the CDC's column, 4 damage in the pool, a Brute attacking
    (a Call for Help is legal): the Screamer's Repeat first, then the win."""
    state = table(
        seats=2,
        attackers=[0],
        hands={0: ["infection#1"], 1: []},
        zombie_row=["brute#1", None, "screamer#1", None, None],
        resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
    )
    state.damage = [_scout(4)]
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)
    assert coop(state, 0) == {"type": "use_repeat", "card": "screamer#1"}
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "defeat", "column": 2}


def test_the_expert_policy_prices_the_plague_carriers_resource_stack_ditches():
    """5 damage defeats one of an attacking Feral Runner (HP 5) and a Plague Carrier (HP 4,
    Repeat: Ditch 3 Resource Stack cards each turn). ``cooperative`` takes the attacker;
    the expert's policy (``stack_threat``) takes the Plague Carrier (its Repeat first, as it
    must), which would Ditch 3 cards on every later turn."""
    from domain.games.dead_apocalypse.bots import STACK_THREAT, CooperativeBot

    state = table(
        attackers=[0],
        hands={0: []},
        zombie_row=["feral-runner#1", "plague-carrier#1", None, None, None],
        resource_row=["shotgun#1", "shotgun#2", "radio#1", "nurse#1", "machete#1"],
    )
    state.damage = [_scout(5)]
    assert coop(state, 0) == {"type": "defeat", "column": 0}
    threat = CooperativeBot(stack_threat=STACK_THREAT)
    assert threat.choose(state, 0, random.Random(0)) == {
        "type": "use_repeat",
        "card": "plague-carrier#1",
    }
    _, state = act(state, 0, {"type": "use_repeat", "card": "plague-carrier#1"})
    assert threat.choose(state, 0, random.Random(0)) == {"type": "defeat", "column": 1}


def test_a_negative_stack_threat_is_refused():
    from domain.games.dead_apocalypse.bots import CooperativeBot

    with pytest.raises(ValueError):
        CooperativeBot(stack_threat=-1.0)


def test_the_expert_policy_prices_an_undefeated_attacker_by_the_cards_it_costs():
    """ "Undefeated Zombies": an attacker left standing Ditches its column's Resource Row card
    and the top Resource Stack card at the end of the turn. 7 damage defeats the attacking
    Crawler (HP 1, reward Nurse) or the Bulldozer (HP 7, not attacking, reward Farmhouse),
    not both. ``cooperative`` (a flat +8 per attacker) takes the Bulldozer and its
    Location; the expert's policy prices the attacker at two cards (30 plan points) and
    defeats the Crawler. With the easy rules nothing is Ditched."""
    from domain.games.dead_apocalypse.bots import (
        STACK_THREAT,
        CooperativeBot,
        attack_cards,
    )

    def position(options=None):
        state = table(
            attackers=[0],
            hands={0: []},
            zombie_row=["crawler#1", None, "bulldozer#1", None, None],
            resource_row=["nurse#1", "soldier#1", "farmhouse#1", "radio#1", "machete#1"],
            options=options,
        )
        state.damage = [_scout(7)]
        return state

    policy = CooperativeBot(stack_threat=STACK_THREAT)
    assert STACK_THREAT * attack_cards({}, 1) == 30
    assert coop(position(), 0) == {"type": "defeat", "column": 2}
    assert policy.choose(position(), 0, random.Random(0)) == {"type": "defeat", "column": 0}
    easy = position({"difficulty": "easy"})
    assert policy.choose(easy, 0, random.Random(0)) == {"type": "defeat", "column": 2}
    assert [attack_cards({"attack_ditch_half_hp": True}, hp) for hp in (1, 4, 7)] == [2, 3, 5]
    assert attack_cards({"difficulty": "easier"}, 7) == 0


def test_the_expert_policy_defeats_a_plague_carrier_before_calling_for_help():
    """The Brute (HP 7) attacks and 4 damage cannot defeat it, so a Call for Help is
    legal; after an assist only attacking Zombies may be defeated, and the Plague Carrier
    (HP 4, not attacking) would Ditch 3 Resource Stack cards again next turn.
    ``cooperative`` calls at once; the expert's policy (``drain_first``) resolves the
    Plague Carrier's Repeat, defeats it with its own 4 damage, then calls."""
    from domain.games.dead_apocalypse.bots import STACK_THREAT, CooperativeBot

    state = table(
        seats=2,
        attackers=[0],
        hands={0: [], 1: ["shotgun#2"]},
        zombie_row=["brute#1", "plague-carrier#1", None, None, None],
        resource_row=["shotgun#1", "soldier#1", "radio#1", "nurse#1", "machete#1"],
    )
    state.damage = [_scout(4)]
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)
    assert coop(state, 0)["type"] == "call_for_help"
    old = CooperativeBot(stack_threat=STACK_THREAT)
    assert old.choose(state, 0, random.Random(0)) == {"type": "call_for_help"}
    new = CooperativeBot(stack_threat=STACK_THREAT, drain_first=True)
    repeat = {"type": "use_repeat", "card": "plague-carrier#1"}
    assert new.choose(state, 0, random.Random(0)) == repeat
    _, state = act(state, 0, repeat)
    assert new.choose(state, 0, random.Random(0)) == {"type": "defeat", "column": 1}
    _, state = act(state, 0, {"type": "defeat", "column": 1})
    assert state.zombie_row[1] is None
    assert new.choose(state, 0, random.Random(0)) == {"type": "call_for_help"}


def test_the_expert_policy_occupies_a_location_at_a_cost_below_its_margin():
    """Occupying Locations: "The active player may instead decide to place a Human from
    his/her hand beneath a Location card to generate damage each following turn." The seat's
    Base Camp (Occupancy 2, no Repeat) is in play and empty; the hand holds a Soldier (3)
    and a Police Officer (2). Played, both defeat the Pack Hunter (HP 3, reward Shotgun:
    16 plan points) and the Bloater (HP 2, reward Soldier, 2 Infections: 11); the Police
    Officer alone still defeats the Bloater. Occupying with the Soldier costs 16 < 25
    (:data:`OCCUPY_MARGIN`) and a defeat remains: the expert's policy occupies, then
    defeats the Bloater. With margin 0 (``cooperative``, or the expert's policy without
    the margin) it plays the Soldier; when the Pack Hunter attacks (30 more points) or no
    defeat would remain, the expert's policy plays it too."""
    from domain.games.dead_apocalypse.bots import OCCUPY_MARGIN, STACK_THREAT, CooperativeBot
    from domain.games.dead_apocalypse.expert import POLICY

    def position(zombie_row=("pack-hunter#1", "bloater#1", None, None, None), attackers=None):
        state = table(
            attackers=attackers,
            hands={0: ["soldier#2", "police-officer#4"]},
            zombie_row=list(zombie_row),
            zombie_stack=["rotting-walker#1", "rotting-walker#2"],
        )
        state.seats[0].locations = [{"card": "base-camp#s0.1", "occupants": []}]
        return state

    occupy = {"type": "occupy", "card": "soldier#2", "location": "base-camp#s0.1"}
    play = {"type": "play", "card": "soldier#2"}
    state = position()
    assert occupy in E.legal_actions(state, 0)
    assert POLICY.occupy_margin == OCCUPY_MARGIN == 25
    assert POLICY.choose(state, 0, random.Random(0)) == occupy
    no_margin = CooperativeBot(stack_threat=STACK_THREAT, drain_first=True, occupy_margin=0.0)
    assert no_margin.choose(state, 0, random.Random(0)) == play
    assert coop(state, 0) == play
    attacked = position(attackers=[0])
    assert POLICY.choose(attacked, 0, random.Random(0)) == play
    alone = position(zombie_row=("pack-hunter#1", None, None, None, None))
    assert POLICY.choose(alone, 0, random.Random(0)) == play
    _, state = act(state, 0, occupy)
    assert state.seats[0].locations == [
        {"card": "base-camp#s0.1", "occupants": [{"card": "soldier#2", "upright": False}]}
    ]
    assert POLICY.choose(state, 0, random.Random(0)) == {"type": "play", "card": "police-officer#4"}
    _, state = act(state, 0, {"type": "play", "card": "police-officer#4"})
    assert POLICY.choose(state, 0, random.Random(0)) == {"type": "defeat", "column": 1}


def test_a_negative_occupy_margin_is_refused():
    from domain.games.dead_apocalypse.bots import CooperativeBot

    with pytest.raises(ValueError):
        CooperativeBot(occupy_margin=-1.0)
