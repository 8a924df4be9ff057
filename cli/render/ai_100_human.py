"""AI: 100% Human in the terminal (``arena play``), drawn from one seat's view.

Everything drawn comes from the HTTP answers for the player's own token (``match_view``
with the engine's ``view`` for that seat, and redacted events), so nothing hidden from the
seat can be shown. Card faces (colour, number, corner connections, effect text) come from
``GET /v1/games/ai-100-human/cards`` (:class:`cli.render.cards.CardBook`): public, the same
in every copy of the game; this module imports nothing of ``domain``.

Tableau layout (RULINGS "AI: 100% Human"): a 3 x 5 frame, rows 0..2 top to bottom, columns
0..4 left to right, the AI card at row 1, column 2 (the rulebook's row 2, column 3). Each
cell shows the card's top corners (TL TR), its id, colour and number, and its bottom
corners (BL BR); a corner is drawn as its number in its colour.

Modes (the seat count, RULINGS "2-player and solo modes"): in the 2-player mode the public
neutral grid (3 rows, columns 0-1 revealed in Phase 1 and 2-3 in Phase 2, R-DUO-GRID) and
the opponent's tableau are always drawn; in solo mode the 3 x 3 draft grid with its row
and column divider colours, the standee, the offered and tilted cells and the timer
stack's count (R-SOLO-SETUP, R-SOLO-LINE), and the rating ladder ("Scoring",
R-SOLO-RESULT). Copy targets (099-104, R-COPY) are named with the board they lie on: a
neighbour's tableau, the neutral grid or the draft grid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.cards import CardBook
from cli.render.common import who

#: The game whose views this module lays out.
AI_100_HUMAN = "ai-100-human"
ROWS, COLUMNS = 3, 5
#: 2-player neutral grid: 3 rows, 2 columns revealed per phase (R-DUO-GRID).
NEUTRAL_ROWS, NEUTRAL_COLUMNS_PER_PHASE = 3, 2
NEUTRAL_COLUMNS = 2 * NEUTRAL_COLUMNS_PER_PHASE
#: Solo draft grid: 3 x 3 (R-SOLO-SETUP).
GRID_SIZE = 3
#: Markers (text, so they survive a terminal without colours).
STANDEE, OFFERED, LADDER_MARK = "\u265f", "\u25b6", "\u25c0"

#: Rulebook card colours ("Card Anatomy") -> terminal styles.
STYLES = {
    "red": "bold red",
    "blue": "bold blue",
    "yellow": "bold yellow",
    "black": "bold white on grey23",
    "green": "bold green",
    "purple": "bold magenta",
}
LETTERS = {"red": "R", "blue": "B", "yellow": "Y", "black": "K", "green": "G", "purple": "P"}


def card_label(card_id: str, cards: CardBook) -> Text:
    """``082 Y3`` in the card's colour (``card_id`` alone when the card is unknown)."""
    face = cards.get(card_id)
    if face is None:
        return Text(str(card_id))
    return Text(
        f"{card_id} {LETTERS.get(face.get('color'), '?')}{face.get('number')}",
        style=STYLES.get(face.get("color"), ""),
    )


def _corner(face: Mapping[str, Any], corner: str) -> Text:
    c = (face.get("corners") or {}).get(corner) or {}
    return Text(str(c.get("number", "?")), style=STYLES.get(c.get("color"), ""))


def card_cell(card_id: str | None, cards: CardBook) -> Text:
    """A three-line cell: top corners, ``id colour+number``, bottom corners."""
    if card_id is None:
        return Text("\n   .\n", style="dim")
    face = cards.get(card_id)
    if face is None:
        return Text(f"\n{card_id}\n")
    text = Text()
    text.append_text(_corner(face, "tl")).append("      ").append_text(_corner(face, "tr"))
    text.append("\n").append_text(card_label(card_id, cards)).append("\n")
    text.append_text(_corner(face, "bl")).append("      ").append_text(_corner(face, "br"))
    return text


