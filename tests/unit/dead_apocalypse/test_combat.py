"""Combating Zombies, Zombie Immunities, Call for Help, After Combat effects, the CDC."""

from __future__ import annotations

import pytest

from domain.engine import RuleError
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.cards import catalogue

from .support import act, of, table, total_damage, types


def with_damage(state, seat, cards):
    for c in cards:
        state.seats[seat].hand.append(c)
        _, state = act(state, seat, {"type": "play", "card": c})
    return state


def test_defeating_a_zombie_spends_its_hp_and_gains_the_adjacent_resource():
    state = with_damage(table(), 0, ["survivor#s0.1"])
    assert total_damage(state) == 1 and catalogue().of("shambler#1").hp == 1
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert types(events) == ["ZombieDefeated", "InfectionGained", "CardGained"]
    assert of(events, "CardGained") == [
        {"seat": 0, "card": "shotgun#1", "from": "resource_row", "column": 0}
    ]
    assert state.zombie_row[0] is None and state.resource_row[0] is None
    assert state.seats[0].discard == ["infection#1", "shotgun#1"]  # After Combat, then the gain
    assert total_damage(state) == 0 and state.ditch == ["shambler#1"] and state.defeated == 1


def test_not_enough_damage_is_refused_with_a_stable_code():
    state = table(zombie_row=["rotting-walker#1", None, None, None, None])  # HP 3
    state = with_damage(state, 0, ["survivor#s0.1", "survivor#s0.2"])
    assert {"type": "defeat", "column": 0} not in E.legal_actions(state, 0)
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "defeat", "column": 0}, None)
    assert err.value.code == "not_enough_damage" and err.value.status == 422


def test_faction_immunity_ignores_armory_damage():
    state = table(zombie_row=["riot-walker#1", None, None, None, None])
    state = with_damage(state, 0, ["shotgun#2", "machete#1", "soldier#2", "survivor#s0.1"])
    hp = catalogue().of("riot-walker#1").hp
    assert total_damage(state) == 3 + 3 + 3 + 1 >= hp
    assert not E.legal_actions(state, 0)[0]["type"] == "defeat"
    assert {"type": "defeat", "column": 0} not in E.legal_actions(state, 0)  # 4 usable < 5


def test_immune_to_survivors_includes_adept_survivors():
    state = table(zombie_row=[None, "brute#1", None, None, None])
    state = with_damage(
        state, 0, ["adept-survivor#1", "adept-survivor#2", "assault-rifle#1", "soldier#2"]
    )
    assert total_damage(state) == 2 + 2 + 4 + 3 == 11
    assert {"type": "defeat", "column": 1} in E.legal_actions(state, 0)  # 7 usable = HP 7
    state.damage[2]["amount"] = 3  # now 6 usable
    assert {"type": "defeat", "column": 1} not in E.legal_actions(state, 0)


def test_type_immunity_ignores_damage_generated_by_occupied_locations():
    state = table(zombie_row=[None, None, None, "sprinter#1", None])
    state.damage = [
        {
            "seat": 0,
            "source": "base-camp#s0.1",
            "title": "Base Camp",
            "kind": "location",
            "faction": "Civilian",
            "amount": 6,
            "ally": False,
        }
    ]
    assert {"type": "defeat", "column": 3} not in E.legal_actions(state, 0)


def test_title_immunity_ignores_only_that_card():
    state = table(zombie_row=[None, None, None, None, "juggernaut#1"])
    state = with_damage(state, 0, ["shotgun#2", "shotgun#3", "assault-rifle#1", "soldier#2"])
    assert total_damage(state) == 13
    assert {"type": "defeat", "column": 4} not in E.legal_actions(state, 0)  # 7 usable < 9
    state = with_damage(state, 0, ["police-officer#4"])  # 9 usable = HP 9
    assert {"type": "defeat", "column": 4} in E.legal_actions(state, 0)


