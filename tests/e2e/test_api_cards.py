"""``GET /v1/games/{game}/cards``: every game's public card data, from the Engine's
``public_cards`` hook (the printed faces in the card files, nothing hidden)."""

from __future__ import annotations

import json

import pytest

from domain.engine import public_cards
from domain.games import registry
from tests.e2e.http_helpers import GAME_OPTIONS, create


def test_ai_100_human_lists_every_printed_card_with_colour_number_corners_and_text(http):
    """Rulebook "Contents": 60 Phase 1 + 60 Phase 2 development cards, 6 double-sided AI
    cards (12 sides), 16 objectives (8 per phase)."""
    status, headers, body = http.get("/v1/games/ai-100-human/cards")
    assert status == 200 and body["game"] == "ai-100-human"
    kinds = [c["kind"] for c in body["cards"]]
    assert kinds.count("development") == 120 and kinds.count("ai") == 12
    assert len(body["objectives"]) == 16
    card = next(c for c in body["cards"] if c["id"] == "001")
    assert card == {
        "id": "001",
        "kind": "development",
        "phase": 1,
        "color": "purple",
        "number": 2,
        "corners": {
            "tl": {"color": "green", "number": 1},
            "tr": {"color": "black", "number": 1},
            "bl": {"color": "red", "number": 2},
            "br": {"color": "red", "number": 1},
        },
        "text": "In your tableau, 2 VP per diagonal group of 2 purple and/or red cards.",
    }
    assert "public" in headers["Cache-Control"]


def test_aipokalypse_lists_units_specials_and_factions_with_names_and_text():
    """Rulebook "Contents": 102 basic units, 64 Special Units, 30 factions."""
    body = public_cards(registry()["aipokalypse"])
    categories = [c["category"] for c in body["cards"]]
    assert (
        categories.count("basic"),
        categories.count("special"),
        categories.count("faction"),
    ) == (102, 64, 30)
    benji = next(c for c in body["cards"] if c["id"] == "S01")
    assert benji["name"] == "Big Benji" and benji["red_slot"] == {
        "3": "ammo",
        "6": "draw",
        "10": "strength",
        "12": "ammo",
    }
    assert all(c["text"] and c["name"] for c in body["cards"])


def test_dead_apocalypse_lists_every_card_title_once():
    body = public_cards(registry()["dead-apocalypse"])
    survivor = next(c for c in body["cards"] if c["id"] == "survivor")
    assert survivor["title"] == "Survivor" and survivor["damage"] == 1 and survivor["copies"] == 7
    assert len({c["id"] for c in body["cards"]}) == len(body["cards"]) == 52


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_the_card_data_is_the_same_whatever_is_dealt_and_holds_no_order(http, game):
    """No hidden information: the answer does not depend on any match (no deck order)."""
    status, _, first = http.get(f"/v1/games/{game}/cards")
    created = create(http, [{"kind": "human"}, {"kind": "human"}], game, options=GAME_OPTIONS[game])
    status2, _, second = http.get(f"/v1/games/{game}/cards")
    assert status == status2 == 200 and first == second
    ids = [c["id"] for c in first["cards"]]
    assert len(ids) == len(set(ids)) and ids == sorted(ids, key=ids.index)
    assert created["match_id"] not in json.dumps(second)
    for card in first["cards"]:  # printed faces only: no rules vocabulary, no positions
        assert not {"effect", "effects", "order", "position", "deck"} & set(card), card


def test_an_unknown_game_has_no_cards(http):
    status, headers, body = http.get("/v1/games/chess/cards")
    assert status == 404 and body["code"] == "unknown_game"
    assert headers["Content-Type"].startswith("application/problem+json")


def test_the_hooks_default_is_no_cards_and_the_test_games_keep_it():
    from domain.engine import EngineBase
    from tests.support.games import HIGH_CARD

    assert public_cards(HIGH_CARD) == {"cards": []} == EngineBase().public_cards()
    for engine in registry().values():
        assert type(engine).public_cards is not EngineBase.public_cards
