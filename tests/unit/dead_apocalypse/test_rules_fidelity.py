"""Issue 9 (Dead Apocalypse items 1-13): each rule with the book's value, the line quoted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain.engine import RuleError
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.cards import catalogue

from .support import act, of, table, total_damage, types

DECK = {0: [f"survivor#s0.{k}" for k in range(1, 8)]}


def entry(source, amount, seat=0, ally=False):
    card = catalogue().of(source)
    return {
        "seat": seat,
        "source": source,
        "title": card.title,
        "kind": card.kind,
        "faction": card.faction,
        "amount": amount,
        "ally": ally,
    }


def code(state, seat, command):
    with pytest.raises(RuleError) as err:
        E.decide(state, seat, command, random.Random(0))
    return err.value.code


def play_all(state, seat, cards):
    for c in cards:
        state.seats[seat].hand.append(c)
        _, state = act(state, seat, {"type": "play", "card": c})
    return state


# -- 1. Losing -------------------------------------------------------------------
def test_the_game_is_lost_as_soon_as_the_refill_takes_the_last_resource_stack_card():
    """Game Ends: "Players lose when there are no cards left in the Resource Stack." The
    refill takes the last card (scout#1) into the Resource Row: the match ends right there,
    though no further card is needed (the Zombie Row refill never happens)."""
    state = table(
        resource_row=[None, "soldier#1", "radio#1", "nurse#1", "machete#1"],
        resource_stack=["scout#1"],
        hands={0: []},
        decks=DECK,
        defeated=1,
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert types(events)[-2:] == ["ResourceRevealed", "MatchEnded"]
    assert of(events, "ResourceRevealed") == [{"column": 0, "card": "scout#1"}]
    assert (
        E.result(state)["outcome"] == "lost" and E.result(state)["reason"] == "resource_stack_empty"
    )
    assert state.resource_stack == [] and state.resource_row[0] == "scout#1"


def test_the_game_is_lost_by_the_ditch_that_empties_the_stack_and_nothing_follows():
    """ "If no Zombies were defeated ... Ditch a card from the top of the Resource Stack for
    each player": with 2 seats and 2 cards left the second Ditch empties it and the game is
    lost at once (no TurnEnded, no draw)."""
    state = table(seats=2, resource_stack=["scout#1", "scout#2"], hands={0: []}, decks=DECK)
    events, state = act(state, 0, {"type": "end_turn"})
    assert types(events) == ["ResourceStackDitched", "ResourceStackDitched", "MatchEnded"]
    assert E.result(state)["reason"] == "resource_stack_empty"


def test_a_stack_with_cards_left_after_the_ditches_plays_on():
    state = table(
        seats=2, resource_stack=["scout#1", "scout#2", "scout#3"], hands={0: []}, decks=DECK
    )
    _, state = act(state, 0, {"type": "end_turn"})
    assert E.result(state) is None and state.resource_stack == ["scout#3"]


def test_a_plague_carrier_emptying_the_stack_loses_the_game_mid_ability():
    """Plague Carrier: "Repeat: Ditch the top 3 cards of the Resource Stack." with 2 cards
    left: 2 Ditches, then the loss."""
    state = table(
        zombie_row=["plague-carrier#1", "shambler#1", "crawler#1", "sprinter#1", "ghoul#1"],
        resource_stack=["scout#1", "scout#2", "scout#3"],
        hands={0: []},
        decks=DECK,
        repeat_used=["plague-carrier#1"],
    )  # resolved last turn
    events, state = act(state, 0, {"type": "end_turn"})  # 1 no-kill Ditch
    assert types(events).count("ResourceStackDitched") == 1 and E.result(state) is None
    events, state = act(state, 0, {"type": "use_repeat", "card": "plague-carrier#1"})
    assert types(events).count("ResourceStackDitched") == 2 and types(events)[-1] == "MatchEnded"


def test_easiest_game_reforms_at_once_and_is_not_lost():
    """For the easiest game: "If the Resource Stack ever runs out of cards, remove all
    Zombies from the Ditch Pile and shuffle the remaining cards to reform the Resource
    Stack. This will prevent the game from ending" — the remaining cards include an
    Infection Ditched earlier."""
    state = table(
        options={"difficulty": "easiest"},
        resource_row=[None, "soldier#1", "radio#1", "nurse#1", "machete#1"],
        resource_stack=["scout#1"],
        ditch=["shambler#3", "radio#3", "infection#1"],
        infection_stack=[],
        hands={0: []},
        decks=DECK,
        defeated=1,
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert sorted(of(events, "ResourceStackReformed")[0]["order"]) == ["infection#1", "radio#3"]
    assert E.result(state) is None and state.ditch == ["shambler#3"]


# -- 2. After Call for Help: see test_combat.test_assist_damage_counts_only_against_attacking_zombies

# -- 3. When Call for Help is allowed ---------------------------------------------
HELP_LINE = (
    "If the cards in your hand and/or in play will not gain enough damage for you to defeat "
    "any or all of the attacking Zombies, you may Call for Help."
)


def test_no_call_for_help_with_4_damage_against_one_hp_1_attacker():
    """Call for Help: "If the cards in your hand and/or in play will not gain enough damage for you to defeat
    any or all of the attacking Zombies, you may Call for Help." — 4 damage covers the Shambler (HP 1)."""
    state = table(seats=2, attackers=[0], hands={0: []})
    state.damage = [entry("soldier#2", 3), entry("survivor#s0.1", 1)]
    assert {"type": "call_for_help"} not in E.legal_actions(state, 0)
    assert code(state, 0, {"type": "call_for_help"}) == "help_not_needed"


@pytest.mark.parametrize(
    "zombie,pool,hand,locations,allowed",
    [
        ("rotting-walker#1", [], ["shotgun#2"], [], False),  # the hand's Shotgun 3 covers HP 3
        (
            "riot-walker#1",
            [],
            ["shotgun#2", "machete#1"],
            [],
            True,
        ),  # Immune to Armory: counts 0 of 6
        (
            "rotting-walker#1",
            [("survivor#s0.1", 2)],
            [],
            ["police-station#1"],
            False,
        ),  # unused Repeat +1
        (
            "brute#1",
            [],
            ["sniper#1", "soldier#2"],
            [],
            False,
        ),  # 3 + 2 (another Military) + 3 = 8 >= 7
        ("brute#1", [], ["sniper#1"], [], True),  # 3 < 7
        (
            "rotting-walker#1",
            [],
            ["radio#2", "survivor#s0.1"],
            [],
            True,
        ),  # draws bring unknown cards
    ],
)
def test_call_for_help_depends_on_what_hand_and_play_could_still_gain(
    zombie, pool, hand, locations, allowed
):
    """Call for Help: "If the cards in your hand and/or in play will not gain enough damage for you to defeat
    any or all of the attacking Zombies, you may Call for Help." """
    state = table(
        seats=2, attackers=[0], hands={0: hand}, zombie_row=[zombie, None, None, None, None]
    )
    state.damage = [entry(s, a) for s, a in pool]
    state.seats[0].locations = [{"card": c, "occupants": []} for c in locations]
    assert ({"type": "call_for_help"} in E.legal_actions(state, 0)) is allowed


def test_a_condition_in_play_counts_the_card_still_in_hand():
    """The Sniper in play (+3, "+2 damage if another Military card is in play") and the
    Soldier in hand (+3) will gain 8 >= the Brute's 7: no Call for Help."""
    state = table(
        seats=2,
        attackers=[0],
        hands={0: ["sniper#1", "soldier#2"]},
        zombie_row=["brute#1", None, None, None, None],
    )
    _, state = act(state, 0, {"type": "play", "card": "sniper#1"})
    assert total_damage(state) == 3
    assert {"type": "call_for_help"} not in E.legal_actions(state, 0)


def test_call_for_help_when_two_attackers_together_need_more_than_the_damage():
    """ "... to defeat any or all of the attacking Zombies": 3 damage defeats the Shambler
    (HP 1) or the Rotting Walker (HP 3), not both, so the call is allowed."""
    state = table(
        seats=2,
        attackers=[0, 1],
        zombie_row=["shambler#1", "rotting-walker#1", None, None, None],
        hands={0: []},
    )
    state.damage = [entry("soldier#2", 3)]
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)


