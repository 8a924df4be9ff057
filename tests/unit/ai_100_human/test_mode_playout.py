"""Property tests for 1- and 2-seat matches: random/greedy bot matches finish; folding all
events equals the live state; snapshots round-trip and decide like the live state; cards
are never in two places; the 2-player hand sizes and the solo timer stack follow the book."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.ai_100_human.hacking import connected
from domain.games.ai_100_human.spec import rating
from tests.support.playout import checked_playout

from .test_flow_support import E, play_match

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def zones(state) -> list[str]:
    """Every development card in a known place (deck, timer, grids, seats)."""
    cards = (
        list(state.deck)
        + list(state.timer)
        + list(state.neutral.values())
        + list(state.grid.values())
    )
    for s in state.seats:
        cards += (
            s.hand
            + s.reserve
            + s.dealt
            + [c for c in s.tableau.values() if not c.startswith("AI-")]
        )
    return cards


@SETTINGS
@given(
    seats=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**32 - 1),
    greedy_seats=st.sets(st.integers(0, 1)),
)
def test_bot_matches_finish_and_every_projection_agrees(seats, seed, greedy_seats):
    live, events = checked_playout(E, seats, seed, greedy_seats, zones, max_decisions=500)
    for index, s in enumerate(live.seats):
        if s.ai_card == "AI-2":  # its end card may lie outside the frame
            assert len(s.tableau) in (15, 16)
        else:
            assert len(s.tableau) == 15 and connected(s.tableau, diagonal=s.ai_card == "AI-8")
        assert s.score == sum(
            e.data["vp"] for e in events if e.type == "VPScored" and e.seat == index
        )
    result = E.result(live)
    if seats == 1:
        assert result["rating"] == rating(result["scores"][0])
        assert E.view(live, 0)["solo"]["rating"] == result["rating"]
    else:
        assert "rating" not in result


def test_duo_hands_shrink_by_one_per_turn_and_each_seat_discards_and_draws_six_times():
    sizes: dict[tuple[int, int], list[int]] = {}

    def watch(event, state):
        if event.type == "StepStarted" and event.data["step"] == "draft":
            sizes[(state.phase, state.turn)] = [len(s.hand) for s in state.seats]

    state, events = play_match(2, 4, bots=["greedy", "random"], on_event=watch)
    for phase in (1, 2):
        assert [sizes[(phase, t)] for t in range(1, 8)] == [[8 - t, 8 - t] for t in range(1, 8)]
    # turns 1..6 discard and draw, turn 7 (a single card, D) does neither: 6 per phase
    discards = [e for e in events if e.type == "CardDiscarded"]
    draws = [e for e in events if e.type == "CardsDrawn" and e.data.get("to") == "hand"]
    assert sorted(e.seat for e in discards) == [0] * 12 + [1] * 12
    assert sorted(e.seat for e in draws) == [0] * 12 + [1] * 12
    assert all(len(s.tableau) == 15 for s in state.seats if s.ai_card != "AI-2")


def test_solo_timer_stack_feeds_six_refills_of_three_per_phase():
    state, events = play_match(1, 9, bots="greedy")
    refills = [len(e.data["cards"]) for e in events if e.type == "GridRefilled"]
    assert refills == [3, 3, 3, 3, 3, 3, 0] * 2
    taken = [e for e in events if e.type == "GridCardTaken"]
    assert len(taken) == 14
    assert state.timer == [] and len(state.seats[0].tableau) >= 15
