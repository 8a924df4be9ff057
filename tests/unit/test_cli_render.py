"""AI: 100% Human's terminal screens and the result table of ``arena play`` (card faces
from the card data the server answers at ``GET /v1/games/ai-100-human/cards``)."""

from __future__ import annotations

from rich.console import Console

from cli.bot_match import bot_rng, match_seed
from cli.render import CardBook, render_result, renderer_for, result_table
from cli.render.ai_100_human import card_label as _card_label
from cli.render.ai_100_human import (
    copy_sources,
    draft_grid_table,
    ladder_rung,
    ladder_table,
    neutral_grid_table,
    tableau_grid,
)
from cli.render.ai_100_human import describe_action as _describe_action
from cli.render.ai_100_human import render_view as _render_view
from domain.engine import Setup, derive_rng, fold, public_cards
from domain.games import get_engine

ENGINE = get_engine("ai-100-human")
#: What GET /v1/games/ai-100-human/cards answers (the renderer never imports domain).
CARDS = CardBook({"game": "ai-100-human", **public_cards(ENGINE)})


def card_label(card_id):
    return _card_label(card_id, CARDS)


def describe_action(action, where=None):
    return _describe_action(action, CARDS, where)


def render_view(console, match, you):
    _render_view(console, match, you, CARDS)


def render_events(console, events, you):
    renderer_for("ai-100-human").render_events(console, events, CARDS, [], you)


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
    grid = _text(
        tableau_grid(
            [{"cell": [1, 2], "card": "AI-1"}, {"cell": [0, 4], "card": "001"}], "t", CARDS
        )
    )
    lines = grid.splitlines()
    top = next(i for i, line in enumerate(lines) if "001 P2" in line)
    middle = next(i for i, line in enumerate(lines) if "AI-1" in line)
    assert top < middle
    # AI-1 sits in the middle column (2), 001 in the last column (4).
    assert lines[top].index("001 P2") > lines[middle].index("AI-1")


def test_tableau_grid_lists_a_card_outside_the_frame():
    grid = _text(
        tableau_grid(
            [{"cell": [1, 2], "card": "AI-1"}, {"cell": [1, 5], "card": "001"}], "t", CARDS
        )
    )
    assert "outside the frame: 001 at [1, 5]" in grid


def test_describe_action_reads_like_the_rulebook():
    assert (
        describe_action({"type": "place", "card": "001", "cell": [0, 1]}).plain
        == "place 001 P2 at row 0, column 1"
    )
    assert (
        describe_action({"type": "keep_reserve", "cards": ["001", "002"]}).plain
        == "keep reserve cards 001 P2, 002 R1"
    )
    assert (
        describe_action({"type": "move_card", "from": [0, 1], "to": [2, 3]}).plain
        == "move card from row 0, column 1 to row 2, column 3"
    )
    assert describe_action({"type": "decline"}).plain == "decline"


def test_result_table_marks_every_tied_winner():
    result = {
        "scores": [10, 30, 30],
        "winners": [1, 2],
        "ranking": [
            {"seat": 1, "score": 30, "rank": 1},
            {"seat": 2, "score": 30, "rank": 1},
            {"seat": 0, "score": 10, "rank": 3},
        ],
    }
    seats = [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "greedy"},
        {"seat": 2, "kind": "bot", "bot": "random"},
    ]
    text = _text(result_table(result, seats, "r", you=0))
    assert text.count("winner") == 2
    assert "bot (greedy)" in text and "you" in text


def _draft_state(seed: bytes):
    """A 4-seat match advanced by bots to the first drafting step."""
    state = fold(
        ENGINE, ENGINE.new_match(Setup(4, ENGINE.validate_options(4, {})), derive_rng(seed, 0))
    )
    version = 0
    while state.step != "draft":
        seat = min(ENGINE.pending(state))
        events = ENGINE.decide(
            state,
            seat,
            ENGINE.bots["random"].choose(state, seat, bot_rng(seed, version, seat)),
            derive_rng(seed, version),
        )
        version += len(events)
        state = fold(ENGINE, events, state)
    return state


def test_render_view_shows_own_hand_and_reserve_but_no_other_hand():
    state = _draft_state(match_seed("render", 0))
    match = {
        "match_id": "m1",
        "version": 42,
        "seats": [{"seat": 0, "kind": "human"}],
        "view": ENGINE.view(state, 0),
    }
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
    events = [
        {"version": 7, "type": "CardDrafted", "seat": 0, "data": {"card": "001"}},
        {"version": 8, "type": "CardDrafted", "seat": 2, "data": {"forced": False}},
    ]
    text = _text(draw=lambda console: render_events(console, events, you=0))
    assert "v7 You draft P2 into your reserve" in text
    assert "v8 Seat 2 drafts a card into their reserve" in text
    assert "forced" not in text and " no" not in text