# -- 4. Which damage defeats which Zombie -----------------------------------------
def spend_table():
    # Shambler (HP 1) and Crawler (HP 1, Immune to Military); pool: Soldier 3 (Military), Survivor 1.
    state = table(zombie_row=["shambler#1", None, "crawler#1", None, None], hands={0: []})
    state.damage = [entry("soldier#2", 3), entry("survivor#s0.1", 1)]
    return state


def test_the_player_chooses_which_damage_defeats_the_zombie():
    """Combating Zombies: "To defeat a Zombie, the active player must generate enough damage
    equal to a Zombie's Hit Points (HP)." Which of the damage pays the Shambler's 1 HP is the
    player's: the Soldier's (the Crawler, Immune to Military, can still be defeated) or the
    Survivor's (it cannot)."""
    state = spend_table()
    defeats = [a for a in E.legal_actions(state, 0) if a["type"] == "defeat" and a["column"] == 0]
    assert defeats == [
        {"type": "defeat", "column": 0},
        {"type": "defeat", "column": 0, "spend": [[0, 1]]},
        {"type": "defeat", "column": 0, "spend": [[1, 1]]},
    ]
    _, kept = act(state, 0, {"type": "defeat", "column": 0, "spend": [[0, 1]]})
    assert {"type": "defeat", "column": 2} in E.legal_actions(kept, 0)
    _, lost = act(state, 0, {"type": "defeat", "column": 0, "spend": [[1, 1]]})
    assert {"type": "defeat", "column": 2} not in E.legal_actions(lost, 0)
    assert [d["amount"] for d in lost.damage] == [3, 0]


