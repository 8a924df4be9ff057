"""The ``toma_hunter`` bot: a policy for "Solo / Cooperative Mode" against the A.I.Toma.

The rulebook warns: "If you don't defeat the A.I.Toma quickly enough, it will become so strong
that you won't stand a chance!" Every battle card the A.I.Toma draws stays on one of its units
(a unit's strength is the sum of its card values), so each of its units grows by about one card
value per battle, while a player's unit starts at strength 1 and grows only by effects and ammo.
The bot plays for the early battles, reading the A.I.Toma's open board (its units and their
strengths, its ammo and the strength of its ammo) from its own view:

- **One unit more than the A.I.Toma.** Battle cards are dealt for the player with the most
  units; a point beyond the A.I.Toma's unit count is one where its units are all exhausted and
  its card fights alone with its value, a point the bot usually wins, and a unit of each
  colour (Rogues on the right, where they take what the coloured units leave) keeps the bot's
  own cards from fighting alone. So it wants the A.I.Toma's unit count plus ``extra_units``
  (at least ``min_units``; ``first_units`` in round 1, when it keeps ``first_reserve`` hand
  cards), and opens slots with the hand cards it needs least while it keeps ``reserve``.
- **Units that fight.** It recruits the cards whose effects give most over the next battles
  (strength, temporary strength in its fights, ammo, cards; kills, damage and tie-winning
  count high against the A.I.Toma), low card values first (high values are reactions), and
  puts targeted strength where the strength scale jumps furthest (10-12-15). A Special Unit
  in hand always gets a slot (a weak basic unit makes room); a Triple is made for the best
  Special Unit of its pool (or, once, its partner's) when it will find a slot; its own health
  stack only above ``health_triple_min`` health points (each draw costs a health point). It
  never recruits an A.I.Lien in Sudden Death unless the A.I.Pokalypse it starts is won.
- **Win the point, cheaply.** A hand card played in battle is drawn again at the next
  Recruitment Phase, an ammo is gone: when its side would lose the point (a tie is the
  A.I.Toma's) the bot estimates each offered reaction's battle strength from its own board
  and starts the cheapest plan that wins (a card plus the ammo it still needs, or ammo
  alone; at most ``ammo_react`` ammo, any amount on the last point and in a Sudden Death
  battle that can end the game), else it passes — a point
  the A.I.Toma's big unit takes costs it nothing. Ammo above ``ammo_keep`` is spent in
  Recruitment (+1 strength for good) on the unit where the scale jumps furthest.
- **Factions** that give ammo (2 battle strength each) come first, then Venus Colony's
  reusable A.I.Lien, temporary strength for every fight, winning ties (Last Light).

It reads only its own seat's view (:func:`.views.view`) and ``legal_actions`` — never the
A.I.Toma's health stack, the deck or another seat's hand. Outside solo/co-op it plays as
its ``fallback`` (the tactician).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .actions import legal_actions
from .bot_decisions import decision_choice
from .cards import catalogue
from .spec import MAX_POS, SCALE
from .views import view

AMMO_COST = 1.5  # cost of an ammo in a battle reaction, against a hand card's 0.1 x value

DEFAULTS: dict[str, Any] = {
    "ammo_keep": 4,  # ammo kept for battle; the surplus is spent in Recruitment
    "ammo_react": 2,  # most ammo spent on one point (except the last point)
    "health_triple_min": 6,  # draw Special Units from the own health stack only above this
    "extra_units": 1,  # units wanted beyond the A.I.Toma's unit count
    "min_units": 4,  # units wanted at least (after round 1)
    "max_units": 6,
    "reserve": 2,  # hand cards kept for reactions when opening slots (after round 1)
    "first_units": 2,  # units wanted in round 1 (0: as later)
    "first_reserve": 2,  # hand cards kept when opening slots in round 1
}


def _cat():
    return catalogue()


def json_key(action: Mapping[str, Any]) -> str:
    """A stable sort key for a command (ties between equally cheap plans)."""
    return json.dumps(action, sort_keys=True)


def _strength(slot: Mapping[str, Any]) -> int:
    """Printed strength of one of the bot's own slots (0 when empty)."""
    return SCALE[slot["pos"]] if slot.get("unit") else 0


def _gain(pos: int, n: int) -> int:
    """Strength a unit at scale index ``pos`` gains from "+n strength" (positions, capped)."""
    return SCALE[min(MAX_POS, pos + n)] - SCALE[pos]


