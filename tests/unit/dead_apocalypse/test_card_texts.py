"""Issue 9 item 14: every Dead Apocalypse card driven once against its printed text — no
more, no less. Each scenario quotes the text it checks; the text is compared with the
catalogue so a data change that alters a card without its scenario fails here, and a card
without a scenario fails ``test_every_card_has_a_scenario``."""

from __future__ import annotations

import pytest

from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse.cards import catalogue
from domain.games.dead_apocalypse.combat import usable_total

from .support import act, of, table, total_damage, types

DECK = [f"survivor#s0.{k}" for k in range(1, 8)]
SCENARIOS = {}


def scenario(card_id, text):
    def register(fn):
        SCENARIOS[card_id] = (text, fn)
        return fn

    return register


def entry(source, amount):
    c = catalogue().of(source)
    return {
        "seat": 0,
        "source": source,
        "title": c.title,
        "kind": c.kind,
        "faction": c.faction,
        "amount": amount,
        "ally": False,
    }


def play(hand, card, **kw):
    state = table(hands={0: list(hand)}, **kw)
    return act(state, 0, {"type": "play", "card": card})


def plain(card, damage):
    events, state = play([card], card)
    assert types(events) == ["CardPlayed", "DamageGained"] and total_damage(state) == damage
    assert state.prompt is None and state.seats[0].played == [card]


def next_turn(state):
    """End the turn of a 1-seat table (nothing attacks), so the same seat plays again."""
    state.defeated = 1
    state.seats[0].deck = state.seats[0].deck + DECK
    return act(state, 0, {"type": "end_turn"})


def zombie_repeat(state, card):
    """The next turn, then the active seat resolves ``card``'s Repeat (ruling R-ZOMBIE-REPEAT:
    its decision, listed first; the turn cannot end before it)."""
    state.repeat_used = [card]  # resolved in the turn that ends now
    _, state = next_turn(state)
    assert E.legal_actions(state, 0)[0] == {"type": "use_repeat", "card": card}
    assert {"type": "end_turn"} not in E.legal_actions(state, 0)
    return act(state, 0, {"type": "use_repeat", "card": card})


def occupancy(card, n):
    humans = [f"soldier#{k}" for k in range(1, n + 2)]
    state = table(hands={0: humans})
    state.seats[0].locations = [{"card": card, "occupants": []}]
    for h in humans[:n]:
        _, state = act(state, 0, {"type": "occupy", "card": h, "location": card})
    assert not [a for a in E.legal_actions(state, 0) if a["type"] == "occupy"]
    assert len(state.seats[0].locations[0]["occupants"]) == n


# -- starting deck, Adept Survivor, Infection --------------------------------------
@scenario("survivor", "+1 damage.")
def _survivor():
    plain("survivor#s0.1", 1)


@scenario("adept-survivor", "+2 damage.")
def _adept():
    plain("adept-survivor#1", 2)


@scenario("weapons-cache", "+2 damage.")
def _cache():
    plain("weapons-cache#s0.1", 2)


@scenario("base-camp", "Occupancy 2. Humans placed beneath it generate their attack each turn.")
def _base_camp():
    events, state = play(["base-camp#s0.1"], "base-camp#s0.1")
    assert types(events) == ["CardPlayed"] and total_damage(state) == 0
    occupancy("base-camp#s0.1", 2)
    state = table(hands={0: []})
    state.seats[0].locations = [
        {"card": "base-camp#s0.1", "occupants": [{"card": "soldier#1", "upright": False}]}
    ]
    for _ in range(2):
        _, state = next_turn(state)
        assert [(d["source"], d["amount"]) for d in state.damage] == [("base-camp#s0.1", 3)]


@scenario(
    "medicine-cabinet",
    "Cure 1 (return an Infection from your hand to the Infection stack). Draw 1.",
)
def _cabinet():
    events, state = play(
        ["medicine-cabinet#s0.1", "infection#1", "infection#2"],
        "medicine-cabinet#s0.1",
        decks={0: ["radio#2"]},
        infection_stack=[],
    )
    assert types(events) == ["CardPlayed", "InfectionCured", "CardsDrawn"]
    assert state.infection_stack == ["infection#1"] and state.seats[0].hand == [
        "infection#2",
        "radio#2",
    ]


