"""A.I.Pokalypse's terminal screen (``cli/render/aipokalypse.py``) on real seat views:
slots with the strength scale, Red Slots, ammo, health, faction, hand with card text,
battle cards, the reaction window and the A.I.Toma's board; commands in words."""

from __future__ import annotations

from rich.console import Console

from cli.render import CardBook, renderer_for
from cli.render.aipokalypse import SCALE, describe_action, label, slot_cell
from domain.engine import public_cards
from domain.games import get_engine
from tests.support.screens import played_until, seat_screen

ENGINE = get_engine("aipokalypse")
CARDS = CardBook({"game": "aipokalypse", **public_cards(ENGINE)})
RENDER = renderer_for("aipokalypse")


def _played(seats: int, seed: str, until, options=None, bot: str = "tactician"):
    return played_until(ENGINE, seats, seed, until, bot, options)


def _screen(state, you: int = 0) -> tuple[str, dict]:
    return seat_screen(ENGINE, RENDER, CARDS, state, you, len(state.players), "tactician")


def test_labels_carry_name_colour_value_and_kind_letters():
    assert label("B001", CARDS) == "B001 Berserker (B1 H)"
    assert label("S01", CARDS) == "S01 Big Benji (B H special)"
    assert label("F01", CARDS) == "F01 Desert Rats (faction)"
    assert label("B001-2", CARDS) == "B001-2 Berserker (B1 H)"  # the second copy
    assert label(None, CARDS) == "face down"


def test_a_recruitment_screen_shows_slots_on_the_strength_scale_and_the_hand_with_text():
    def placed(state):
        p = state.players[0]
        return (
            ENGINE.pending(state).get(0) == "recruit"
            and state.round >= 2
            and any(s.unit and s.pos for s in p.slots)
        )

    state = _played(3, "render-pk", placed)
    text, match = _screen(state)
    mine = match["view"]["seats"][0]
    assert "Phase 1: Recruitment" in text and "competitive game - draw pile" in text
    assert f"your slots - ammo {mine['ammo']}, health stack {mine['health_count']}" in text
    for slot in mine["slots"]:
        if slot["unit"]:
            assert label(slot["unit"], CARDS) in text
            assert f"strength {SCALE[slot['pos']]}" in text
    # the scale line of a unit above strength 1 brackets its position
    moved = next(s for s in mine["slots"] if s["unit"] and s["pos"])
    assert f" [{SCALE[moved['pos']]}] " in slot_cell(moved, CARDS, True).plain + " "
    for card in mine["hand"]:
        assert label(card, CARDS) in text
        assert CARDS.get(card)["text"].split(".")[0][:40] in " ".join(text.split())
    faction = CARDS.get(mine["faction"])
    assert f"{mine['faction']} {faction['name']} (faction)" in text
    assert "ready: end your Recruitment Phase" in text
    assert "{" not in text.split("your decision:")[1]  # the menu is words


def test_an_empty_hand_is_a_sentence_not_a_header_without_rows():
    def empty(state):
        return ENGINE.pending(state).get(0) == "recruit" and not state.players[0].hand

    state = _played(3, "e3", empty)
    text, match = _screen(state)
    assert match["view"]["seats"][0]["hand"] == []
    assert "Your hand is empty." in text and "your hand (0)" not in text
    after = text.split("your slots - ammo", 1)[1]
    assert "┃ card " not in after.split("Your hand is empty.", 1)[1]


def test_the_other_seats_hidden_cards_never_appear():
    state = _played(
        3, "render-pk-hidden", lambda s: ENGINE.pending(s).get(0) == "recruit" and s.round >= 2
    )
    text, match = _screen(state)
    visible = set(match["view"]["seats"][0]["hand"])
    for seat in match["view"]["seats"]:
        visible |= set(seat.get("pool") or []) | {s.get("unit") for s in seat["slots"]}
        visible |= {s.get("card") for s in seat["slots"]} | {
            (seat.get("current") or {}).get("card")
        }
        visible |= {c for s in seat["slots"] for b in s.get("battle") or [] for c in b[:1]}
    hidden = set()
    for s in (1, 2):
        p = state.players[s]
        hidden |= set(p.hand) | set(p.health) | {sl.card for sl in p.slots}
    hidden -= visible | {None}
    assert hidden
    assert not any(label(card, CARDS) in text for card in hidden)


def test_the_battle_and_the_reaction_window():
    state = _played(3, "render-pk-react", lambda s: ENGINE.pending(s).get(0) == "react")
    text, match = _screen(state)
    view = match["view"]
    strength = view["strengths"]["0"]
    assert "Phase 2: Battle" in text
    assert f"Reaction window: your battle strength is {strength}, the best other is " in text
    assert "spend ammo (+2 each for this point), or pass." in text
    current = view["seats"][0]["current"]
    assert f"you: {label(current['card'], CARDS)}" in text and f"battle strength {strength}" in text
    assert "pass: do not react" in text