def card_grid(
    entries: Iterable[Mapping[str, Any]],
    title: str,
    rows: int,
    columns: int,
    cards: CardBook,
    *,
    row_labels: list[Text] | None = None,
    column_labels: list[Text] | None = None,
    marks: Mapping[tuple[int, int], Text] | None = None,
) -> Table:
    """A ``rows`` x ``columns`` table of the cards in ``entries`` (``[{"cell": [r, c],
    "card": id}]``); empty cells show a dot. ``row_labels`` / ``column_labels`` replace the
    plain indices; ``marks`` adds a line under the card of a cell (e.g. ``offered``)."""
    cells = {tuple(entry["cell"]): entry["card"] for entry in entries}
    marks = marks or {}
    grid = Table(title=title, show_header=True, show_lines=True, padding=(0, 1))
    grid.add_column("", justify="right")
    for column in range(columns):
        label = column_labels[column] if column_labels else Text(str(column))
        grid.add_column(label, justify="center", min_width=8)
    for row in range(rows):
        label = row_labels[row] if row_labels else Text(str(row), style="dim")
        drawn = []
        for column in range(columns):
            cell = card_cell(cells.get((row, column)), cards)
            if (row, column) in marks:
                cell = Text("\n").join([cell, marks[(row, column)]])
            drawn.append(cell)
        grid.add_row(label, *drawn)
    return grid


def tableau_grid(tableau: Iterable[Mapping[str, Any]], title: str, cards: CardBook) -> Table:
    """The 3 x 5 frame of ``tableau`` (``[{"cell": [r, c], "card": id}]``); cards outside
    the frame (AI-2's end-of-game card) are listed under the grid."""
    entries = list(tableau)
    grid = card_grid(entries, title, ROWS, COLUMNS, cards)
    outside = [
        f"{entry['card']} at {list(entry['cell'])}"
        for entry in entries
        if not (0 <= entry["cell"][0] < ROWS and 0 <= entry["cell"][1] < COLUMNS)
    ]
    if outside:
        grid.caption = "outside the frame: " + ", ".join(outside)
    return grid


def neutral_grid_table(neutral: Iterable[Mapping[str, Any]], cards: CardBook) -> Table:
    """The 2-player neutral grid (R-DUO-GRID): 3 rows (the tableau's rows, read by 111-114)
    and 4 columns, 0-1 revealed in Phase 1, 2-3 in Phase 2; the grid is each player's
    second neighbour for black cards and gains no VP."""
    labels = [
        Text(f"{column}\nphase {1 + column // NEUTRAL_COLUMNS_PER_PHASE}")
        for column in range(NEUTRAL_COLUMNS)
    ]
    grid = card_grid(
        neutral, "neutral grid", NEUTRAL_ROWS, NEUTRAL_COLUMNS, cards, column_labels=labels
    )
    grid.caption = "your second neighbour for black cards (it gains no VP)"
    return grid


def _divider(kind: str, index: int, color: str, standee: Mapping[str, Any] | None) -> Text:
    """A divider label: ``row 0`` / ``column 2``, its colour, and the standee if on it."""
    text = Text(f"{kind} {index}\n", style="dim").append(color, style=STYLES.get(color, ""))
    if standee and standee.get("line") == kind and standee.get("index") == index:
        text.append("\n").append(f"{STANDEE} standee", style="bold reverse")
    return text


