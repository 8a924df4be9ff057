"""Rich rendering of what the server returned for one seat (``arena play``).

Everything drawn comes from the HTTP answers for the player's own token (``match_view``
with the engine's ``view`` for that seat, and redacted events), so nothing hidden from the
seat can be shown. Card faces (colour, number, corner connections, effect text) are the
printed card data of the game's catalogue: public, the same in every copy of the game.

Tableau layout (RULINGS "AI: 100% Human"): a 3 x 5 frame, rows 0..2 top to bottom, columns
0..4 left to right, the AI card at row 1, column 2 (the rulebook's row 2, column 3). Each
cell shows the card's top corners (TL TR), its id, colour and number, and its bottom
corners (BL BR); a corner is drawn as its number in its colour.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable, Mapping

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

ROWS, COLUMNS = 3, 5

#: Rulebook card colours ("Card Anatomy") -> terminal styles.
STYLES = {"red": "bold red", "blue": "bold blue", "yellow": "bold yellow",
          "black": "bold white on grey23", "green": "bold green", "purple": "bold magenta"}
LETTERS = {"red": "R", "blue": "B", "yellow": "Y", "black": "K", "green": "G", "purple": "P"}


@lru_cache(maxsize=1)
def _catalogue() -> Any:
    """The AI: 100% Human card catalogue (printed card data), or ``None`` if unavailable."""
    try:
        from domain.games.ai_100_human.cards import catalogue
    except ImportError:  # pragma: no cover - the game package is part of this project
        return None
    return catalogue()


def card_face(card_id: str | None) -> Any:
    """The catalogue entry of ``card_id`` (``.color``, ``.number``, ``.corners``, ``.text``)
    or ``None`` for an unknown id."""
    cat = _catalogue()
    return cat.cards.get(card_id) if cat is not None and card_id else None


def card_label(card_id: str) -> Text:
    """``082 Y3`` in the card's colour (``card_id`` alone when the card is unknown)."""
    face = card_face(card_id)
    if face is None:
        return Text(str(card_id))
    return Text(f"{card_id} {LETTERS.get(face.color, '?')}{face.number}",
                style=STYLES.get(face.color, ""))


def _corner(face: Any, corner: str) -> Text:
    c = face.corners[corner]
    return Text(str(c.number), style=STYLES.get(c.color, ""))


def card_cell(card_id: str | None) -> Text:
    """A three-line cell: top corners, ``id colour+number``, bottom corners."""
    if card_id is None:
        return Text("\n   .\n", style="dim")
    face = card_face(card_id)
    if face is None:
        return Text(f"\n{card_id}\n")
    text = Text()
    text.append_text(_corner(face, "tl")).append("      ").append_text(_corner(face, "tr"))
    text.append("\n").append_text(card_label(card_id)).append("\n")
    text.append_text(_corner(face, "bl")).append("      ").append_text(_corner(face, "br"))
    return text


def tableau_grid(tableau: Iterable[Mapping[str, Any]], title: str) -> Table:
    """The 3 x 5 frame of ``tableau`` (``[{"cell": [r, c], "card": id}]``); cards outside
    the frame (AI-2's end-of-game card) are listed under the grid."""
    cells = {tuple(entry["cell"]): entry["card"] for entry in tableau}
    grid = Table(title=title, show_header=True, show_lines=True, padding=(0, 1))
    grid.add_column("", justify="right", style="dim")
    for column in range(COLUMNS):
        grid.add_column(str(column), justify="center", min_width=8)
    for row in range(ROWS):
        grid.add_row(str(row), *(card_cell(cells.get((row, column))) for column in range(COLUMNS)))
    outside = [f"{card} at {list(pos)}" for pos, card in cells.items()
               if not (0 <= pos[0] < ROWS and 0 <= pos[1] < COLUMNS)]
    if outside:
        grid.caption = "outside the frame: " + ", ".join(outside)
    return grid


def card_list(title: str, card_ids: Iterable[str]) -> Table:
    """A table of cards with colour, number and effect text."""
    table = Table(title=title, show_header=True, expand=False)
    for column in ("card", "effect"):
        table.add_column(column)
    for card_id in card_ids:
        face = card_face(card_id)
        table.add_row(card_label(card_id), face.text if face is not None else "")
    return table


def _objective_text(objective_id: str) -> str:
    cat = _catalogue()
    objective = cat.objectives.get(objective_id) if cat is not None else None
    return f"{objective_id}: {objective.text}" if objective is not None else objective_id


def scores_table(match: Mapping[str, Any], you: int) -> Table:
    """One row per seat: who, AI card, VP (and this turn's VP), counts, whether it decided."""
    view = match.get("view") or {}
    seats_info = {s.get("seat"): s for s in match.get("seats") or []}
    table = Table(title="scores", show_header=True)
    for column in ("seat", "player", "AI card", "VP", "turn", "hand", "reserve", "status"):
        table.add_column(column)
    for seat in view.get("seats") or []:
        index = seat["seat"]
        info = seats_info.get(index, {})
        who = _who(index, info, you)
        status = (f"to do: {seat['pending']}" if seat.get("pending")
                  else "decided" if seat.get("decided") else "")
        table.add_row(str(index), who, seat.get("ai_card") or "(hidden)", str(seat["score"]),
                      f"+{seat.get('turn_vp', 0)}", str(seat.get("hand_count", "")),
                      str(seat.get("reserve_count", "")), status,
                      style="bold" if index == you else None)
    return table


