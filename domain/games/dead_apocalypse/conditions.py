"""What is "in play" and the value of a conditional damage ability, read when damage is spent.

Rulebook, General Rules: "If a card mentions "in/from play", it always refers to a card(s)
that has been used and is currently in the active player's possession, not the opposing
players". Combating Zombies: "Some card abilities only resolve under certain
circumstances. For Example: Construction Worker gains +1 Damage if another Armory card is
in play." The book does not say the circumstance is read when the card is played, so it is
read whenever the damage counts (ruling R-CONDITION): a conditional entry of the damage pool
keeps its condition and the fold recomputes its unspent ``amount`` after every event, so
the order the cards were played in never changes the damage (Sniper then Soldier equals
Soldier then Sniper).

A conditional pool entry carries ``cond = {"op": "damage_if"|"damage_per", "amount",
"match": {"faction"|"kind"|"title": X}}`` and ``spent`` (what defeats took from it).
Pure functions: no events, no RNG.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import CardDef, catalogue


def in_play(state: Any, seat: int) -> list[str]:
    """Cards ``seat`` has in play: Humans/Equipment played this turn, then its Locations
    (never occupants: "A Human placed beneath a Location is not considered to be "in
    play""; never Infections: "they are never considered to be "in play""). RULINGS R-INPLAY."""
    me = state.seats[seat]
    return me.played + [loc["card"] for loc in me.locations]


def matches(card: CardDef, cond: Mapping[str, str]) -> bool:
    """``cond`` is ``{"faction"|"kind"|"title": value}``."""
    key, value = next(iter(cond.items()))
    return getattr(card, key) == value


def value_with(cards: Iterable[str], source: str, cond: Mapping[str, Any]) -> int:
    """The damage ``cond`` of card ``source`` is worth with ``cards`` in play: ``damage_if``
    gives its amount when *another* card matches, ``damage_per`` its amount for each other
    matching card."""
    cat = catalogue()
    count = sum(1 for c in cards if c != source and matches(cat.of(c), cond["match"]))
    if cond["op"] == "damage_if":
        count = min(count, 1)
    return cond["amount"] * count


def condition_value(state: Any, entry: Mapping[str, Any]) -> int:
    """What a conditional pool entry is worth now, counted on the *active* player's cards
    in play (an assisting ally's Construction Worker or Mechanic counts them too)."""
    return value_with(in_play(state, state.active), entry["source"], entry["cond"])


def refresh(state: Any) -> None:
    """Recompute every conditional entry's unspent ``amount`` (value now minus spent)."""
    for d in state.damage:
        if d.get("cond"):
            d["amount"] = max(0, condition_value(state, d) - d["spent"])