def test_the_ai_toma_board_in_solo_mode():
    state = _played(
        1, "render-pk-solo", lambda s: ENGINE.pending(s).get(0) == "recruit" and s.round >= 2
    )
    text, match = _screen(state)
    toma = match["view"]["toma"]
    assert "Solo Mode against the A.I.Toma (Boss)" in text
    assert f"A.I.Toma: difficulty Boss, health {toma['health_count']}, ammo {toma['ammo']}" in text
    assert "the A.I.Toma's units" in text
    for slot in toma["slots"]:
        assert label(slot["unit"], CARDS) in text and f"strength {slot['strength']}" in text


def test_a_red_slot_shows_its_bonuses_and_exhausted_battle_cards():
    slot = {
        "card": "S01",
        "red": True,
        "unit": "B001",
        "pos": 4,
        "attached": [],
        "temp": 2,
        "ammo_temp": 0,
        "ammo_on": 1,
        "battle": [["B002", True], [None, False]],
        "exhausted": True,
    }
    text = slot_cell(slot, CARDS, True).plain
    assert "RED SLOT S01 Big Benji (B H special)" in text
    assert "bonuses at strength 3: ammo, 6: draw, 10: strength, 12: ammo" in text
    assert "strength 5 +2 temporary" in text and "1 2 3 4 [5] 6" in text
    assert "ammo on it: 1" in text and "EXHAUSTED" in text
    assert f"battle cards: + {label('B002', CARDS)}; - face down" in text


def test_commands_read_as_the_rulebook_words():
    mine = {
        "slots": [{"unit": "B001", "pos": 2, "red": False}, {"unit": None, "red": True}],
        "hand": ["B006"],
    }

    def said(action):
        return describe_action(action, mine, CARDS).plain

    assert (
        said({"type": "recruit", "card": "B006", "slot": 1})
        == f"recruit {label('B006', CARDS)} onto slot 1 (empty, Red Slot)"
    )
    assert (
        said({"type": "spend_ammo", "slot": 0})
        == "spend 1 ammo: slot 0 (B001 Berserker (B1 H), strength 3) gains 1 strength"
    )
    assert said({"type": "discard", "card": "B001"}) == (
        "discard B001 Berserker (B1 H) from slot 0 (B001 Berserker (B1 H), strength 3) "
        "(its discard effect resolves)"
    )
    assert said({"type": "discard", "card": "B006"}) == (
        f"discard {label('B006', CARDS)} from your hand (its discard effect resolves)"
    )
    assert said({"type": "discard", "card": "F25"}) == (
        f"discard {label('F25', CARDS)} (its discard effect resolves)"
    )
    assert (
        said({"type": "react_ammo", "count": 2})
        == "react: spend 2 ammo (+4 battle strength for this point)"
    )
    assert (
        said({"type": "open_slot", "card": "S01"})
        == "play S01 Big Benji (B H special) as a Red Slot"
    )
    assert said({"type": "triple", "cards": ["B001", "B002", "B003"], "source": "health"}) == (
        f"discard a Triple ({label('B001', CARDS)}, {label('B002', CARDS)}, {label('B003', CARDS)}) "
        "to recruit a Special Unit from your health stack"
    )
    assert said({"type": "choose", "option": "stop"}) == "choose stop"
    assert (
        said({"type": "place_card", "slot": 1})
        == "place your battle card on slot 1 (empty, Red Slot)"
    )


def test_events_name_the_ai_toma_and_cards_by_name():
    state = _played(1, "render-pk-events", lambda s: s.round >= 2)
    view = ENGINE.view(state, 0)
    toma_seat = view["toma"]["seat"]
    events = [
        {
            "version": 27,
            "type": "BattleCardRevealed",
            "seat": toma_seat,
            "data": {"card": "B063", "slot": 0, "fights": True},
        },
        {"version": 28, "type": "FactionChosen", "seat": 0, "data": {"faction": "F25"}},
    ]
    console = Console(record=True, width=220, color_system=None)
    RENDER.render_events(console, events, CARDS, [{"seat": 0, "kind": "human"}], 0, view)
    text = console.export_text()
    assert "v27 The A.I.Toma reveals Zombie (yellow 1): the unit in slot 0 fights" in text
    assert "v28 You choose the faction Night Market" in text
    assert (
        describe_action({"type": "choose_faction", "faction": "F25"}, {}, CARDS).plain
        == "keep faction F25 Night Market"
    )