@scenario("infection", "Cannot be played; stays in your hand until cured.")
def _infection():
    state = table(hands={0: ["infection#1"]}, decks={0: list(DECK)})
    assert not [a for a in E.legal_actions(state, 0) if a.get("card") == "infection#1"]
    _, state = next_turn(state)
    assert "infection#1" in state.seats[0].hand
    state.seats[0].hand.append("nurse#1")
    _, state = act(state, 0, {"type": "play", "card": "nurse#1"})
    assert "infection#1" not in state.seats[0].hand and "infection#1" in state.infection_stack


# -- Resource Stack: Humans -------------------------------------------------------
@scenario("construction-worker", "+2 damage. +1 damage if another Armory card is in play.")
def _worker():
    _, alone = play(["construction-worker#1"], "construction-worker#1")
    assert total_damage(alone) == 2
    _, pair = play(["construction-worker#1", "construction-worker#2"], "construction-worker#1")
    _, pair = act(pair, 0, {"type": "play", "card": "construction-worker#2"})
    assert total_damage(pair) == 3 + 3  # each is another's Armory card


@scenario("police-officer", "+2 damage.")
def _officer():
    plain("police-officer#1", 2)


@scenario("soldier", "+3 damage.")
def _soldier():
    plain("soldier#1", 3)


@scenario("nurse", "+1 damage. Cure 1.")
def _nurse():
    events, state = play(["nurse#1", "infection#1", "infection#2"], "nurse#1", infection_stack=[])
    assert (
        types(events) == ["CardPlayed", "DamageGained", "InfectionCured"]
        and total_damage(state) == 1
    )
    assert state.seats[0].hand == ["infection#2"]


@scenario("doctor", "+1 damage. Cure 2. Draw 1.")
def _doctor():
    events, state = play(
        ["doctor#1", "infection#1", "infection#2", "infection#3"],
        "doctor#1",
        decks={0: ["radio#2", "radio#3"]},
        infection_stack=[],
    )
    assert types(events) == [
        "CardPlayed",
        "DamageGained",
        "InfectionCured",
        "InfectionCured",
        "CardsDrawn",
    ]
    assert state.seats[0].hand == ["infection#3", "radio#2"] and total_damage(state) == 1


@scenario("scout", "+1 damage. Draw 2.")
def _scout():
    events, state = play(["scout#1"], "scout#1", decks={0: ["radio#2", "radio#3", "soldier#1"]})
    assert types(events) == ["CardPlayed", "DamageGained", "CardsDrawn"]
    assert state.seats[0].hand == ["radio#2", "radio#3"] and total_damage(state) == 1


@scenario("mechanic", "+1 damage. Draw 1. +1 damage for each Equipment card in play.")
def _mechanic():
    events, state = play(["mechanic#1"], "mechanic#1", decks={0: ["radio#2", "radio#3"]})
    assert state.seats[0].hand == ["radio#2"] and total_damage(state) == 1
    for card in ("shotgun#1", "assault-rifle#1"):
        state.seats[0].hand.append(card)
        _, state = act(state, 0, {"type": "play", "card": card})
    assert sum(d["amount"] for d in state.damage if d["source"] == "mechanic#1") == 1 + 2


@scenario(
    "recruiter",
    "+1 damage. You may place a Human from your hand beneath one of your Locations right "
    "side up; it generates its attack at once.",
)
def _recruiter():
    state = table(hands={0: ["recruiter#1", "soldier#1", "radio#2"]})
    state.seats[0].locations = [{"card": "farmhouse#1", "occupants": []}]
    _, state = act(state, 0, {"type": "play", "card": "recruiter#1"})
    assert E.legal_actions(state, 0) == [
        {"type": "choose", "card": "soldier#1", "location": "farmhouse#1"},
        {"type": "skip"},
    ]
    _, skipped = act(state, 0, {"type": "skip"})
    assert total_damage(skipped) == 1 and skipped.seats[0].locations[0]["occupants"] == []
    _, state = act(state, 0, {"type": "choose", "card": "soldier#1", "location": "farmhouse#1"})
    assert state.seats[0].locations[0]["occupants"] == [{"card": "soldier#1", "upright": True}]
    assert total_damage(state) == 1 + 3 and state.prompt is None


