"""Terminal screens of ``arena play``, one module per game, over one seat's HTTP answers.

:func:`renderer_for` gives a game's :class:`GameRenderer`: its own mode names, its board
drawn from the seat's view, each legal command as a line in words, card names for the event
log and what its result adds (a solo rating, the A.I.Toma's outcome). Card faces come from
``GET /v1/games/{game}/cards`` (:class:`CardBook`); nothing here imports ``domain``
(``tests/unit/test_cli_render_imports.py`` checks it). A game without a module of its own
gets :data:`GENERIC`: the view's fields and the commands in words, never a JSON dump.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from cli.render import ai_100_human, aipokalypse, dead_apocalypse
from cli.render.alike import Entry, tell_apart
from cli.render.cards import CardBook
from cli.render.common import (
    event_line,
    generic_action,
    render_event_lines,
    result_table,
    seed_line,
    value_words,
    words,
)

__all__ = [
    "CardBook",
    "GameRenderer",
    "renderer_for",
    "render_result",
    "result_table",
    "event_line",
    "SEATS_HELP",
]


@dataclass(frozen=True)
class GameRenderer:
    """How one game is drawn in the terminal.

    - ``mode_name(seats, options) -> str``: the rulebook's name of the mode played.
    - ``render_view(console, match, you, cards)``: the board from ``match["view"]``.
    - ``action_line(action, match, you, cards) -> Text``: a legal command in words.
    - ``label(card_id, cards) -> str``: a card in a sentence (the event log).
    - ``render_result_extras(console, match, you, cards)``: what the result adds.
    - ``table_seats(view) -> [{"seat", "name"}]``: seats beyond the roster (the A.I.Toma).
    - ``where(view, you, value, field) -> str | None``: a card's place in the seat's view
      in words, or what another command field's value means (the menu tells apart moves
      of the same words: :meth:`menu`).
    - ``note(action, view, you) -> str``: what a legal command's menu line adds to the
      phrasebook's words (A.I.Pokalypse: where a discarded card lies when not in hand).
    - ``ends(action, view) -> bool``: the command ends the seat's turn (or phase, or part
      in another's turn) or passes: ``arena play`` keys it 0, apart from the plays'
      numbers, and asks y/N before sending it while other moves remain (``cli/menu.py``).
    """

    game: str
    title: str
    seats_help: str
    mode_name: Callable[[int, Mapping[str, Any] | None], str]
    render_view: Callable[[Console, Mapping[str, Any], int, CardBook], None]
    action_line: Callable[[Mapping[str, Any], Mapping[str, Any], int, CardBook], Text]
    label: Callable[[str, CardBook], str]
    render_result_extras: Callable[[Console, Mapping[str, Any], int, CardBook], None]
    table_seats: Callable[[Mapping[str, Any]], list[dict[str, Any]]] = lambda view: []
    where: Callable[[Mapping[str, Any], int, Any, str], str | None] = (
        lambda view, you, value, field: None
    )
    ends: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] = lambda action, view: False
    note: Callable[[Mapping[str, Any], Mapping[str, Any], int], str] = lambda action, view, you: ""

    def render_events(
        self,
        console: Console,
        events: Iterable[Mapping[str, Any]],
        cards: CardBook,
        seats: Iterable[Mapping[str, Any]] = (),
        you: int | None = None,
        view: Mapping[str, Any] | None = None,
    ) -> None:
        """The events (already redacted for ``you``) in words, one dim line each; seats
        the game adds to the roster (the A.I.Toma) are named from ``view``."""
        roster = list(seats) + self.table_seats(view or {})
        if cards.phrases is not None:  # the game's phrasebook: every event in words
            for event in events:
                console.print(
                    Text(
                        f"v{event.get('version')} " + cards.phrases.event(event, roster, you),
                        style="bold" if event.get("seat") == you and you is not None else "dim",
                    )
                )
            return
        render_event_lines(console, events, lambda c: self.label(c, cards), roster, you)

    def command_line(
        self, action: Mapping[str, Any], match: Mapping[str, Any], you: int, cards: CardBook
    ) -> Text:
        """A legal command in words: the phrasebook's sentence (``Draft Y3 - 8 VP per
        ...``) when the game has one, else :attr:`action_line`."""
        if cards.phrases is not None:
            words = cards.phrases.command(action, match.get("seats") or [], you)
            return Text(words + self.note(action, match.get("view") or {}, you))
        return self.action_line(action, match, you, cards)

    def menu(
        self,
        actions: Sequence[Mapping[str, Any]],
        match: Mapping[str, Any],
        you: int,
        cards: CardBook,
    ) -> list[Entry]:
        """The legal commands as menu entries a person tells apart
        (:func:`cli.render.alike.tell_apart`): identical cards in one place are one entry,
        the same words for cards in different places say where."""
        view = match.get("view") or {}
        return tell_apart(
            actions,
            lambda action: self.command_line(action, match, you, cards).plain,
            lambda value, field: self.where(view, you, value, field),
        )


def _of(module: ModuleType, game: str, title: str) -> GameRenderer:
    extra = getattr(module, "table_seats", None)
    return GameRenderer(
        game,
        title,
        module.SEATS_HELP,
        module.mode_name,
        module.render_view,
        module.action_line,
        module.label,
        module.render_result_extras,
        extra or (lambda view: []),
        module.where,
        module.ends,
        getattr(module, "note", lambda action, view, you: ""),
    )


def _generic_mode(seats: int, options: Mapping[str, Any] | None = None) -> str:
    return f"{seats} seat{'s' if seats != 1 else ''}"


def _generic_view(console: Console, match: Mapping[str, Any], you: int, cards: CardBook) -> None:
    view = match.get("view") or {}
    console.rule(f"match {match.get('match_id')} - version {match.get('version')}")
    lines = [
        f"{words(k)}: {value_words(k, v, lambda c: _generic_label(c, cards))}"
        for k, v in view.items()
    ]
    console.print(Panel("\n".join(lines) or "(nothing to show)", title="your view", expand=False))


def _generic_label(card_id: str, cards: CardBook) -> str:
    face = cards.get(card_id) or {}
    name = face.get("name") or face.get("title")
    return f"{card_id} {name}" if name else str(card_id)


def _generic_action(
    action: Mapping[str, Any], match: Mapping[str, Any], you: int, cards: CardBook
) -> Text:
    return generic_action(action, lambda c: _generic_label(c, cards))


def _no_extras(console: Console, match: Mapping[str, Any], you: int, cards: CardBook) -> None:
    return None


#: The usual names of a command that ends the turn or passes, for a game without a module.
GENERIC_ENDING = frozenset({"end_turn", "pass"})


def _generic_ends(action: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    return action.get("type") in GENERIC_ENDING


#: A game without a module of its own: its view's fields and commands in words.
GENERIC = GameRenderer(
    "",
    "",
    "",
    _generic_mode,
    _generic_view,
    _generic_action,
    _generic_label,
    _no_extras,
    ends=_generic_ends,
)

RENDERERS: dict[str, GameRenderer] = {
    "ai-100-human": _of(ai_100_human, "ai-100-human", "AI: 100% Human"),
    "aipokalypse": _of(aipokalypse, "aipokalypse", "A.I.Pokalypse"),
    "dead-apocalypse": _of(dead_apocalypse, "dead-apocalypse", "Dead Apocalypse"),
}

#: ``arena play --seats`` help: every game's modes in its own words.
SEATS_HELP = "; ".join(f"{r.title}: {r.seats_help}" for r in RENDERERS.values())


def renderer_for(game: str | None) -> GameRenderer:
    """The :class:`GameRenderer` of ``game`` (:data:`GENERIC` for a game not listed)."""
    return RENDERERS.get(game or "", GENERIC)


def render_result(
    console: Console, match: Mapping[str, Any], you: int, cards: CardBook | None = None
) -> None:
    """The final ranking of a finished match as seat ``you`` received it (no empty
    column: :func:`result_table`), what the game adds (a solo rating, the A.I.Toma's
    outcome) and the revealed seed (provable fairness)."""
    cards = cards or CardBook()
    result = match.get("result") or (match.get("view") or {}).get("result") or {}
    console.print(
        result_table(
            result,
            match.get("seats") or [],
            f"final result of match {match.get('match_id')}",
            you,
            match.get("game"),
            match.get("resigned") or (),
        )
    )
    renderer_for(match.get("game")).render_result_extras(console, match, you, cards)
    line = seed_line(match)
    if line:
        console.print(Text(line, style="dim"))
