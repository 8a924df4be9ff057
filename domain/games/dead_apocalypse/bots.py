"""Bot policies: ``random`` (uniform over legal actions), ``cooperative``, ``idle`` (the
turn-timeout policy, :mod:`.timeout_bot`) and ``expert`` (:mod:`.expert`: Monte Carlo
rollouts over the seat's information set of the cooperative plan that also prices the
Plague Carrier's Resource Stack Ditches, :data:`STACK_THREAT`; per-seat options
:data:`BOT_OPTIONS` built by :data:`BOT_FACTORIES`: ``budget``, ``candidates``,
``time_budget_ms``).

All read only what their seat sees (:func:`views.view` for that seat) and pick from
:func:`actions.legal_actions`. ``cooperative`` plays to win as a team:

- its own turn: a legal ``defeat`` of the Zombie in the CDC's column comes before
  anything (an immediate win is never given up, issue 17 item 7). Then it uses its
  Locations' Repeats, plays draw/cure cards, Locations, Equipment,
  then Humans — occupying a Location with a Human whenever this turn's best kill plan
  does not need its damage. When attacked (2+ seats) and its cards cannot cover the
  attack (the only time the rulebook allows the call) it Calls for Help before any defeat,
  so every assisting seat shares every reward of the turn (Call for Help, After Combat
  effects). Then it defeats Zombies following the best plan (every subset of the row
  tried with the engine's spending rule; value: the CDC column above all, then
  attackers, Zombies with Repeat abilities, the Zombie's HP (the big ones go first, the
  cheap ones stay for weaker hands), the reward card, minus After Combat harm). The Zombie
  Row's Repeats it resolves as late as it may (ruling R-ZOMBIE-REPEAT: the active player
  decides when): right before defeating that Zombie, else before ending the turn — a
  Screamer then finds only the cards it kept.
- Call for Help: assists when its hand raises what the pooled damage defeats of all
  the attackers together (immunities respected) and plays only the fewest cards that
  give the most, keeping the rest for its own
  next turn; when the attackers are already covered it joins with its one weakest card,
  but only if the rest of its hand still beats the cheapest Zombie waiting in the row (a
  hand spent without a kill of its own costs the per-player Ditch). It claims an Adept
  Survivor (leaving the Resource Row card to the active seat).
- which damage defeats a Zombie: the way to pay its HP that leaves the best plan for the
  rest of the row.
- prompts: Ditches an Infection first, else plain Survivors (thinning the deck while it keeps 12+ playable cards
  and 4+ strong ones in sight), occupies with its strongest Human.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from domain.expert_options import expert_kwargs, expert_options_schema
from domain.modular import RandomBot

from .actions import legal_actions
from .call_for_help import coverable, covers
from .cards import CardDef, catalogue
from .combat import can_defeat, spend_plan
from .state import MatchState
from .timeout_bot import TimeoutBot
from .views import view

THIN_KEEP = 12  # keep at least this many playable cards (deck, hand, discard, played)
THIN_STRONG = 4  # ... of which at least this many deal 2+ damage
HP_WEIGHT = 1.0  # plan value per HP of a defeated Zombie (big ones first)
#: plan value per Resource Stack card a Zombie's Repeat Ditches each turn, for the expert's
#: policy (``CooperativeBot(stack_threat=STACK_THREAT)``; ``cooperative`` keeps 0). Measured
#: (cooperative-team matches, 300 seeds solo / 150 at 4 seats, standard game): a weight
#: of 0 wins 74.0% solo and 38.0% at 4 seats, 6.7 (a Plague Carrier +20) 90.0% and 52.0%,
#: 16.7 (+50) 91.0% and 52.7%.
STACK_THREAT = 15.0
#: plan value the expert's policy gives up to occupy a Location with its strongest Human
#: (``CooperativeBot(occupy_margin=...)``; ``cooperative`` keeps 0: it occupies only when
#: the turn's kill plan loses nothing): less than an attacker's or a Plague Carrier's
#: price, about one plain Zombie (10 + its HP + its reward), and only while the plan still
#: defeats a Zombie (no per-player Ditch). Measured (teams of the expert's policy, 400
#: deals, 4 seats): margin 0 60.8%, 25 66.7%; 500 deals, 15: 65.4%, 22: 65.8%, 30: 64.4%,
#: 40: 63.2%, 55: 49.0%; solo 90.5% (0) and 91.7% (25).
OCCUPY_MARGIN = 25.0


def _table(
    v: Mapping[str, Any], extra: Sequence[dict[str, Any]] = (), stack_threat: float = 0.0
) -> SimpleNamespace:
    """A planning table from a view: damage pool (+ hypothetical entries), rows, attackers,
    and the plan value per Resource Stack card a Zombie's Repeat Ditches each turn
    (``stack_threat``, :func:`zombie_value`)."""
    return SimpleNamespace(
        stack_threat=stack_threat,
        damage=[dict(d) for d in v["damage"]] + [dict(d) for d in extra],
        zombie_row=[None if z is None else z["card"] for z in v["zombie_row"]],
        resource_row=[None if r is None else r["card"] for r in v["resource_row"]],
        attackers=[z["column"] for z in v["zombie_row"] if z is not None and z["attacking"]],
        help={"assisted": list(v["help"].get("assisted", []))},
        options=v.get("options", {}),
    )


def attack_cards(options: Mapping[str, Any], hp: int) -> int:
    """Cards (Resource Row + Resource Stack) an attacker of ``hp`` HP left undefeated costs
    at the end of the turn under the match ``options``: its column's Resource Row card and
    one Resource Stack card, ceil(HP/2) stack cards with
    ``attack_ditch_half_hp``, none in the easy games ("Undefeated Zombies"; "Game Play
    Variations": "For a more difficult game", "For an easy game"). The expert's policy
    prices an attacker at :data:`STACK_THREAT` per such card (30 plan points at the
    standard rules) where ``cooperative`` adds a flat +8 (measured: ``expert.py``)."""
    if options.get("difficulty", "standard") != "standard":
        return 0
    return 1 + (-(-hp // 2) if options.get("attack_ditch_half_hp") else 1)


def card_value(card: CardDef) -> float:
    """Rough worth of gaining ``card``: damage, draws and cures count, Locations a bit more;
    an Infection (the easiest game's reformed Resource Stack can hold one) is a loss."""
    if card.kind == "infection":
        return -3.0
    value = float(card.damage)
    for step in card.abilities:
        amount = step.get("amount", 1)
        value += {
            "draw": 1.2,
            "cure": 0.6,
            "damage_if": 0.6,
            "damage_per": 0.8,
            "gain": 1.5,
            "ditch": 0.4,
            "occupy": 0.5,
        }.get(step["op"], 0.0) * amount
    if card.kind == "location":
        value = value * 2 + card.occupancy
    return value


def zombie_value(t: SimpleNamespace, column: int) -> float:
    """Worth of defeating the Zombie in ``column`` this turn; a Zombie whose Repeat Ditches
    Resource Stack cards (the Plague Carrier: 3 each turn it stays in the row, the cards
    the team loses by) is worth ``t.stack_threat`` more per card (0 for ``cooperative``,
    :data:`STACK_THREAT` for the expert's policy), and so is an attacker per card it would
    cost undefeated (:func:`attack_cards`; ``cooperative``: +8)."""
    cat = catalogue()
    z = cat.of(t.zombie_row[column])
    reward = t.resource_row[column]
    value = 10.0 + HP_WEIGHT * z.hp
    if reward is not None and cat.of(reward).kind == "cdc":
        return 1000.0
    if reward is not None:
        value += card_value(cat.of(reward))
    if column in t.attackers:
        # the expert's policy prices the cards an undefeated attacker Ditches
        # (30 at the standard rules); ``cooperative`` a flat +8
        value += t.stack_threat * attack_cards(t.options, z.hp) if t.stack_threat else 8
    if z.repeat_ops:
        value += 5
    if t.stack_threat:
        value += t.stack_threat * sum(
            step.get("amount", 1) for step in z.repeat_ops if step["op"] == "ditch_stack"
        )
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


def attack_value(t: SimpleNamespace, entries: list[dict[str, Any]], attackers: list[int]) -> float:
    """The most :func:`zombie_value` of attacking Zombies (``attackers``: columns) that the
    divisible damage ``entries`` defeats together, each from entries it is not immune to
    (:func:`call_for_help.covers`): the pooled damage after a Call for Help may defeat
    only attacking Zombies, in any combination."""
    cat = catalogue()
    ok = coverable(entries, [cat.of(t.zombie_row[c]) for c in attackers])
    values = [zombie_value(t, c) for c in attackers]
    best = 0.0
    for group in range(1, len(ok)):
        members = [j for j in range(len(attackers)) if group >> j & 1]
        value = sum(values[j] for j in members)
        # Hall: the group is paid at once iff every sub-group of it is coverable
        if value > best and all(ok[sub] for sub in range(1, group + 1) if sub & group == sub):
            best = value
    return best


def _orders(t: SimpleNamespace, subset: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Defeat orders worth trying: attackers first, then most-immune first, then all."""
    cat = catalogue()

    def key(c: int) -> tuple[bool, int]:
        return c not in t.attackers, -sum(len(v) for v in cat.of(t.zombie_row[c]).immune.values())

    first = tuple(sorted(subset, key=key))
    rest = [p for p in itertools.permutations(subset) if p != first] if len(subset) == 2 else []
    return [first] + rest


def _feasible(t: SimpleNamespace, order: tuple[int, ...]) -> bool:
    sim = SimpleNamespace(
        damage=[dict(d) for d in t.damage],
        zombie_row=list(t.zombie_row),
        attackers=list(t.attackers),
        help=t.help,
    )
    for c in order:
        if not can_defeat(sim, c):
            return False
        for index, amount in spend_plan(sim, c):
            sim.damage[index]["amount"] -= amount
        sim.zombie_row[c] = None
    return True


def _entry(card: str, seat: int) -> dict[str, Any]:
    d = catalogue().of(card)
    return {
        "seat": seat,
        "source": card,
        "title": d.title,
        "kind": d.kind,
        "faction": d.faction,
        "amount": d.damage,
        "ally": False,
    }


class CooperativeBot:
    """Team play (module doc). Deterministic: the ``rng`` argument is not used.
    ``stack_threat``: the plan value per Resource Stack card a Zombie's Repeat Ditches each
    turn (:func:`zombie_value`); 0 (the ``cooperative`` level) or, for the expert's base
    and rollout policy, :data:`STACK_THREAT`. ``drain_first``: defeat a Plague Carrier
    with the own pool before a Call for Help (:meth:`_drainer_before_help`; the expert's
    policy). ``occupy_margin``: plan value a Human may cost to occupy a Location
    (:data:`OCCUPY_MARGIN`; 0 for ``cooperative``). Raises ValueError for a negative
    weight or margin."""

    name = "cooperative"

    def __init__(
        self, stack_threat: float = 0.0, drain_first: bool = False, occupy_margin: float = 0.0
    ):
        if stack_threat < 0 or occupy_margin < 0:
            raise ValueError("stack_threat and occupy_margin must be >= 0")
        self.stack_threat = stack_threat
        self.drain_first = drain_first
        self.occupy_margin = occupy_margin

    def _drainer_before_help(
        self, v: dict, defeats: list[dict], zombie_repeats: list[dict]
    ) -> dict | None:
        """Before a Call for Help: the defeat (or first its owed Repeat) of the most valuable
        Zombie that is not attacking and whose Repeat Ditches Resource Stack cards (the
        Plague Carrier), when the seat's own pool pays it now. After an assist the pooled
        damage "only" defeats "attacking Zombies" (Call for Help), so a Plague Carrier
        left for later stays in the row and Ditches 3 more cards on the next turn; the
        helpers cover the attackers. ``None`` when there is no such Zombie. Measured
        (expert's policy, 400 deals at 4 seats): 48.0% -> 57.8% (paired +42 / -3)."""
        cat = catalogue()
        t = self._t(v)
        best: tuple[float, int] | None = None
        for c, z in enumerate(t.zombie_row):
            if z is None or c in t.attackers:
                continue
            drain = sum(
                s.get("amount", 1) for s in cat.of(z).repeat_ops if s["op"] == "ditch_stack"
            )
            if drain and can_defeat(t, c) and (best is None or zombie_value(t, c) > best[0]):
                best = (zombie_value(t, c), c)
        if best is None:
            return None
        owed = _repeat_of(v, best[1], zombie_repeats)
        if owed is not None:
            return owed
        return self._spend_choice(v, best[1], defeats)

    def _t(self, v: Mapping[str, Any], extra: Sequence[dict[str, Any]] = ()) -> SimpleNamespace:
        """:func:`_table` with this policy's ``stack_threat``."""
        return _table(v, extra, self.stack_threat)

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat`` chosen from its own view; ValueError if none."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        v = view(state, seat)
        kind = next(iter(v["pending"].values()))
        chooser = {
            "ditch": self._ditch,
            "occupy": self._occupy,
            "reward": self._reward,
            "help": self._help,
            "assist": self._assist,
            "turn": self._turn,
        }[kind]
        return chooser(v, seat, options)

    # -- prompts -----------------------------------------------------------------
    def _ditch(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        me = v["seats"][seat]
        for o in options:  # an Infection Ditched never comes back
            if o["type"] == "choose" and cat.of(o["card"]).kind == "infection":
                return o
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
    def _cover_plan(self, v: dict, seat: int) -> list[str] | None:
        """The hand cards an assisting seat plays, judged on the pooled damage against all
        attacking Zombies together (issue 17 item 7): the cards (printed damage, a draw card
        counted as 1) that raise most the value of the attackers the pool can defeat at
        once (:func:`attack_value`, immunities respected; the CDC's column above all), the
        fewest of them, then the least damage and card worth spent. ``[]`` when the pool
        already defeats every attacker, ``None`` when the hand adds no defeat."""
        cat = catalogue()
        t = self._t(v)
        pool = [d for d in t.damage if d["amount"] > 0]
        attackers = [c for c in t.attackers if t.zombie_row[c] is not None]
        if covers(pool, [cat.of(t.zombie_row[c]) for c in attackers]):
            return []
        hand = [c for c in v["seats"][seat]["hand"] if cat.of(c).kind in ("human", "equipment")]
        worth = {c: _hand_entry(cat.of(c)) for c in hand}
        base = attack_value(t, pool, attackers)
        best, best_key = None, None
        for size in range(1, len(hand) + 1):
            for combo in itertools.combinations(hand, size):
                value = attack_value(t, pool + [worth[c] for c in combo], attackers)
                if value <= base:
                    continue
                key = (
                    -value,
                    size,
                    sum(worth[c]["amount"] for c in combo),
                    sum(card_value(cat.of(c)) for c in combo),
                )
                if best_key is None or key < best_key:
                    best, best_key = list(combo), key
        return best

    def _help(self, v: dict, seat: int, options: list[dict]) -> dict:
        """Assist when the hand adds a defeat to what the pooled damage defeats of all the
        attackers together (:meth:`_cover_plan`; immunities respected, a draw card counted
        as 1): the Undefeated Zombies' and per-player Ditches are avoided. Also assist with
        one weak card when the attackers are already covered: every Zombie defeated after a seat
        assisted gives that seat a
        card too (After Combat effects). Decline with nothing useful to play."""
        plan = self._cover_plan(v, seat)
        if plan or (plan == [] and _spare(v, seat) is not None):
            return {"type": "assist"}
        return {"type": "decline"}

    def _assist(self, v: dict, seat: int, options: list[dict]) -> dict:
        """Play the cover plan's cards one by one (strongest first), keep the rest; with
        the attackers covered, join with one spare card (none played yet) and stop."""
        cat = catalogue()
        plan = self._cover_plan(v, seat)
        playable = {o["card"] for o in options if o["type"] == "play"}
        if plan:
            card = max(
                (c for c in plan if c in playable),
                key=lambda c: (_draws(cat.of(c)), cat.of(c).damage),
                default=None,
            )
            if card is not None:
                return {"type": "play", "card": card}
        if plan == [] and not v["seats"][seat]["played"]:
            spare = _spare(v, seat)
            if spare is not None and spare in playable:
                return {"type": "play", "card": spare}
        return {"type": "end_assist"}

    # -- own turn ----------------------------------------------------------------
    def _turn(self, v: dict, seat: int, options: list[dict]) -> dict:
        cat = catalogue()
        by_type: dict[str, list[dict]] = {}
        for o in options:
            by_type.setdefault(o["type"], []).append(o)
        zombie_repeats = [
            o for o in by_type.get("use_repeat", []) if cat.of(o["card"]).kind == "zombie"
        ]
        win = self._win(v, by_type.get("defeat", []), zombie_repeats)
        if win is not None:  # never give an immediate win up (issue 17 item 7)
            return win
        locations = [o for o in by_type.get("use_repeat", []) if o not in zombie_repeats]
        if locations:
            return locations[0]
        plays = by_type.get("play", [])
        for pick in (
            lambda d: _draws(d) > 0 or any(s["op"] == "cure" for s in d.abilities),
            lambda d: d.kind == "location",
            lambda d: d.kind == "equipment" and not _conditional(d),
            lambda d: d.kind == "equipment",
        ):
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
        if "call_for_help" in by_type:
            if self.drain_first:
                first = self._drainer_before_help(v, by_type.get("defeat", []), zombie_repeats)
                if first is not None:
                    return first
            return by_type["call_for_help"][0]  # before any defeat: helpers share every reward
        value, order = best_plan(self._t(v))
        if order:
            owed = _repeat_of(v, order[0], zombie_repeats)
            if owed is not None:  # its Repeat resolves before its defeat (R-ZOMBIE-REPEAT)
                return owed
            return self._spend_choice(v, order[0], by_type["defeat"])
        if zombie_repeats:  # last: a Screamer then finds only the cards kept
            return zombie_repeats[0]
        return by_type.get("end_turn", options)[0]

    def _win(self, v: dict, defeats: list[dict], zombie_repeats: list[dict]) -> dict | None:
        """The ``defeat`` of the Zombie in the CDC's column when it is legal now — or, when
        only that Zombie's unresolved Repeat stands in the way, that Repeat: gaining the CDC
        wins at once ("Players win when a player gains the Center for Disease Control"),
        so nothing else may come first, least of all a Call for Help (after an assist only
        attacking Zombies may be defeated)."""
        cat = catalogue()
        cdc = {
            r["column"]
            for r in v["resource_row"]
            if r is not None and cat.of(r["card"]).kind == "cdc"
        }
        win = next((o for o in defeats if o["column"] in cdc and "spend" not in o), None)
        if win is not None or not cdc:
            return win
        column = next(iter(cdc))
        t = self._t(v)
        owed = _repeat_of(v, column, zombie_repeats)
        if owed is not None and t.zombie_row[column] is not None and can_defeat(t, column):
            return owed
        return None

    def _spend_choice(self, v: dict, column: int, defeats: list[dict]) -> dict:
        """Of the ways to pay ``column``'s HP, the one whose leftover damage gives the best
        plan for the rest of the row (the bare default on a tie)."""
        choices = [o for o in defeats if o["column"] == column and "spend" in o]
        if not choices:
            return {"type": "defeat", "column": column}
        best, best_value = {"type": "defeat", "column": column}, None
        for o in choices:
            t = self._t(v)
            for index, amount in o["spend"]:
                t.damage[index]["amount"] -= amount
            t.zombie_row[column] = None
            value = best_plan(t)[0]
            if best_value is None or value > best_value:
                best, best_value = o, value
        return best

    def _occupy_choice(
        self, v: dict, seat: int, occupy: list[dict], humans: list[dict]
    ) -> dict | None:
        """Occupy with the strongest Human when the kill plan does not need its damage, or
        (``occupy_margin``) loses less than that much plan value and still defeats a Zombie:
        an occupant gives its damage on every later turn of the seat."""
        if not occupy:
            return None
        cat = catalogue()
        strongest = max(humans, key=lambda o: cat.of(o["card"]).damage)["card"]
        cards = [o["card"] for o in humans]
        with_all = best_plan(self._t(v, [_entry(c, seat) for c in cards]))[0]
        without = best_plan(self._t(v, [_entry(c, seat) for c in cards if c != strongest]))[0]
        if without >= with_all or (without > 0 and with_all - without < self.occupy_margin):
            targets = [o for o in occupy if o["card"] == strongest]
            if targets:
                return targets[0]
        return None


def _hand_entry(card: CardDef) -> dict[str, Any]:
    """A hand card as a planning entry: printed damage, +1 for a card that draws."""
    return {
        "title": card.title,
        "kind": card.kind,
        "faction": card.faction,
        "amount": card.damage + (1 if _draws(card) else 0),
    }


def _spare(v: dict, seat: int) -> str | None:
    """The weakest Human/Equipment in ``seat``'s hand, when the rest of the hand (printed
    damage, a draw card counted as 1) still reaches the HP of the weakest Zombie in the
    row that is not attacking now (so giving it up to join an assist does not cost this
    seat its own next kill, and the per-player Ditch with it); else ``None``."""
    cat = catalogue()
    cards = [c for c in v["seats"][seat]["hand"] if cat.of(c).kind in ("human", "equipment")]
    if not cards:
        return None
    spare = min(cards, key=lambda c: (card_value(cat.of(c)), c))
    rest = sum(cat.of(c).damage + (1 if _draws(cat.of(c)) else 0) for c in cards if c != spare)
    waiting = [z["hp"] for z in v["zombie_row"] if z is not None and not z["attacking"]]
    return spare if waiting and rest >= min(waiting) else None


def _repeat_of(v: dict, column: int, zombie_repeats: list[dict]) -> dict | None:
    """The ``use_repeat`` of the Zombie in ``column`` when its Repeat is still owed."""
    zombie = v["zombie_row"][column]
    return next(
        (o for o in zombie_repeats if zombie is not None and o["card"] == zombie["card"]), None
    )


def _draws(card: CardDef) -> int:
    return sum(s.get("amount", 0) for s in card.abilities if s["op"] == "draw")


def _conditional(card: CardDef) -> bool:
    return any(s["op"] in ("damage_if", "damage_per") for s in card.abilities)


BOTS = {
    "random": RandomBot(legal_actions),
    "cooperative": CooperativeBot(),
    "idle": TimeoutBot(CooperativeBot()),
}
from .expert import ExpertBot  # noqa: E402  (expert.py: Monte Carlo bot; its rollouts use CooperativeBot above)

#: the expert with its default options (the options schema quotes its defaults)
DEFAULT_EXPERT = ExpertBot()
BOTS["expert"] = DEFAULT_EXPERT

# Per-seat bot options (domain.engine.build_bot): only ``expert`` has any (issue 23, like
# AI: 100% Human's expert). An omitted option keeps ExpertBot's default.
EXPERT_OPTIONS_SCHEMA = expert_options_schema(
    budget="Rollouts per searched decision (each plays the match on with the cooperative "
    "plan that also prices the Plague Carrier's Resource Stack Ditches, to its end or, in "
    "the standard game, two rounds of turns and an evaluation of the race); 0 plays that "
    f"plan's choice. Default {DEFAULT_EXPERT.budget}.",
    candidates="Commands weighed by the rollouts (that plan's choice and strategic "
    f"alternatives). Default {DEFAULT_EXPERT.candidates}.",
    time_budget="Dead Apocalypse counts the CPU time of the deciding thread "
    f"(time.thread_time). Default {round(DEFAULT_EXPERT.time_cap_s * 1000)}.",
    max_candidates=12,
)
BOT_OPTIONS = {"expert": EXPERT_OPTIONS_SCHEMA}


def make_expert(options: dict[str, Any]) -> ExpertBot:
    """An :class:`ExpertBot` configured by validated ``options`` (:data:`EXPERT_OPTIONS_SCHEMA`):
    ``budget``, ``candidates``, ``time_budget_ms`` (ms) -> ``time_cap_s`` (s); an omitted
    key keeps the constructor's default. Raises ValueError for values ExpertBot refuses."""
    return ExpertBot(**expert_kwargs(options))


BOT_FACTORIES = {"expert": make_expert}
