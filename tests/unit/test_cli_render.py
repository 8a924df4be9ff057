"""Rich rendering used by ``arena play`` (card faces from the rulebook-derived card data)."""
from __future__ import annotations

from rich.console import Console

from cli.bot_match import bot_rng, match_seed
from cli.render import (card_label, describe_action, render_events, render_view, result_table,
                        tableau_grid)
from domain.engine import Setup, derive_rng, fold
from domain.games import get_engine

ENGINE = get_engine("ai-100-human")


def _text(renderable=None, draw=None) -> str:
    console = Console(record=True, width=220, color_system=None)
    if draw is not None:
        draw(console)
    else:
        console.print(renderable)
    return console.export_text()


def test_card_label_shows_id_colour_letter_and_number():
    # development.json: card 001 is a purple 2.
    assert card_label("001").plain == "001 P2"
    assert card_label("no-such-card").plain == "no-such-card"


def test_tableau_grid_puts_cards_in_their_row_and_column():
    grid = _text(tableau_grid([{"cell": [1, 2], "card": "AI-1"}, {"cell": [0, 4], "card": "001"}],
                              "t"))
    lines = grid.splitlines()
    top = next(i for i, line in enumerate(lines) if "001 P2" in line)
    middle = next(i for i, line in enumerate(lines) if "AI-1" in line)
    assert top < middle
    # AI-1 sits in the middle column (2), 001 in the last column (4).
    assert lines[top].index("001 P2") > lines[middle].index("AI-1")


def test_tableau_grid_lists_a_card_outside_the_frame():
    grid = _text(tableau_grid([{"cell": [1, 2], "card": "AI-1"}, {"cell": [1, 5], "card": "001"}],
                              "t"))
    assert "outside the frame: 001 at [1, 5]" in grid


def test_describe_action_reads_like_the_rulebook():
    assert describe_action({"type": "place", "card": "001", "cell": [0, 1]}).plain == \
        "place 001 P2 at row 0, column 1"
    assert describe_action({"type": "keep_reserve", "cards": ["001", "002"]}).plain == \
        "keep reserve cards 001 P2, 002 R1"
    assert describe_action({"type": "move_card", "from": [0, 1], "to": [2, 3]}).plain == \
        "move card from row 0, column 1 to row 2, column 3"
    assert describe_action({"type": "decline"}).plain == "decline"


def test_result_table_marks_every_tied_winner():
    result = {"scores": [10, 30, 30], "winners": [1, 2],
              "ranking": [{"seat": 1, "score": 30, "rank": 1}, {"seat": 2, "score": 30, "rank": 1},
                          {"seat": 0, "score": 10, "rank": 3}]}
    seats = [{"seat": 0, "kind": "human", "name": "ann"}, {"seat": 1, "kind": "bot", "bot": "greedy"},
             {"seat": 2, "kind": "bot", "bot": "random"}]
    text = _text(result_table(result, seats, "r", you=0))
    assert text.count("winner") == 2
    assert "bot (greedy)" in text and "you" in text


def _draft_state(seed: bytes):
    """A 4-seat match advanced by bots to the first drafting step."""
    state = fold(ENGINE, ENGINE.new_match(Setup(4, ENGINE.validate_options(4, {})),
                                          derive_rng(seed, 0)))
    version = 0
    while state.step != "draft":
        seat = min(ENGINE.pending(state))
        events = ENGINE.decide(state, seat, ENGINE.bots["random"].choose(
            state, seat, bot_rng(seed, version, seat)), derive_rng(seed, version))
        version += len(events)
        state = fold(ENGINE, events, state)
    return state


def test_render_view_shows_own_hand_and_reserve_but_no_other_hand():
    state = _draft_state(match_seed("render", 0))
    match = {"match_id": "m1", "version": 42, "seats": [{"seat": 0, "kind": "human"}],
             "view": ENGINE.view(state, 0)}
    text = _text(draw=lambda console: render_view(console, match, you=0))
    mine = state.seats[0]
    for card in mine.hand + mine.reserve:
        assert card_label(card).plain in text
    visible = set(mine.hand + mine.reserve) | {c for s in state.seats for c in s.tableau.values()}
    hidden = {c for s in state.seats[1:] for c in s.hand + s.reserve} - visible
    assert hidden and not any(card_label(c).plain in text for c in hidden)
    assert "your decision: draft" in text and "deadline" not in text
    assert "phase 1, turn 1" in text
    match["deadline"] = "2026-11-29T17:00:30+00:00"
    text = _text(draw=lambda console: render_view(console, match, you=0))
    assert "your decision: draft (deadline 2026-11-29T17:00:30+00:00; then a bot decides" in text


def test_render_events_names_you_and_other_seats():
    events = [{"version": 7, "type": "CardDrafted", "seat": 0, "data": {"card": "001"}},
              {"version": 8, "type": "CardDrafted", "seat": 2, "data": {"forced": False}}]
    text = _text(draw=lambda console: render_events(console, events, you=0))
    assert "v7 CardDrafted you" in text and "v8 CardDrafted seat 2" in text