def draft_grid_table(solo: Mapping[str, Any], cards: CardBook) -> Table:
    """The solo draft grid (R-SOLO-SETUP, R-SOLO-LINE): 3 x 3 cards in reading order, the
    row dividers' colours on the left and the column dividers' colours on top, the standee
    on its divider, the cards it offers marked ``offered`` and the tilted cells ``tilted``;
    the caption gives the timer stack's count (its cards stay face down)."""
    dividers = solo.get("dividers") or {}
    standee = solo.get("standee")
    rows = [_divider("row", i, c, standee) for i, c in enumerate(dividers.get("rows") or [])]
    columns = [
        _divider("column", i, c, standee) for i, c in enumerate(dividers.get("columns") or [])
    ]
    entries = list(solo.get("draft_grid") or [])
    offered = set(solo.get("offer") or [])
    marks: dict[tuple[int, int], Text] = {}
    for entry in entries:
        if entry["card"] in offered:
            marks[tuple(entry["cell"])] = Text(f"{OFFERED} offered", style="bold reverse green")
    for cell in solo.get("tilted") or []:
        marks.setdefault(tuple(cell), Text("tilted", style="dim italic"))
    grid = card_grid(
        entries,
        "draft grid",
        GRID_SIZE,
        GRID_SIZE,
        cards,
        row_labels=rows if len(rows) == GRID_SIZE else None,
        column_labels=columns if len(columns) == GRID_SIZE else None,
        marks=marks,
    )
    grid.caption = f"timer stack: {solo.get('timer_count', 0)} cards face down"
    return grid


def ladder_rung(ladder: Iterable[Mapping[str, Any]], score: int) -> str | None:
    """The rating of ``ladder`` (``[{"rating", "from"}]``, best first, ``from: None`` for
    the bottom rung) that ``score`` VP reach: the first rung whose ``from`` it meets."""
    bottom = None
    for rung in ladder:
        if rung.get("from") is None:
            bottom = rung["rating"]
        elif score >= rung["from"]:
            return rung["rating"]
    return bottom


def ladder_table(
    ladder: Iterable[Mapping[str, Any]], score: int, final: str | None = None
) -> Table:
    """The solo rating ladder ("Scoring"): one row per rating with its lowest score, best
    first; the rung ``score`` reaches is marked (``final`` rating once the match is over,
    else where the score stands now)."""
    rungs = list(ladder)
    reached = final or ladder_rung(rungs, score)
    table = Table(title="rating ladder", show_header=True)
    for column in ("rating", "from", ""):
        table.add_column(column)
    lowest = min((r["from"] for r in rungs if r.get("from") is not None), default=None)
    for rung in rungs:
        since = (
            f"{rung['from']} VP"
            if rung.get("from") is not None
            else f"{lowest - 1} VP or less"
            if lowest is not None
            else ""
        )
        here = rung["rating"] == reached
        mark = f"{LADDER_MARK} final: {score} VP" if final else f"{LADDER_MARK} now: {score} VP"
        table.add_row(
            rung["rating"], since, mark if here else "", style="bold green" if here else None
        )
    return table


def card_list(title: str, card_ids: Iterable[str], cards: CardBook) -> Table:
    """A table of cards with colour, number and effect text."""
    table = Table(title=title, show_header=True, expand=False)
    for column in ("card", "effect"):
        table.add_column(column)
    for card_id in card_ids:
        face = cards.get(card_id) or {}
        table.add_row(card_label(card_id, cards), face.get("text", ""))
    return table


def _objective_text(objective_id: str, cards: CardBook) -> str:
    objective = cards.objective(objective_id)
    return f"{objective_id}: {objective.get('text', '')}" if objective is not None else objective_id


def scores_table(match: Mapping[str, Any], you: int) -> Table:
    """One row per seat: who, AI card, VP (and this turn's VP), counts, what it must do."""
    view = match.get("view") or {}
    seats = match.get("seats") or []
    table = Table(title="scores", show_header=True)
    for column in ("seat", "player", "AI card", "VP", "turn", "hand", "reserve", "status"):
        table.add_column(column)
    for seat in view.get("seats") or []:
        index = seat["seat"]
        status = (
            f"to do: {seat['pending']}"
            if seat.get("pending")
            else "decided"
            if seat.get("decided")
            else "waiting"
        )
        table.add_row(
            str(index),
            who(index, seats, you),
            seat.get("ai_card") or "(hidden)",
            str(seat["score"]),
            f"+{seat.get('turn_vp', 0)}",
            str(seat.get("hand_count", "-")),
            str(seat.get("reserve_count", "-")),
            status,
            style="bold" if index == you else None,
        )
    return table


