"""The result's score breakdown per seat and source (issue 24): Development cards,
the Phase 1 and Phase 2 Objective cards and the AI card add up to each seat's score, and
each source is the sum of the match's ``VPScored`` events of that source."""

from __future__ import annotations

import random

import pytest

from cli.bot_match import play_bot_match
from domain.engine import Setup, build_bot, derive_rng
from domain.games import get_engine
from domain.games.ai_100_human.state import VP_SOURCES, SeatState, breakdown, vp_source

ENGINE = get_engine("ai-100-human")


@pytest.mark.parametrize("seats", [1, 2, 3])
def test_the_breakdown_adds_up_to_every_seats_score(seats):
    match = play_bot_match(ENGINE, ["random"] * seats, f"breakdown-{seats}".encode())
    result = match.result
    assert len(result["breakdown"]) == seats
    expected = [dict.fromkeys(VP_SOURCES, 0) for _ in range(seats)]
    phase = 1
    for event in match.events:
        if event.type == "PhaseStarted":
            phase = event.data["phase"]
        if event.type == "VPScored":
            expected[event.seat][vp_source(event.data, phase)] += event.data["vp"]
    for seat, parts in enumerate(result["breakdown"]):
        assert set(parts) == set(VP_SOURCES)
        assert sum(parts.values()) == result["scores"][seat]
        assert parts == expected[seat]
    assert any(p["objective_1"] or p["objective_2"] for p in result["breakdown"]) or all(
        s == 0 for s in result["scores"]
    )


def test_sources_follow_the_rulebook_steps():
    assert vp_source({"reason": "card", "card": "006", "vp": 3}, 1) == "cards"
    assert vp_source({"reason": "objective", "objective": "Omega-3", "vp": 7}, 1) == "objective_1"
    assert vp_source({"reason": "objective", "objective": "Omega-4", "vp": 15}, 2) == "objective_2"
    assert vp_source({"reason": "ai_card", "card": "AI-1", "vp": 14}, 2) == "ai_card"
    # AI-2: "place it adjacent to a card in your tableau. Check its effect and gain the VP"
    assert vp_source({"reason": "card", "card": "006", "via": "AI-2", "vp": 4}, 2) == "ai_card"
    # 115/116 put a card into play: that card's effect
    assert vp_source({"reason": "card", "card": "006", "via": "115", "vp": 4}, 2) == "cards"
    seat = SeatState(score=9, vp_by={"cards": 5, "ai_card": 4})
    assert breakdown(seat) == {"cards": 5, "objective_1": 0, "objective_2": 0, "ai_card": 4}


@pytest.mark.parametrize("seats", [1, 2, 3])
def test_the_vp_preview_of_a_placement_is_what_the_card_scores(seats):
    # the preview of the placement a seat chose equals the VPScored of that card at its
    # reveal (rulebook B.5 "Check the effect of the card and immediately gain VPs"); black
    # cards' previews are None (applied after the others, on what is still to be chosen)
    bot = build_bot(ENGINE, "random", None)
    state = None
    for event in ENGINE.new_match(
        Setup(seats, ENGINE.validate_options(seats, {})), derive_rng(b"pv", 0)
    ):
        state = ENGINE.evolve(state, event)
    rng, checked, version = random.Random(seats), 0, 0
    placed: dict[tuple[int, str], int] = {}  # (seat, card) -> its preview
    while ENGINE.result(state) is None:
        seat = min(ENGINE.pending(state))
        previews = {
            (p["card"], tuple(p["cell"])): p["vp"]
            for p in ENGINE.view(state, seat)["you"]["previews"]
        }
        command = bot.choose(state, seat, rng)
        if command["type"] == "place":
            vp = previews[(command["card"], tuple(command["cell"]))]
            if vp is not None:
                placed[(seat, command["card"])] = vp
        else:
            assert previews == {}
        version += 1
        for event in ENGINE.decide(state, seat, command, derive_rng(b"pv", version)):
            state = ENGINE.evolve(state, event)
            if (
                event.type == "VPScored"
                and event.data["reason"] == "card"
                and "via" not in event.data
            ):
                key = (event.seat, event.data["card"])
                if key in placed:
                    assert event.data["vp"] == placed.pop(key), (key, event.data)
                    checked += 1
    assert checked >= 7 * seats
