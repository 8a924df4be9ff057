"""Card catalogue: composition (rulebook "Contents"), the lead's black-card ruling, the
cards fixed by the rulebook examples, and the load-time schema check."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from domain.games.ai_100_human.cards import (
    COLORS,
    DATA_DIR,
    CardDataError,
    Corner,
    catalogue,
    load_catalogue,
)


def test_catalogue_holds_120_development_cards_12_ai_sides_and_16_objectives():
    cat = catalogue()
    dev = [c for c in cat.cards.values() if c.kind == "development"]
    ai = [c for c in cat.cards.values() if c.kind == "ai"]
    assert sorted(c.id for c in dev) == [f"{i:03d}" for i in range(1, 121)]
    assert sorted(c.id for c in ai) == sorted(f"AI-{i}" for i in range(1, 13))
    assert sorted(cat.objectives) == sorted(f"Omega-{i}" for i in range(1, 17))
    assert catalogue() is cat  # loaded once


@pytest.mark.parametrize("phase", [1, 2])
def test_each_phase_deck_has_every_colour_and_number_exactly_twice(phase):
    cat = catalogue()
    deck = cat.phase_deck(phase)
    assert len(deck) == 60 and deck == sorted(deck)
    counts = Counter((cat.cards[i].color, cat.cards[i].number) for i in deck)
    assert set(counts) == {(c, n) for c in COLORS for n in range(1, 6)}
    assert set(counts.values()) == {2}


def test_black_cards_are_099_to_118_ten_per_phase_two_per_number():
    cat = catalogue()
    black = sorted(c.id for c in cat.cards.values() if c.kind == "development" and c.is_black)
    assert black == [f"{i:03d}" for i in range(99, 119)]
    assert not cat.cards["119"].is_black and not cat.cards["120"].is_black
    for phase in (1, 2):
        nums = Counter(cat.cards[i].number for i in black if cat.cards[i].phase == phase)
        assert nums == {n: 2 for n in range(1, 6)}
    # "At the start of Phase 2, keep 3 cards": 117/118 are Phase 1 cards.
    assert cat.cards["117"].phase == 1 and cat.cards["118"].phase == 1


@pytest.mark.parametrize(
    "cid,color,phase",
    [
        ("073", "red", 1),
        ("082", "yellow", 1),
        ("103", "black", 1),
        ("069", "green", 2),
        ("087", "green", 2),
    ],
)
def test_cards_fixed_by_the_rulebook_examples(cid, color, phase):
    card = catalogue().cards[cid]
    assert (card.color, card.phase) == (color, phase)


@pytest.mark.parametrize("phase", [1, 2])
def test_corners_use_all_colours_and_numbers_in_each_phase(phase):
    cat = catalogue()
    corners = [k for i in cat.phase_deck(phase) for k in cat.cards[i].corners.values()]
    assert {c.color for c in corners} == set(COLORS)
    assert {c.number for c in corners} == {1, 2, 3, 4, 5}
    assert all(isinstance(c, Corner) for c in corners)


def test_ai_cards_are_six_double_sided_cards_one_per_colour():
    cat = catalogue()
    assert cat.ai_cards == tuple((f"AI-{2 * k + 1}", f"AI-{2 * k + 2}") for k in range(6))
    assert sorted(cat.cards[a].color for a, _ in cat.ai_cards) == sorted(COLORS)
    for a, b in cat.ai_cards:
        assert cat.cards[a].kind == cat.cards[b].kind == "ai"
        assert cat.cards[a].phase is None
        assert (cat.cards[a].color, cat.cards[a].number) == (
            cat.cards[b].color,
            cat.cards[b].number,
        )


def test_objectives_per_phase_and_starters():
    cat = catalogue()
    assert cat.objectives_for(1) == [
        "Omega-1",
        "Omega-2",
        "Omega-3",
        "Omega-7",
        "Omega-8",
        "Omega-9",
        "Omega-10",
        "Omega-11",
    ]
    assert cat.objectives_for(2) == [
        "Omega-4",
        "Omega-5",
        "Omega-6",
        "Omega-12",
        "Omega-13",
        "Omega-14",
        "Omega-15",
        "Omega-16",
    ]
    assert sorted(o.id for o in cat.objectives.values() if o.starter) == ["Omega-3", "Omega-4"]


def test_texts_state_the_resolved_placement_requirement():
    cards = catalogue().cards
    assert cards["009"].text.startswith("In each column, 3 VP per vertical group")
    assert cards["010"].text.startswith("In each row,")
    assert cards["015"].text.startswith("In each column,")
    assert cards["048"].text.startswith("In your tableau,")
    assert cards["054"].text.startswith("In this row,")
    assert cards["108"].text.startswith("In an adjacent player's tableau,")
    prefixes = (
        "In your tableau,",
        "In each row,",
        "In each column,",
        "In this row,",
        "In this column,",
        "Adjacent to the played card,",
    )
    assert all(cards[f"{i:03d}"].text.startswith(prefixes) for i in range(1, 99))


def test_effect_kinds_follow_the_card_families():
    cards = catalogue().cards
    assert [cards[f"{i:03d}"].effect["color"] for i in range(99, 105)] == [
        "blue",
        "blue",
        "green",
        "green",
        "yellow",
        "yellow",
    ]
    assert cards["105"].effect["kind"] == cards["106"].effect["kind"] == "copy_points"
    assert {cards[f"{i:03d}"].effect["kind"] for i in range(107, 115)} == {"neighbour"}
    assert {cards[f"{i:03d}"].effect["kind"] for i in range(78, 95)} == {"connection"}
    assert {cards[f"{i:03d}"].effect["kind"] for i in range(95, 99)} == {"diamond"}


def test_card_data_is_read_only():
    card = catalogue().cards["001"]
    with pytest.raises(TypeError):
        card.effect["vp"] = 99  # type: ignore[index]
    with pytest.raises(AttributeError):
        card.color = "blue"  # type: ignore[misc]


# ---- schema check on broken copies of the data files


@pytest.fixture
def data(tmp_path):
    for name in ("development.json", "ai_cards.json", "objectives.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)

    def edit(name, change):
        path = tmp_path / name
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
        return tmp_path

    return edit


def _card(doc, cid):
    return next(c for c in doc["cards"] if c["id"] == cid)


def test_unbroken_copy_loads(data):
    cat = load_catalogue(data("development.json", lambda d: None))
    assert len(cat.cards) == 132


@pytest.mark.parametrize(
    "name,change,expected",
    [
        (
            "development.json",
            lambda d: _card(d, "042").update(color="pink"),
            r"card 042: field 'color': 'pink'",
        ),
        (
            "development.json",
            lambda d: _card(d, "010")["corners"]["tr"].update(number=7),
            r"card 010: field 'corners.tr.number'",
        ),
        (
            "development.json",
            lambda d: _card(d, "005")["effect"].update(kind="teleport"),
            r"card 005: field 'effect.kind'",
        ),
        (
            "development.json",
            lambda d: _card(d, "060")["effect"].update(scope="everywhere"),
            r"card 060: field 'effect.scope'",
        ),
        (
            "development.json",
            lambda d: _card(d, "078")["effect"].update(condition={"sum": 5, "same": "color"}),
            r"card 078: field 'effect.condition'",
        ),
        (
            "development.json",
            lambda d: _card(d, "031")["effect"]["condition"]["slots"]["values"].append(["red"]),
            r"card 031: field 'effect.condition.slots.values'",
        ),
        (
            "development.json",
            lambda d: _card(d, "033").pop("text"),
            r"card 033: field '<card>': missing \['text'\]",
        ),
        ("development.json", lambda d: _card(d, "120").update(phase=3), r"card 120: field 'phase'"),
        (
            "development.json",
            lambda d: _card(d, "001").update(number=5),
            r"phase 1 deck: field 'color'/'number'",
        ),
        (
            "development.json",
            lambda d: _card(d, "119").update(color="black"),
            r"phase 1 deck|card 119: field 'color'",
        ),
        (
            "ai_cards.json",
            lambda d: _card(d, "AI-3").update(number=0),
            r"card AI-3: field 'number'",
        ),
        (
            "ai_cards.json",
            lambda d: _card(d, "AI-4").update(color="red"),
            r"card AI-4: field 'color'",
        ),
        (
            "objectives.json",
            lambda d: d["objectives"][4].update(starter="yes"),
            r"objective Omega-8: field 'starter'",
        ),
        (
            "objectives.json",
            lambda d: d["objectives"][8]["effect"]["condition"].update(count=9),
            r"objective Omega-4: field 'effect.condition.count'",
        ),
    ],
)
def test_schema_check_names_the_card_and_field(data, name, change, expected):
    with pytest.raises(CardDataError, match=expected):
        load_catalogue(data(name, change))


def test_unreadable_file_is_a_card_data_error(tmp_path):
    for name in ("ai_cards.json", "objectives.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    (tmp_path / "development.json").write_text("{not json")
    with pytest.raises(CardDataError, match="development.json"):
        load_catalogue(tmp_path)


def test_consecutive_condition_takes_numbers_only():
    # AI-11's "ascending numbers" is the only run; a run of colours has no order
    import pytest

    from domain.games.ai_100_human.cards import CardDataError, check_effect

    run = {
        "kind": "set",
        "scope": "each_column",
        "size": 3,
        "condition": {"consecutive": "number"},
        "vp": 3,
    }
    check_effect("test", run)
    bad = {**run, "condition": {"consecutive": "color"}}
    with pytest.raises(CardDataError, match="consecutive"):
        check_effect("test", bad)
