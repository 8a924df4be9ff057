"""Bot policies: ``random`` (uniform over legal actions) and ``cooperative``.

Both read only what their seat sees (:func:`views.view` for that seat) and pick from
:func:`actions.legal_actions`. ``cooperative`` plays to win as a team:

- its own turn: resolve Repeat abilities, play draw/cure cards, Locations, Equipment,
  then Humans — occupying a Location with a Human whenever this turn's best kill plan
  does not need its damage; then defeat Zombies following the best plan (every subset of
  the row tried with the engine's spending rule; value: the CDC column above all, then
  attackers, Zombies with Repeat abilities, the reward card, minus After Combat harm);
  Call for Help when an attacker is left that its damage cannot defeat.
- Call for Help: assists when an attacker is still out of reach and its hand can close the
  smallest shortfall, plays its strongest cards until the attackers are covered, and
  claims an Adept Survivor (leaving the Resource Row card to the active seat).
- prompts: Ditches plain Survivors (thinning the deck while it keeps 12+ playable cards
  and 4+ strong ones in sight),
  occupies with its strongest Human.
"""
from __future__ import annotations

import itertools
import random
from types import SimpleNamespace
from typing import Any

from .actions import legal_actions
from .cards import CardDef, catalogue
from .combat import can_defeat, immune, spend_plan
from .state import MatchState
from .views import view

THIN_KEEP = 12           # keep at least this many playable cards (deck, hand, discard, played)
THIN_STRONG = 4          # ... of which at least this many deal 2+ damage


class RandomBot:
    """Uniform choice over ``legal_actions``."""

    name = "random"

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat``; raises ValueError when it has none."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        return rng.choice(options)


def _table(v: dict[str, Any], extra: list[dict[str, Any]] = ()) -> SimpleNamespace:
    """A planning table from a view: damage pool (+ hypothetical entries), rows, attackers."""
    return SimpleNamespace(
        damage=[dict(d) for d in v["damage"]] + [dict(d) for d in extra],
        zombie_row=[None if z is None else z["card"] for z in v["zombie_row"]],
        resource_row=[None if r is None else r["card"] for r in v["resource_row"]],
        attackers=[z["column"] for z in v["zombie_row"] if z is not None and z["attacking"]])


def card_value(card: CardDef) -> float:
    """Rough worth of gaining ``card``: damage, draws and cures count, Locations a bit more."""
    value = float(card.damage)
    for step in card.abilities:
        amount = step.get("amount", 1)
        value += {"draw": 1.2, "cure": 0.6, "damage_if": 0.6, "damage_per": 0.8,
                  "gain": 1.5, "ditch": 0.4, "occupy": 0.5}.get(step["op"], 0.0) * amount
    if card.kind == "location":
        value = value * 2 + card.occupancy
    return value


def zombie_value(t: SimpleNamespace, column: int) -> float:
    """Worth of defeating the Zombie in ``column`` this turn."""
    cat = catalogue()
    z = cat.of(t.zombie_row[column])
    reward = t.resource_row[column]
    value = 10.0
    if reward is not None and cat.of(reward).kind == "cdc":
        return 1000.0
    if reward is not None:
        value += card_value(cat.of(reward))
    if column in t.attackers:
        value += 8
    if z.repeat_ops:
        value += 5
    for step in z.after_combat:
        value -= (2.0 if step["op"] == "gain_infection" else 1.0) * step.get("amount", 1)
    return value


def best_plan(t: SimpleNamespace) -> tuple[float, list[int]]:
    """``(value, columns in defeat order)`` of the best feasible set of defeats."""
    cat = catalogue()
    columns = [c for c, z in enumerate(t.zombie_row) if z is not None]
    total = sum(d["amount"] for d in t.damage)
    best: tuple[float, list[int]] = (0.0, [])
    for size in range(1, len(columns) + 1):
        for subset in itertools.combinations(columns, size):
            if sum(cat.of(t.zombie_row[c]).hp for c in subset) > total:
                continue
            for order in _orders(t, subset):
                if _feasible(t, order):
                    value = sum(zombie_value(t, c) for c in order)
                    if value > best[0]:
                        best = (value, list(order))
                    break
    return best


