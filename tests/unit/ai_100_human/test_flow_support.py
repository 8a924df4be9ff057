"""Given-events builders and helpers shared by the AI: 100% Human flow tests (no tests here).

``given(...)`` returns real events (the same types the engine emits) that fold into a
state at a chosen phase/turn/step with chosen tableaux, hands, reserves and deck, so a
test reads: given these events / when this command / then these events (or this error).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from domain.engine import Event, Setup, fold
from domain.games.ai_100_human import ENGINE
from domain.games.ai_100_human.cards import catalogue

E = ENGINE
DEFAULT_AI = ("AI-3", "AI-11", "AI-1", "AI-4", "AI-12", "AI-9")  # no power, no AI-10


def pair_of(side: str) -> list[str]:
    """The physical AI card (both sides) holding ``side``."""
    k = int(side.split("-")[1])
    first = k if k % 2 else k - 1
    return [f"AI-{first}", f"AI-{first + 1}"]


def given(
    *,
    seats: int = 3,
    ai: Iterable[str] | None = None,
    tableaux: Mapping[int, Mapping[tuple[int, int], str]] | None = None,
    hands: Mapping[int, list[str]] | None = None,
    reserves: Mapping[int, list[str]] | None = None,
    dealt: Mapping[int, list[str]] | None = None,
    deck: list[str] | None = None,
    phase: int = 1,
    turn: int = 1,
    step: str = "draft",
    objectives: tuple[str, str] = ("Omega-3", "Omega-4"),
    scores: Mapping[int, int] | None = None,
    needs: Mapping[int, str] | None = None,
    ai6_used: Iterable[int] = (),
) -> list[Event]:
    """Events that fold into the described situation (cards may come from either phase)."""
    ai = list(ai or DEFAULT_AI[:seats])
    tableaux = {s: dict(t) for s, t in (tableaux or {}).items()}
    hands, reserves, dealt = dict(hands or {}), dict(reserves or {}), dict(dealt or {})
    used = [
        c
        for s in range(seats)
        for c in (
            list(tableaux.get(s, {}).values())
            + reserves.get(s, [])
            + hands.get(s, [])
            + dealt.get(s, [])
        )
    ]
    if deck is None:
        deck = [c for c in catalogue().phase_deck(phase) if c not in used]
    ev = [
        Event(
            "MatchStarted",
            {
                "seats": seats,
                "options": {"objectives": {"phase1": objectives[0], "phase2": objectives[1]}},
                "objectives": {"1": objectives[0], "2": objectives[1]},
                "mode": "standard",
            },
        ),
        Event("AICardsDealt", {"cards": [pair_of(a) for a in ai]}),
        Event("PhaseStarted", {"phase": phase}),
        Event("DeckShuffled", {"phase": phase, "reason": "phase", "order": used + list(deck)}),
    ]
    for s in range(seats):
        ev.append(Event("AISideChosen", {"card": ai[s]}, s))
        first = list(tableaux.get(s, {}).values()) + reserves.get(s, [])
        ev.append(Event("CardsDealt", {"purpose": "reserve", "cards": first}, s))
        ev.append(Event("ReserveKept", {"kept": first}, s))
    ev.append(Event("AISidesRevealed", {"cards": ai}))
    for s in range(seats):
        if hands.get(s):
            ev.append(Event("CardsDealt", {"purpose": "hand", "cards": hands[s]}, s))
        if dealt.get(s):
            ev.append(Event("CardsDealt", {"purpose": "reserve", "cards": dealt[s]}, s))
    ev.append(
        Event(
            "PlacementsRevealed",
            {
                "placements": [
                    {"seat": s, "card": c, "cell": [p[0], p[1]]}
                    for s in range(seats)
                    for p, c in sorted(tableaux.get(s, {}).items())
                ]
            },
        )
    )
    for s, vp in (scores or {}).items():
        ev.append(Event("VPScored", {"reason": "objective", "objective": "given", "vp": vp}, s))
    for s in ai6_used:
        ev.append(
            Event(
                "AIPowerUsed",
                {"power": "draw_two", "ai_card": ai[s], "drawn": [], "discarded": []},
                s,
            )
        )
    data: dict[str, Any] = {"phase": phase, "turn": turn, "step": step}
    if needs:
        data["needs"] = {str(k): v for k, v in needs.items()}
    ev.append(Event("StepStarted", data))
    return ev


def state_of(events: Iterable[Event]):
    """Fold ``events`` from the beginning."""
    return fold(E, list(events))


def when(state, seat: int, command: Mapping[str, Any], seed: int = 0) -> list[Event]:
    """``decide`` with a fixed RNG."""
    return E.decide(state, seat, dict(command), random.Random(seed))


def apply(state, events: Iterable[Event]):
    """Fold ``events`` into ``state`` (mutates and returns it)."""
    for e in events:
        state = E.evolve(state, e)
    return state


def run(state, commands: Iterable[tuple[int, Mapping[str, Any]]], seed: int = 0):
    """Decide and fold each ``(seat, command)``; return ``(state, all new events)``."""
    out: list[Event] = []
    for seat, command in commands:
        new = when(state, seat, command, seed)
        state = apply(state, new)
        out.extend(new)
    return state, out


def types(events: Iterable[Event]) -> list[str]:
    """The event types, in order."""
    return [e.type for e in events]


def of_type(events: Iterable[Event], type_: str) -> list[Event]:
    """The events of one type, in order."""
    return [e for e in events if e.type == type_]


def vp(events: Iterable[Event]) -> list[tuple[int, str, int]]:
    """``(seat, card or objective, vp)`` of every VPScored, in order."""
    return [
        (e.seat, e.data.get("card") or e.data.get("objective"), e.data["vp"])
        for e in events
        if e.type == "VPScored"
    ]


def play_match(
    seats: int,
    seed: int,
    bots: Iterable[str] | str = "random",
    options: Mapping[str, Any] | None = None,
    on_event=None,
):
    """A full bot match; returns ``(final state, events)``. ``on_event(event, state)``
    is called with the state after each event."""
    rng = random.Random(seed)
    levels = [bots] * seats if isinstance(bots, str) else list(bots)
    events = E.new_match(Setup(seats, E.validate_options(seats, options or {})), rng)
    state = None
    for e in events:
        state = E.evolve(state, e)
        if on_event:
            on_event(e, state)
    for _ in range(2000):
        if E.result(state) is not None:
            return state, events
        seat = min(E.pending(state))
        command = E.bots[levels[seat]].choose(state, seat, rng)
        for e in E.decide(state, seat, command, rng):
            state = E.evolve(state, e)
            events.append(e)
            if on_event:
                on_event(e, state)
    raise AssertionError("the match did not finish in 2000 decisions")