# ------------------------------------------------------------ 2-player and solo modes


def _played(seats: int, seed: bytes, until) -> object:
    """A ``seats``-seat match played by random bots (lowest pending seat first) until
    ``until(state)`` holds or the match is over."""
    state = fold(
        ENGINE,
        ENGINE.new_match(Setup(seats, ENGINE.validate_options(seats, {})), derive_rng(seed, 0)),
    )
    version = 0
    while not until(state) and state.result is None:
        seat = min(ENGINE.pending(state))
        events = ENGINE.decide(
            state,
            seat,
            ENGINE.bots["random"].choose(state, seat, bot_rng(seed, version, seat)),
            derive_rng(seed, version),
        )
        version += len(events)
        state = fold(ENGINE, events, state)
    return state


def _match(state, seats: int) -> dict:
    view = ENGINE.view(state, 0)
    return {
        "match_id": "m1",
        "version": 9,
        "game": "ai-100-human",
        "seats": [{"seat": 0, "kind": "human", "name": "ann"}]
        + [{"seat": s, "kind": "bot", "bot": "random"} for s in range(1, seats)],
        "view": view,
        "result": view["result"],
    }


def _line(text: str, *needles: str) -> str:
    return next(line for line in text.splitlines() if all(n in line for n in needles))


def test_solo_view_shows_the_draft_grid_dividers_standee_offer_and_timer_stack():
    state = _played(1, match_seed("render-solo", 0), lambda s: s.step == "draft")
    assert state.mode == "solo" and state.turn == 1
    match = _match(state, 1)
    text = _text(draw=lambda console: render_view(console, match, you=0))
    assert "solo mode" in text and "hand passes" not in text
    for card in state.grid.values():  # the 9 face-up grid cards
        assert card_label(card).plain in text
    for color in state.dividers["rows"] + state.dividers["columns"]:
        assert color in text
    # R-SOLO-SETUP: 18 cards form the timer stack; its cards stay face down.
    assert "timer stack: 18 cards face down" in text
    timer_only = set(state.timer) - set(state.grid.values()) - set(state.seats[0].reserve)
    assert timer_only and not any(card_label(c).plain in text for c in timer_only)
    # Exactly the 3 cards of the standee's line are offered (R-SOLO-LINE).
    assert text.count("\u25b6 offered") == 3 == len(match["view"]["solo"]["offer"])
    assert text.count("\u265f standee") == 1
    assert "rating ladder" in text and "\u25c0 now: 0 VP" in _line(text, "Failure")
    assert "110 VP or less" in text and "111 VP" in _line(text, "Mentat")


def test_draft_grid_puts_the_standee_on_its_divider_and_marks_offer_and_tilted():
    solo = {
        "draft_grid": [
            {"cell": [r, c], "card": f"{1 + 3 * r + c:03}"} for r in range(3) for c in range(3)
        ],
        "dividers": {"rows": ["green", "purple", "black"], "columns": ["blue", "yellow", "red"]},
        "standee": {"color": "red", "line": "column", "index": 2},
        "offer": ["003", "006", "009"],
        "tilted": [[0, 0], [0, 1]],
        "timer_count": 12,
    }
    text = _text(draft_grid_table(solo, CARDS))
    lines = text.splitlines()
    # Column 2's divider (red) carries the standee, in the header above the first card row,
    # under the label "column 2" (not in the row-label column).
    first_row = next(i for i, line in enumerate(lines) if "001" in line)
    header = lines[:first_row]
    label = next(line for line in header if "column 2" in line).index("column 2")
    standee = next(line for line in header if "\u265f standee" in line).index("\u265f")
    assert abs(standee - label) <= 2 and "red" in "\n".join(header)
    # Offered cells sit in column 2 of every row; tilted ones in row 0.
    offered = [line for line in lines if "\u25b6 offered" in line]
    assert len(offered) == 3
    assert all(line.index("\u25b6 offered") > _line(text, "003").index("002") for line in offered)
    assert _line(text, "tilted").count("tilted") == 2
    assert "green" in lines[lines.index(_line(text, "row 0")) + 1]
    assert "timer stack: 12 cards face down" in text


def test_duo_view_shows_the_neutral_grid_and_the_opponent_but_no_hidden_card():
    state = _played(2, match_seed("render-duo", 0), lambda s: s.phase == 2 and s.step == "draft")
    assert state.mode == "duo" and len(state.neutral) == 12
    match = _match(state, 2)
    text = _text(draw=lambda console: render_view(console, match, you=0))
    assert "2-player mode - hands pass to your opponent" in text
    assert "neutral grid" in text and "your second neighbour for black cards" in text
    for card in state.neutral.values():
        assert card_label(card).plain in text
    assert "seat 1's tableau (opponent)" in text
    for card in state.seats[1].tableau.values():
        assert card_label(card).plain in text
    visible = (
        set(state.neutral.values())
        | set(state.seats[0].hand + state.seats[0].reserve)
        | {c for s in state.seats for c in s.tableau.values()}
    )
    hidden = (set(state.seats[1].hand + state.seats[1].reserve) | set(state.deck)) - visible
    assert hidden and not any(card_label(c).plain in text for c in hidden)