@scenario("veteran", "+2 damage. Gain an Adept Survivor.")
def _veteran():
    events, state = play(["veteran#1"], "veteran#1")
    assert (
        types(events) == ["CardPlayed", "DamageGained", "CardGained"] and total_damage(state) == 2
    )
    assert state.seats[0].discard == ["adept-survivor#1"]


@scenario("scavenger", "+1 damage. You may Ditch a card from your hand. Draw 1.")
def _scavenger():
    events, state = play(
        ["scavenger#1", "survivor#s0.1"], "scavenger#1", decks={0: ["radio#2", "radio#3"]}
    )
    assert total_damage(state) == 1 and state.prompt["remaining"] == 1
    _, skipped = act(state, 0, {"type": "skip"})
    assert skipped.seats[0].hand == ["survivor#s0.1", "radio#2"]
    _, state = act(state, 0, {"type": "choose", "card": "survivor#s0.1"})
    assert (
        state.ditch == ["survivor#s0.1"]
        and state.seats[0].hand == ["radio#2"]
        and state.prompt is None
    )


@scenario("sniper", "+3 damage. +2 damage if another Military card is in play.")
def _sniper():
    _, alone = play(["sniper#1"], "sniper#1")
    assert total_damage(alone) == 3
    alone.seats[0].hand.append("shotgun#1")  # Armory: no +2
    _, state = act(alone, 0, {"type": "play", "card": "shotgun#1"})
    assert total_damage(state) == 3 + 3
    state.seats[0].hand.append("police-officer#1")
    _, state = act(state, 0, {"type": "play", "card": "police-officer#1"})
    assert total_damage(state) == 3 + 3 + 2 + 2


@scenario("priest", "You may Ditch up to 2 cards from your discard pile. Cure 1.")
def _priest():
    state = table(
        hands={0: ["priest#1", "infection#1", "infection#2"]},
        discards={0: ["survivor#s0.1", "survivor#s0.2", "survivor#s0.3"]},
        infection_stack=[],
    )
    events, state = act(state, 0, {"type": "play", "card": "priest#1"})
    assert "DamageGained" not in types(events) and state.prompt["remaining"] == 2
    _, state = act(state, 0, {"type": "choose", "card": "survivor#s0.1"})
    events, state = act(state, 0, {"type": "choose", "card": "survivor#s0.2"})
    assert state.prompt is None and state.ditch == ["survivor#s0.1", "survivor#s0.2"]
    assert (
        of(events, "InfectionCured") == [{"seat": 0, "card": "infection#1"}]
        and total_damage(state) == 0
    )


# -- Resource Stack: Equipment ----------------------------------------------------
@scenario("shotgun", "+3 damage.")
def _shotgun():
    plain("shotgun#1", 3)


@scenario("machete", "+2 damage. +1 damage if another Armory card is in play.")
def _machete():
    _, alone = play(["machete#1"], "machete#1")
    assert total_damage(alone) == 2
    alone.seats[0].hand.append("soldier#1")
    _, state = act(alone, 0, {"type": "play", "card": "soldier#1"})
    assert total_damage(state) == 2 + 3
    state.seats[0].hand.append("crowbar#1")
    _, state = act(state, 0, {"type": "play", "card": "crowbar#1"})  # empty hand: no Ditch prompt
    assert total_damage(state) == 2 + 3 + 1 + 1


@scenario("first-aid-kit", "Cure 2. Draw 1.")
def _kit():
    events, state = play(
        ["first-aid-kit#1", "infection#1", "infection#2", "infection#3"],
        "first-aid-kit#1",
        decks={0: ["radio#2", "radio#3"]},
        infection_stack=[],
    )
    assert types(events) == ["CardPlayed", "InfectionCured", "InfectionCured", "CardsDrawn"]
    assert state.seats[0].hand == ["infection#3", "radio#2"]


@scenario("assault-rifle", "+4 damage.")
def _rifle():
    plain("assault-rifle#1", 4)


