"""Builders for A.I.Pokalypse unit tests: hand-made tables without Redis or randomness."""

from __future__ import annotations

import random

from domain.engine import Event
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.batching import unbatch
from domain.games.aipokalypse.cards import catalogue
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.state import MatchState, new_slot

CAT = catalogue()
_used: set[str] = set()


def ids(name: str, k: int = 1) -> list[str]:
    """``k`` distinct card ids called ``name`` (KeyError when there are fewer)."""
    found = [c.id for c in CAT.cards.values() if c.name == name]
    if len(found) < k:
        raise KeyError(f"only {len(found)} {name!r}")
    return found[:k]


def one(name: str) -> str:
    """The first card id called ``name``."""
    return ids(name)[0]


def table(
    n: int = 2,
    phase: str = "recruitment",
    round_: int = 2,
    draw: list[str] | None = None,
    factions: list[str] | None = None,
) -> MatchState:
    """A state with ``n`` seats, empty hands/boards, 6 health points each (distinct specials),
    the given draw pile (default: 30 fillers), the rest of the specials as deck, 20 ammo."""
    specials = list(CAT.special)
    health = [specials[6 * i : 6 * i + 6] for i in range(n)]
    rest = specials[6 * n :]
    factions = factions or [None] * n
    f_used = {f for f in factions if f}
    ammo = [f for f in CAT.faction if f not in f_used][:20]
    if draw is None:
        draw = filler(30)
    state = ENGINE.evolve(
        None,
        Event(
            "MatchStarted",
            {
                "n": n,
                "mode": "competitive",
                "offered": [[] for _ in range(n)],
                "health": health,
                "hands": [[] for _ in range(n)],
                "draw": draw,
                "specials": rest,
                "ammo_deck": ammo,
            },
        ),
    )
    state.phase, state.round, state.factions_revealed = phase, round_, True
    for p, f in zip(state.players, factions, strict=False):
        p.faction = f
    return state


def filler(k: int, name: str = "Sniper") -> list[str]:
    """``k`` basic unit ids to fill piles (Sniper/Heavy Tank/... repeated by id)."""
    pool = [
        c.id
        for c in CAT.cards.values()
        if c.category == "basic" and c.name in ("Sniper", "Heavy Tank", "Commander", "Veteran")
    ]
    return (pool * (k // len(pool) + 1))[:k]


def take(state: MatchState, cid: str) -> str:
    """Remove ``cid`` from every pile/hand/pool of ``state`` (so a test can place it)."""
    for pile in (state.draw, state.discard, state.specials, state.ammo_deck):
        if cid in pile:
            pile.remove(cid)
    for p in state.players:
        for pile in (p.hand, p.health, p.pool):
            if cid in pile:
                pile.remove(cid)
    return cid


def put(
    state: MatchState, seat: int, cid: str, strength_pos: int = 0, red: str | None = None
) -> int:
    """Place unit ``cid`` on a new slot of ``seat`` at scale index ``strength_pos``; a Red Slot
    made of special ``red`` when given. Returns the slot index."""
    take(state, cid)
    slot_card = take(state, red) if red else state.draw.pop()
    slot = new_slot(slot_card, red=bool(red))
    slot.unit, slot.pos = cid, strength_pos
    state.players[seat].slots.append(slot)
    return len(state.players[seat].slots) - 1


def empty_slot(state: MatchState, seat: int) -> int:
    """Open an empty slot for ``seat``; returns its index."""
    state.players[seat].slots.append(new_slot(state.draw.pop()))
    return len(state.players[seat].slots) - 1


def hand(state: MatchState, seat: int, *cids: str) -> None:
    """Put cards into ``seat``'s hand."""
    for cid in cids:
        state.players[seat].hand.append(take(state, cid))


def give_ammo(state: MatchState, seat: int, k: int) -> None:
    """Move ``k`` ammo from the ammo deck to ``seat``."""
    for _ in range(k):
        state.players[seat].ammo.append(state.ammo_deck.pop(0))


def act(
    state: MatchState,
    seat: int,
    cmd: dict,
    seed: int = 0,
    answers: list | None = None,
    defaults: bool = True,
) -> tuple[MatchState, list[Event]]:
    """``decide`` + fold; returns the new state and all events. Open effect decisions are
    answered from ``answers`` in order, then (``defaults``) with the default option (the
    first, what a turn timeout takes); with ``defaults=False`` an open decision stays open."""
    answers = list(answers or [])
    events = ENGINE.decide(state, seat, cmd, random.Random(seed))
    new = _fold(state, events)
    while new.choice and (answers or defaults):
        choice = new.choice
        option = answers.pop(0) if answers else choice["options"][0]
        more = ENGINE.decide(
            new, choice["seat"], {"type": "choose", "option": option}, random.Random(seed)
        )
        new = _fold(new, more)
        events = events + more
    return new, unbatch(events)  # the atomic events (a hidden command is one batch)


def _fold(state: MatchState, events: list[Event]) -> MatchState:
    new = ENGINE.load_state(ENGINE.dump_state(state))
    for e in events:
        new = ENGINE.evolve(new, e)
    return new


def run_flow(
    state: MatchState, fn, *args, seed: int = 0, answers: list | None = None
) -> tuple[MatchState, list[Event]]:
    """Run an automatic step (e.g. ``flow.start_battle``) on a scratch context; effect
    decisions take ``answers`` in order, then the default (first) option."""
    given = list(answers or [])
    while True:
        ctx = Ctx(state, random.Random(seed), given)
        try:
            fn(ctx, *args)
        except NeedChoice as need:
            given.append(need.options[0])
            continue
        return ctx.state, ctx.events


def types(events: list[Event]) -> list[str]:
    """Event types in order."""
    return [e.type for e in events]
