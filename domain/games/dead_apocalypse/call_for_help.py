"""When Call for Help is allowed (rulebook, Call for Help).

"If the cards in your hand and/or in play will not gain enough damage for you to defeat
any or all of the attacking Zombies, you may Call for Help." Ruling R-HELP reads it as:
the active seat may call unless the damage it has and could still gain covers every
attacking Zombie still in the row at once. "Could still gain" counts the unspent pool, the
printed damage of every Human, Equipment and Location in its hand, the damage of its
unused Repeat Locations, and every conditional damage ability as if all those cards were
in play (conditions are read when damage is spent, ruling R-CONDITION; a Molotov Ditches
itself, so it is never in play for another card). Cards a draw would bring are unknown and
count nothing. Immunities apply: the cover is a flow problem (each Zombie needs its HP
from entries it is not immune to), decided by Hall's condition over every set of
attackers.
"""

from __future__ import annotations

from typing import Any

from .cards import catalogue
from .combat import immune
from .conditions import in_play, value_with
from .state import MatchState

PLAYABLE = ("human", "equipment", "location")


def potential(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Pool-like entries ``{"title","kind","faction","amount"}``: the unspent pool plus
    what ``seat``'s hand and unused Repeat Locations would still gain (module doc)."""
    cat = catalogue()
    me = state.seats[seat]
    hand = [c for c in me.hand if cat.of(c).kind in PLAYABLE]
    repeats = [
        loc["card"]
        for loc in me.locations
        if cat.of(loc["card"]).repeat and loc["card"] not in state.repeat_used
    ]
    stays = in_play(state, seat) + [
        c for c in hand if not any(s["op"] == "ditch_self" for s in cat.of(c).abilities)
    ]
    out = []
    for d in state.damage:
        d = dict(d)
        if d.get("cond"):  # a Sniper in play counts the Soldier still in hand
            d["amount"] = max(0, value_with(stays, d["source"], d["cond"]) - d["spent"])
        if d["amount"] > 0:
            out.append(d)
    for card in hand + repeats:
        card_def = cat.of(card)
        amount = card_def.damage
        for step in card_def.abilities:
            if step["op"] in ("damage_if", "damage_per"):
                cond = {
                    "op": step["op"],
                    "amount": step["amount"],
                    "match": dict(step.get("if") or step.get("per")),
                }
                amount += value_with(stays, card, cond)
        if amount > 0:
            out.append(
                {
                    "title": card_def.title,
                    "kind": card_def.kind,
                    "faction": card_def.faction,
                    "amount": amount,
                }
            )
    return out


def coverable(entries: list[dict[str, Any]], zombies: list[Any]) -> list[bool]:
    """For every group of ``zombies`` (bitmask ``g``: zombie ``j`` is in it when bit ``j``
    is set), whether the entries that may hit one of the group's zombies (not immune to
    all of them) supply at least the group's total HP. ``ok[0]`` is True. Hall's
    condition: ``entries`` can pay every HP of a group at once iff every sub-group's check
    holds (:func:`covers`)."""
    masks = []
    for e in entries:
        mask = 0
        for j, z in enumerate(zombies):
            if not immune(z, e):
                mask |= 1 << j
        masks.append((mask, e["amount"]))
    hps = [z.hp for z in zombies]
    ok = [True] * (1 << len(zombies))
    for group in range(1, len(ok)):
        supply = sum(amount for mask, amount in masks if mask & group)
        need = sum(hp for j, hp in enumerate(hps) if group >> j & 1)
        ok[group] = supply >= need
    return ok


def covers(entries: list[dict[str, Any]], zombies: list[Any]) -> bool:
    """True when ``entries`` (divisible damage) can pay every zombie's HP at once, each
    only from entries it is not immune to (Hall's condition over :func:`coverable`)."""
    return all(coverable(entries, zombies))


def help_needed(state: MatchState) -> bool:
    """The active seat's hand and cards in play will not gain enough damage to defeat
    every attacking Zombie still in the row (module doc). RULINGS R-HELP."""
    cat = catalogue()
    attackers = [cat.of(z) for c in state.attackers if (z := state.zombie_row[c]) is not None]
    return bool(attackers) and not covers(potential(state, state.active), attackers)