@scenario("molotov", "+4 damage. Ditch this card.")
def _molotov():
    events, state = play(["molotov#1"], "molotov#1")
    assert (
        types(events) == ["CardPlayed", "DamageGained", "CardDitched"] and total_damage(state) == 4
    )
    assert state.ditch == ["molotov#1"] and state.seats[0].played == []


@scenario("radio", "Draw 2.")
def _radio():
    events, state = play(["radio#1"], "radio#1", decks={0: ["soldier#1", "soldier#2", "soldier#3"]})
    assert types(events) == ["CardPlayed", "CardsDrawn"] and state.seats[0].hand == [
        "soldier#1",
        "soldier#2",
    ]


@scenario("crowbar", "+1 damage. You may Ditch a card from your hand.")
def _crowbar():
    events, state = play(["crowbar#1", "survivor#s0.1", "survivor#s0.2"], "crowbar#1")
    assert total_damage(state) == 1 and state.prompt["remaining"] == 1
    _, state = act(state, 0, {"type": "choose", "card": "survivor#s0.2"})
    assert (
        state.prompt is None
        and state.ditch == ["survivor#s0.2"]
        and state.seats[0].hand == ["survivor#s0.1"]
    )


# -- Resource Stack: Locations ----------------------------------------------------
def repeat_each_turn(card, hand=(), check=None, **kw):
    """Played: resolves at once (that turn's use); each later turn once, not twice."""
    events, state = play([card, *hand], card, **kw)
    assert types(events)[:2] == ["CardPlayed", "RepeatUsed"]
    check(events, state)
    assert {"type": "use_repeat", "card": card} not in E.legal_actions(state, 0)
    _, state = next_turn(state)
    state.seats[0].hand = list(hand)
    events, state = act(state, 0, {"type": "use_repeat", "card": card})
    check(events, state)
    assert {"type": "use_repeat", "card": card} not in E.legal_actions(state, 0)


@scenario("police-station", "Occupancy 2. Repeat: +1 damage.")
def _station():
    occupancy("police-station#1", 2)
    repeat_each_turn(
        "police-station#1", check=lambda ev, st: total_damage(st) == 1 or pytest.fail("not 1")
    )


@scenario("hospital", "Occupancy 1. Repeat: Cure 1.")
def _hospital():
    occupancy("hospital#1", 1)

    def check(events, state):
        assert (
            of(events, "InfectionCured") == [{"seat": 0, "card": "infection#1"}]
            and total_damage(state) == 0
        )

    repeat_each_turn("hospital#1", hand=("infection#1",), check=check, infection_stack=[])


@scenario("gun-shop", "Occupancy 1. Repeat: +1 damage, +1 more if another Armory card is in play.")
def _gun_shop():
    occupancy("gun-shop#1", 1)
    repeat_each_turn(
        "gun-shop#1", check=lambda ev, st: total_damage(st) == 1 or pytest.fail("not 1")
    )
    state = table(hands={0: ["weapons-cache#s0.1"]})
    state.seats[0].locations = [{"card": "gun-shop#1", "occupants": []}]
    _, state = act(state, 0, {"type": "use_repeat", "card": "gun-shop#1"})
    _, state = act(state, 0, {"type": "play", "card": "weapons-cache#s0.1"})
    assert sum(d["amount"] for d in state.damage if d["source"] == "gun-shop#1") == 2


@scenario("farmhouse", "Occupancy 3. Draw 1.")
def _farmhouse():
    occupancy("farmhouse#1", 3)
    events, state = play(["farmhouse#1"], "farmhouse#1", decks={0: ["radio#2"] + DECK})
    assert types(events) == ["CardPlayed", "CardsDrawn"] and state.seats[0].hand == ["radio#2"]
    _, state = next_turn(state)
    assert not [a for a in E.legal_actions(state, 0) if a["type"] == "use_repeat"]
    assert {"type": "end_turn"} in E.legal_actions(state, 0)