def test_a_spend_that_is_not_a_legal_way_is_refused():
    state = spend_table()
    assert code(state, 0, {"type": "defeat", "column": 0, "spend": [[0, 2]]}) == "invalid_spend"
    assert code(state, 0, {"type": "defeat", "column": 0, "spend": [[0]]}) == "invalid_command"
    assert code(state, 0, {"type": "defeat", "column": 0, "spend": "all"}) == "invalid_command"


def test_no_spend_choice_is_listed_when_it_makes_no_difference():
    state = table(zombie_row=["shambler#1", None, None, None, None], hands={0: []})
    state.damage = [entry("soldier#2", 3), entry("survivor#s0.1", 1)]
    assert [a for a in E.legal_actions(state, 0) if a["type"] == "defeat"] == [
        {"type": "defeat", "column": 0}
    ]


def test_the_cooperative_bot_spends_the_damage_the_other_zombie_is_immune_to():
    state = spend_table()
    choice = E.bots["cooperative"].choose(state, 0, random.Random(0))
    assert choice["type"] == "defeat"
    _, state = act(state, 0, choice)
    assert {"type": "defeat", "column": 0 if choice["column"] == 2 else 2} in E.legal_actions(
        state, 0
    )


# -- 5. Easiest cannot be lost ----------------------------------------------------
def test_easiest_game_is_stopped_not_lost_at_the_turn_limit():
    """For the easiest game: "This will prevent the game from ending thus preventing players
    from losing." The turn_limit safety net stops it undecided (outcome "stopped")."""
    state = table(options={"difficulty": "easiest", "turn_limit": 20}, hands={0: []}, decks=DECK)
    state.turn = 20
    _, state = act(state, 0, {"type": "end_turn"})
    assert E.result(state)["outcome"] == "stopped" and E.result(state)["reason"] == "turn_limit"
    assert E.result(state)["winners"] == [] and E.pending(state) == {}


# -- 6. Ditched cards go to the Ditch Pile ----------------------------------------
@pytest.mark.parametrize("zombie", ["juggernaut#1", "ghoul#1"])
def test_an_infection_ditched_from_the_deck_goes_to_the_ditch_pile(zombie):
    """Game Setup: "When a Zombie from the Zombie Row is defeated and any other card is
    Ditched, it goes to the Ditch Pile." (Juggernaut / Ghoul: "After Combat: Ditch the top
    card of your deck.")"""
    state = table(
        zombie_row=[zombie, None, None, None, None],
        hands={0: []},
        decks={0: ["infection#1"]},
        infection_stack=[],
    )
    state.damage = [entry("assault-rifle#1", 9), entry("soldier#2", 9)]
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert of(events, "CardDitched") == [
        {"seat": 0, "card": "infection#1", "from": "deck", "to": "ditch"}
    ]
    assert "infection#1" in state.ditch and state.infection_stack == []


