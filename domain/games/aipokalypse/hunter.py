"""The ``toma_hunter`` bot: a policy for "Solo / Cooperative Mode" against the A.I.Toma.

The rulebook warns: "If you don't defeat the A.I.Toma quickly enough, it will become so strong
that you won't stand a chance!" Every battle card the A.I.Toma draws stays on one of its units
(its units' strength is the sum of their card values), so it grows by roughly one card value
per battle card and battle, while a player's unit starts at strength 1 and grows only by
effects and ammo. The bot therefore plays for the early battles, with the A.I.Toma's open
board (its units, their strengths, its ammo and the strength of its ammo are public) in mind:

- **Few units, many reactions.** Battle strength is mostly the battle card's value; a fresh
  unit adds 1. A hand card kept for battle replaces a weak battle card ("Increasing Battle
  Strength") and is drawn again at the next Recruitment Phase, so it costs nothing for good.
  The bot keeps about as many units as the A.I.Toma has (more units only add battle cards,
  i.e. cards the A.I.Toma keeps), each of its own colour, and keeps the rest of the hand.
- **Units that fight.** Battle cards go to the leftmost active unit of their colour: the bot
  recruits units with strength effects (recruit, round bonus, battle effects, ammo) and puts
  targeted strength where the strength scale jumps furthest (10-12-15).
- **Ammo for the battle.** An ammo spent in battle is worth 2 strength, in Recruitment 1; the
  bot keeps up to ``ammo_keep`` ammo for reactions and spends the surplus permanently.
- **Win the point, cheaply.** Every reaction ``legal_actions`` offers against the A.I.Toma
  wins the point (a tie is the A.I.Toma's): the bot reacts with the hand card it needs least
  (the lowest value that is neither a Triple pair nor an A.I.Lien), else with ammo (up to
  ``ammo_react`` at a time, any amount on the last point of the battle).
- **Health is life.** It never draws Special Units from its own health stack (each costs a
  health point) unless it has more than ``health_triple_min``; Triples from its pool (or its
  partner's, once per game in co-op) are taken at once.

It reads only its own seat's view (:func:`.views.view`) and ``legal_actions``: never the
A.I.Toma's health stack or the deck. In the competitive game it plays as the tactician.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from .actions import legal_actions
from .cards import catalogue
from .spec import MAX_POS, SCALE
from .views import view

DEFAULTS: dict[str, Any] = {
    "ammo_keep": 4,           # ammo kept for battle; the surplus is spent in Recruitment
    "ammo_react": 2,          # most ammo spent on one point (except the last point)
    "health_triple_min": 6,   # draw Special Units from the own health stack only above this
    "extra_units": 0,         # units wanted beyond the A.I.Toma's unit count
    "min_units": 2,           # units wanted at least
    "max_units": 6,
    "reserve": 2,             # hand cards kept for reactions when opening slots
}


def _cat():
    return catalogue()


def _strength(slot: Mapping[str, Any]) -> int:
    """Printed strength of one of the bot's own slots (0 when empty)."""
    return SCALE[slot["pos"]] if slot.get("unit") else 0


def _gain(pos: int, n: int) -> int:
    """Strength a unit at scale index ``pos`` gains from "+n strength" (positions, capped)."""
    return SCALE[min(MAX_POS, pos + n)] - SCALE[pos]