def test_spending_uses_damage_other_zombies_are_immune_to_first():
    # Crawler (HP 1) is immune to Military: the Shambler (HP 1) takes the Soldier's damage.
    state = table(zombie_row=["shambler#1", None, "crawler#1", None, None])
    state = with_damage(
        state,
        0,
        ["survivor#s0.1", "soldier#2", "weapons-cache#s0.1", "survivor#s0.2", "survivor#s0.3"],
    )
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert of(events, "ZombieDefeated")[0]["spent"] == [[1, 1]]
    assert {"type": "defeat", "column": 2} in E.legal_actions(state, 0)


def call_for_help_table(seats=2):
    """The Rotting Walker (HP 3) attacks; the active seat has 2 damage and an empty hand,
    so it "will not gain enough damage" and may Call for Help."""
    state = table(
        seats=seats,
        attackers=[0],
        zombie_row=["rotting-walker#1", "shambler#2", None, None, None],
        hands={1: ["weapons-cache#s1.1", "survivor#s1.1"], 2: ["soldier#2"]},
    )
    state = with_damage(state, 0, ["survivor#s0.1", "survivor#s0.2"])
    return state


def test_call_for_help_lets_allies_act_one_at_a_time_in_seat_order():
    state = call_for_help_table(seats=3)
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)
    _, state = act(state, 0, {"type": "call_for_help"})
    assert E.pending(state) == {1: "help"}
    assert E.legal_actions(state, 1) == [{"type": "assist"}, {"type": "decline"}]
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "end_turn"}, None)
    assert err.value.code == "not_your_turn"
    _, state = act(state, 1, {"type": "decline"})
    assert E.pending(state) == {2: "help"}
    _, state = act(state, 2, {"type": "assist"})
    assert E.pending(state) == {2: "assist"}
    _, state = act(state, 2, {"type": "play", "card": "soldier#2"})
    assert state.damage[-1]["ally"] is True and state.damage[-1]["seat"] == 2
    events, state = act(state, 2, {"type": "end_assist"})
    assert of(events, "AssistEnded") == [{"seat": 2, "discarded": ["soldier#2"]}]
    assert state.seats[2].discard == ["soldier#2"] and E.pending(state) == {0: "turn"}
    assert {"type": "call_for_help"} not in E.legal_actions(state, 0)  # once per turn


def test_assist_damage_counts_only_against_attacking_zombies():
    """Call for Help: "the active player adds the remaining damage he/she gained with the
    opposing player's damage he/she gained. The active player may then use the total
    accumulated damage for the remainder of his/her turn but only to defeat attacking
    Zombies." — the active seat's own 2 damage no longer defeats the non-attacking Shambler
    (HP 1), not even after the attacker fell or with damage gained later (issue 9 item 2)."""
    state = call_for_help_table()
    assert {"type": "defeat", "column": 1} in E.legal_actions(state, 0)  # before the call: yes
    _, state = act(state, 0, {"type": "call_for_help"})
    _, state = act(state, 1, {"type": "assist"})
    _, state = act(state, 1, {"type": "play", "card": "weapons-cache#s1.1"})
    _, state = act(state, 1, {"type": "play", "card": "survivor#s1.1"})
    _, state = act(state, 1, {"type": "end_assist"})
    assert total_damage(state) == 5
    legal = E.legal_actions(state, 0)
    assert {"type": "defeat", "column": 0} in legal  # the attacker (HP 3)
    assert {"type": "defeat", "column": 1} not in legal  # not attacking: no damage counts
    _, state = act(state, 0, {"type": "defeat", "column": 0})
    _, state = act(state, 1, {"type": "claim", "choice": "adept"})
    assert total_damage(state) == 2
    state = with_damage(state, 0, ["soldier#2"])
    assert not [a for a in E.legal_actions(state, 0) if a["type"] == "defeat"]
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "defeat", "column": 1}, None)
    assert err.value.code == "not_attacking"


def test_a_call_nobody_answers_leaves_the_damage_free():
    """Only an assist combines the damage ("Once the opposing player (ally) is finished,
    the active player adds ..."): after every ally declined, the Shambler (HP 1, not
    attacking) may still be defeated with the active seat's own 2 damage."""
    state = call_for_help_table()
    _, state = act(state, 0, {"type": "call_for_help"})
    _, state = act(state, 1, {"type": "decline"})
    assert {"type": "defeat", "column": 1} in E.legal_actions(state, 0)