# -- 7. Construction Worker is Armory ---------------------------------------------
def test_construction_worker_is_an_armory_card():
    """Combating Zombies: "Construction Worker gains +1 Damage if another Armory card is in
    play" — "another" makes it an Armory card itself: Riot Gear Walker ("Immune to Armory")
    ignores it and a Machete ("+1 damage if another Armory card is in play") sees it."""
    assert catalogue().of("construction-worker#1").faction == "Armory"
    state = play_all(
        table(zombie_row=["riot-walker#1", None, None, None, None], hands={0: []}),
        0,
        ["construction-worker#1", "machete#1"],
    )
    assert total_damage(state) == (2 + 1) + (2 + 1)
    from domain.games.dead_apocalypse.combat import usable_total

    assert usable_total(state, 0) == 0


# -- 8. Ditch effects take Infections (Crowbar: test_abilities) -------------------
def test_priest_may_ditch_infections_from_the_discard_pile():
    """Priest: "You may Ditch up to 2 cards from your discard pile. Cure 1." """
    state = table(
        hands={0: ["priest#1"]},
        discards={0: ["infection#1", "infection#2", "survivor#s0.1"]},
        infection_stack=[],
    )
    _, state = act(state, 0, {"type": "play", "card": "priest#1"})
    assert {"type": "choose", "card": "infection#1"} in E.legal_actions(state, 0)
    _, state = act(state, 0, {"type": "choose", "card": "infection#1"})
    _, state = act(state, 0, {"type": "choose", "card": "infection#2"})
    assert state.ditch == ["infection#1", "infection#2"] and state.seats[0].discard == [
        "survivor#s0.1"
    ]


@pytest.mark.parametrize("card", ["scavenger#1", "watchtower#1"])
def test_scavenger_and_watchtower_may_ditch_an_infection_from_the_hand(card):
    """Scavenger / Watchtower: "You may Ditch a card from your hand." """
    state = table(hands={0: [card, "infection#1"]}, decks={0: ["radio#2"]})
    _, state = act(state, 0, {"type": "play", "card": card})
    _, state = act(state, 0, {"type": "choose", "card": "infection#1"})
    assert state.ditch == ["infection#1"]


def test_the_cooperative_bot_ditches_an_infection_first():
    state = table(hands={0: ["crowbar#1", "survivor#s0.1", "infection#1"]})
    _, state = act(state, 0, {"type": "play", "card": "crowbar#1"})
    assert E.bots["cooperative"].choose(state, 0, random.Random(0)) == {
        "type": "choose",
        "card": "infection#1",
    }


# -- 9. DESIGN-NOTES --------------------------------------------------------------
def test_design_notes_list_medicine_cabinet_cure_and_base_camp_location_as_designed():
    """The rulebook only names "1 Base Camp, 1 Weapons Cache, and 1 Medicine Cabinet"; it
    never says what they do or that Base Camp is a Location."""
    notes = (
        Path(__file__).resolve().parents[3] / "domain/games/dead_apocalypse/cards/DESIGN-NOTES.md"
    ).read_text()
    book, designed = notes.split("## Designed", 1)
    for claim in ("Medicine Cabinet removes Infections", "Base Camp is a Location"):
        assert claim not in book and claim in designed


# -- 10. Infections stay in the hand ----------------------------------------------
def test_infections_stay_in_the_hand_at_the_end_of_the_turn():
    """Infection: "Cannot be played; stays in your hand until cured." (Playing Cards: "Infection
    cards remain in player's hands and cannot be used"); the card text wins over "place ...
    any cards remaining in your hand ... into your discard pile"."""
    state = table(
        hands={0: ["infection#1", "survivor#s0.1", "infection#2"]}, decks=DECK, defeated=1
    )
    events, state = act(state, 0, {"type": "end_turn"})
    assert of(events, "TurnEnded")[0]["discarded"] == ["survivor#s0.1"]
    assert (
        state.seats[0].hand[:2] == ["infection#1", "infection#2"] and len(state.seats[0].hand) == 7
    )
    assert "infection#1" not in state.seats[0].discard


# -- 11. "In play" means the active player's cards --------------------------------
INPLAY = (
    'If a card mentions "in/from play", it always refers to a card(s) that has been used and is '
    "currently in the active player's possession, not the opposing players"
)