class TomaHunterBot:
    """A policy for the human seats against the A.I.Toma (see the module doc for how it
    decides). ``params`` override :data:`DEFAULTS`; outside solo/co-op it delegates to
    ``fallback`` (the tactician)."""

    name = "toma_hunter"

    def __init__(self, fallback: Any = None, **params: Any):
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown toma_hunter parameters {sorted(unknown)}")
        self.params = dict(DEFAULTS, **params)
        self.fallback = fallback

    # ------------------------------------------------------------------ entry point

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command from ``legal_actions(state, seat)``, decided from ``view(state, seat)``
        (ValueError when there is none)."""
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError("no legal action")
        v = view(state, seat)
        if v["toma"] is None and self.fallback is not None:
            return self.fallback.choose(state, seat, rng)
        me = v["seats"][seat]
        kinds = {a["type"] for a in actions}
        if "choose" in kinds:
            return self._choose(v, me, actions)
        if "draft_special" in kinds:
            return max(actions, key=lambda a: (self._special_score(a["special"]), a["special"]))
        if "order_health" in kinds:
            return actions[0]
        if "choose_faction" in kinds:
            return max(actions, key=lambda a: (self._faction_score(a["faction"]), a["faction"]))
        if "choose_special" in kinds:
            offered = [a for a in actions if a["type"] == "choose_special"]
            return max(offered, key=lambda a: (self._special_score(a["special"]), a["special"]))
        if "place_card" in kinds:
            return self._place(me, actions)
        if kinds & {"react_card", "react_ammo", "pass"}:
            return self._react(v, me, actions)
        return self._recruit(v, me, actions)

    # ------------------------------------------------------------------ card worth

    def _special_score(self, cid: str) -> float:
        """Worth of a Special Unit as a unit (its effects), for picks."""
        return 6.0 + self._effect_score(cid, None)

    @staticmethod
    def _faction_score(fid: str) -> float:
        """Factions that give ammo, strength or cards every round first; then the easy ones."""
        card = _cat()[fid]
        score = {"easy": 1.0, "medium": 0.5, "hard": 0.0}.get(card.difficulty or "", 0.0)
        for eff in card.effects:
            for op in eff["ops"]:
                if op["op"] in ("ammo", "strength", "draw") and eff["trigger"] in ("round_bonus", "preparation"):
                    score += 2.0 * op.get("n", 1)
                elif op["op"] in ("ammo_bonus", "max_ammo", "ammo_per_damage"):
                    score += 1.5
        return score

    def _effect_score(self, cid: str, me: Mapping[str, Any] | None) -> float:
        """Rough strength a card's effects are worth on a slot over the next battles:
        permanent strength, temporary strength in its fights, ammo (2 each), cards."""
        card = _cat()[cid]
        slots = [s for s in (me or {}).get("slots", []) if s.get("unit")]
        score = 0.0
        for eff in card.effects:
            trig = eff["trigger"]
            weight = {"recruit": 1.0, "round_bonus": 2.5, "battle": 2.0, "preparation": 2.0,
                      "passive": 1.0}.get(trig, 0.3)
            for op in eff["ops"]:
                name, n = op["op"], op.get("n", 1)
                if name == "strength":
                    if op.get("to") == "all":
                        count = 1 + sum(1 for s in slots if _cat()[s["unit"]].color == op.get("color"))
                        score += weight * n * count
                    elif op.get("to") == "target":
                        best = max((_gain(s["pos"], n) for s in slots
                                    if not op.get("color") or _cat()[s["unit"]].color == op["color"]), default=0)
                        score += weight * best
                    else:
                        score += weight * n
                elif name == "temp" and op.get("to") != "opponents":
                    score += weight * (n if n > 0 else 2) * (1.5 if op.get("to") == "all" else 1.0)
                elif name == "temp":
                    score += weight * abs(n)
                elif name in ("ammo", "ammo_all"):
                    score += weight * 2 * n
                elif name in ("draw", "draw_discard"):
                    score += weight * 0.8 * op.get("n", op.get("draw", 1))
                elif name == "magnet":
                    score += weight * 1.0
                elif name in ("red_slot", "double_strength", "tiebreak", "win_point", "heal", "reactivate"):
                    score += 2.0
                elif name == "battle_cards":
                    score -= 1.0
        return score

    def _unit_score(self, cid: str, me: Mapping[str, Any]) -> float:
        """Worth of recruiting ``cid`` (strength 1, or a Special Unit) onto a slot now."""
        card = _cat()[cid]
        base = 4.0 if card.category == "special" else 1.0
        colors = Counter(_cat()[s["unit"]].color for s in me["slots"] if s.get("unit"))
        if card.color and colors.get(card.color, 0) == 0:
            base += 1.5                                   # a colour without a unit yet
        if card.color == "purple":
            base += 1.0                                   # a Rogue fights with every colour
        return base + self._effect_score(cid, me)

    def _keep_score(self, cid: str, me: Mapping[str, Any]) -> float:
        """Worth of keeping ``cid`` in hand: a battle reaction (its card value; an A.I.Lien
        fights with any unit) and a Triple in the making."""
        card = _cat()[cid]
        if card.category != "basic":
            return 0.0
        score = float(card.value or 0)
        if card.kind == "ailien":
            score += 3.0
        if self._pair_count(me, cid) >= 2:
            score += 3.0
        return score

    @staticmethod
    def _pair_count(me: Mapping[str, Any], cid: str) -> int:
        """How many cards of ``cid``'s colour and value the seat holds (hand and slots)."""
        cat = _cat()
        key = (cat[cid].color, cat[cid].value)
        held = list(me["hand"]) + [s["unit"] for s in me["slots"] if s.get("unit")]
        return sum(1 for c in held if cat[c].category == "basic" and (cat[c].color, cat[c].value) == key)

    # ------------------------------------------------------------------ Recruitment

    def _wanted_units(self, v: Mapping[str, Any]) -> int:
        toma_units = sum(1 for s in v["toma"]["slots"] if s["unit"])
        p = self.params
        return max(p["min_units"], min(p["max_units"], toma_units + p["extra_units"]))

    def _recruit(self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        by: dict[str, list[dict[str, Any]]] = {}
        for a in actions:
            by.setdefault(a["type"], []).append(a)
        triple = self._triple(me, by.get("triple", []))
        if triple:
            return triple
        units = [s for s in me["slots"] if s.get("unit")]
        want = self._wanted_units(v)
        recruit = self._best_recruit(me, by.get("recruit", []), len(units) < want)
        if recruit:
            return recruit
        empty = sum(1 for s in me["slots"] if not s.get("unit"))
        if len(units) + empty < want and len(me["hand"]) >= 2 + self.params["reserve"] * 0:
            spare = by.get("open_slot", [])
            if spare and len(me["hand"]) > self.params["reserve"]:
                return min(spare, key=lambda a: (self._keep_score(a["card"], me) + self._unit_score(a["card"], me),
                                                 a["card"]))
        spend = by.get("spend_ammo", [])
        if spend and me["ammo"] > self.params["ammo_keep"]:
            return max(spend, key=lambda a: (_gain(me["slots"][a["slot"]]["pos"], 1), -a["slot"]))
        return {"type": "ready"}

    def _triple(self, me: Mapping[str, Any], triples: list[dict[str, Any]]) -> dict[str, Any] | None:
        cat = _cat()
        pool = [a for a in triples if a["source"] in ("pool", "partner")]
        health = [a for a in triples if a["source"] == "health" and me["health_count"] > self.params["health_triple_min"]]
        pick = pool or health
        if not pick:
            return None

        def worth(a: dict[str, Any]) -> tuple:
            carried = sum(_strength(s) for s in me["slots"] if s.get("unit") in a["cards"])
            special = self._special_score(a["special"]) if a.get("special") else 5.0
            cost = sum(self._keep_score(c, me) for c in a["cards"] if c in me["hand"]) * 0.3
            return (special + carried - cost, a.get("special", ""))
        return max(pick, key=worth)

    def _best_recruit(self, me: Mapping[str, Any], recruits: list[dict[str, Any]], need: bool) -> dict[str, Any] | None:
        """The recruit worth most (card, then its target, then the leftmost slot); without
        ``need`` only a Special Unit or a card worth more on a slot than in hand."""
        if not recruits:
            return None
        cat = _cat()

        def target_gain(a: dict[str, Any]) -> int:
            t = a.get("target")
            if t is None:
                return 0
            ops = [op for op in cat[a["card"]].ops("recruit") if op["op"] == "strength"]
            n = ops[0].get("n", 1) if ops else 0
            return _gain(me["slots"][t]["pos"], n) if n else _strength(me["slots"][t])

        def worth(a: dict[str, Any]) -> tuple:
            return (self._unit_score(a["card"], me) - self._keep_score(a["card"], me) * 0.5,
                    target_gain(a), -a["slot"])
        best = max(recruits, key=worth)
        card = cat[best["card"]]
        if need or card.category == "special" or worth(best)[0] >= 4.0:
            return best
        return None

    # ------------------------------------------------------------------ Battle

    def _react(self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        cat = _cat()
        cards = [a for a in actions if a["type"] == "react_card"]
        ammo = [a for a in actions if a["type"] == "react_ammo"]
        last = me["battle_stack"] == 0
        if cards:
            best = min(cards, key=lambda a: (self._keep_score(a["card"], me), cat[a["card"]].value or 0, a["card"]))
            if not ammo or self._keep_score(best["card"], me) <= 6.0 or last:
                return best
        if ammo:
            cheapest = min(ammo, key=lambda a: a["count"])
            if cheapest["count"] <= self.params["ammo_react"] or last:
                return cheapest
        if cards:
            return min(cards, key=lambda a: (self._keep_score(a["card"], me), a["card"]))
        return {"type": "pass"}

    @staticmethod
    def _place(me: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        """A battle card without a fitting unit: an empty slot, else the weakest active unit."""
        places = [a for a in actions if a["type"] == "place_card"]
        if not places:
            return actions[0]
        empty = [a for a in places if not me["slots"][a["slot"]].get("unit")]
        if empty:
            return empty[0]
        return min(places, key=lambda a: (_strength(me["slots"][a["slot"]]), -a["slot"]))

    # ------------------------------------------------------------------ effect decisions

    def _choose(self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Effect decisions: the default (first) option, except C.H.R.O.M.E. doubles, a
        Special Unit is the best one offered, a strength target is where the scale jumps
        furthest, and discards take the hand card needed least."""
        choice = v["choice"] or {}
        kind = choice.get("kind")
        options = [a["option"] for a in actions]
        cat = _cat()
        if kind == "chrome" and "double" in options:
            return {"type": "choose", "option": "double"}
        if kind == "special":
            specials = [o for o in options if isinstance(o, str) and o in cat and cat[o].category == "special"]
            if specials:
                return {"type": "choose", "option": max(specials, key=lambda c: (self._special_score(c), c))}
        if kind == "strength":
            slots = [o for o in options if isinstance(o, int) and 0 <= o < len(me["slots"])]
            if slots:
                return {"type": "choose", "option": max(slots, key=lambda i: (me["slots"][i]["pos"], -i))}
        if kind == "discard":
            cards = [o for o in options if isinstance(o, str) and o in me["hand"]]
            if cards and "stop" not in options:
                return {"type": "choose", "option": min(cards, key=lambda c: (self._keep_score(c, me), c))}
        return actions[0]


HUNTER = TomaHunterBot()