#: Decisions whose commands may name a copy target (R-COPY, R-115, R-AI2).
COPY_DECISIONS = ("copy", "exchange_reserve", "place_extra")


def neighbour_boards(view: Mapping[str, Any], you: int) -> list[tuple[str, list[Any]]]:
    """The public boards a copy card (099-104) of seat ``you`` looks at, as ``(name,
    entries)``: the left and right neighbours' tableaux (3-6 seats), the opponent's tableau
    and the neutral grid (2-player mode), or the draft grid (solo mode); see R-COPY,
    R-DUO-GRID, R-SOLO-NEIGHBOUR."""
    mode = view.get("mode")
    tableaux = {s["seat"]: s.get("tableau") or [] for s in view.get("seats") or []}
    if mode == "solo":
        return [("the draft grid", list((view.get("solo") or {}).get("draft_grid") or []))]
    if mode == "duo":
        opponent = 1 - you
        return [
            (f"seat {opponent}'s tableau (opponent)", list(tableaux.get(opponent, []))),
            ("the neutral grid", list(view.get("neutral_grid") or [])),
        ]
    count = view.get("seat_count") or len(tableaux)
    seats = []
    for seat in ((you + 1) % count, (you - 1) % count):
        if seat != you and seat not in seats:
            seats.append(seat)
    return [(f"seat {seat}'s tableau", list(tableaux.get(seat, []))) for seat in seats]


def copy_sources(view: Mapping[str, Any], you: int) -> dict[str, list[str]]:
    """``{card id: ["<board>, row r, column c", ...]}`` for every card on the boards of
    :func:`neighbour_boards`: where a copy target of seat ``you`` lies (empty for a view
    without the AI: 100% Human layout)."""
    where: dict[str, list[str]] = {}
    if view.get("game") != AI_100_HUMAN:
        return where
    for name, entries in neighbour_boards(view, you):
        for entry in entries:
            row, column = entry["cell"][0], entry["cell"][1]
            where.setdefault(entry["card"], []).append(f"{name}, row {row}, column {column}")
    return where


#: ``--seats`` help: the rulebook's modes by seat count ("2-player and solo modes").
SEATS_HELP = "1 = solo mode, 2 = 2-player mode, 3-6 = the standard game"


def mode_name(seats: int, options: Mapping[str, Any] | None = None) -> str:
    """The rulebook's name of the mode ``seats`` players play: ``solo mode``,
    ``2-player mode`` or ``standard game`` (the mode follows the seat count)."""
    return {1: "solo mode", 2: "2-player mode"}.get(seats, "standard game")