def assisting(active_cards, ally_cards):
    state = table(
        seats=2, attackers=[0], zombie_row=["brute#1", None, None, None, None], hands={0: [], 1: []}
    )
    state = play_all(state, 0, active_cards)
    _, state = act(state, 0, {"type": "call_for_help"})
    _, state = act(state, 1, {"type": "assist"})
    return play_all(state, 1, ally_cards)


def test_an_allys_construction_worker_counts_the_active_players_armory_card():
    """General Rules: "If a card mentions "in/from play", it always
    refers to a card(s) that has been used and is currently in the active player's possession,
    not the opposing players" — the active seat's Weapons Cache gives the ally's
    Construction Worker its +1: 2 + 2 + 1."""
    state = assisting(["weapons-cache#s0.1"], ["construction-worker#1"])
    assert [d["amount"] for d in state.damage if d["seat"] == 1] == [2, 1]


def test_an_allys_own_armory_card_does_not_count_for_its_construction_worker():
    """General Rules: "If a card mentions "in/from play", it always
    refers to a card(s) that has been used and is currently in the active player's possession,
    not the opposing players" — the ally's Machete is not the active player's."""
    state = assisting(["survivor#s0.1"], ["machete#1", "construction-worker#1"])
    assert [d["amount"] for d in state.damage if d["seat"] == 1] == [2, 0, 2, 0]


def test_an_allys_mechanic_counts_the_active_players_equipment():
    """General Rules: "If a card mentions "in/from play", it always
    refers to a card(s) that has been used and is currently in the active player's possession,
    not the opposing players" — Mechanic "+1 damage for each Equipment card in play":
    the active seat's 2 Equipment, not the ally's Shotgun."""
    state = assisting(["weapons-cache#s0.1", "assault-rifle#1"], ["shotgun#2", "mechanic#1"])
    assert [d["amount"] for d in state.damage if d["source"] == "mechanic#1"] == [1, 2]


# -- 12. Conditions are not order-dependent ---------------------------------------
@pytest.mark.parametrize("order", [["sniper#1", "soldier#2"], ["soldier#2", "sniper#1"]])
def test_sniper_and_soldier_give_8_in_either_order(order):
    """Sniper: "+3 damage. +2 damage if another Military card is in play." Read when the
    damage is spent (the book says nothing of "when played"): 3 + 2 + 3 = 8 both ways."""
    state = play_all(table(hands={0: []}), 0, order)
    assert total_damage(state) == 8


@pytest.mark.parametrize(
    "order", [["mechanic#1", "shotgun#2", "crowbar#1"], ["shotgun#2", "crowbar#1", "mechanic#1"]]
)
def test_mechanic_counts_equipment_played_after_it(order):
    """Mechanic: "+1 damage. Draw 1. +1 damage for each Equipment card in play." — 1 + 2."""
    state = table(hands={0: []}, decks={0: ["survivor#s0.1"]})
    for c in order:
        state.seats[0].hand.append(c)
        _, state = act(state, 0, {"type": "play", "card": c})
        if state.prompt:
            _, state = act(state, 0, {"type": "skip"})
    assert sum(d["amount"] for d in state.damage if d["source"] == "mechanic#1") == 3


def test_a_partly_spent_condition_keeps_what_is_left():
    """The Sniper's +2 counts once the Soldier is in play, whenever it came."""
    state = table(zombie_row=["shambler#1", None, None, None, None], hands={0: []})
    state = play_all(state, 0, ["sniper#1"])
    _, state = act(state, 0, {"type": "defeat", "column": 0})  # 1 of the Sniper's 3
    state = play_all(state, 0, ["soldier#2"])
    assert total_damage(state) == 2 + 2 + 3


# -- 13. Repeat is not optional ---------------------------------------------------
def test_end_turn_is_not_legal_while_a_repeat_is_unused():
    """Repeat: "If a card has Repeat prior to an ability, this means each turn that card
    resolves its ability"; "the active player decides when to resolve a Repeat ability" —
    when, not whether."""
    state = table(hands={0: []}, decks=DECK)
    state.seats[0].locations = [{"card": "police-station#1", "occupants": []}]
    assert {"type": "end_turn"} not in E.legal_actions(state, 0)
    assert code(state, 0, {"type": "end_turn"}) == "repeat_unused"
    _, state = act(state, 0, {"type": "use_repeat", "card": "police-station#1"})
    assert {"type": "end_turn"} in E.legal_actions(state, 0)
