"""What every game's terminal screen shares: seat names, words for ids and values, the
event log in words, the numbered menu line, and the final result table.

Only the HTTP answers for the player's own token are drawn (``GET /v1/matches/{id}``,
``.../events``, ``.../legal-actions``) plus the public card data (:class:`CardBook`), so a
hidden card of another seat can never appear.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

#: ``label(card_id) -> str``: how a game names a card in a sentence.
Label = Callable[[str], str]

#: Event or command fields whose string values are card ids.
CARD_FIELDS = frozenset(
    {
        "card",
        "cards",
        "faction",
        "location",
        "special",
        "unit",
        "passive",
        "source",
        "copy",
        "discard",
        "offered",
        "hand",
        "drawn",
        "reserve",
        "kept",
        "dealt",
        "specials",
        "units",
        "options",
    }
)
_CARD_LIKE = re.compile(r"^([A-Z]{1,2}-?\d|\d{3}$|[a-z][a-z-]*#)")


def words(key: str) -> str:
    """``"end_turn"`` / ``"CardDrafted"`` -> ``"end turn"`` / ``"card drafted"``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(key)).replace("_", " ")
    return spaced.lower() if any(c.isupper() for c in str(key)[1:]) else spaced


def value_words(field: str, value: Any, label: Label, depth: int = 0) -> str:
    """A view, command or event value in words: card ids by ``label``, lists joined with
    commas (``"7 items"`` beyond 8), objects as ``key value`` pairs (``"6 entries"`` beyond
    6 or below the second level), ``None`` as ``none``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if field in CARD_FIELDS or _CARD_LIKE.match(value):
            return label(value)
        return value.replace("_", " ")
    if isinstance(value, (list, tuple)):
        if len(value) > 8:
            return f"{len(value)} items"
        return (
            ", ".join(
                f"({value_words(field, v, label, depth + 1)})"
                if isinstance(v, (list, tuple))
                else value_words(field, v, label, depth + 1)
                for v in value
            )
            or "none"
        )
    if isinstance(value, Mapping):
        if len(value) > 6 or depth > 1:
            return f"{len(value)} entries"
        return (
            "; ".join(
                f"{'seat ' + str(k) if str(k).isdigit() else words(k)} "
                f"{value_words(k, v, label, depth + 1)}"
                for k, v in value.items()
            )
            or "none"
        )
    return str(value)


def who(seat: int | None, seats: Iterable[Mapping[str, Any]] = (), you: int | None = None) -> str:
    """``"you"``, ``"bot (greedy)"``, a human's name, ``"seat 2"``; ``"the table"`` for
    ``None`` (an event of no seat)."""
    if seat is None:
        return "the table"
    if seat == you:
        return "you"
    info = next((s for s in seats if s.get("seat") == seat), {})
    if info.get("bot"):
        return f"bot ({info['bot']})"
    return info.get("name") or f"seat {seat}"


def event_line(
    event: Mapping[str, Any],
    label: Label,
    seats: Iterable[Mapping[str, Any]] = (),
    you: int | None = None,
) -> str:
    """One (already redacted) event in words: ``v12 you: card drafted: card 071 R3``; the
    cause (``timeout``, ``join``, ...) in brackets when it was not the player's own move."""
    seat = event.get("seat")
    data = event.get("data") or {}
    details = "; ".join(
        f"{words(k)} {value_words(k, v, label)}"
        for k, v in data.items()
        if not (k == "seat" and v == seat)
    )
    cause = event.get("cause")
    why = f" ({cause})" if cause and cause != "player" else ""
    line = f"v{event.get('version')} {who(seat, list(seats), you)}: {words(event.get('type', '?'))}{why}"
    if details:
        line += f": {details}"
    return line if len(line) <= 160 else line[:157] + "..."


def render_event_lines(
    console: Console,
    events: Iterable[Mapping[str, Any]],
    label: Label,
    seats: Iterable[Mapping[str, Any]] = (),
    you: int | None = None,
) -> None:
    """Print :func:`event_line` of each event, dimmed."""
    seats = list(seats)
    for event in events:
        console.print(Text(event_line(event, label, seats, you), style="dim"))


