"""Combating Zombies, Zombie Immunities, Call for Help rewards and After Combat effects.

- A Zombie is defeated by spending damage equal to its HP from the turn's pool; damage
  whose source shares a Card Type, Faction or title with the Zombie's immunities does not
  count (Zombie Immunities). Once an ally assisted, the rest of the turn's damage defeats
  attacking Zombies only (Call for Help).
- Which damage defeats which Zombie is the player's choice (``defeat`` with ``spend``, one
  of :func:`spend_options`); a bare ``defeat`` spends the default (ruling R-SPEND):
  assisting seats' damage first, then the damage that the most other Zombies in the row
  are immune to, then oldest first; the last entry may be partly spent.
- After Combat effects resolve right after the defeat, for the active seat and every
  assisting seat (After Combat effects); ignored in the easiest game.
- Reward: the adjacent Resource Row card (same column) goes to the active seat; with
  assisting seats, each of them in turn (left to right) claims that card or an Adept
  Survivor, then the active seat takes the card if nobody did, else an Adept Survivor.
- Gaining the CDC wins the game (Game Ends).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from . import spec
from .cards import CardDef, catalogue
from .effects import run_zombie_steps
from .ending import finish
from .recorder import Recorder
from .state import MatchState


def immune(zombie: CardDef, damage: Mapping[str, Any]) -> bool:
    """True when ``zombie`` is immune to the source of ``damage`` (type, faction or title).

    RULINGS R-IMMUNITY.
    """
    im = zombie.immune
    return (
        damage["kind"] in im.get("types", ())
        or damage["faction"] in im.get("factions", ())
        or damage["title"] in im.get("titles", ())
    )


def assisted(state: Any) -> bool:
    """An ally assisted this turn: from then on the damage defeats attacking Zombies only."""
    help_ = getattr(state, "help", None) or {}
    return bool(help_.get("assisted"))


def may_fight(state: Any, column: int) -> bool:
    """Whether the Zombie in ``column`` may be defeated at all this turn: after an ally
    assisted, "The active player may then use the total accumulated damage for the
    remainder of his/her turn but only to defeat attacking Zombies" (ruling R-HELP)."""
    return state.zombie_row[column] is not None and (
        column in state.attackers or not assisted(state)
    )


def usable(state: Any, column: int) -> list[int]:
    """Indices of pool entries that may be spent on the Zombie in ``column`` (none for a
    Zombie the active seat may not fight now, :func:`may_fight`)."""
    if not may_fight(state, column):
        return []
    zombie = catalogue().of(state.zombie_row[column])
    attacking = column in state.attackers
    return [
        i
        for i, d in enumerate(state.damage)
        if d["amount"] > 0 and not immune(zombie, d) and (attacking or not d["ally"])
    ]


def usable_total(state: Any, column: int) -> int:
    """Damage that counts against the Zombie in ``column`` (0 for an empty place)."""
    if state.zombie_row[column] is None:
        return 0
    return sum(state.damage[i]["amount"] for i in usable(state, column))


def can_defeat(state: Any, column: int) -> bool:
    """The Zombie in ``column`` exists and the usable damage reaches its HP."""
    z = state.zombie_row[column]
    return z is not None and usable_total(state, column) >= catalogue().of(z).hp


def spend_plan(state: Any, column: int) -> list[list[int]]:
    """``[[index, amount], ...]`` spending exactly the Zombie's HP (ruling R-SPEND: the
    default of :func:`spend_options`, what a bare ``defeat`` spends)."""
    need = catalogue().of(state.zombie_row[column]).hp
    plan = []
    for i in _ordered(state, column):
        if need <= 0:
            break
        take = min(need, state.damage[i]["amount"])
        plan.append([i, take])
        need -= take
    return plan


def _classes(state: Any, column: int) -> dict[tuple, list[int]]:
    """Usable entries against ``column`` grouped by what they could still do afterwards:
    the key says, for each other Zombie the active seat may still fight, whether the entry
    counts against it. Entries of one class are interchangeable for the rest of the turn;
    each class lists its entries in the R-SPEND order."""
    cat = catalogue()
    others = [c for c in range(len(state.zombie_row)) if c != column and may_fight(state, c)]
    order = {i: k for k, i in enumerate(_ordered(state, column))}
    classes: dict[tuple, list[int]] = {}
    for i in sorted(order, key=order.__getitem__):
        d = state.damage[i]
        key = tuple(
            not immune(cat.of(state.zombie_row[c]), d) and (c in state.attackers or not d["ally"])
            for c in others
        )
        classes.setdefault(key, []).append(i)
    return classes


def _ordered(state: Any, column: int) -> list[int]:
    cat = catalogue()
    others = [cat.of(z) for c, z in enumerate(state.zombie_row) if z is not None and c != column]

    def order(i: int) -> tuple[int, int, int]:
        d = state.damage[i]
        return (0 if d["ally"] else 1, -sum(immune(o, d) for o in others), i)

    return sorted(usable(state, column), key=order)


