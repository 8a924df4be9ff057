"""One test per card ability, with the printed values (cards/player.json, resources.json)."""

from __future__ import annotations

import pytest

from .support import act, of, table, total_damage, types


def played(hand, card, **kw):
    state = table(hands={0: hand}, **kw)
    return act(state, 0, {"type": "play", "card": card})


def test_survivor_gives_1_damage_and_stays_in_play_until_the_end_of_turn():
    events, state = played(["survivor#s0.1"], "survivor#s0.1")
    assert types(events) == ["CardPlayed", "DamageGained"]
    assert of(events, "DamageGained")[0] == {
        "seat": 0,
        "source": "survivor#s0.1",
        "title": "Survivor",
        "kind": "human",
        "faction": "Survivor",
        "amount": 1,
        "ally": False,
    }
    assert state.seats[0].played == ["survivor#s0.1"] and state.seats[0].hand == []


def test_weapons_cache_gives_2_armory_damage():
    _, state = played(["weapons-cache#s0.1"], "weapons-cache#s0.1")
    assert state.damage[0]["amount"] == 2 and state.damage[0]["faction"] == "Armory"


def test_medicine_cabinet_cures_one_infection_and_draws_one():
    events, state = played(
        ["medicine-cabinet#s0.1", "infection#1", "infection#2"],
        "medicine-cabinet#s0.1",
        decks={0: ["shotgun#1"]},
        infection_stack=[],
    )
    assert of(events, "InfectionCured") == [{"seat": 0, "card": "infection#1"}]
    assert state.seats[0].hand == ["infection#2", "shotgun#1"]
    assert state.infection_stack == ["infection#1"]


def test_construction_worker_gets_plus_1_only_with_another_armory_card_in_play():
    _, alone = played(["construction-worker#1"], "construction-worker#1")
    assert total_damage(alone) == 2
    state = table(hands={0: ["weapons-cache#s0.1", "construction-worker#1"]})
    _, state = act(state, 0, {"type": "play", "card": "weapons-cache#s0.1"})
    _, state = act(state, 0, {"type": "play", "card": "construction-worker#1"})
    assert total_damage(state) == 2 + 2 + 1


def test_mechanic_draws_one_then_counts_each_equipment_in_play():
    state = table(hands={0: ["shotgun#1", "crowbar#1", "mechanic#1"]}, decks={0: ["survivor#s0.1"]})
    _, state = act(state, 0, {"type": "play", "card": "shotgun#1"})
    _, state = act(state, 0, {"type": "play", "card": "crowbar#1"})
    _, state = act(state, 0, {"type": "skip"})  # the Crowbar's optional ditch
    _, state = act(state, 0, {"type": "play", "card": "mechanic#1"})
    assert state.seats[0].hand == ["survivor#s0.1"]
    mech = [d["amount"] for d in state.damage if d["source"] == "mechanic#1"]
    assert mech == [1, 2]  # printed 1, +1 per Equipment (2)


def test_sniper_plus_2_with_another_military_card():
    state = table(hands={0: ["soldier#2", "sniper#1"]})
    _, state = act(state, 0, {"type": "play", "card": "soldier#2"})
    _, state = act(state, 0, {"type": "play", "card": "sniper#1"})
    assert total_damage(state) == 3 + 3 + 2


def test_scout_draws_two_and_reshuffles_the_discard_pile_when_the_deck_runs_out():
    events, state = played(
        ["scout#1"], "scout#1", decks={0: ["radio#2"]}, discards={0: ["soldier#2"]}
    )
    assert types(events) == [
        "CardPlayed",
        "DamageGained",
        "CardsDrawn",
        "DeckShuffled",
        "CardsDrawn",
    ]
    assert of(events, "DeckShuffled")[0]["order"] == ["soldier#2"]
    assert state.seats[0].hand == ["radio#2", "soldier#2"] and state.seats[0].discard == []


def test_nurse_cures_one_doctor_cures_two_and_draws():
    _, state = played(["nurse#2", "infection#1", "infection#2"], "nurse#2", infection_stack=[])
    assert state.seats[0].hand == ["infection#2"]
    _, state = played(
        ["doctor#1", "infection#1", "infection#2", "infection#3"],
        "doctor#1",
        decks={0: ["radio#2"]},
        infection_stack=[],
    )
    assert state.seats[0].hand == ["infection#3", "radio#2"]


def test_first_aid_kit_cures_two_and_draws_one():
    _, state = played(
        ["first-aid-kit#1", "infection#1", "infection#2"],
        "first-aid-kit#1",
        decks={0: ["radio#2"]},
        infection_stack=[],
    )
    assert state.seats[0].hand == ["radio#2"] and total_damage(state) == 0


