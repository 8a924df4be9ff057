"""The card catalogue: composition the issue requires and the loader's schema errors."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from domain.games.dead_apocalypse.cards import DATA_DIR, CardDataError, catalogue, load_catalogue


def test_starting_deck_is_7_survivors_base_camp_weapons_cache_medicine_cabinet():
    deck = catalogue().starting_deck(2)
    assert Counter(c.split("#")[0] for c in deck) == {
        "survivor": 7,
        "base-camp": 1,
        "weapons-cache": 1,
        "medicine-cabinet": 1,
    }
    assert len(set(deck)) == 10 and all("#s2." in c for c in deck)


def test_zombie_stack_has_30_plus_zombies_in_4_factions_8_plus_events_and_one_cdc():
    cat = catalogue()
    stack = [cat.of(c) for c in cat.stack_instances("zombie")]
    zombies = [c for c in stack if c.kind == "zombie"]
    assert len(zombies) >= 30 and len({z.faction for z in zombies}) >= 4
    assert sum(1 for c in stack if c.kind == "event") >= 8
    assert [c.id for c in stack if c.kind == "cdc"] == ["cdc"]
    assert any(z.immune.get("types") for z in zombies)
    assert any(z.immune.get("factions") for z in zombies)
    assert any(z.immune.get("titles") for z in zombies)
    assert any(z.after_combat for z in zombies) and any(z.repeat_ops for z in zombies)
    assert any(z.on_attack for z in zombies)


def test_resource_stack_has_50_plus_humans_equipment_locations_using_every_ability():
    cat = catalogue()
    cards = [cat.of(c) for c in cat.stack_instances("resource")]
    assert len(cards) >= 50 and {c.kind for c in cards} == {"human", "equipment", "location"}
    assert len({c.faction for c in cards}) >= 4
    ops = {step["op"] for c in cards for step in c.abilities}
    assert ops >= {
        "damage_if",
        "damage_per",
        "draw",
        "ditch",
        "ditch_self",
        "cure",
        "gain",
        "occupy",
    }
    assert any(c.repeat for c in cards) and all(
        c.occupancy >= 1 for c in cards if c.kind == "location"
    )
    worker = cat.cards["construction-worker"]
    assert worker.abilities[0] == {"op": "damage_if", "amount": 1, "if": {"faction": "Armory"}}


def test_adept_survivors_and_infections_have_their_own_stacks():
    cat = catalogue()
    assert len(cat.stack_instances("adept")) == 16 and len(cat.stack_instances("infection")) == 30
    assert cat.cards["adept-survivor"].faction == "Survivor"


def broken(tmp_path, name, mutate):
    shutil.copytree(DATA_DIR, tmp_path / "cards")
    path = tmp_path / "cards" / name
    doc = json.loads(path.read_text())
    mutate(doc["cards"])
    path.write_text(json.dumps(doc))
    return tmp_path / "cards"


@pytest.mark.parametrize(
    "name,mutate,message",
    [
        (
            "zombies.json",
            lambda cs: cs[0].update(hp=0),
            "card 'shambler' (zombies.json): field 'hp'",
        ),
        (
            "zombies.json",
            lambda cs: cs[0]["immune"].update(factions=["Pirates"]),
            "field 'immune.factions[0]'",
        ),
        (
            "zombies.json",
            lambda cs: cs[0]["immune"].update(titles=["Laser"]),
            "field 'immune.titles'",
        ),
        (
            "resources.json",
            lambda cs: cs[0]["abilities"].append({"op": "teleport"}),
            "card 'construction-worker' (resources.json): field 'abilities[1].op'",
        ),
        (
            "resources.json",
            lambda cs: cs[0]["abilities"][0].update(amount="one"),
            "field 'abilities[0].amount'",
        ),
        (
            "resources.json",
            lambda cs: cs[0].pop("faction"),
            "card 'construction-worker' (resources.json): field 'faction'",
        ),
        (
            "resources.json",
            lambda cs: cs[19].update(occupancy=0),
            "card 'police-station' (resources.json): field 'occupancy'",
        ),
        ("player.json", lambda cs: cs[0].update(copies=6), "card 'survivor': field 'copies'"),
        ("resources.json", lambda cs: cs.append(dict(cs[0])), "field 'id': duplicate id"),
    ],
)
def test_bad_data_raises_an_error_naming_card_and_field(tmp_path, name, mutate, message):
    with pytest.raises(CardDataError) as err:
        load_catalogue(broken(tmp_path, name, mutate))
    assert message in str(err.value)


def test_composition_checks_count_the_zombies(tmp_path):
    def fewer(cards):
        for c in cards:
            if c["kind"] == "zombie":
                c["copies"] = 1

    with pytest.raises(CardDataError, match="at least 30 Zombies"):
        load_catalogue(broken(tmp_path, "zombies.json", fewer))
