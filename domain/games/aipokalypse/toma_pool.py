"""The A.I.Toma's colours and the action symbols of the Special Units in its pool, read by
the battle (strength), the effects (temporary strength) and :mod:`.toma` (its actions).
Rulebook "Solo / Cooperative Mode" (Special Units & Pool of A.I.Toma; A.I.Toma Action
Effects); RULINGS R-TOMA-COLOUR, R-TOMA-SYMBOLS.
"""

from __future__ import annotations

from .cards import catalogue
from .state import Player, color_of, pile_of

#: "Rogues are considered as all colors for A.I.Toma"; an A.I.Lien fits every unit
ROGUE, AILIEN = "purple", "green"


def symbol_count(pool: list[str], symbol: str) -> int:
    """How many ``symbol`` action symbols the Special Units ``pool`` show. RULINGS R-TOMA-POOL."""
    cat = catalogue()
    return sum(cat[c].action_symbols.count(symbol) for c in pool)


def ammo_strength(p: Player) -> int:
    """ "The strength of the A.I.Toma's ammo is determined by the number of ammo-gain symbols
    revealed, but at least 1" (per ammo spent in battle)."""
    return max(1, symbol_count(p.pool, "ammo"))


def passive_bonus(p: Player, slot: int) -> int:
    """Temporary strength of the A.I.Toma unit on ``slot`` from the passive symbol: only when the
    last revealed Special Unit (the rightmost of its pool) shows it, every unit of that Special
    Unit's colour (Rogue units count as every colour) gains the number of passive symbols in
    the pool; a Rogue Special Unit gives it to "all units containing a Rogue"."""
    pool = p.pool
    s = p.slots[slot]
    if not pool or not s.unit:
        return 0
    cat = catalogue()
    last = cat[pool[-1]]
    if "passive" not in last.action_symbols:
        return 0
    bonus = symbol_count(pool, "passive")
    if last.color == ROGUE:
        return bonus if any(cat[c].color == ROGUE for c in pile_of(s)) else 0
    return bonus if color_of(s.unit) in (last.color, ROGUE) else 0
