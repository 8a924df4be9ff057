"""Taking cards from decks and stacks: draw (with the reshuffle rule), the Resource Stack
(loss or, in the easiest game, reform) and the Zombie Stack (reform from the Ditch Pile).

Rulebook: General Rules (shuffle the discard pile to reform your deck; cards in play are
not included), Game Ends, "For the easiest game". RULINGS "Dead Apocalypse": the game is
lost as soon as the Resource Stack holds no card, checked after every step that takes
cards from it; in the easiest game it reforms instead.
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
    """Draw ``count`` cards (fewer when deck and discard pile are both empty). RULINGS R-DRAW."""
    remaining = count
    while remaining > 0 and reshuffle(rec, seat, rng):
        cards = rec.state.seats[seat].deck[:remaining]
        rec.emit("CardsDrawn", {"seat": seat, "cards": cards}, seat)
        remaining -= len(cards)


def check_resource_stack(rec: Recorder, rng: random.Random) -> None:
    """Game Ends: "Players lose when there are no cards left in the Resource Stack" —
    checked right after every step that took a card from it (a refill or a Ditch), not
    when a card is next needed (shared RULINGS "Dead Apocalypse"). In the easiest game the
    stack reforms at that moment instead: "remove all Zombies from the Ditch Pile and
    shuffle the remaining cards to reform the Resource Stack" (Infections and any other
    Ditched card included). Raises :class:`GameOver` on the loss. RULINGS R-LOSS."""
    s = rec.state
    if s.resource_stack:
        return
    if not spec.easiest(s.options):
        finish(rec, "lost", "resource_stack_empty")
    cat = catalogue()
    order = [c for c in s.ditch if cat.of(c).kind != "zombie"]
    if order:
        rng.shuffle(order)
        rec.emit("ResourceStackReformed", {"stack": "resource", "order": order})


def _has_top(rec: Recorder, rng: random.Random) -> bool:
    """Before a card is taken: an empty stack (possible only in the easiest game, when the
    Ditch Pile held nothing at the moment it ran out) tries to reform again now."""
    if not rec.state.resource_stack:
        check_resource_stack(rec, rng)
    return bool(rec.state.resource_stack)


def ditch_stack(rec: Recorder, count: int, rng: random.Random) -> None:
    """Ditch ``count`` cards from the top of the Resource Stack, one at a time (fewer
    only in the easiest game, when the Ditch Pile held nothing to reform it from)."""
    for _ in range(count):
        if not _has_top(rec, rng):
            return
        rec.emit("ResourceStackDitched", {"cards": [rec.state.resource_stack[0]]})
        check_resource_stack(rec, rng)


def refill_resource_row(rec: Recorder, rng: random.Random) -> None:
    """Turn Sequence "Refill the Resource Row": fill every empty place, left to right.

    RULINGS R-COLUMNS.
    """
    for col in range(spec.ROW_SIZE):
        if rec.state.resource_row[col] is None:
            if not _has_top(rec, rng):
                return
            rec.emit("ResourceRevealed", {"column": col, "card": rec.state.resource_stack[0]})
            check_resource_stack(rec, rng)


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
    card is Ditched) and the revealing goes on (Center for Disease Control). RULINGS R-CDC."""
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
                rec.emit(
                    "CdcRevealed", {"column": col, "card": top, "ditched": s.resource_row[col]}
                )
            else:
                rec.emit("ZombieRevealed", {"column": col, "card": top})
            s = rec.state