@scenario("military-base", "Occupancy 2. Repeat: +1 damage for each other Military card in play.")
def _military_base():
    occupancy("military-base#1", 2)
    state = table(hands={0: ["soldier#1", "shotgun#1"]})
    state.seats[0].locations = [
        {"card": "military-base#1", "occupants": [{"card": "sniper#1", "upright": True}]},
        {"card": "police-station#1", "occupants": []},
    ]
    _, state = act(state, 0, {"type": "use_repeat", "card": "military-base#1"})
    _, state = act(state, 0, {"type": "play", "card": "soldier#1"})
    _, state = act(state, 0, {"type": "play", "card": "shotgun#1"})
    # Police Station and Soldier (not itself, not the occupying Sniper, not the Shotgun)
    assert sum(d["amount"] for d in state.damage if d["source"] == "military-base#1") == 2


@scenario("safehouse", "Occupancy 2. Repeat: Draw 1.")
def _safehouse():
    occupancy("safehouse#1", 2)

    def check(events, state):
        assert (
            types(events).count("CardsDrawn") == 1
            and len(of(events, "CardsDrawn")[0]["cards"]) == 1
        )

    repeat_each_turn("safehouse#1", check=check, decks={0: ["radio#2"]})


@scenario("watchtower", "Occupancy 1. Repeat: You may Ditch a card from your hand.")
def _watchtower():
    occupancy("watchtower#1", 1)
    events, state = play(["watchtower#1", "survivor#s0.1"], "watchtower#1")
    assert state.prompt["kind"] == "ditch" and state.prompt["remaining"] == 1
    _, state = act(state, 0, {"type": "skip"})
    assert state.ditch == [] and total_damage(state) == 0
    _, state = next_turn(state)
    _, state = act(state, 0, {"type": "use_repeat", "card": "watchtower#1"})
    card = state.seats[0].hand[0]
    _, state = act(state, 0, {"type": "choose", "card": card})
    assert state.ditch[-1] == card and state.prompt is None


# -- Zombies ----------------------------------------------------------------------
def zombie(card, hp, immune_to=(), after=(), hand=("radio#2",), deck=("survivor#s0.9",)):
    """HP: hp-1 counting damage is not enough, hp is; every immune source counts 0; the
    After Combat events are exactly ``after``; no ability at the start of a turn."""
    state = table(
        zombie_row=[card, None, None, None, None],
        hands={0: list(hand)},
        decks={0: list(deck)},
        repeat_used=[card],
    )  # a Zombie Repeat resolves before its defeat (R-ZOMBIE-REPEAT)
    state.damage = [entry("survivor#s0.1", hp - 1)]
    assert {"type": "defeat", "column": 0} not in E.legal_actions(state, 0)
    for source in immune_to:
        state.damage = [entry(source, 20)]
        assert usable_total(state, 0) == 0, source
    state.damage = [entry("survivor#s0.1" if "survivor#s0.1" not in immune_to else "scout#1", hp)]
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert types(events)[1:-1] == list(after)
    assert types(events)[-1] == "CardGained" and total_damage(state) == 0
    return events, state


def no_start_of_turn_ability(card):
    state = table(zombie_row=[card, None, None, None, None], hands={0: []}, zombie_stack=[])
    events, _ = next_turn(state)
    start = types(events)[types(events).index("TurnStarted") :]
    assert not {
        "InfectionGained",
        "CardDiscarded",
        "ResourceStackDitched",
        "LocationDitched",
    } & set(start)


@scenario("shambler", "HP 1. After Combat: gain an Infection.")
def _shambler():
    _, state = zombie("shambler#1", 1, after=["InfectionGained"])
    assert state.seats[0].discard[0] == "infection#1"  # "gain": into the discard pile
    no_start_of_turn_ability("shambler#1")


@scenario("rotting-walker", "HP 3. After Combat: gain an Infection.")
def _rotting():
    zombie("rotting-walker#1", 3, after=["InfectionGained"])
    no_start_of_turn_ability("rotting-walker#1")


@scenario("riot-walker", "HP 5. Immune to Armory. After Combat: gain an Infection.")
def _riot():
    zombie(
        "riot-walker#1",
        5,
        immune_to=["shotgun#1", "construction-worker#1", "weapons-cache#s0.1"],
        after=["InfectionGained"],
    )
    no_start_of_turn_ability("riot-walker#1")