def _orders(t: SimpleNamespace, subset: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Defeat orders worth trying: attackers first, then most-immune first, then all."""
    cat = catalogue()
    key = lambda c: (c not in t.attackers, -sum(len(v) for v in cat.of(t.zombie_row[c]).immune.values()))
    first = tuple(sorted(subset, key=key))
    rest = [p for p in itertools.permutations(subset) if p != first] if len(subset) == 2 else []
    return [first] + rest


def _feasible(t: SimpleNamespace, order: tuple[int, ...]) -> bool:
    sim = SimpleNamespace(damage=[dict(d) for d in t.damage], zombie_row=list(t.zombie_row),
                          attackers=list(t.attackers))
    for c in order:
        if not can_defeat(sim, c):
            return False
        for index, amount in spend_plan(sim, c):
            sim.damage[index]["amount"] -= amount
        sim.zombie_row[c] = None
    return True


def _entry(card: str, seat: int) -> dict[str, Any]:
    d = catalogue().of(card)
    return {"seat": seat, "source": card, "title": d.title, "kind": d.kind, "faction": d.faction,
            "amount": d.damage, "ally": False}


class CooperativeBot:
    """Team play (module doc). Deterministic: the ``rng`` argument is not used."""

    name = "cooperative"

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat`` chosen from its own view; ValueError if none."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        v = view(state, seat)
        kind = next(iter(v["pending"].values()))
        chooser = {"ditch": self._ditch, "occupy": self._occupy, "reward": self._reward,
                   "help": self._help, "assist": self._assist, "turn": self._turn}[kind]
        return chooser(v, seat, options)

    # -- prompts -----------------------------------------------------------------
    def _ditch(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        me = v["seats"][seat]
        known = me["hand"] + me["discard"] + me["played"]
        infections = sum(1 for c in known if cat.of(c).kind == "infection")
        playable = me["deck_count"] + len(known) - infections
        strong = sum(1 for c in known if cat.of(c).damage >= 2)
        if playable > THIN_KEEP and strong >= THIN_STRONG:
            for o in options:
                if o["type"] == "choose" and cat.of(o["card"]).id == "survivor":
                    return o
        return {"type": "skip"}

    def _occupy(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        choices = [o for o in options if o["type"] == "choose"]
        return max(choices, key=lambda o: cat.of(o["card"]).damage)

    def _reward(self, v: dict, seat: int, options: list[dict]) -> dict:
        return next((o for o in options if o["choice"] == "adept"), options[0])

    # -- Call for Help -----------------------------------------------------------
    def _uncovered(self, v: dict) -> int:
        """HP of attacking Zombies the pool cannot cover (a sum, ignoring the order)."""
        t = _table(v)
        need = 0
        for c in t.attackers:
            z = catalogue().of(t.zombie_row[c])
            have = sum(d["amount"] for d in t.damage if not immune(z, d))
            need = max(need, z.hp - have) if need == 0 else need + z.hp
        return max(need, 0)

    def _help(self, v: dict, seat: int, options: list[dict]) -> dict:
        """Assist when the hand's printed damage (draw cards count 1) reaches the smallest
        shortfall among the attackers: a hand spent without a kill only weakens our turn."""
        cat = catalogue()
        t = _table(v)
        shortfalls = []
        for c in t.attackers:
            z = cat.of(t.zombie_row[c])
            shortfalls.append(z.hp - sum(d["amount"] for d in t.damage if not immune(z, d)))
        need = min(shortfalls, default=0)
        potential = sum(max(cat.of(c).damage, 1 if _draws(cat.of(c)) else 0)
                        for c in v["seats"][seat]["hand"] if cat.of(c).kind in ("human", "equipment"))
        return {"type": "assist"} if 0 < need <= potential else {"type": "decline"}

    def _assist(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        plays = [o for o in options if o["type"] == "play" and cat.of(o["card"]).kind != "location"]
        if plays and self._uncovered(v) > 0:
            return max(plays, key=lambda o: (_draws(cat.of(o["card"])), cat.of(o["card"]).damage))
        return {"type": "end_assist"}

    # -- own turn ----------------------------------------------------------------
    def _turn(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        by_type: dict[str, list[dict]] = {}
        for o in options:
            by_type.setdefault(o["type"], []).append(o)
        if "use_repeat" in by_type:
            return by_type["use_repeat"][0]
        plays = by_type.get("play", [])
        for pick in (lambda d: _draws(d) > 0 or any(s["op"] == "cure" for s in d.abilities),
                     lambda d: d.kind == "location",
                     lambda d: d.kind == "equipment" and not _conditional(d),
                     lambda d: d.kind == "equipment"):
            chosen = [o for o in plays if pick(cat.of(o["card"]))]
            if chosen:
                return max(chosen, key=lambda o: cat.of(o["card"]).damage)
        humans = [o for o in plays if cat.of(o["card"]).kind == "human"]
        if humans:
            occupy = self._occupy_choice(v, seat, by_type.get("occupy", []), humans)
            if occupy is not None:
                return occupy
            plain = [o for o in humans if not _conditional(cat.of(o["card"]))]
            return max(plain or humans, key=lambda o: cat.of(o["card"]).damage)
        value, order = best_plan(_table(v))
        if order:
            return {"type": "defeat", "column": order[0]}
        if "call_for_help" in by_type:
            return by_type["call_for_help"][0]
        return {"type": "end_turn"}

    def _occupy_choice(self, v: dict, seat: int, occupy: list[dict], humans: list[dict]) -> dict | None:
        """Occupy with the strongest Human when the kill plan does not need its damage."""
        if not occupy:
            return None
        cat = catalogue()
        strongest = max(humans, key=lambda o: cat.of(o["card"]).damage)["card"]
        cards = [o["card"] for o in humans]
        with_all = best_plan(_table(v, [_entry(c, seat) for c in cards]))[0]
        without = best_plan(_table(v, [_entry(c, seat) for c in cards if c != strongest]))[0]
        if without >= with_all:
            targets = [o for o in occupy if o["card"] == strongest]
            if targets:
                return targets[0]
        return None


def _draws(card: CardDef) -> int:
    return sum(s.get("amount", 0) for s in card.abilities if s["op"] == "draw")


def _conditional(card: CardDef) -> bool:
    return any(s["op"] in ("damage_if", "damage_per") for s in card.abilities)


BOTS = {"random": RandomBot(), "cooperative": CooperativeBot()}