def header(match: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """``match m - version 9 - phase 1, turn 2, step draft - solo mode - deck 40 cards``."""
    mode = view.get("mode")
    passing = {
        "solo": "solo mode",
        "duo": "2-player mode - hands pass to your opponent after scoring",
    }.get(mode, f"standard game - hand passes {view.get('pass_direction')}")
    return (
        f"match {match.get('match_id')} - version {match.get('version')} - "
        f"phase {view.get('phase')}, turn {view.get('turn')}, step {view.get('step')} - "
        f"{passing} - deck {view.get('deck_count')} cards"
    )


def mode_boards(view: Mapping[str, Any], you: int, cards: CardBook) -> list[Any]:
    """What a mode adds to every screen: 2-player, the neutral grid and the opponent's
    tableau; solo, the draft grid and the rating ladder (with the score so far)."""
    mode = view.get("mode")
    seat_views = {s["seat"]: s for s in view.get("seats") or []}
    if mode == "duo":
        opponent = 1 - you
        parts: list[Any] = [neutral_grid_table(view.get("neutral_grid") or [], cards)]
        if opponent in seat_views:
            parts.append(
                tableau_grid(
                    seat_views[opponent]["tableau"], f"seat {opponent}'s tableau (opponent)", cards
                )
            )
        return parts
    if mode == "solo":
        solo = view.get("solo") or {}
        score = seat_views.get(you, {}).get("score", 0)
        return [
            draft_grid_table(solo, cards),
            ladder_table(solo.get("ladder") or [], score, solo.get("rating")),
        ]
    return []


def render_view(console: Console, match: Mapping[str, Any], you: int, cards: CardBook) -> None:
    """Draw the match for seat ``you``: header, objectives, scores, the mode's boards
    (:func:`mode_boards`), your tableau, your AI card, reserve, hand and set-up cards, and,
    when a command may copy a card (:data:`COPY_DECISIONS`), the boards it copies from
    (:func:`neighbour_boards`)."""
    view = match.get("view") or {}
    mine = view.get("you") or {}
    seat_views = {s["seat"]: s for s in view.get("seats") or []}
    objectives = "\n".join(
        ("[bold]>[/] " if view.get("current_objective") == oid else "  ")
        + f"phase {phase[-1]} "
        + _objective_text(oid, cards)
        for phase, oid in sorted((view.get("objectives") or {}).items())
    )
    console.rule(header(match, view))
    if objectives:
        console.print(Panel(objectives, title="objectives", expand=False))
    console.print(scores_table(match, you))
    boards = mode_boards(view, you, cards)
    if boards:
        console.print(Group(*boards))
    parts: list[Any] = [
        tableau_grid(seat_views.get(you, {}).get("tableau") or [], "your tableau", cards)
    ]
    if mine.get("ai_card"):
        parts.append(card_list("your AI card", [mine["ai_card"]], cards))
    for title, key in (
        ("your reserve", "reserve"),
        ("your hand", "hand"),
        ("dealt: keep some for your reserve", "dealt"),
    ):
        if mine.get(key):
            parts.append(card_list(title, mine[key], cards))
    if mine.get("pending") in COPY_DECISIONS and view.get("mode") not in ("duo", "solo"):
        for name, entries in neighbour_boards(view, you):  # already drawn in duo / solo
            parts.append(tableau_grid(entries, f"{name} (neighbour)", cards))
    console.print(Group(*parts))
    if mine.get("pending"):
        deadline = match.get("deadline")
        console.print(
            f"[bold]your decision:[/] {str(mine['pending']).replace('_', ' ')}"
            + (f" (deadline {deadline}; then a bot decides for you)" if deadline else "")
        )


def describe_action(
    action: Mapping[str, Any], cards: CardBook, where: Mapping[str, list[str]] | None = None
) -> Text:
    """One legal command as a line a player reads (``place 082 Y3 at row 0, column 2``).

    ``where`` (:func:`copy_sources`) names the board of a copy target: ``copy 037 B3 from
    the neutral grid, row 0, column 1``."""
    parts = [Text(str(action.get("type", "?")).replace("_", " "), style="bold")]
    copying = action.get("type") == "copy"
    for key, value in action.items():
        if key == "type":
            continue
        if key in ("card", "copy") and isinstance(value, str):
            target = key == "copy" or copying
            label = (
                Text("copy ").append_text(card_label(value, cards))
                if key == "copy"
                else card_label(value, cards)
            )
            if target and where and value in where:
                label.append(" from " + " or ".join(where[value]), style="italic")
            parts.append(label)
        elif key in ("cards", "discard") and isinstance(value, list):
            listed = Text(f"{key} ")
            for index, card in enumerate(value):
                listed.append(", " if index else "").append_text(card_label(card, cards))
            parts.append(listed)
        elif key in ("cell", "from", "to") and isinstance(value, list) and len(value) == 2:
            parts.append(
                Text(f"{'at' if key == 'cell' else key} row {value[0]}, column {value[1]}")
            )
        elif key == "cells" and isinstance(value, list):
            parts.append(Text(" <-> ".join(f"row {c[0]}, column {c[1]}" for c in value)))
        elif key == "side":
            parts.append(Text(f"side {value}"))
        else:
            parts.append(Text(f"{key.replace('_', ' ')} {value}"))
    return Text(" ").join(parts)


def action_line(
    action: Mapping[str, Any], match: Mapping[str, Any], you: int, cards: CardBook
) -> Text:
    """The menu line of ``action`` (:func:`describe_action` with the copy targets' boards)."""
    return describe_action(action, cards, copy_sources(match.get("view") or {}, you))


def label(card_id: str, cards: CardBook) -> str:
    """A card in a sentence: ``082 Y3`` (its id alone when unknown)."""
    return card_label(card_id, cards).plain


def render_result_extras(
    console: Console, match: Mapping[str, Any], you: int, cards: CardBook
) -> None:
    """The score breakdown (``result["breakdown"]``: each seat's VP from its Development
    cards, the Phase 1 and Phase 2 objectives and its AI card, adding up to its score);
    in solo mode the rating ("Scoring" ladder, R-SOLO-RESULT: ``result["rating"]``) and
    the ladder with the final score marked."""
    result = match.get("result") or (match.get("view") or {}).get("result") or {}
    if result.get("breakdown"):
        console.print(breakdown_table(result, match.get("seats") or [], you))
    if not result.get("rating"):
        return
    scores = result.get("scores") or [0]
    ladder = ((match.get("view") or {}).get("solo") or {}).get("ladder") or []
    console.print(
        Panel(
            Text(
                f"{result['rating']} ({scores[0]} VP)",
                style="bold red" if not result.get("winners") else "bold green",
            ),
            title="solo rating",
            expand=False,
        )
    )
    if ladder:
        console.print(ladder_table(ladder, scores[0], result["rating"]))


#: The sources of ``result["breakdown"]`` in the rulebook's words.
SOURCE_WORDS = {
    "cards": "Development cards",
    "objective_1": "Phase 1 objective",
    "objective_2": "Phase 2 objective",
    "ai_card": "AI card",
}


def breakdown_table(result: Mapping[str, Any], seats: list[Mapping[str, Any]], you: int) -> Table:
    """Each seat's VP by source and its total (``result["breakdown"]``)."""
    parts = list(result.get("breakdown") or [])
    sources = list(parts[0]) if parts else []
    table = Table(title="where the VP came from")
    table.add_column("seat")
    for source in sources:
        table.add_column(SOURCE_WORDS.get(source, source.replace("_", " ")), justify="right")
    table.add_column("total", justify="right")
    scores = list(result.get("scores") or [])
    for seat, row in enumerate(parts):
        name = (
            "you"
            if seat == you
            else next(
                (
                    f"seat {seat} ({s.get('bot')} bot)"
                    if s.get("bot")
                    else s.get("name") or f"seat {seat}"
                    for s in seats
                    if s.get("seat") == seat
                ),
                f"seat {seat}",
            )
        )
        table.add_row(
            name,
            *[str(row.get(k, 0)) for k in sources],
            str(scores[seat]) if seat < len(scores) else "-",
            style="bold" if seat == you else None,
        )
    return table


def where(view: Mapping[str, Any], you: int, card_id: Any, field: str = "card") -> str | None:
    """Where ``card_id`` is for the menu (:mod:`cli.render.alike`): ``in your hand`` or
    ``None`` (a card's words name its id: no two cards' moves share words)."""
    mine = view.get("you") or {}
    return "in your hand" if card_id in (mine.get("hand") or []) else None


#: Commands that pass: the menu's key 0, asked y/N while other moves remain
#: (``cli/menu.py``): not using the exchange of a Hacking card.
ENDING = frozenset({"decline"})


def ends(action: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """True when ``action`` passes (:data:`ENDING`)."""
    return action.get("type") in ENDING