def spend_options(state: Any, column: int) -> list[list[list[int]]]:
    """Every distinct way to spend exactly the Zombie's HP on ``column`` — the player's
    choice of which damage defeats which Zombie (Combating Zombies: "the active player
    must generate enough damage equal to a Zombie's Hit Points"; issue 9 item 4). Two ways
    are distinct when they leave different damage for the other Zombies; each is a plan
    ``[[index, amount], ...]`` sorted by index (within a class the R-SPEND order, the last
    entry partly spent). The R-SPEND plan (:func:`spend_plan`) is first. ``[]`` when the
    Zombie cannot be defeated."""
    if not can_defeat(state, column):
        return []
    need = catalogue().of(state.zombie_row[column]).hp
    classes = list(_classes(state, column).values())
    avail = [sum(state.damage[i]["amount"] for i in members) for members in classes]
    plans: list[list[list[int]]] = []

    def build(k: int, left: int, takes: list[int]) -> None:
        if k == len(classes):
            if left == 0:
                plans.append(_plan(state, classes, takes))
            return
        rest = sum(avail[k + 1 :])
        for x in range(max(0, left - rest), min(avail[k], left) + 1):
            build(k + 1, left - x, takes + [x])

    build(0, need, [])
    default = sorted(spend_plan(state, column))
    plans.sort(key=lambda p: p != default)
    return plans


def _plan(state: Any, classes: list[list[int]], takes: list[int]) -> list[list[int]]:
    plan = []
    for members, take in zip(classes, takes, strict=True):
        for i in members:
            if take <= 0:
                break
            amount = min(take, state.damage[i]["amount"])
            plan.append([i, amount])
            take -= amount
    return sorted(plan)


def defeat(
    rec: Recorder, column: int, rng: random.Random, plan: list[list[int]] | None = None
) -> None:
    """Defeat the Zombie in ``column`` spending ``plan`` (one of :func:`spend_options`;
    default the R-SPEND plan). The caller checked both. RULINGS R-AFTER-COMBAT."""
    s = rec.state
    zombie = s.zombie_row[column]
    rec.emit(
        "ZombieDefeated",
        {
            "seat": s.active,
            "column": column,
            "card": zombie,
            "spent": [list(p) for p in plan] if plan is not None else spend_plan(s, column),
        },
        s.active,
    )
    receivers = [s.active] + [a for a in s.allies_in_order() if a in s.help["assisted"]]
    if not spec.easiest(s.options):
        for seat in receivers:
            run_zombie_steps(rec, seat, catalogue().of(zombie).after_combat, rng)
    _offer(rec, column, receivers[1:], taken=False)


def reward_options(state: MatchState, column: int, taken: bool) -> list[str]:
    """What an assisting seat may claim now: ``"resource"`` and/or ``"adept"``.

    RULINGS R-REWARD.
    """
    options = []
    if not taken and state.resource_row[column] is not None:
        options.append("resource")
    if state.adept_stack:
        options.append("adept")
    return options


def _offer(rec: Recorder, column: int, queue: list[int], taken: bool) -> None:
    """Ask the next assisting seat that has a choice, else finish with the active seat."""
    while queue:
        seat, queue = queue[0], queue[1:]
        if reward_options(rec.state, column, taken):
            rec.emit(
                "PromptOpened",
                {
                    "prompt": {
                        "kind": "reward",
                        "seat": seat,
                        "column": column,
                        "queue": queue,
                        "taken": taken,
                    }
                },
                seat,
            )
            return
    _active_reward(rec, column, taken)


def claim(rec: Recorder, choice: str, rng: random.Random) -> None:
    """An assisting seat's ``claim`` answer to the open reward prompt. RULINGS R-WIN."""
    p = dict(rec.state.prompt)
    _gain(rec, p["seat"], p["column"], choice)
    rec.emit("PromptClosed", {"kind": "reward"}, p["seat"])
    _offer(rec, p["column"], list(p["queue"]), p["taken"] or choice == "resource")


def _gain(rec: Recorder, seat: int, column: int, choice: str) -> None:
    s = rec.state
    if choice == "resource":
        rec.emit(
            "CardGained",
            {
                "seat": seat,
                "card": s.resource_row[column],
                "from": "resource_row",
                "column": column,
            },
            seat,
        )
    elif s.adept_stack:
        rec.emit(
            "CardGained", {"seat": seat, "card": s.adept_stack[0], "from": "adept_stack"}, seat
        )


def _active_reward(rec: Recorder, column: int, taken: bool) -> None:
    s = rec.state
    if not taken and s.resource_row[column] is not None:
        _gain(rec, s.active, column, "resource")
    elif s.help["assisted"]:
        _gain(rec, s.active, column, "adept")
    if rec.state.cdc_holder is not None:
        finish(rec, "won", "cdc_gained")