def test_veteran_gains_an_adept_survivor_into_the_discard_pile():
    events, state = played(["veteran#1"], "veteran#1")
    assert of(events, "CardGained") == [
        {"seat": 0, "card": "adept-survivor#1", "from": "adept_stack"}
    ]
    assert state.seats[0].discard == ["adept-survivor#1"] and len(state.adept_stack) == 15


def test_molotov_deals_4_and_is_ditched():
    events, state = played(["molotov#1"], "molotov#1")
    assert total_damage(state) == 4
    assert state.seats[0].played == [] and state.ditch == ["molotov#1"]


def test_scavenger_ditch_is_optional_and_the_draw_follows_the_choice():
    """Scavenger: "+1 damage. You may Ditch a card from your hand. Draw 1." — any card,
    the Infection included (issue 9 item 8)."""
    events, state = played(
        ["scavenger#1", "survivor#s0.1", "infection#1"], "scavenger#1", decks={0: ["shotgun#2"]}
    )
    assert state.prompt["kind"] == "ditch" and state.prompt["seat"] == 0
    from domain.games.dead_apocalypse import ENGINE as E

    assert E.legal_actions(state, 0) == [
        {"type": "choose", "card": "survivor#s0.1"},
        {"type": "choose", "card": "infection#1"},
        {"type": "skip"},
    ]
    events, state = act(state, 0, {"type": "choose", "card": "survivor#s0.1"})
    assert types(events) == ["CardDitched", "PromptClosed", "CardsDrawn"]
    assert state.ditch == ["survivor#s0.1"] and state.seats[0].hand == ["infection#1", "shotgun#2"]


def test_crowbar_skipped_ditch_keeps_the_hand():
    _, state = played(["crowbar#1", "survivor#s0.1"], "crowbar#1")
    _, state = act(state, 0, {"type": "skip"})
    assert (
        state.prompt is None
        and state.seats[0].hand == ["survivor#s0.1"]
        and total_damage(state) == 1
    )


def test_priest_ditches_up_to_two_from_the_discard_pile_then_cures():
    state = table(
        hands={0: ["priest#1", "infection#1"]},
        discards={0: ["survivor#s0.1", "survivor#s0.2"]},
        infection_stack=[],
    )
    _, state = act(state, 0, {"type": "play", "card": "priest#1"})
    assert state.prompt["from"] == "discard" and state.prompt["remaining"] == 2
    _, state = act(state, 0, {"type": "choose", "card": "survivor#s0.1"})
    assert state.prompt["remaining"] == 1
    events, state = act(state, 0, {"type": "choose", "card": "survivor#s0.2"})
    assert types(events)[-2:] == ["PromptClosed", "InfectionCured"]
    assert state.ditch == ["survivor#s0.1", "survivor#s0.2"] and state.seats[0].hand == []


def test_crowbar_may_ditch_an_infection_and_it_goes_to_the_ditch_pile():
    """Crowbar: "You may Ditch a card from your hand"; rulebook Game Setup: "When ... any
    other card is Ditched, it goes to the Ditch Pile" (issue 9 items 6 and 8)."""
    events, state = played(["crowbar#1", "infection#1"], "crowbar#1", infection_stack=[])
    assert state.prompt["kind"] == "ditch"
    events, state = act(state, 0, {"type": "choose", "card": "infection#1"})
    assert of(events, "CardDitched") == [
        {"seat": 0, "card": "infection#1", "from": "hand", "to": "ditch"}
    ]
    assert (
        state.ditch == ["infection#1"] and state.infection_stack == [] and state.seats[0].hand == []
    )


def test_no_ditch_prompt_with_an_empty_hand():
    events, state = played(["crowbar#1"], "crowbar#1")
    assert state.prompt is None and "PromptOpened" not in types(events)


def test_radio_draws_two():
    _, state = played(["radio#1"], "radio#1", decks={0: ["soldier#1", "soldier#2", "soldier#3"]})
    assert state.seats[0].hand == ["soldier#1", "soldier#2"]


def test_recruiter_places_a_human_upright_and_it_generates_its_attack_at_once():
    state = table(hands={0: ["recruiter#1", "soldier#2"]})
    state.seats[0].locations = [{"card": "base-camp#s0.1", "occupants": []}]
    _, state = act(state, 0, {"type": "play", "card": "recruiter#1"})
    assert state.prompt["kind"] == "occupy"
    events, state = act(
        state, 0, {"type": "choose", "card": "soldier#2", "location": "base-camp#s0.1"}
    )
    assert state.seats[0].locations[0]["occupants"] == [{"card": "soldier#2", "upright": True}]
    gained = of(events, "DamageGained")[0]
    assert (gained["source"], gained["kind"], gained["amount"]) == ("base-camp#s0.1", "location", 3)


