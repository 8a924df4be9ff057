"""Set-up and reserve creation (rulebook "Setup" 3-5, "2 Phases Overview" A)."""

from __future__ import annotations

import random

import pytest

from domain.engine import Event, InvalidCommand, Setup
from domain.games.ai_100_human.cards import catalogue

from .test_flow_support import E, given, of_type, run, state_of, types, when


def new(seats=4, seed=1, options=None):
    events = E.new_match(
        Setup(seats, E.validate_options(seats, options or {})), random.Random(seed)
    )
    return events, state_of(events)


def test_new_match_events_follow_the_setup_order():
    events, _ = new(4, options={"objectives": "starter"})
    assert types(events) == (
        ["MatchStarted", "AICardsDealt", "PhaseStarted", "DeckShuffled"] + ["CardsDealt"] * 4
    )
    assert events[0].data["objectives"] == {"1": "Omega-3", "2": "Omega-4"}
    pairs = events[1].data["cards"]
    assert len(pairs) == 4 and len({tuple(p) for p in pairs}) == 4
    assert all(tuple(p) in catalogue().ai_cards for p in pairs)
    shuffle = events[3].data
    assert shuffle["phase"] == 1 and sorted(shuffle["order"]) == catalogue().phase_deck(1)
    for seat, e in enumerate(events[4:]):
        assert e.seat == seat and e.data["purpose"] == "reserve"
        assert e.data["cards"] == shuffle["order"][4 * seat : 4 * seat + 4]  # dealt from the top


def test_first_decisions_are_the_ai_side_then_the_reserve():
    _, state = new(3)
    assert E.pending(state) == {0: "choose_ai_side", 1: "choose_ai_side", 2: "choose_ai_side"}
    pair = state.seats[0].ai_pair
    assert E.legal_actions(state, 0) == [{"type": "choose_ai_side", "card": c} for c in pair]
    state, out = run(state, [(0, {"type": "choose_ai_side", "card": pair[1]})])
    assert types(out) == ["AISideChosen"]
    assert E.pending(state)[0] == "keep_reserve"
    keeps = E.legal_actions(state, 0)
    assert len(keeps) == 6 and all(len(k["cards"]) == 2 for k in keeps)  # C(4, 2)


def test_side_and_keep_errors_have_fine_codes():
    _, state = new(3)
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "choose_ai_side", "card": "AI-99"})
    assert err.value.code == "side_not_dealt"
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "keep_reserve", "cards": state.seats[0].dealt[:2]})
    assert err.value.code == "wrong_step"
    state, _ = run(state, [(0, {"type": "choose_ai_side", "card": state.seats[0].ai_pair[0]})])
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "keep_reserve", "cards": state.seats[0].dealt[:3]})
    assert err.value.code == "wrong_keep_count"
    with pytest.raises(Exception) as err:
        when(
            state,
            0,
            {"type": "keep_reserve", "cards": [state.seats[1].dealt[0], state.seats[0].dealt[0]]},
        )
    assert err.value.code == "card_not_dealt"
    state, _ = run(state, [(0, {"type": "keep_reserve", "cards": state.seats[0].dealt[:2]})])
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "draft", "card": "001"})
    assert err.value.code == "not_your_turn" and err.value.status == 409


def test_when_all_kept_sides_are_revealed_returned_cards_shuffled_and_7_dealt():
    _, state = new(4, seed=5)
    commands = []
    for s in range(4):
        commands.append((s, {"type": "choose_ai_side", "card": state.seats[s].ai_pair[0]}))
    for s in range(4):
        commands.append((s, {"type": "keep_reserve", "cards": state.seats[s].dealt[1:3]}))
    returned = {c for s in range(4) for c in (state.seats[s].dealt[0], state.seats[s].dealt[3])}
    state, out = run(state, commands)
    tail = out[8:]
    assert types(tail) == (
        ["AISidesRevealed", "DeckShuffled"] + ["CardsDealt"] * 4 + ["StepStarted"]
    )
    assert tail[0].data["cards"] == [state.seats[s].ai_pair[0] for s in range(4)]
    order = tail[1].data["order"]
    assert tail[1].data["reason"] == "returned" and len(order) == 60 - 16 + 8
    assert returned <= set(order)
    for s in range(4):
        assert len(state.seats[s].hand) == 7 and len(state.seats[s].reserve) == 2
        assert state.seats[s].tableau == {(1, 2): state.seats[s].ai_pair[0]}
    assert len(state.deck) == 52 - 28
    assert tail[-1].data == {"phase": 1, "turn": 1, "step": "draft"}
    assert E.pending(state) == {0: "draft", 1: "draft", 2: "draft", 3: "draft"}


def test_phase2_reserve_keeps_3_with_117_or_118_in_the_tableau():
    """117/118: "At the start of Phase 2, keep 3 cards instead of 2 when creating your reserve"."""
    dealt = {
        0: ["052", "054", "056", "058"],
        1: ["060", "062", "064", "066"],
        2: ["068", "070", "072", "074"],
    }
    state = state_of(
        given(
            phase=2,
            turn=0,
            step="setup",
            dealt=dealt,
            tableaux={0: {(1, 1): "117"}, 1: {(1, 1): "118"}, 2: {(1, 1): "001"}},
        )
    )
    assert E.pending(state) == {0: "keep_reserve", 1: "keep_reserve", 2: "keep_reserve"}
    assert [len(a["cards"]) for a in E.legal_actions(state, 0)] == [3] * 4  # C(4, 3)
    assert [len(a["cards"]) for a in E.legal_actions(state, 1)] == [3] * 4
    assert [len(a["cards"]) for a in E.legal_actions(state, 2)] == [2] * 6
    state, out = run(
        state,
        [
            (0, {"type": "keep_reserve", "cards": ["052", "054", "056"]}),
            (1, {"type": "keep_reserve", "cards": ["060", "062", "064"]}),
            (2, {"type": "keep_reserve", "cards": ["068", "070"]}),
        ],
    )
    assert [len(s.reserve) for s in state.seats] == [3, 3, 2]
    assert "AISidesRevealed" not in types(out)  # only in Phase 1
    assert {"058", "066", "072", "074"} <= set(of_type(out, "DeckShuffled")[0].data["order"])


