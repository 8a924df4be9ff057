"""How the bots (tactician, toma_hunter) answer the player decisions the rulebook gives and the
engine asks through the choice mechanism (RULINGS.md "Player decisions"): Murderer, Lieutenant
Dan, Red Slot placement, a Triple's health draw and slot, Enclave M87, Mechatron. The random bot
picks any option, the idle bot (turn timeout) an optional effect's decline and a forced
decision's first option (RULINGS R-TIMEOUT)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import catalogue
from .spec import MAX_POS
from .state import shown_strength

SACRIFICE_MAX = 3  # Murderer: a Human this weak (a fresh unit is 1) is worth less than a point
AMMO_KEPT = 2  # ammo kept for battle reactions (as the tactician's spend_ammo policy)


def decision_choice(
    kind: str | None,
    options: list,
    slots: list,
    hand: list,
    ammo: int,
    worth: Callable[[str], float],
) -> Any:
    """The option a strong player takes for the book's player decisions (None: no opinion,
    the caller decides; so for any other ``kind``, ``None`` included). ``slots``/``hand``/
    ``ammo`` are the chooser's own (state or its view); ``worth`` rates a hand card (lower:
    given up first). The options come from the scratch state of the held command, which may
    differ from what the chooser's state shows (a slot opened or a card drawn earlier in the
    same command): an option the chooser cannot see is rated as unknown, never looked up.

    - ``sacrifice`` (Murderer): give up the weakest other Human only when it has at most
      :data:`SACRIFICE_MAX` strength, else keep it;
    - ``ammo`` (Lieutenant Dan): with 2 or more Humans every ammo is worth 2+ permanent
      strength, so all of it; with Dan alone what exceeds :data:`AMMO_KEPT`;
    - ``red_slot``: under a unit at 15 (the Red Slot is exchanged at once for a Special
      Unit), else the default (leftmost empty slot / weakest unit: the most bonuses ahead);
    - ``health_draw``: 2 (the better of two); ``special_slot``: the leftmost slot ("Strive
      to place the best unit ... as far to the left as possible"); ``reshuffle``: yes;
    - ``attach`` (Mechatron): the hand card worth least, a unit from a slot only without one.
    RULINGS R-CHOICE-DEFAULTS.
    """
    if kind == "sacrifice":
        victims = [o for o in options if isinstance(o, int) and o < len(slots)]
        weak = [i for i in victims if shown_strength(slots[i]) <= SACRIFICE_MAX]
        return weak[0] if weak else "keep"
    if kind == "ammo":
        humans = sum(1 for s in slots if s.get("unit") and catalogue()[s["unit"]].color == "blue")
        want = ammo if humans >= 2 else max(0, ammo - AMMO_KEPT)
        return max((o for o in options if o <= want), default=options[0])
    if kind == "red_slot":
        full = [
            o
            for o in options
            if o < len(slots) and slots[o].get("unit") and slots[o]["pos"] == MAX_POS
        ]
        return full[0] if full else options[0]
    if kind == "health_draw":
        return max(options)
    if kind == "special_slot":
        return min(options)
    if kind == "reshuffle":
        return "reshuffle" if "reshuffle" in options else options[0]
    if kind == "attach":
        cards = [o for o in options if o in hand]
        return min(cards, key=lambda c: (worth(c), c)) if cards else options[0]
    return None
