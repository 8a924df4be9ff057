"""Static (passive) modifiers: what the rules ask the cards in play before counting.

A seat's *effect sources* are its units on slots, left to right, then its faction(s)
("Factions": the passive and round-bonus effects of faction cards always come after those of
your units). Attached cards only show their effect in the sense of the attaching card; they
are not sources. Every function here is a pure query on the state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..cards import Card, catalogue
from ..state import MatchState, Player, alive, factions, is_toma, max_ammo


def sources(player: Player) -> Iterator[tuple[int | None, Card]]:
    """``(slot index | None, card)`` of each effect source: units left to right, then factions.
    The A.I.Toma has none: only colour and card value of its cards count (R-TOMA-NO-EFFECTS)."""
    if is_toma(player):
        return
    cat = catalogue()
    for i, slot in enumerate(player.slots):
        if slot.unit:
            yield i, cat[slot.unit]
    for fid in factions(player):
        yield None, cat[fid]


#: :func:`statics` answers by (A.I.Toma?, the units on the slots, the factions, op name): a
#: pure function of the cards in play, asked millions of times by the expert's rollouts
#: (battle reactions ask every hand card's strength); emptied when it grows past
#: :data:`STATICS_CACHE_MAX` entries
_STATICS: dict[tuple[Any, ...], tuple[tuple[int | None, Mapping[str, Any]], ...]] = {}
STATICS_CACHE_MAX = 50_000


def statics(player: Player, name: str) -> tuple[tuple[int | None, Mapping[str, Any]], ...]:
    """Every op called ``name`` in any effect of the seat's sources, with its slot (a tuple
    shared between calls: read it, never change it)."""
    key = (player.toma, tuple(slot.unit for slot in player.slots), *factions(player), name)
    found = _STATICS.get(key)
    if found is None:
        if len(_STATICS) >= STATICS_CACHE_MAX:
            _STATICS.clear()
        found = _STATICS[key] = tuple(
            (i, op) for i, card in sources(player) for op in card.has(name)
        )
    return found


def has(player: Player, name: str) -> bool:
    """True when a source of the seat carries op ``name`` (e.g. ``tiebreak``, ``pair_triple``)."""
    return bool(statics(player, name))


def ammo_bonus(player: Player, slot: int) -> int:
    """Extra strength per ammo spent in Recruitment on ``slot`` (Disintegrator on itself;
    Dreadator, The Corporation on any unit)."""
    return sum(op["n"] for i, op in statics(player, "ammo_bonus") if op["to"] == "any" or i == slot)


def ammo_temp(player: Player) -> int:
    """Temporary strength per ammo spent in Recruitment that stays on the unit (Desert Rats)."""
    return sum(op["n"] for _, op in statics(player, "ammo_temp"))


def doubles_strength(player: Player, slot: int) -> bool:
    """Homo Deus: the unit on ``slot`` gains twice any "X strength"."""
    return any(i == slot for i, _ in statics(player, "double_strength"))


def never_fights(player: Player, slot: int) -> bool:
    """The Scream never fights; in battle it is treated as an empty slot."""
    return any(i == slot for i, _ in statics(player, "never_fights"))


def battle_card_delta(state: MatchState) -> int:
    """Sum of ``battle_cards`` ops on every living seat (Special Agent: -1 for all players)."""
    return sum(op["n"] for s in alive(state) for _, op in statics(state.players[s], "battle_cards"))


def ammo_triple_cost(player: Player) -> int | None:
    """Ammo that replaces a Triple (Berserker: 3), or ``None``."""
    costs = [op["n"] for _, op in statics(player, "ammo_triple")]
    return min(costs) if costs else None


def stash_size(player: Player) -> int:
    """Hand cards stored on the faction at the end of Recruitment (Erit Lux 2, Sic Mundus 1).

    RULINGS R-STASH.
    """
    return max([op["n"] for _, op in statics(player, "stash")] or [0])


def ammo_per_damage(player: Player) -> int:
    """Ammo gained per health point lost (Elysium)."""
    return sum(op["n"] for _, op in statics(player, "ammo_per_damage"))


def refund_color(player: Player) -> str | None:
    """Droid Army: colour of units whose battle ammo comes back when they lose the point."""
    ops = statics(player, "ammo_refund")
    return ops[0][1]["color"] if ops else None


def wild_for_triple(card: Card) -> bool:
    """Surrogate: this card Triples with every colour."""
    return bool(card.has("wild_triple"))


def ammo_all_color(player: Player) -> str | None:
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to
    give strength to all your humans" — the colour whose units may take every ammo spend
    together while it is on a slot (``"blue"``), or None."""
    ops = statics(player, "ammo_humans")
    return ops[0][1]["color"] if ops else None


def can_cash(state: MatchState, player: Player) -> list[str]:
    """Pool cards Big Benji may discard now for 1 ammo (a Big Benji on a slot, room for ammo,
    ammo deck not exhausted), sorted."""
    if not has(player, "cash_pool") or len(player.ammo) >= max_ammo(player) or not state.ammo_deck:
        return []
    return sorted(set(player.pool))