@pytest.mark.parametrize(
    "options, expected",
    [
        ({}, {"objectives": "random"}),
        ({"objectives": "starter"}, {"objectives": "starter"}),
        (
            {"objectives": {"phase1": "Omega-7", "phase2": "Omega-16"}},
            {"objectives": {"phase1": "Omega-7", "phase2": "Omega-16"}},
        ),
    ],
)
def test_options_are_normalised(options, expected):
    assert E.validate_options(4, options) == expected


@pytest.mark.parametrize(
    "seats, options",
    [
        (0, {}),
        (7, {}),
        (4, {"colour": "red"}),
        (4, {"objectives": "first"}),
        (4, {"objectives": {"phase1": "Omega-4", "phase2": "Omega-16"}}),  # Omega-4 is Phase 2
        (4, {"objectives": {"phase1": "Omega-7"}}),
    ],
)
def test_bad_options_are_rejected(seats, options):
    with pytest.raises(InvalidCommand):
        E.validate_options(seats, options)


def test_random_objectives_come_from_the_right_phase_and_explicit_ones_are_used():
    seen = set()
    for seed in range(20):
        events, _ = new(3, seed=seed)
        obj = events[0].data["objectives"]
        assert obj["1"] in catalogue().objectives_for(1)
        assert obj["2"] in catalogue().objectives_for(2)
        seen.add(obj["1"])
    assert len(seen) > 1
    events, state = new(3, options={"objectives": {"phase1": "Omega-9", "phase2": "Omega-13"}})
    assert state.objectives == {"1": "Omega-9", "2": "Omega-13"}


def test_command_shape_errors():
    _, state = new(3)
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "teleport"})
    assert err.value.code == "unknown_action"
    for bad in (
        {"card": "AI-1"},
        {"type": "choose_ai_side"},
        {"type": "choose_ai_side", "card": 3},
        {"type": "choose_ai_side", "card": "AI-1", "extra": 1},
        "draft",
    ):
        with pytest.raises(Exception) as err:
            E.decide(state, 0, bad, random.Random(0))
        assert err.value.code == "invalid_command" and err.value.status == 400
    with pytest.raises(Exception) as err:
        when(state, 9, {"type": "choose_ai_side", "card": "AI-1"})
    assert err.value.code == "not_your_turn"


def test_every_command_type_has_a_schema_and_options_schema_is_an_object():
    assert set(E.command_schemas) == {
        "choose_ai_side",
        "keep_reserve",
        "draft",
        "place",
        "copy",
        "exchange_reserve",
        "move_card",
        "decline",
        "use_ai5",
        "use_ai6",
        "ai6_discard",
        "place_extra",
        "discard",
    }
    for name, schema in E.command_schemas.items():
        assert schema["type"] == "object" and schema["properties"]["type"] == {"const": name}
    assert E.options_schema["type"] == "object"
    assert (E.game_id, E.title, E.min_seats, E.max_seats) == (
        "ai-100-human",
        "AI: 100% Human",
        1,
        6,
    )
    assert E.schema_version == 1 and E.timeout_bot == "idle"  # issue 17: timeouts decline
    assert set(E.bots) == {"random", "greedy", "expert", "idle"}


def test_decide_does_not_modify_the_state():
    _, state = new(3)
    before = E.dump_state(state)
    when(state, 0, {"type": "choose_ai_side", "card": state.seats[0].ai_pair[0]})
    assert E.dump_state(state) == before


def test_match_finished_rejects_commands():
    state = state_of(given(step="draft", hands={0: ["001", "003"]}))
    state = E.evolve(
        state, Event("MatchEnded", {"scores": [1, 0, 0], "ranking": [], "winners": [0]})
    )
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "draft", "card": "001"})
    assert err.value.code == "match_finished"
    assert E.pending(state) == {} and E.legal_actions(state, 0) == []


def test_the_fold_is_total_an_unknown_or_headless_event_raises():
    """docs/CONTRACTS.md: the fold is total over the game's events; a log with an event type
    the game does not know, or one that does not start with MatchStarted, is refused."""
    from domain.engine import Event

    state = E.evolve(
        None,
        Event(
            "MatchStarted",
            {
                "seats": 3,
                "options": {},
                "objectives": {"1": "Omega-3", "2": "Omega-4"},
                "mode": "standard",
            },
        ),
    )
    with pytest.raises(ValueError, match="unknown event type 'CardTeleported'"):
        E.evolve(state, Event("CardTeleported", {}))
    with pytest.raises(ValueError, match="first event must be MatchStarted"):
        E.evolve(None, Event("PhaseStarted", {"phase": 1}))


def test_an_omitted_option_takes_the_default_its_schema_declares(monkeypatch):
    from domain.games.ai_100_human import spec

    assert (
        E.validate_options(3, {})
        == {"objectives": spec.OPTIONS_SCHEMA["properties"]["objectives"]["default"]}
        == {"objectives": "random"}
    )
    monkeypatch.setitem(spec.OPTIONS_SCHEMA["properties"]["objectives"], "default", "starter")
    assert E.validate_options(3, {}) == {"objectives": "starter"}
    events = E.new_match(Setup(3, {}), random.Random(0))
    assert events[0].data["objectives"] == {"1": "Omega-3", "2": "Omega-4"}