def render_view(console: Console, match: Mapping[str, Any], you: int) -> None:
    """Draw the match for seat ``you``: header, objectives, scores, your tableau, your
    AI card, reserve, hand and set-up cards, and the neighbours' tableaux when a black card
    needs one of them (copy). Falls back to JSON for games without a dedicated layout."""
    view = match.get("view") or {}
    if "seats" not in view or "objectives" not in view:
        console.print_json(json.dumps(view))
        return
    mine = view.get("you") or {}
    seat_views = {s["seat"]: s for s in view["seats"]}
    header = (f"match {match.get('match_id')} - version {match.get('version')} - "
              f"phase {view['phase']}, turn {view['turn']}, step {view['step']} - "
              f"hand passes {view.get('pass_direction')} - deck {view.get('deck_count')} cards")
    objectives = "\n".join(
        ("[bold]>[/] " if view.get("current_objective") == oid else "  ") +
        f"phase {phase[-1]} " + _objective_text(oid)
        for phase, oid in sorted(view["objectives"].items()))
    console.rule(header)
    console.print(Panel(objectives, title="objectives", expand=False))
    console.print(scores_table(match, you))
    parts: list[Any] = [tableau_grid(seat_views[you]["tableau"], "your tableau")]
    if mine.get("ai_card"):
        parts.append(card_list("your AI card", [mine["ai_card"]]))
    for title, key in (("your reserve", "reserve"), ("your hand", "hand"),
                       ("dealt: keep some for your reserve", "dealt")):
        if mine.get(key):
            parts.append(card_list(title, mine[key]))
    if mine.get("pending") == "copy":
        seat_count = view["seat_count"]
        for neighbour in sorted({(you + 1) % seat_count, (you - 1) % seat_count} - {you}):
            parts.append(tableau_grid(seat_views[neighbour]["tableau"],
                                      f"seat {neighbour}'s tableau (neighbour)"))
    console.print(Group(*parts))
    if mine.get("pending"):
        deadline = match.get("deadline")
        console.print(f"[bold]your decision:[/] {mine['pending']}" +
                      (f" (deadline {deadline}; then a bot decides for you)" if deadline else ""))


def describe_action(action: Mapping[str, Any]) -> Text:
    """One legal command as a line a player reads (``place 082 Y3 at row 0, column 2``)."""
    parts = [Text(str(action.get("type", "?")).replace("_", " "), style="bold")]
    for key, value in action.items():
        if key == "type":
            continue
        if key in ("card", "copy") and isinstance(value, str):
            parts.append(Text("copy ").append_text(card_label(value)) if key == "copy"
                         else card_label(value))
        elif key in ("cards", "discard") and isinstance(value, list):
            listed = Text(f"{key} ")
            for index, card in enumerate(value):
                listed.append(", " if index else "").append_text(card_label(card))
            parts.append(listed)
        elif key in ("cell", "from", "to") and isinstance(value, list) and len(value) == 2:
            parts.append(Text(f"{'at' if key == 'cell' else key} row {value[0]}, "
                              f"column {value[1]}"))
        elif key == "cells" and isinstance(value, list):
            parts.append(Text(" <-> ".join(f"row {c[0]}, column {c[1]}" for c in value)))
        else:
            parts.append(Text(f"{key}={json.dumps(value)}"))
    return Text(" ").join(parts)


def render_events(console: Console, events: Iterable[Mapping[str, Any]], you: int) -> None:
    """One dim line per (already redacted) event: version, type, seat and its data."""
    for event in events:
        seat = event.get("seat")
        who = "" if seat is None else (" you" if seat == you else f" seat {seat}")
        data = json.dumps(event.get("data") or {}, separators=(",", ":"))
        if len(data) > 100:
            data = data[:97] + "..."
        console.print(f"[dim]v{event.get('version')} {event.get('type')}{who} {data}[/]")


def _who(seat: int, info: Mapping[str, Any], you: int | None) -> str:
    if seat == you:
        return "you"
    if info.get("bot"):
        return f"bot ({info['bot']})"
    return info.get("name") or info.get("kind", "")


def result_table(result: Mapping[str, Any], seats: Iterable[Mapping[str, Any]],
                 title: str, you: int | None = None) -> Table:
    """The final ranking of ``result`` (``{"scores", "ranking": [{"seat","score","rank"}],
    "winners"}``): rank, seat, player, VP, winners marked. Equal scores share a rank and
    the victory (rulebook "End of the Game": "In case of tie, share the victory")."""
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    ranking = result.get("ranking") or [
        {"seat": s, "score": scores[s], "rank": 1 + sum(v > scores[s] for v in scores)}
        for s in sorted(range(len(scores)), key=lambda s: -scores[s])]
    seats_info = {s.get("seat", i): s for i, s in enumerate(seats)}
    table = Table(title=title)
    for column in ("rank", "seat", "player", "VP", ""):
        table.add_column(column)
    for entry in ranking:
        seat = entry["seat"]
        table.add_row(str(entry["rank"]), str(seat), _who(seat, seats_info.get(seat, {}), you),
                      str(entry["score"]), "[bold green]winner[/]" if seat in winners else "",
                      style="bold" if seat == you else None)
    return table


def render_result(console: Console, match: Mapping[str, Any], you: int) -> None:
    """The final ranking of a finished match as seat ``you`` received it, and the revealed
    seed (provable fairness: anyone can re-derive every shuffle from it)."""
    result = match.get("result") or (match.get("view") or {}).get("result") or {}
    console.print(result_table(result, match.get("seats") or [],
                               f"final result of match {match.get('match_id')}", you))
    if match.get("seed"):
        console.print(f"[dim]revealed seed {match['seed']} (commitment "
                      f"{match.get('seed_commitment')}): export the log and run "
                      f"`arena replay` to verify every shuffle.[/]")