def test_neutral_grid_columns_2_and_3_are_the_phase_2_columns():
    text = _text(
        neutral_grid_table(
            [{"cell": [0, 0], "card": "001"}, {"cell": [2, 3], "card": "002"}], CARDS
        )
    )
    header = _line(text, "phase 1")
    assert header.count("phase 1") == 2 and header.count("phase 2") == 2
    assert _line(text, "001 P2").index("001 P2") < _line(text, "002 R1").index("002 R1")


def test_duo_copy_targets_name_the_neutral_grid_and_the_opponent():
    # Seed found by search: seat 0 must choose a copy target (R-COPY) in Phase 2, turn 6,
    # and some targets lie in the neutral grid (R-DUO-GRID).
    state = _played(
        2, match_seed("render-duo-copy", 1), lambda s: ENGINE.pending(s).get(0) == "copy"
    )
    view = ENGINE.view(state, 0)
    where = copy_sources(view, 0)
    lines = [describe_action(a, where).plain for a in ENGINE.legal_actions(state, 0)]
    actions = ENGINE.legal_actions(state, 0)
    in_grid = {a["card"] for a in actions} & set(state.neutral.values())
    assert in_grid
    for action, line in zip(actions, lines, strict=False):
        cells = [p for p, c in state.neutral.items() if c == action["card"]]
        for pos in cells:
            assert f"the neutral grid, row {pos[0]}, column {pos[1]}" in line
        assert bool(cells) == ("neutral grid" in line)
    assert any("from seat 1's tableau (opponent)" in line for line in lines)


def test_solo_copy_targets_come_from_the_draft_grid():
    state = _played(1, match_seed("copy", 0), lambda s: ENGINE.pending(s).get(0) == "copy")
    view = ENGINE.view(state, 0)
    lines = [
        describe_action(a, copy_sources(view, 0)).plain for a in ENGINE.legal_actions(state, 0)
    ]
    assert lines and all(" from the draft grid, row " in line for line in lines)
    for action, line in zip(ENGINE.legal_actions(state, 0), lines, strict=False):
        pos = next(p for p, c in state.grid.items() if c == action["card"])
        assert line.endswith(f"from the draft grid, row {pos[0]}, column {pos[1]}")


def test_standard_copy_targets_name_the_neighbour_seat():
    view = {
        "game": "ai-100-human",
        "mode": "standard",
        "seat_count": 4,
        "seats": [
            {"seat": s, "tableau": [{"cell": [0, s], "card": f"{10 + s:03}"}]} for s in range(4)
        ],
    }
    where = copy_sources(view, 0)
    assert where == {
        "011": ["seat 1's tableau, row 0, column 1"],
        "013": ["seat 3's tableau, row 0, column 3"],
    }  # not seat 2 (opposite)
    assert copy_sources({"game": "aipokalypse", "seats": []}, 0) == {}


def test_ladder_rung_follows_the_rulebook_scoring_ladder():
    # "Scoring": 110 or less Failure, 111 Mentat, 117 AL9000, ..., 142 PRIV8.
    from domain.games.ai_100_human.solo import ladder_json

    ladder = ladder_json()
    assert [ladder_rung(ladder, vp) for vp in (0, 110, 111, 116, 117, 141, 142, 200)] == [
        "Failure",
        "Failure",
        "Mentat",
        "Mentat",
        "AL9000",
        "Skynet",
        "PRIV8",
        "PRIV8",
    ]
    text = _text(ladder_table(ladder, 130))
    assert "\u25c0 now: 130 VP" in _line(text, "Cortana")
    assert text.count("\u25c0") == 1


def test_solo_result_shows_the_rating_and_the_ladder():
    state = _played(1, match_seed("render-solo", 0), lambda s: False)
    match = _match(state, 1)
    score = state.result["scores"][0]
    rating = match["result"]["rating"]
    assert rating == ladder_rung(match["view"]["solo"]["ladder"], score)
    text = _text(draw=lambda console: render_result(console, match, you=0))
    assert "solo rating" in text and f"{rating} ({score} VP)" in text
    assert f"\u25c0 final: {score} VP" in _line(text, rating, "\u25c0")