@pytest.mark.parametrize(
    "card,damage", [("police-station#1", 1), ("gun-shop#1", 1), ("hospital#1", 0)]
)
def test_repeat_location_resolves_when_played_and_not_again_that_turn(card, damage):
    from domain.games.dead_apocalypse import ENGINE as E

    events, state = played([card], card)
    assert "RepeatUsed" in types(events) and total_damage(state) == damage
    assert {"type": "use_repeat", "card": card} not in E.legal_actions(state, 0)
    assert state.seats[0].locations == [{"card": card, "occupants": []}]


def test_repeat_location_resolves_once_each_later_turn():
    from domain.games.dead_apocalypse import ENGINE as E

    state = table(hands={0: ["weapons-cache#s0.1"]})
    state.seats[0].locations = [{"card": "gun-shop#1", "occupants": []}]
    _, state = act(state, 0, {"type": "play", "card": "weapons-cache#s0.1"})
    assert {"type": "use_repeat", "card": "gun-shop#1"} in E.legal_actions(state, 0)
    _, state = act(state, 0, {"type": "use_repeat", "card": "gun-shop#1"})
    assert [d["amount"] for d in state.damage if d["source"] == "gun-shop#1"] == [1, 1]
    assert {"type": "use_repeat", "card": "gun-shop#1"} not in E.legal_actions(state, 0)


def test_military_base_counts_other_military_cards_in_play():
    state = table(hands={0: ["soldier#1", "police-officer#1"]})
    state.seats[0].locations = [
        {"card": "military-base#1", "occupants": []},
        {"card": "police-station#1", "occupants": []},
    ]
    _, state = act(state, 0, {"type": "play", "card": "soldier#1"})
    _, state = act(state, 0, {"type": "play", "card": "police-officer#1"})
    _, state = act(state, 0, {"type": "use_repeat", "card": "military-base#1"})
    assert [d["amount"] for d in state.damage if d["source"] == "military-base#1"] == [3]


def test_safehouse_repeat_draws_and_watchtower_repeat_ditches():
    state = table(hands={0: ["survivor#s0.1"]}, decks={0: ["radio#2"]})
    state.seats[0].locations = [
        {"card": "safehouse#1", "occupants": []},
        {"card": "watchtower#1", "occupants": []},
    ]
    _, state = act(state, 0, {"type": "use_repeat", "card": "safehouse#1"})
    assert state.seats[0].hand == ["survivor#s0.1", "radio#2"]
    _, state = act(state, 0, {"type": "use_repeat", "card": "watchtower#1"})
    _, state = act(state, 0, {"type": "choose", "card": "survivor#s0.1"})
    assert state.ditch == ["survivor#s0.1"]


def test_farmhouse_draws_on_play_and_has_no_repeat():
    from domain.games.dead_apocalypse import ENGINE as E

    events, state = played(["farmhouse#1"], "farmhouse#1", decks={0: ["radio#2"]})
    assert "RepeatUsed" not in types(events) and state.seats[0].hand == ["radio#2"]
    assert not [a for a in E.legal_actions(state, 0) if a["type"] == "use_repeat"]


def test_infections_cannot_be_played():
    from domain.games.dead_apocalypse import ENGINE as E

    state = table(hands={0: ["infection#1"]})
    assert [a["type"] for a in E.legal_actions(state, 0)] == ["end_turn"]


def test_hospital_repeat_cures_one_infection_each_turn():
    state = table(hands={0: ["infection#1", "infection#2"]}, infection_stack=[])
    state.seats[0].locations = [{"card": "hospital#1", "occupants": []}]
    events, state = act(state, 0, {"type": "use_repeat", "card": "hospital#1"})
    assert of(events, "InfectionCured") == [{"seat": 0, "card": "infection#1"}]
    assert state.seats[0].hand == ["infection#2"]


def test_gun_shop_gets_its_plus_1_only_with_another_armory_card_in_play():
    _, alone = played(["gun-shop#1"], "gun-shop#1")
    assert total_damage(alone) == 1
    state = table(hands={0: ["shotgun#2", "gun-shop#1"]})
    _, state = act(state, 0, {"type": "play", "card": "shotgun#2"})
    _, state = act(state, 0, {"type": "play", "card": "gun-shop#1"})
    assert [d["amount"] for d in state.damage if d["source"] == "gun-shop#1"] == [1, 1]