def generic_action(action: Mapping[str, Any], label: Label) -> Text:
    """A legal command in words: its type in bold, then ``field value`` for each field
    (``choose option B006 Berserker``)."""
    text = Text(words(action.get("type", "?")), style="bold")
    for key, value in action.items():
        if key in ("type", "expected_version"):
            continue
        text.append(f" {words(key)} {value_words(key, value, label)}")
    return text


# What each game's ``result.scores`` counts (the rulebooks' words); others score VP.
SCORE_LABELS = {"aipokalypse": "strength", "dead-apocalypse": "score"}


def ranking_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``result["ranking"]`` of any game as ``[{"seat", "score", "rank"}]``, best first.

    Shapes read: AI: 100% Human and Dead Apocalypse give ``{"seat","score","rank",...}``
    objects; A.I.Pokalypse gives seat ints in final order (winners first, then living seats,
    then the eliminated) with ``scores[seat]`` the total strength: its winners share rank 1,
    every other seat ranks by its place in that order. Without a ranking the seats are ranked
    by ``scores`` (equal scores share a rank). Entries that are neither (a corrupt log) are
    skipped, never raised on."""
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    ranking = result.get("ranking")
    if not ranking:
        return [
            {"seat": s, "score": scores[s], "rank": 1 + sum(v > scores[s] for v in scores)}
            for s in sorted(range(len(scores)), key=lambda s: -scores[s])
        ]
    rows = []
    for place, entry in enumerate(ranking):
        if isinstance(entry, Mapping) and "seat" in entry:
            rows.append(
                {
                    "seat": entry["seat"],
                    "score": entry.get("score", "-"),
                    "rank": entry.get("rank", place + 1),
                }
            )
        elif isinstance(entry, int) and not isinstance(entry, bool):
            rows.append(
                {
                    "seat": entry,
                    "score": scores[entry] if 0 <= entry < len(scores) else "-",
                    "rank": 1 if entry in winners else place + 1,
                }
            )
    return rows


def result_table(
    result: Mapping[str, Any],
    seats: Iterable[Mapping[str, Any]],
    title: str,
    you: int | None = None,
    game: str | None = None,
    resigned: Iterable[int] = (),
) -> Table:
    """The final ranking of ``result`` (any game's shape, see :func:`ranking_rows`): rank,
    seat, player, score (VP; A.I.Pokalypse total strength, Dead Apocalypse score:
    ``SCORE_LABELS``) and an ``outcome`` column (``winner`` / ``resigned``) only when some
    row has one: no column is ever empty. The caption gives ``outcome``/``reason`` when the
    result has them. Equal scores share a rank and the victory (rulebook "End of the Game":
    "In case of tie, share the victory")."""
    winners = set(result.get("winners") or [])
    gave_up = set(resigned) | set(result.get("resigned") or [])
    seats = list(seats)
    caption = (
        ", ".join(str(result[k]).replace("_", " ") for k in ("outcome", "reason") if result.get(k))
        or None
    )
    rows = ranking_rows(result)
    marks = {}
    for entry in rows:
        seat = entry["seat"]
        mark = []
        if seat in winners:
            mark.append("[bold green]winner[/]")
        if seat in gave_up:
            mark.append("resigned")
        marks[seat] = ", ".join(mark)
    table = Table(title=title, caption=caption)
    columns = ["rank", "seat", "player", SCORE_LABELS.get(game or "", "VP")]
    with_outcome = any(marks.values())
    for column in columns + (["outcome"] if with_outcome else []):
        table.add_column(column)
    for entry in rows:
        seat = entry["seat"]
        cells = [str(entry["rank"]), str(seat), who(seat, seats, you), str(entry["score"])]
        if with_outcome:
            cells.append(marks[seat] or "-")
        table.add_row(*cells, style="bold" if seat == you else None)
    return table


def seed_line(match: Mapping[str, Any]) -> str | None:
    """The revealed-seed sentence of a finished match (provable fairness), or ``None``."""
    if not match.get("seed"):
        return None
    return (
        f"revealed seed {match['seed']} (commitment {match.get('seed_commitment')}): "
        f"export the log and run `arena replay` to verify every shuffle."
    )