def test_assisting_seats_share_after_combat_effects_and_choose_a_reward_first():
    state = call_for_help_table()
    _, state = act(state, 0, {"type": "call_for_help"})
    _, state = act(state, 1, {"type": "assist"})
    _, state = act(state, 1, {"type": "play", "card": "weapons-cache#s1.1"})
    _, state = act(state, 1, {"type": "end_assist"})
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert [e["seat"] for e in of(events, "InfectionGained")] == [0, 1]  # both receive it
    assert E.pending(state) == {1: "reward"}
    assert E.legal_actions(state, 1) == [
        {"type": "claim", "choice": "resource"},
        {"type": "claim", "choice": "adept"},
    ]
    events, state = act(state, 1, {"type": "claim", "choice": "resource"})
    assert of(events, "CardGained") == [
        {"seat": 1, "card": "shotgun#1", "from": "resource_row", "column": 0},
        {"seat": 0, "card": "adept-survivor#1", "from": "adept_stack"},
    ]
    assert E.pending(state) == {0: "turn"}


def test_with_three_seats_later_allies_take_an_adept_when_the_card_is_gone():
    state = call_for_help_table(seats=3)
    _, state = act(state, 0, {"type": "call_for_help"})
    for seat, card in ((1, "weapons-cache#s1.1"), (2, "soldier#2")):
        _, state = act(state, seat, {"type": "assist"})
        _, state = act(state, seat, {"type": "play", "card": card})
        _, state = act(state, seat, {"type": "end_assist"})
    _, state = act(state, 0, {"type": "defeat", "column": 0})
    _, state = act(state, 1, {"type": "claim", "choice": "adept"})
    assert E.pending(state) == {2: "reward"}
    _, state = act(state, 2, {"type": "claim", "choice": "resource"})
    assert state.seats[0].discard[-1] == "adept-survivor#2"  # the card was chosen
    assert (
        state.seats[2].discard[-1] == "shotgun#1"
        and state.seats[1].discard[-1] == "adept-survivor#1"
    )


def test_call_for_help_needs_an_attack_and_another_seat():
    assert {"type": "call_for_help"} not in E.legal_actions(table(seats=2), 0)
    assert {"type": "call_for_help"} not in E.legal_actions(table(seats=1, attackers=[0]), 0)
    with pytest.raises(RuleError) as err:
        E.decide(table(seats=2), 0, {"type": "call_for_help"}, None)
    assert err.value.code == "help_unavailable"


