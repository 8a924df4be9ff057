"""Card data: counts from "Contents", every named card, schema errors naming card and field."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from domain.games.aipokalypse.cards import (
    DATA_DIR,
    FILES,
    REQUIRED_NAMES,
    CardDataError,
    catalogue,
    load_catalogue,
)
from domain.games.aipokalypse.vocabulary import OPS


def test_contents_counts_102_basic_64_special_30_factions():
    cat = catalogue()
    assert (len(cat.basic), len(cat.special), len(cat.faction)) == (102, 64, 30)
    kinds = Counter(cat[c].kind for c in cat.basic)
    assert kinds == {"human": 30, "mech": 30, "mutant": 30, "rogue": 6, "ailien": 6}


def test_every_colour_and_value_of_humans_mechs_mutants_can_triple_twice():
    cat = catalogue()
    sets = Counter(
        (cat[c].color, cat[c].value)
        for c in cat.basic
        if cat[c].kind in ("human", "mech", "mutant")
    )
    assert all(n == 6 for n in sets.values()) and len(sets) == 15


def test_every_card_named_in_the_card_notes_exists():
    names = {c.name for c in catalogue().cards.values()}
    assert set(REQUIRED_NAMES) <= names
    assert len(REQUIRED_NAMES) == 92


def test_every_op_of_the_vocabulary_is_used_by_a_card():
    used = {op["op"] for c in catalogue().cards.values() for e in c.effects for op in e["ops"]}
    used |= {
        inner["op"]
        for c in catalogue().cards.values()
        for op in c.has("listen")
        for inner in op["then"]
    }
    used |= {
        inner["op"]
        for c in catalogue().cards.values()
        for op in c.has("discard")
        for key in ("then", "per")
        for inner in op.get(key, ())
    }
    assert set(OPS) == used


@pytest.fixture
def data_copy(tmp_path):
    for name in FILES.values():
        shutil.copy(DATA_DIR / name, tmp_path / name)
    return tmp_path


def _edit(path, name, fn):
    doc = json.loads((path / name).read_text())
    fn(doc["cards"])
    (path / name).write_text(json.dumps(doc))


@pytest.mark.parametrize(
    "name,edit,message",
    [
        (
            "basic_units.json",
            lambda cs: cs[0].update(value=9),
            "card B001 (Berserker): field 'value'",
        ),
        (
            "basic_units.json",
            lambda cs: cs[3].update(color="red"),
            "card B004 (Recruit): field 'color'",
        ),
        (
            "special_units.json",
            lambda cs: cs[2]["effects"][0]["ops"][0].update(op="teleport"),
            "card S03 (Doc.): field 'effects[0].ops[0].op'",
        ),
        (
            "special_units.json",
            lambda cs: cs[2]["effects"][0]["ops"][0].pop("n"),
            "card S03 (Doc.): field 'effects[0].ops[0].n'",
        ),
        (
            "factions.json",
            lambda cs: cs[0].update(effects=[]),
            "card F01 (Desert Rats): field 'effects'",
        ),
        ("factions.json", lambda cs: cs.pop(), "expected 30 cards"),
        (
            "special_units.json",
            lambda cs: cs[0]["red_slot"].update({"11": "ammo"}),
            "field 'red_slot.11'",
        ),
    ],
)
def test_schema_errors_name_the_card_and_the_field(data_copy, name, edit, message):
    _edit(data_copy, name, edit)
    with pytest.raises(CardDataError) as err:
        load_catalogue(data_copy)
    assert message in str(err.value)


def test_a_missing_named_card_is_reported(data_copy):
    _edit(data_copy, "factions.json", lambda cs: cs[19].update(name="Watchmen"))
    with pytest.raises(CardDataError, match="W4TCHM3N"):
        load_catalogue(data_copy)