@scenario("crawler", "HP 1. Immune to Military. After Combat: gain an Infection.")
def _crawler():
    zombie(
        "crawler#1",
        1,
        immune_to=["soldier#1", "assault-rifle#1", "police-station#1"],
        after=["InfectionGained"],
    )
    no_start_of_turn_ability("crawler#1")


@scenario("sprinter", "HP 3. Immune to Locations. After Combat: gain an Infection.")
def _sprinter():
    zombie(
        "sprinter#1", 3, immune_to=["base-camp#s0.1", "police-station#1"], after=["InfectionGained"]
    )
    no_start_of_turn_ability("sprinter#1")


@scenario("feral-runner", "HP 5. After Combat: discard a random card from your hand.")
def _feral():
    events, state = zombie("feral-runner#1", 5, after=["CardDiscarded"])
    assert of(events, "CardDiscarded") == [{"seat": 0, "card": "radio#2", "from": "hand"}]
    no_start_of_turn_ability("feral-runner#1")


@scenario("pack-hunter", "HP 3. When it attacks: the active player gains an Infection.")
def _pack_hunter():
    zombie("pack-hunter#1", 3, after=[])
    no_start_of_turn_ability("pack-hunter#1")
    state = table(
        zombie_row=["pack-hunter#1", "shambler#1", "crawler#1", "sprinter#1", None],
        zombie_stack=["night-hunt#1", "brute#1"],
        hands={0: []},
    )
    events, state = next_turn(state)
    assert (
        of(events, "InfectionGained") == [{"seat": 0, "card": "infection#1"}]
        and 0 in state.attackers
    )


@scenario("screamer", "HP 4. Repeat: the active player discards a random card from hand.")
def _screamer():
    zombie("screamer#1", 4, after=[])
    state = table(zombie_row=["screamer#1", None, None, None, None], hands={0: []}, zombie_stack=[])
    events, state = zombie_repeat(state, "screamer#1")
    assert len(of(events, "CardDiscarded")) == 1 and len(state.seats[0].hand) == 4


@scenario("brute", "HP 7. Immune to Survivors. After Combat: gain an Infection.")
def _brute():
    zombie("brute#1", 7, immune_to=["survivor#s0.1", "adept-survivor#1"], after=["InfectionGained"])
    no_start_of_turn_ability("brute#1")


@scenario(
    "bulldozer",
    "HP 7. When it attacks: Ditch your oldest Location in play (discard its occupying Humans).",
)
def _bulldozer():
    zombie("bulldozer#1", 7, after=[])
    no_start_of_turn_ability("bulldozer#1")
    state = table(
        zombie_row=["bulldozer#1", "shambler#1", "crawler#1", "sprinter#1", None],
        zombie_stack=["stampede#1", "brute#1"],
        hands={0: []},
    )
    state.seats[0].locations = [
        {"card": "farmhouse#1", "occupants": [{"card": "soldier#1", "upright": False}]},
        {"card": "base-camp#s0.1", "occupants": []},
    ]
    events, state = next_turn(state)
    assert of(events, "LocationDitched") == [
        {"seat": 0, "card": "farmhouse#1", "occupants": ["soldier#1"]}
    ]
    assert "farmhouse#1" in state.ditch and "soldier#1" in state.seats[0].discard


@scenario(
    "juggernaut",
    "HP 9. Immune to Shotgun and Crowbar. After Combat: Ditch the top card of your deck.",
)
def _juggernaut():
    events, state = zombie(
        "juggernaut#1", 9, immune_to=["shotgun#1", "crowbar#1"], after=["CardDitched"]
    )
    assert of(events, "CardDitched") == [
        {"seat": 0, "card": "survivor#s0.9", "from": "deck", "to": "ditch"}
    ]
    state = table(zombie_row=["juggernaut#1", None, None, None, None])
    state.damage = [entry("machete#1", 9)]  # another Armory card counts
    assert usable_total(state, 0) == 9
    no_start_of_turn_ability("juggernaut#1")