def test_defeating_the_zombie_beside_the_cdc_wins_for_everyone():
    state = table(seats=2, resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"])
    state = with_damage(state, 0, ["weapons-cache#s0.1", "survivor#s0.1", "survivor#s0.2"])
    events, state = act(state, 0, {"type": "defeat", "column": 2})
    assert types(events)[-2:] == ["CardGained", "MatchEnded"]
    assert E.result(state)["outcome"] == "won" and E.result(state)["winners"] == [0, 1]
    assert state.cdc_holder == 0 and E.pending(state) == {}
    with pytest.raises(RuleError) as err:
        E.decide(state, 0, {"type": "end_turn"}, None)
    assert err.value.code == "match_finished"


def test_easiest_game_ignores_after_combat_effects():
    state = table(options={"difficulty": "easiest"})
    state = with_damage(state, 0, ["weapons-cache#s0.1", "survivor#s0.1", "survivor#s0.2"])
    events, _ = act(state, 0, {"type": "defeat", "column": 0})
    assert types(events) == ["ZombieDefeated", "CardGained"]


@pytest.mark.parametrize(
    "zombie,check",
    [
        ("bloater#1", lambda ev, st: len(of(ev, "InfectionGained")) == 2),
        (
            "feral-runner#1",
            lambda ev, st: (
                of(ev, "CardDiscarded") == [{"seat": 0, "card": "radio#2", "from": "hand"}]
            ),
        ),
        (
            "ghoul#1",
            lambda ev, st: (
                of(ev, "CardDitched")
                == [{"seat": 0, "card": "survivor#s0.9", "from": "deck", "to": "ditch"}]
            ),
        ),
    ],
)
def test_after_combat_effects(zombie, check):
    state = table(
        zombie_row=[zombie, None, None, None, None],
        hands={0: ["radio#2"]},
        decks={0: ["survivor#s0.9"]},
    )
    state.damage = [
        {
            "seat": 0,
            "source": "soldier#2",
            "title": "Soldier",
            "kind": "human",
            "faction": "Military",
            "amount": 12,
            "ally": False,
        }
    ]
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert check(events, state)


def test_bulldozer_attack_ditches_the_oldest_location_and_discards_its_occupants():
    state = table(
        zombie_row=["bulldozer#1", "shambler#1", "crawler#1", "sprinter#1", "ghoul#1"],
        zombie_stack=["stampede#1"],
        hands={0: []},
        decks={0: [f"survivor#s0.{k}" for k in range(1, 6)]},
    )
    state.seats[0].locations = [
        {"card": "base-camp#s0.1", "occupants": [{"card": "soldier#2", "upright": True}]},
        {"card": "farmhouse#1", "occupants": []},
    ]
    state.zombie_row[1] = None
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "LocationDitched") == [
        {"seat": 0, "card": "base-camp#s0.1", "occupants": ["soldier#2"]}
    ]
    assert state.seats[0].locations == [{"card": "farmhouse#1", "occupants": []}]
    assert "soldier#2" in state.seats[0].discard and "base-camp#s0.1" in state.ditch


def test_a_location_played_while_assisting_stays_in_the_assisting_seats_play():
    state = call_for_help_table()
    state.seats[1].hand.append("police-station#1")
    _, state = act(state, 0, {"type": "call_for_help"})
    _, state = act(state, 1, {"type": "assist"})
    _, state = act(state, 1, {"type": "play", "card": "police-station#1"})
    assert state.damage[-1] == {
        "seat": 1,
        "source": "police-station#1",
        "title": "Police Station",
        "kind": "location",
        "faction": "Military",
        "amount": 1,
        "ally": True,
    }
    assert not [a for a in E.legal_actions(state, 1) if a["type"] in ("occupy", "use_repeat")]
    _, state = act(state, 1, {"type": "end_assist"})
    assert state.seats[1].locations == [{"card": "police-station#1", "occupants": []}]
    assert state.seats[0].locations == []


@pytest.mark.parametrize(
    "zombie,source,counts",
    [
        ("riot-walker#1", "shotgun#2", False),
        ("riot-walker#1", "soldier#2", True),
        ("crawler#1", "soldier#2", False),
        ("crawler#1", "shotgun#2", True),
        ("brute#1", "survivor#s0.1", False),
        ("brute#1", "adept-survivor#1", False),
        ("brute#1", "scout#2", True),
        ("ghoul#1", "nurse#2", False),
        ("ghoul#1", "scout#2", True),
        ("sprinter#1", "base-camp#s0.1", False),
        ("sprinter#1", "shotgun#2", True),
        ("spitter#1", "shotgun#2", False),
        ("spitter#1", "mechanic#1", True),
        ("juggernaut#1", "shotgun#2", False),
        ("juggernaut#1", "crowbar#1", False),
        ("juggernaut#1", "machete#2", True),
        ("shambler#1", "shotgun#2", True),
    ],
)
def test_immunity_table(zombie, source, counts):
    from domain.games.dead_apocalypse.combat import usable_total

    card = catalogue().of(source)
    state = table(zombie_row=[zombie, None, None, None, None])
    state.damage = [
        {
            "seat": 0,
            "source": source,
            "title": card.title,
            "kind": card.kind,
            "faction": card.faction,
            "amount": 5,
            "ally": False,
        }
    ]
    assert usable_total(state, 0) == (5 if counts else 0)
