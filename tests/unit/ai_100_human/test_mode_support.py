"""Given-events builders for the 2-player and solo mode tests (no tests here).

They emit the engine's own event types so the fold builds the situation the same way a
real match does: ``given_duo`` reuses :func:`test_flow_support.given` and adds the neutral
grid; ``given_solo`` lays out dividers, draft grid, timer stack, reserve and standee.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.engine import Event
from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.solo import all_ai_sides
from domain.games.ai_100_human.state import tableau_json

from .test_flow_support import given

Pos = tuple[int, int]


def given_duo(*, neutral: Mapping[Pos, str], deck: list[str] | None = None, **kw) -> list[Event]:
    """2 seats in ``duo`` mode; ``neutral`` is revealed from the deck top right after the
    shuffle (as :func:`duo.reveal_neutral` does). Other keywords as for ``given``."""
    used = set(neutral.values())
    for group in ("tableaux",):
        for t in (kw.get(group) or {}).values():
            used |= set(t.values())
    for group in ("hands", "reserves", "dealt"):
        for cards in (kw.get(group) or {}).values():
            used |= set(cards)
    phase = kw.get("phase", 1)
    if deck is None:
        deck = [c for c in catalogue().phase_deck(phase) if c not in used]
    events = given(seats=2, deck=list(neutral.values()) + list(deck), **kw)
    first = events[0]
    events[0] = Event("MatchStarted", {**first.data, "mode": "duo"})
    shuffle = next(i for i, e in enumerate(events) if e.type == "DeckShuffled")
    events.insert(
        shuffle + 1,
        Event("NeutralGridRevealed", {"phase": phase, "cards": tableau_json(dict(neutral))}),
    )
    return events


def given_solo(
    *,
    ai: str = "AI-3",
    dividers: tuple[list[str], list[str]],
    grid: Mapping[Pos, str],
    timer: list[str],
    reserve: Iterable[str] = (),
    tableau: Mapping[Pos, str] | None = None,
    standee: str | None = None,
    deck: list[str] | None = None,
    phase: int = 1,
    turn: int = 1,
    step: str = "draft",
    objectives: tuple[str, str] = ("Omega-3", "Omega-4"),
) -> list[Event]:
    """1 seat in ``solo`` mode with the given dividers ``(rows, columns)``, draft grid,
    timer stack (top first), reserve, tableau (besides the AI card) and standee colour."""
    tableau = dict(tableau or {})
    reserve = list(reserve)
    used = set(grid.values()) | set(timer) | set(reserve) | set(tableau.values())
    if deck is None:
        deck = [c for c in catalogue().phase_deck(phase) if c not in used]
    first = list(tableau.values()) + reserve
    order = list(grid.values()) + first + list(timer) + list(deck)
    rows, columns = dividers
    ev = [
        Event(
            "MatchStarted",
            {
                "seats": 1,
                "options": {"objectives": {"phase1": objectives[0], "phase2": objectives[1]}},
                "objectives": {"1": objectives[0], "2": objectives[1]},
                "mode": "solo",
            },
        ),
        Event("AICardsDealt", {"cards": [all_ai_sides()]}),
        Event("PhaseStarted", {"phase": phase}),
        Event("DeckShuffled", {"phase": phase, "reason": "phase", "order": order}),
        Event("DividersPlaced", {"rows": list(rows), "columns": list(columns)}),
        Event("DraftGridBuilt", {"phase": phase, "cards": tableau_json(dict(grid))}),
        Event("CardsDealt", {"purpose": "reserve", "cards": first}, 0),
        Event("TimerStackFormed", {"phase": phase, "count": len(timer)}),
        Event("AISideChosen", {"card": ai}, 0),
        Event("ReserveKept", {"kept": first}, 0),
        Event("AISidesRevealed", {"cards": [ai]}),
    ]
    if standee is not None:
        if standee in rows:
            line = {"color": standee, "line": "row", "index": list(rows).index(standee)}
        else:
            line = {"color": standee, "line": "column", "index": list(columns).index(standee)}
        ev.append(Event("StandeeMoved", line))
    ev.append(
        Event(
            "PlacementsRevealed",
            {
                "placements": [
                    {"seat": 0, "card": c, "cell": [p[0], p[1]]} for p, c in sorted(tableau.items())
                ]
            },
        )
    )
    ev.append(Event("StepStarted", {"phase": phase, "turn": turn, "step": step}))
    return ev
