"""Taking cards from decks and stacks: draw (with the reshuffle rule), the Resource Stack
(loss or, in the easiest game, reform) and the Zombie Stack (reform from the Ditch Pile).

Rulebook: General Rules (shuffle the discard pile to reform your deck; cards in play are
not included), Game Ends, "For the easiest game". RULINGS "Dead Apocalypse": the game is
lost the moment a card is needed from an empty Resource Stack.
"""
from __future__ import annotations

import random

from . import spec
from .cards import catalogue
from .ending import finish
from .recorder import Recorder


def reshuffle(rec: Recorder, seat: int, rng: random.Random) -> bool:
    """Shuffle ``seat``'s discard pile into its (empty) deck; False when the pile is empty."""
    me = rec.state.seats[seat]
    if me.deck or not me.discard:
        return bool(me.deck)
    order = list(me.discard)
    rng.shuffle(order)
    rec.emit("DeckShuffled", {"seat": seat, "order": order, "reason": "reshuffle"}, seat)
    return True


def draw(rec: Recorder, seat: int, count: int, rng: random.Random) -> None:
    """Draw ``count`` cards (fewer when deck and discard pile are both empty)."""
    remaining = count
    while remaining > 0 and reshuffle(rec, seat, rng):
        cards = rec.state.seats[seat].deck[:remaining]
        rec.emit("CardsDrawn", {"seat": seat, "cards": cards}, seat)
        remaining -= len(cards)


def need_resource(rec: Recorder, rng: random.Random) -> bool:
    """Make sure the Resource Stack has a top card. Empty: lose (standard) or, in the
    easiest game, reform it from the Ditch Pile without Zombies; False if still empty."""
    s = rec.state
    if s.resource_stack:
        return True
    if not spec.easiest(s.options):
        finish(rec, "lost", "resource_stack_empty")
    cat = catalogue()
    order = [c for c in s.ditch if cat.of(c).kind in ("human", "equipment", "location")]
    if not order:
        return False
    rng.shuffle(order)
    rec.emit("ResourceStackReformed", {"stack": "resource", "order": order})
    return True


def ditch_stack(rec: Recorder, count: int, rng: random.Random) -> None:
    """Ditch ``count`` cards from the top of the Resource Stack, one at a time."""
    for _ in range(count):
        if not need_resource(rec, rng):
            return
        rec.emit("ResourceStackDitched", {"cards": [rec.state.resource_stack[0]]})


def refill_resource_row(rec: Recorder, rng: random.Random) -> None:
    """Turn Sequence "Refill the Resource Row": fill every empty place, left to right."""
    for col in range(spec.ROW_SIZE):
        if rec.state.resource_row[col] is None:
            if not need_resource(rec, rng):
                return
            rec.emit("ResourceRevealed", {"column": col, "card": rec.state.resource_stack[0]})


def need_zombie(rec: Recorder, rng: random.Random) -> bool:
    """Make sure the Zombie Stack has a top card: when empty, the defeated Zombies in the
    Ditch Pile are shuffled into a new Zombie Stack (project ruling R-ZOMBIE-STACK)."""
    s = rec.state
    if s.zombie_stack:
        return True
    cat = catalogue()
    order = [c for c in s.ditch if cat.of(c).kind == "zombie"]
    if not order:
        return False
    rng.shuffle(order)
    rec.emit("ZombieStackReformed", {"stack": "zombie", "order": order})
    return True


def refill_zombie_row(rec: Recorder, rng: random.Random) -> None:
    """Turn Sequence "Refill the Zombie Row": reveal until every place holds a Zombie,
    setting Event cards aside; the CDC replaces the Resource Row card of its column (that
    card is Ditched) and the revealing goes on (Center for Disease Control)."""
    cat = catalogue()
    s = rec.state
    for col in range(spec.ROW_SIZE):
        while s.zombie_row[col] is None:
            if not need_zombie(rec, rng):
                return
            top = s.zombie_stack[0]
            kind = cat.of(top).kind
            if kind == "event":
                rec.emit("EventRevealed", {"card": top, "faction": cat.of(top).faction})
            elif kind == "cdc":
                rec.emit("CdcRevealed", {"column": col, "card": top, "ditched": s.resource_row[col]})
            else:
                rec.emit("ZombieRevealed", {"column": col, "card": top})
            s = rec.state