@scenario("bloater", "HP 2. After Combat: gain 2 Infections.")
def _bloater():
    zombie("bloater#1", 2, after=["InfectionGained", "InfectionGained"])
    no_start_of_turn_ability("bloater#1")


@scenario("spitter", "HP 3. Immune to Equipment. Repeat: the active player gains an Infection.")
def _spitter():
    zombie("spitter#1", 3, immune_to=["shotgun#1", "radio#1", "weapons-cache#s0.1"], after=[])
    state = table(zombie_row=["spitter#1", None, None, None, None], hands={0: []}, zombie_stack=[])
    events, _ = zombie_repeat(state, "spitter#1")
    assert of(events, "InfectionGained") == [{"seat": 0, "card": "infection#1"}]


@scenario("plague-carrier", "HP 4. Repeat: Ditch the top 3 cards of the Resource Stack.")
def _carrier():
    zombie("plague-carrier#1", 4, after=[])
    state = table(
        zombie_row=["plague-carrier#1", None, None, None, None],
        hands={0: []},
        zombie_stack=[],
        resource_stack=[f"scout#{k}" for k in range(1, 4)] + ["radio#2", "radio#3"],
    )
    events, state = zombie_repeat(state, "plague-carrier#1")
    assert [e["cards"] for e in of(events, "ResourceStackDitched")] == [
        ["scout#1"],
        ["scout#2"],
        ["scout#3"],
    ]


@scenario("ghoul", "HP 3. Immune to Medical. After Combat: Ditch the top card of your deck.")
def _ghoul():
    zombie(
        "ghoul#1",
        3,
        immune_to=["nurse#1", "medicine-cabinet#s0.1", "hospital#1"],
        after=["CardDitched"],
    )
    no_start_of_turn_ability("ghoul#1")


# -- Events and the CDC -----------------------------------------------------------
def event(card, faction):
    row = {"Walker": "shambler#1", "Runner": "sprinter#1", "Brute": "brute#1", "Toxic": "bloater#1"}
    state = table(
        zombie_row=[None] + [row[f] for f in ("Walker", "Runner", "Brute", "Toxic")],
        zombie_stack=[card, "rotting-walker#1"],
        hands={0: []},
    )
    events, state = next_turn(state)
    expected = [c for c, z in enumerate(state.zombie_row) if catalogue().of(z).faction == faction]
    assert state.attackers == expected and of(events, "ZombiesAttacked")[0]["events"] == [card]


@scenario("horde-surge", "Event: every Walker in the Zombie Row attacks the active player.")
def _horde():
    event("horde-surge#1", "Walker")


@scenario("night-hunt", "Event: every Runner in the Zombie Row attacks the active player.")
def _night():
    event("night-hunt#1", "Runner")


@scenario("stampede", "Event: every Brute in the Zombie Row attacks the active player.")
def _stampede():
    event("stampede#1", "Brute")


@scenario("toxic-cloud", "Event: every Toxic zombie in the Zombie Row attacks the active player.")
def _toxic():
    event("toxic-cloud#1", "Toxic")


@scenario(
    "cdc",
    "When revealed: replaces the adjacent Resource Row card (Ditch it). Gaining it wins the game.",
)
def _cdc():
    state = table(
        zombie_row=[None, "shambler#1", "crawler#1", "sprinter#1", "ghoul#1"],
        zombie_stack=["cdc#1", "shambler#2"],
        hands={0: []},
    )
    events, state = next_turn(state)
    assert of(events, "CdcRevealed") == [{"column": 0, "card": "cdc#1", "ditched": "shotgun#1"}]
    assert state.resource_row[0] == "cdc#1" and "shotgun#1" in state.ditch
    state.damage = [entry("soldier#1", 1)]
    events, state = act(state, 0, {"type": "defeat", "column": 0})
    assert E.result(state)["outcome"] == "won" and state.cdc_holder == 0


@pytest.mark.parametrize("card_id", sorted(SCENARIOS))
def test_card_does_what_its_text_says(card_id):
    text, check = SCENARIOS[card_id]
    assert catalogue().cards[card_id].text == text
    check()


def test_every_card_has_a_scenario():
    assert set(SCENARIOS) == set(catalogue().cards)