def test_a_mentat_result_is_printed_with_its_rating():
    ladder = [{"rating": "Mentat", "from": 111}, {"rating": "Failure", "from": None}]
    match = {
        "match_id": "m2",
        "game": "ai-100-human",
        "seats": [{"seat": 0, "kind": "human"}],
        "view": {"solo": {"ladder": ladder}},
        "result": {
            "scores": [113],
            "ranking": [{"seat": 0, "score": 113, "rank": 1}],
            "winners": [0],
            "rating": "Mentat",
        },
    }
    text = _text(draw=lambda console: render_result(console, match, you=0))
    assert "Mentat (113 VP)" in text and "winner" in text
    assert "\u25c0 final: 113 VP" in _line(text, "Mentat", "111 VP")


def _bot_result(game: str, seats: int, options: dict | None = None) -> dict:
    """The result of a finished all-bot match of ``game`` with its default bot level."""
    from cli.bot_match import play_bot_match
    from cli.bot_options import default_bot_level

    engine = get_engine(game)
    level = default_bot_level(list(engine.bots))
    return play_bot_match(engine, [level] * seats, match_seed(f"render-{game}", 0), options).result


def _rows(text: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("\u2502").split("\u2502")]
        for line in text.splitlines()
        if line.startswith("\u2502")
    ]


def test_result_table_reads_the_ai_100_human_ranking_objects():
    result = _bot_result("ai-100-human", 3)
    assert isinstance(result["ranking"][0], dict)
    seats = [{"seat": s, "kind": "bot", "bot": "greedy"} for s in range(3)]
    rows = _rows(_text(result_table(result, seats, "r", game="ai-100-human")))
    assert [int(r[1]) for r in rows] == [e["seat"] for e in result["ranking"]]
    assert [int(r[3]) for r in rows] == [e["score"] for e in result["ranking"]]
    assert "VP" in _text(result_table(result, seats, "r", game="ai-100-human"))


def test_result_table_reads_a_ranking_of_seat_numbers():
    # A ranking of bare seat numbers (winners first; A.I.Pokalypse's MatchEnded events list
    # them so; its result gives objects like every game): scores = total strength.
    result = {"scores": [12, 30, 7], "winners": [1], "ranking": [1, 0, 2], "reason": "elimination"}
    seats = [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "tactician"},
        {"seat": 2, "kind": "bot", "bot": "random"},
    ]
    text = _text(result_table(result, seats, "r", you=0, game="aipokalypse"))
    assert _rows(text) == [
        ["1", "1", "bot (tactician)", "30", "winner"],
        ["2", "0", "you", "12", "-"],
        ["3", "2", "bot (random)", "7", "-"],
    ]
    assert "strength" in text and "elimination" in text
    # tied winners share rank 1 ("share the victory")
    tied = _rows(
        _text(
            result_table(
                {"scores": [9, 9], "winners": [0, 1], "ranking": [0, 1]},
                [],
                "r",
                game="aipokalypse",
            )
        )
    )
    assert [r[0] for r in tied] == ["1", "1"] and [r[4] for r in tied] == ["winner", "winner"]
    real = _bot_result("aipokalypse", 3)
    rows = _rows(_text(result_table(real, [], "r", game="aipokalypse")))
    assert [int(r[1]) for r in rows] == [e["seat"] for e in real["ranking"]]
    assert [int(r[3]) for r in rows] == [real["scores"][e["seat"]] for e in real["ranking"]]
    assert [r[0] for r in rows] == [str(e["rank"]) for e in real["ranking"]]
    assert sum(r[4] == "winner" for r in rows) == len(real["winners"])


def test_result_table_reads_the_aipokalypse_co_op_result_against_the_ai_toma():
    real = _bot_result("aipokalypse", 2, {"mode": "coop", "difficulty": "handy_man"})
    rows = _rows(_text(result_table(real, [], "r", game="aipokalypse")))
    assert [int(r[1]) for r in rows] == [e["seat"] for e in real["ranking"]]
    assert real["outcome"] in _text(result_table(real, [], "r", game="aipokalypse"))


def test_result_table_reads_the_dead_apocalypse_result():
    real = _bot_result("dead-apocalypse", 2)
    text = _text(result_table(real, [], "r", game="dead-apocalypse"))
    rows = _rows(text)
    assert [int(r[1]) for r in rows] == [e["seat"] for e in real["ranking"]]
    assert [r[0] for r in rows] == [str(e["rank"]) for e in real["ranking"]]
    assert real["outcome"] in text and "score" in text


def test_result_table_skips_ranking_entries_of_no_known_shape():
    rows = _rows(
        _text(result_table({"scores": [1], "ranking": ["x", None, 0], "winners": [0]}, [], "r"))
    )
    assert rows == [["1", "0", "seat 0", "1", "winner"]]  # a winner ranks 1
