"""Sample worlds: a whole :class:`MatchState` built from one seat's view only, every card
that seat cannot see dealt again at random consistently with what it sees.

Used by the ``expert`` bot and the estimator (:mod:`.expert`, issue 23): its search runs
on such samples, so it never reads what the seat cannot see (replacing the hidden parts of
the real state consistently gives the same samples for the same ``rng``).

What the view shows (``views.view``): the rows, the Ditch Pile, the Events set aside, every
seat's discard pile, played cards and Locations with their occupants, the damage pool, the
prompt, the own hand, and the *counts* of every deck, hand and stack. What it hides: the
other seats' hands, every deck order and content, the Zombie and Resource Stacks' order
and content.

How a sample is dealt (every instance id of the catalogue is in exactly one place):

1. The unseen cards are every instance (the starting decks of the seats at the table and
   every stack's cards) not shown anywhere in the view, in sorted order.
2. Zombie Stack: the unseen Zombie and Event cards (no Events in the easier games: they
   were removed at set-up) and the CDC while it is unseen, shuffled; the CDC goes to one of
   the bottom ``CDC_BOTTOM + 1`` places (Game Setup: "Take 10 cards face down from the
   bottom of the Zombie Stack and shuffle in the CDC"), uniformly, or anywhere in a shorter
   stack.
3. Infection and Adept Survivor stacks: that many of their unseen cards (identical cards).
4. Resource Stack: a uniform sample of the unseen Resource cards, shuffled, by its count.
5. The rest (unseen starting cards of a seat, and the Resource, Adept and Infection cards
   not in a stack) are the seats' hidden cards: a seat's own starting cards stay with it;
   the others are dealt at random to the free places (other seats' hands and decks, the own
   deck). An other seat's hand is the first ``hand_count`` of its shuffled hidden cards.

A view whose counts do not add up (it never happens with a real state) still gives a
playable sample: surplus cards are left out, missing ones leave shorter piles.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from . import spec
from .cards import catalogue
from .state import MatchState, SeatState


@lru_cache(maxsize=8)
def _instances(seats: int) -> tuple[str, ...]:
    """Every card instance of a ``seats``-seat match, sorted."""
    cat = catalogue()
    out = [c for seat in range(seats) for c in cat.starting_deck(seat)]
    for stack in ("resource", "adept", "infection", "zombie"):
        out += cat.stack_instances(stack)
    return tuple(sorted(out))


def _owner(card: str) -> int | None:
    """The seat of a starting-deck instance (``"survivor#s2.5"`` -> 2), else ``None``."""
    number = card.split("#", 1)[1]
    return int(number[1:].split(".", 1)[0]) if number.startswith("s") else None


def visible(v: Mapping[str, Any]) -> set[str]:
    """Every card instance ``v`` shows (rows, piles, played cards, Locations and their
    occupants, the own hand, the damage pool's sources, the prompt's source)."""
    seen: set[str] = set()
    seen.update(z["card"] for z in v["zombie_row"] if z is not None)
    seen.update(r["card"] for r in v["resource_row"] if r is not None)
    seen.update(v["ditch"])
    seen.update(v["events_aside"])
    for s in v["seats"]:
        seen.update(s["discard"])
        seen.update(s["played"])
        seen.update(s.get("hand", ()))
        for loc in s["locations"]:
            seen.add(loc["card"])
            seen.update(o["card"] for o in loc["occupants"])
    return seen


def sample_world(v: Mapping[str, Any], seat: int, rng: random.Random) -> MatchState:
    """A full match state consistent with ``v`` (``view(state, seat)``), the hidden cards
    dealt by ``rng`` (module doc). Deterministic for the same view and ``rng`` state."""
    cat = catalogue()
    n = len(v["seats"])
    options = dict(v["options"])
    seen = visible(v)
    unseen = [c for c in _instances(n) if c not in seen]
    zombies, resources, adepts, infections = [], [], [], []
    starting: dict[int, list[str]] = {s: [] for s in range(n)}
    for c in unseen:
        d = cat.of(c)
        if d.stack == "zombie":
            if d.kind == "event" and spec.no_events(options):
                continue
            zombies.append(c)
        elif d.stack == "resource":
            resources.append(c)
        elif d.stack == "adept":
            adepts.append(c)
        elif d.stack == "infection":
            infections.append(c)
        else:
            owner = _owner(c)
            if owner is not None and owner < n:
                starting[owner].append(c)
    zombie_stack = _zombie_stack(zombies, v["zombie_stack_count"], rng)
    infection_stack = infections[: v["infection_stack_count"]]
    adept_stack = adepts[: v["adept_stack_count"]]
    shuffled = list(resources)
    rng.shuffle(shuffled)
    resource_stack = shuffled[: v["resource_stack_count"]]
    pool = (
        shuffled[v["resource_stack_count"] :]
        + adepts[v["adept_stack_count"] :]
        + infections[v["infection_stack_count"] :]
    )
    rng.shuffle(pool)
    seats: list[SeatState] = []
    for i, s in enumerate(v["seats"]):
        hidden_places = s["deck_count"] + (0 if i == seat else s["hand_count"])
        cards = starting[i][:hidden_places]
        take = max(0, hidden_places - len(cards))
        cards, pool = cards + pool[:take], pool[take:]
        rng.shuffle(cards)
        if i == seat:
            hand, deck = list(s["hand"]), cards
        else:
            hand, deck = cards[: s["hand_count"]], cards[s["hand_count"] :]
        seats.append(
            SeatState(
                deck=deck,
                hand=hand,
                discard=list(s["discard"]),
                played=list(s["played"]),
                locations=[
                    {"card": loc["card"], "occupants": [dict(o) for o in loc["occupants"]]}
                    for loc in s["locations"]
                ],
            )
        )
    help_ = {k: (list(x) if isinstance(x, list) else x) for k, x in v["help"].items()}
    return MatchState(
        seat_count=n,
        options=options,
        first_seat=v["first_seat"],
        active=v["active"],
        turn=v["turn"],
        seats=seats,
        zombie_stack=zombie_stack,
        resource_stack=resource_stack,
        infection_stack=infection_stack,
        adept_stack=adept_stack,
        zombie_row=[None if z is None else z["card"] for z in v["zombie_row"]],
        resource_row=[None if r is None else r["card"] for r in v["resource_row"]],
        ditch=list(v["ditch"]),
        events_aside=list(v["events_aside"]),
        attackers=[z["column"] for z in v["zombie_row"] if z is not None and z["attacking"]],
        damage=[dict(d) for d in v["damage"]],
        help=help_,
        prompt=None if v["prompt"] is None else _copy(v["prompt"]),
        repeat_used=list(v["repeat_used"]),
        defeated=v["defeated_this_turn"],
        cdc_holder=v["cdc_holder"],
        result=None,
        resigned=[],
    )


def _zombie_stack(cards: list[str], count: int, rng: random.Random) -> list[str]:
    """The Zombie Stack of ``count`` cards from the unseen Zombie-Stack ``cards`` (sorted):
    shuffled, the CDC (when among them) in one of the bottom ``CDC_BOTTOM + 1`` places."""
    cat = catalogue()
    cdc = [c for c in cards if cat.of(c).kind == "cdc"]
    body = [c for c in cards if cat.of(c).kind != "cdc"]
    rng.shuffle(body)
    if not cdc or count <= 0:
        return body[: max(0, count)]
    body = body[: count - 1]
    bottom = min(len(body) + 1, spec.CDC_BOTTOM + 1)
    body.insert(len(body) - rng.randrange(bottom), cdc[0])  # 0 places up from the bottom, 1, ...
    return body


def _copy(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _copy(x) for k, x in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_copy(x) for x in obj]
    return obj