class TomaHunterBot:
    """A policy for the human seats against the A.I.Toma (see the module doc for how it
    decides). ``params`` override :data:`DEFAULTS` (ValueError for unknown names); outside
    solo/co-op it delegates to ``fallback`` (the tactician; ValueError without one)."""

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
        if v["toma"] is None:
            if self.fallback is None:
                raise ValueError("toma_hunter plays against the A.I.Toma (solo or co-op)")
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
        """Against the A.I.Toma: ammo first (every ammo is 2 battle strength: Rust Nomads,
        Sky Harbor, Elysium), then a reusable A.I.Lien battle card (Venus Colony), temporary
        strength for every fight, winning ties (Last Light), strength every round, cards;
        the rest by difficulty (easy first)."""
        card = _cat()[fid]
        score = {"easy": 1.0, "medium": 0.5, "hard": 0.0}.get(card.difficulty or "", 0.0)
        for eff in card.effects:
            trig = eff["trigger"]
            for op in eff["ops"]:
                name = op["op"]
                if name == "ammo" and trig == "round_bonus":
                    score += 10.0  # 2 battle strength per ammo, every round
                elif name == "ammo" and trig == "start":
                    score += 9.0
                elif name == "ammo_per_damage":
                    score += 8.0
                elif name == "search" and op.get("to") == "colony":
                    score += 8.0
                elif name == "temp" and trig == "preparation":
                    score += 7.0
                elif name == "tiebreak":
                    score += 6.0
                elif name == "strength" and trig == "round_bonus":
                    score += 4.0
                elif name in ("draw", "ammo_bonus", "ammo_per_damage", "ammo_temp", "search"):
                    score += 3.0
                elif name in ("stash", "idle_first_round", "load", "tuck", "illusion", "pray"):
                    score -= 2.0
        return score

    def _effect_score(self, cid: str, me: Mapping[str, Any] | None) -> float:
        """Rough strength a card's effects are worth on a slot over the next battles:
        permanent strength, temporary strength in its fights, ammo (2 each), cards."""
        card = _cat()[cid]
        slots = [s for s in (me or {}).get("slots", []) if s.get("unit")]
        score = 0.0
        for eff in card.effects:
            trig = eff["trigger"]
            weight = {
                "recruit": 1.0,
                "round_bonus": 2.5,
                "battle": 2.0,
                "preparation": 2.0,
                "passive": 1.0,
            }.get(trig, 0.3)
            for op in eff["ops"]:
                name, n = op["op"], op.get("n", 1)
                if name == "strength":
                    if op.get("to") == "all":
                        count = 1 + sum(
                            1 for s in slots if _cat()[s["unit"]].color == op.get("color")
                        )
                        score += weight * n * count
                    elif op.get("to") == "target":
                        best = max(
                            (
                                _gain(s["pos"], n)
                                for s in slots
                                if not op.get("color") or _cat()[s["unit"]].color == op["color"]
                            ),
                            default=0,
                        )
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
                elif name in ("tiebreak", "kill", "damage"):
                    score += 8.0  # the A.I.Toma's ties, piles, health
                elif name in ("exhaust", "win_point", "heal"):
                    score += 4.0
                elif name in ("red_slot", "double_strength", "reactivate"):
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
            base += 1.5  # a colour without a unit yet
        if card.color == "purple":
            base += 1.0  # a Rogue fights with every colour
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
        return sum(
            1 for c in held if cat[c].category == "basic" and (cat[c].color, cat[c].value) == key
        )

    # ------------------------------------------------------------------ Recruitment

    def _wanted_units(self, v: Mapping[str, Any]) -> int:
        """Units the bot wants: the A.I.Toma's unit count plus ``extra_units``, within
        ``min_units``..``max_units`` (``first_units`` in round 1)."""
        toma_units = sum(1 for s in v["toma"]["slots"] if s["unit"])
        p = self.params
        if v["round"] == 1 and p["first_units"]:
            return p["first_units"]
        return max(p["min_units"], min(p["max_units"], toma_units + p["extra_units"]))

    def _recruit(
        self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """One Recruitment command: a Special Unit in hand onto a slot (making room if
        needed), a Triple whose Special Unit finds a slot, the best recruit while the bot has
        fewer units than it wants, a new slot, surplus ammo on a unit, else ``ready``."""
        cat = _cat()
        by: dict[str, list[dict[str, Any]]] = {}
        for a in actions:
            if a["type"] == "open_slot" and cat[a["card"]].category != "basic":
                continue  # it does not play a Special Unit as a Red Slot
            by.setdefault(a["type"], []).append(a)
        slots = me["slots"]
        units = [i for i, s in enumerate(slots) if s.get("unit")]
        empty = [i for i, s in enumerate(slots) if not s.get("unit")]
        specials = [c for c in me["hand"] if cat[c].category == "special"]
        if specials:
            move = self._place_special(me, by, specials, units)
            if move:
                return move
        room = bool(empty) or len(slots) < 6
        triple = self._triple(me, by.get("triple", []), room)
        if triple:
            return triple
        want = self._wanted_units(v)
        recruits = [
            a
            for a in by.get("recruit", [])
            if cat[a["card"]].kind != "ailien" or self._apocalypse_wins(v, me)
        ]
        recruit = self._best_recruit(me, recruits, len(units) < want)
        if recruit:
            return recruit
        if len(units) + len(empty) < want:
            spare = by.get("open_slot", [])
            reserve = self.params["first_reserve"] if v["round"] == 1 else self.params["reserve"]
            if spare and len(me["hand"]) > reserve:
                return min(
                    spare,
                    key=lambda a: (
                        self._keep_score(a["card"], me) + self._unit_score(a["card"], me),
                        a["card"],
                    ),
                )
        spend = by.get("spend_ammo", [])
        if spend and me["ammo"] > self.params["ammo_keep"]:
            return max(spend, key=lambda a: (_gain(slots[a["slot"]]["pos"], 1), -a["slot"]))
        return {"type": "ready"}

    @staticmethod
    def _apocalypse_wins(v: Mapping[str, Any], me: Mapping[str, Any]) -> bool:
        """Recruiting an A.I.Lien in Sudden Death triggers the A.I.Pokalypse (the game ends by
        total strength, the A.I.Lien in hand counting) and keeps every A.I.Lien with the
        A.I.Toma: only when the bot's side already has the higher total strength (co-op:
        more than double; the partner's hand is unknown and not counted)."""
        cat = _cat()
        theirs = sum(s["strength"] for s in v["toma"]["slots"] if s["unit"])
        mine = sum(_strength(s) for seat in v["seats"] for s in seat["slots"] if s.get("unit"))
        mine += sum(cat[c].value or 0 for c in me["hand"] if cat[c].kind == "ailien")
        return mine > (2 if v["mode"] == "coop" else 1) * theirs

    def _place_special(
        self,
        me: Mapping[str, Any],
        by: Mapping[str, list[dict[str, Any]]],
        specials: list[str],
        units: list[int],
    ) -> dict[str, Any] | None:
        """A Special Unit in hand fights nowhere: recruit it onto an empty slot, else open a
        slot with the hand card needed least, else discard the weakest basic unit if it is
        worth less than the Special Unit."""
        best = max(specials, key=lambda c: (self._unit_score(c, me), c))
        recruits = [a for a in by.get("recruit", []) if a["card"] == best]
        if recruits:
            return self._best_recruit(me, recruits, True)
        opens = by.get("open_slot", [])
        if opens:
            return min(opens, key=lambda a: (self._keep_score(a["card"], me), a["card"]))
        cat = _cat()
        weak = [i for i in units if cat[me["slots"][i]["unit"]].category == "basic"]
        if not weak:
            return None

        def kept(i: int) -> float:
            return self._unit_score(me["slots"][i]["unit"], me) + 2 * _strength(me["slots"][i])

        victim = min(weak, key=lambda i: (kept(i), -i))
        if kept(victim) >= self._unit_score(best, me):
            return None
        unit = me["slots"][victim]["unit"]
        return next((a for a in by.get("discard", []) if a["card"] == unit), None)

    def _triple(
        self, me: Mapping[str, Any], triples: list[dict[str, Any]], room: bool
    ) -> dict[str, Any] | None:
        """A Triple for the best Special Unit of the pool (or, once, the partner's), or from
        the own health stack above ``health_triple_min`` health points; slot cards carry
        their strength to it. Without ``room`` for a Special Unit taken into the hand, only
        a Triple that frees a slot."""
        if not room:
            on_slots = {s.get("unit") for s in me["slots"]}
            triples = [a for a in triples if on_slots & set(a["cards"])]
        pool = [a for a in triples if a["source"] in ("pool", "partner")]
        health = [
            a
            for a in triples
            if a["source"] == "health" and me["health_count"] > self.params["health_triple_min"]
        ]
        pick = pool or health
        if not pick:
            return None

        def worth(a: dict[str, Any]) -> tuple:
            carried = sum(_strength(s) for s in me["slots"] if s.get("unit") in a["cards"])
            special = self._special_score(a["special"]) if a.get("special") else 6.0
            cost = sum(self._keep_score(c, me) for c in a["cards"] if c in me["hand"]) * 0.3
            return (special + carried - cost, a.get("special", ""))

        return max(pick, key=worth)

    def _best_recruit(
        self, me: Mapping[str, Any], recruits: list[dict[str, Any]], need: bool
    ) -> dict[str, Any] | None:
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
            # a Rogue fights with every colour: on the rightmost slot it takes what the
            # coloured units to its left leave; a coloured unit goes leftmost
            side = a["slot"] if cat[a["card"]].color == "purple" else -a["slot"]
            return (
                self._unit_score(a["card"], me) - self._keep_score(a["card"], me) * 0.5,
                target_gain(a),
                side,
            )

        best = max(recruits, key=worth)
        card = cat[best["card"]]
        if need or card.category == "special" or worth(best)[0] >= 4.0:
            return best
        return None

    # ------------------------------------------------------------------ Battle

    def _react(
        self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Win the point as cheaply as possible. A reaction only has to bring the side level
        with the A.I.Toma (R-TOMA-REACT), so a card may need ammo on top: every offered card
        is costed with the ammo it still needs, every ammo count by itself. The cheapest plan
        within ``ammo_react`` ammo (all of it on the last point) is started, its card first;
        with none the bot passes (a point the A.I.Toma's big unit takes costs nothing)."""
        t = v["toma"]
        st = {int(k): val for k, val in v["strengths"].items()}
        theirs = st.get(t["seat"], 0)
        side = sum(val for k, val in st.items() if k != t["seat"])
        need = theirs - side + 1  # strength still missing to win the point
        # the last point, or a battle in Sudden Death that may end the game: no ammo is kept
        all_in = me["battle_stack"] == 0 or (
            v["sudden_death"] and (t["health_count"] == 0 or me["health_count"] == 0)
        )
        cap = me["ammo"] if all_in else min(me["ammo"], self.params["ammo_react"])
        cur = me.get("current") or {}
        here = self._card_part(me, cur.get("card"), cur.get("slot") if cur.get("fights") else None)
        plans: list[tuple[float, str, dict[str, Any]]] = []

        for a in actions:
            if a["type"] == "react_card":
                gain = self._card_part(me, a["card"]) - here
                extra = max(0, -(-(need - gain) // 2))  # ammo still needed after the card
                if extra <= cap:
                    plans.append(
                        (self._card_cost(a["card"], me) + extra * AMMO_COST, json_key(a), a)
                    )
            elif a["type"] == "react_ammo" and 2 * a["count"] >= need and a["count"] <= cap:
                plans.append((a["count"] * AMMO_COST, json_key(a), a))
        if not plans:
            return {"type": "pass"}
        return min(plans, key=lambda plan: plan[:2])[2]

    def _card_cost(self, cid: str, me: Mapping[str, Any]) -> float:
        """What playing ``cid`` from hand costs: little (the hand is drawn up to 6 again),
        more for a card of a pair (a Triple in the making), an A.I.Lien, a high value."""
        card = _cat()[cid]
        cost = 0.1 * (card.value or 0)
        if card.kind == "ailien":
            cost += 0.6
        if self._pair_count(me, cid) >= 2:
            cost += 1.0
        return cost

    def _card_part(self, me: Mapping[str, Any], cid: str | None, slot: int | None = -1) -> int:
        """The part of the seat's battle strength that depends on its battle card ``cid``: the
        card value, and (when a unit fights with it) the unit's strength and temporary
        strength. ``slot`` -1: the unit it would fight with now (leftmost active unit it
        fits; an A.I.Lien goes to a green magnet first)."""
        if not cid:
            return 0
        cat = _cat()
        card = cat[cid]
        slots = me["slots"]
        if slot == -1:
            slot = self._fighter(me, cid)
        total = card.value or 0
        if slot is None or not slots[slot].get("unit"):
            return total
        unit = slots[slot]
        total += _strength(unit) + unit.get("temp", 0) + unit.get("ammo_temp", 0)
        ucolor = cat[unit["unit"]].color
        for i, s in enumerate(slots):
            if not s.get("unit"):
                continue
            for op in cat[s["unit"]].ops("battle"):
                if op["op"] == "temp" and op["to"] in ("self", "all"):
                    if op["to"] == "self" and i != slot:
                        continue
                    if op["to"] == "all" and op.get("color") and op["color"] != ucolor:
                        continue
                    per = op.get("per")
                    if per == "attached":
                        total += op["n"] * len(unit.get("attached", []))
                    elif per == "lost_health":
                        total += max(0, 6 - me["health_count"])
                    elif per == "ailien_value":
                        total += (card.value or 0) if card.kind == "ailien" else 0
                    elif per is None:
                        total += op["n"]
                elif (
                    op["op"] == "magnet"
                    and card.color == op["color"]
                    and (i == slot or op.get("to") == "leftmost")
                ):
                    total += op["n"]
        return total

    @staticmethod
    def _fighter(me: Mapping[str, Any], cid: str) -> int | None:
        """The slot whose unit would fight with battle card ``cid`` (``None``: the value alone)."""
        cat = _cat()
        color = cat[cid].color
        active = [
            i
            for i, s in enumerate(me["slots"])
            if s.get("unit") and not s.get("exhausted") and not cat[s["unit"]].has("never_fights")
        ]
        if color == "green":
            for i in active:
                ops = cat[me["slots"][i]["unit"]].ops("battle")
                if any(op["op"] == "magnet" and op["color"] == "green" for op in ops):
                    return i
        for i in active:
            ucolor = cat[me["slots"][i]["unit"]].color
            if ucolor == color or ucolor in ("purple", "green") or color in ("purple", "green"):
                return i
        return None

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

    def _choose(
        self, v: Mapping[str, Any], me: Mapping[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Effect decisions: the default (first) option — the strongest A.I.Toma unit for a
        kill, the weakest own unit given up — except that C.H.R.O.M.E. doubles, a Special
        Unit is the best one offered, a strength target is the highest on the scale (where it
        jumps furthest), Erit Lux / Sic Mundus store only Triple pairs (the rest stay battle
        reactions), forced discards take the hand card needed least and the book's player
        decisions (Murderer, Lieutenant Dan, Red Slot, Triple, Enclave M87, Mechatron) follow
        :func:`.bots.decision_choice` (a hand card's worth: its keep score)."""
        choice = v["choice"] or {}
        kind = choice.get("kind")
        options = [a["option"] for a in actions]
        cat = _cat()
        if kind == "chrome" and "double" in options:
            return {"type": "choose", "option": "double"}
        pick = decision_choice(
            kind,
            options,
            me["slots"],
            me["hand"],
            me["ammo"],
            lambda c: self._keep_score(c, me) + (0 if cat[c].category == "basic" else 50),
        )
        if pick is not None:
            return {"type": "choose", "option": pick}
        if kind == "special":
            specials = [
                o
                for o in options
                if isinstance(o, str) and o in cat and cat[o].category == "special"
            ]
            if specials:
                return {
                    "type": "choose",
                    "option": max(specials, key=lambda c: (self._special_score(c), c)),
                }
        if kind == "strength":
            slots = [o for o in options if isinstance(o, int) and 0 <= o < len(me["slots"])]
            if slots:
                return {
                    "type": "choose",
                    "option": max(slots, key=lambda i: (me["slots"][i]["pos"], -i)),
                }
        if kind == "store" and "stop" in options:  # Erit Lux / Sic Mundus: only Triple pairs
            pairs = [o for o in options if o in me["hand"] and self._pair_count(me, o) >= 2]
            return {"type": "choose", "option": pairs[0] if pairs else "stop"}
        if kind == "discard":
            cards = [o for o in options if isinstance(o, str) and o in me["hand"]]
            if cards and "stop" not in options:
                return {
                    "type": "choose",
                    "option": min(cards, key=lambda c: (self._keep_score(c, me), c)),
                }
        return actions[0]
