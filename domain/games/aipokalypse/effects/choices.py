"""Effect ops in which a player decides: each decision is a :meth:`.context.Ctx.ask` of the
seat the card notes name ("you can choose", "your opponents can decide ... themselves").

The first option of every decision is its default: the lowest card value for discards
(basic units before Special Units, then id order), the weakest unit (rightmost on ties, the
A.I.Toma ruling) for a unit an opponent gives up, the strongest one for a unit the effect's
owner picks, and for optional effects what the effect did before it became a choice.
``"stop"`` / ``"skip"`` end optional effects and are named as their ``decline``, the answer
a turn timeout (the ``idle`` bot) takes (RULINGS R-TIMEOUT); a forced decision's timeout
answer is its first option.

Card notes implemented here (``shared/rules/aipokalypse-rulebook.txt``): Module, Scrap
Collector, Bookkeeper ("as many times as you want"), Engineer Guild, Fallout Boyz, Zombie,
Painkiller, Prayers of Elex, Mechatron (which card, from where), Linear Collider, Outer Wilds,
Lightbringers, D.E.E.R., Journalist, Erit Lux / Sic Mundus; opponents' units in
:mod:`.opponents`, pools and Special Units in :mod:`.pools`.
"""

from __future__ import annotations

from ..cards import catalogue
from ..context import Ctx
from ..spec import SCALE
from ..state import Player, color_of, is_toma, opponents_of, strength_of, unit_of, units
from ..toma_pool import passive_bonus
from . import modifiers
from .resolve import Op, _op, discard_card, exhaust_unit, fire, gain, player, run, unit_slot


def name_of(cid: str) -> str:
    """The printed name of card ``cid`` (used in decision prompts)."""
    return catalogue()[cid].name


def hand_by_value(ctx: Ctx, seat: int, exclude: tuple = ()) -> list[str]:
    """The seat's hand, lowest card value first (basic units before Special Units, id order)."""
    cat = catalogue()
    hand = [c for c in player(ctx, seat).hand if c not in exclude]
    return sorted(hand, key=lambda c: (cat[c].category != "basic", cat[c].value or 99, c))


def weakest_first(p: Player, slots: list[int]) -> list[int]:
    """``slots`` ordered weakest unit first, rightmost first on ties (A.I.Toma ruling)."""
    return sorted(slots, key=lambda i: (strength_of(p.slots[i]), -i))


def strongest_first(p: Player, slots: list[int]) -> list[int]:
    """``slots`` ordered strongest unit (printed + temporary) first, leftmost on ties."""
    return sorted(slots, key=lambda i: (-(strength_of(p.slots[i]) + p.slots[i].temp), i))


def opponents(ctx: Ctx, seat: int) -> list[int]:
    """Living opponents of ``seat``, clockwise from its left neighbour (against the A.I.Toma a
    human seat's only opponent is the A.I.Toma, :func:`..state.opponents_of`)."""
    return opponents_of(ctx.state, seat)


def neighbours(ctx: Ctx, seat: int, opponents_only: bool = False) -> list[int]:
    """The living left (seat+1) and right (seat-1) neighbours, left first, without repeats;
    the A.I.Toma sits after the human seats (co-op: seat 0's neighbours are its partner and
    the A.I.Toma). ``opponents_only`` (Scammer's "neighboring opponents") drops a partner."""
    total = len(ctx.players)
    others = [
        (seat + k) % total
        for k in range(1, total)
        if not ctx.players[(seat + k) % total].eliminated
    ]
    out = list(dict.fromkeys(others[:1] + others[-1:]))
    if opponents_only:
        mine = opponents_of(ctx.state, seat)
        out = [s for s in out if s in mine]
    return out


# ------------------------------------------------------------------ hand cards


@_op("discard")
def _discard(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Discard ``n`` hand cards of the seat's choice, one at a time, each resolving its own
    discard effect before the next is chosen ("resolve the other effect immediately").
    ``optional`` (Module "if you do", Scrap Collector "up to"): the seat may stop;
    ``repeat`` (Bookkeeper "as many times as you want"): any number; ``silent``: no discard
    effects (Engineer Guild's trash, Bookkeeper); ``per`` ops after each card; ``then`` ops
    once all ``n`` are discarded."""
    name = name_of(origin["card"])
    done = 0
    while op.get("repeat") or done < op["n"]:
        cards = hand_by_value(ctx, seat, exclude=(origin["card"],))
        if not cards:
            break
        if op.get("repeat") and done >= max(op["n"], 1):
            options = ["stop"] + cards  # default: stop after the first
        elif op.get("optional") or op.get("repeat"):
            options = cards + ["stop"]
        else:
            options = cards
        pick = ctx.ask(
            seat,
            "discard",
            options,
            f"{name}: discard a card ({done + 1})",
            decline="stop" if "stop" in options else None,
        )
        if pick == "stop":
            break
        discard_card(ctx, seat, pick, trigger=not op.get("silent"))
        done += 1
        if op.get("per"):
            run(ctx, seat, op["per"], origin)
    if done >= op["n"] and op.get("then"):
        run(ctx, seat, op["then"], origin)


@_op("draw_discard")
def _draw_discard(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Zombie, Painkiller: draw, then at once discard ``discard`` card(s) of the seat's
    choice from its hand (Zombie may discard itself from its slot). ``keep``: keep one of the
    drawn cards of the seat's choice; the others are discarded (in battle: no discard effects)."""
    drawn = ctx.draw(seat, op["draw"])
    if not drawn:
        return
    name = name_of(origin["card"])
    if op.get("keep"):
        cat = catalogue()
        best_first = sorted(drawn, key=lambda c: (-(cat[c].value or 0), c))
        keep = ctx.ask(seat, "keep", best_first, f"{name}: keep one of the drawn cards")
        for cid in drawn:
            if cid != keep and cid in player(ctx, seat).hand:
                discard_card(ctx, seat, cid)
        return
    for _ in range(op["discard"]):
        options = hand_by_value(ctx, seat)
        if unit_slot(ctx, seat, origin) is not None:
            options.append(origin["card"])  # "You may discard Zombie immediately"
        if not options:
            return
        pick = ctx.ask(seat, "discard", options, f"{name}: discard a card")
        discard_card(ctx, seat, pick)


@_op("pray")
def _pray(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Prayers of Elex, right after drawing at the start of the Recruitment Phase: the seat
    may discard ``n`` hand cards of its choice (no discard effects) to search the main deck
    of Special Units for any card (into its hand); the deck is then shuffled."""
    if len(player(ctx, seat).hand) < op["n"] or not ctx.state.specials:
        return
    name = name_of(origin["card"])
    if (
        ctx.ask(
            seat,
            "pray",
            ["pray", "skip"],
            f"{name}: discard {op['n']} cards to search the Special Units deck?",
            decline="skip",
        )
        == "skip"
    ):
        return
    for k in range(op["n"]):
        pick = ctx.ask(
            seat, "discard", hand_by_value(ctx, seat), f"{name}: discard a card ({k + 1})"
        )
        discard_card(ctx, seat, pick, trigger=False)
    special = ctx.ask(
        seat, "special", sorted(ctx.state.specials), f"{name}: take any Special Unit of the deck"
    )
    ctx.emit("SpecialSearched", seat, card=special)
    order = list(ctx.state.specials)
    ctx.rng.shuffle(order)
    ctx.emit("SpecialsShuffled", None, order=order)


@_op("attach")
def _attach(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Mechatron: attach a card of the seat's choice to this unit, which gains ``n``
    strength. "The card that you attach may come from your hand": the options (kind
    ``attach``, card ids) are the hand cards — basic units first, highest card value first;
    the first is the default, the engine's pick before the other sources were offered —, then
    the seat's other units on slots, weakest first (rightmost on ties). A unit taken from a
    slot leaves it empty (no discard: no discard effects) and its attached cards move with it
    ("When a unit with attached cards gets moved somehow, the attached cards move with it").

    RULINGS R-MECHATRON.
    """
    me = unit_slot(ctx, seat, origin)
    if me is None:
        return
    p = player(ctx, seat)
    cat = catalogue()
    hand = sorted(p.hand, key=lambda c: (cat[c].category != "basic", -(cat[c].value or 0), c))
    on_slots = {s.unit: i for i, s in units(p) if i != me}
    options = hand + [p.slots[i].unit for i in weakest_first(p, list(on_slots.values()))]
    if not options:
        return
    card = ctx.ask(
        seat,
        "attach",
        options,
        f"{name_of(origin['card'])}: attach a card from your hand or one of your other units",
    )
    if card in p.hand:
        ctx.emit("CardAttached", seat, card=card, slot=me, **{"from": "hand"})
    else:
        ctx.emit(
            "CardAttached", seat, card=card, slot=me, from_slot=on_slots[card], **{"from": "slot"}
        )
    gain(ctx, seat, me, op["n"])


# ------------------------------------------------------------------ own board


@_op("bequeath")
def _bequeath(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Linear Collider discarded from a slot: its strength is split among your Mechs as you
    choose ("one Mech 3 strength and another Mech 2"), asked Mech by Mech left to right;
    the last Mech gets the rest. Default: all to the leftmost Mech. RULINGS R-LINEAR."""
    if origin.get("pos") is None:
        return
    p = player(ctx, seat)
    mechs = [i for i, s in units(p) if color_of(unit_of(s)) == op["color"]]
    left = SCALE[origin["pos"]]
    for k, i in enumerate(mechs):
        if left <= 0:
            break
        if k == len(mechs) - 1:
            give = left
        else:
            give = ctx.ask(
                seat,
                "split",
                list(range(left, -1, -1)),
                f"{name_of(origin['card'])}: strength for your Mech on slot {i}",
            )
        gain(ctx, seat, i, give)
        left -= give


@_op("valley")
def _valley(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Outer Wilds: you can give ``n`` strength to one unit whose two adjacent units are
    both stronger (printed strength; a unit without two neighbours cannot)."""
    slots = player(ctx, seat).slots
    valleys = [
        i
        for i in range(1, len(slots) - 1)
        if slots[i].unit
        and slots[i - 1].unit
        and slots[i + 1].unit
        and slots[i - 1].pos > slots[i].pos < slots[i + 1].pos
    ]
    if not valleys:
        return
    pick = ctx.ask(
        seat,
        "strength",
        valleys + ["skip"],
        f"{name_of(origin['card'])}: give 2 strength to a unit",
        decline="skip",
    )
    if pick != "skip":
        gain(ctx, seat, pick, op["n"])


@_op("swap")
def _swap(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Swap two units (``position``: they move with their strength; ``strength``: only the
    strengths swap, never on Red Slots — Chain Reactor). ``choose`` (Lightbringers): the seat
    picks both units or skips (default: its strongest unit to the leftmost slot); else the
    source unit and the command's target (Desert Rat "may": without a target nothing)."""
    p = player(ctx, seat)
    if op.get("choose"):
        own = [i for i, _ in units(p)]
        if len(own) < 2:
            return
        name = name_of(origin["card"])
        first = strongest_first(p, own)
        a = ctx.ask(
            seat, "swap", first + ["skip"], f"{name}: the first unit to swap", decline="skip"
        )
        if a == "skip":
            return
        b = ctx.ask(seat, "swap", [i for i in own if i != a], f"{name}: the unit it swaps with")
    else:
        a, b = unit_slot(ctx, seat, origin), origin.get("target")
    if a is None or b is None or a == b or b >= len(p.slots) or not p.slots[b].unit:
        return
    if op["mode"] == "strength" and (p.slots[a].red or p.slots[b].red):
        return
    ctx.emit("UnitsSwapped", seat, a=a, b=b, mode=op["mode"])


def temp_grants(p: Player) -> tuple[dict[int, int], list[int]]:
    """What the seat's units' battle effects would give in battle as temporary strength
    (D.E.E.R.): ``({slot: strength}, [slots of units that granted it to another unit])``.
    Effects aimed at opponents (The Scream) and those needing a battle card (Astronomer)
    give nothing now."""
    cat = catalogue()
    grants: dict[int, int] = {}
    granting: list[int] = []
    if is_toma(p):
        return grants, granting  # its cards have no effects
    for i, s in units(p):
        gave = False  # to a unit other than itself
        for op in cat[unit_of(s)].ops("battle"):
            if op["op"] != "temp" or op["to"] == "opponents" or op.get("per") == "ailien_value":
                continue
            targets = (
                [i]
                if op["to"] == "self"
                else [
                    j
                    for j, t in units(p)
                    if not op.get("color") or color_of(unit_of(t)) == op["color"]
                ]
            )
            for j in targets:
                per = op.get("per")
                if per == "attached":
                    n = op["n"] * len(p.slots[j].attached)
                elif per == "lost_health":
                    n = max(0, 6 - len(p.health))
                elif per == "discard_units":
                    n = op["n"] * sum(1 for _, t in units(p) if cat[unit_of(t)].ops("discard"))
                else:
                    n = op["n"]
                if n > 0:
                    grants[j] = grants.get(j, 0) + n
                    gave = gave or j != i
        if gave:
            granting.append(i)
    return grants, granting


@_op("convert_temp")
def _convert_temp(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """D.E.E.R. (``to`` absent): your units gain permanently the exact temporary strength
    your units' battle effects would give them; then the units whose effect granted it to
    another unit are discarded (their discard effects resolve; a unit that only boosted
    itself keeps what it received — ruling R-DEER). Invader (``to: self``): this unit gains the sum of the
    temporary strength your units' effects provide (preparation; max 15)."""
    p = player(ctx, seat)
    grants, granting = temp_grants(p)
    if op.get("to") == "self":
        me = unit_slot(ctx, seat, origin)
        total = sum(grants.values()) + sum(s.temp for _, s in units(p))
        if me is not None and total:
            gain(ctx, seat, me, total)
        return
    for i, n in sorted(grants.items()):
        gain(ctx, seat, i, n)
    for i in granting:
        unit = player(ctx, seat).slots[i].unit
        if unit:
            discard_card(ctx, seat, unit)


def temporary_strength(p: Player) -> dict[int, int]:
    """Temporary strength each unit of the seat has now (``{slot: strength}``, only slots
    with some): what its units' battle effects would give (:func:`temp_grants`), plus the
    slot's own temporary strength and Desert Rats' ammo on it ("Temporary effects must be
    taken into account", C.H.R.O.M.E., Eagle Eye)."""
    grants, _ = temp_grants(p)
    if is_toma(p):  # the passive symbol's bonus
        grants = {i: passive_bonus(p, i) for i, _ in units(p)}
    out = {}
    for i, s in units(p):
        n = grants.get(i, 0) + s.temp + s.ammo_temp
        if n > 0:
            out[i] = n
    return out


@_op("fix_temp")
def _fix_temp(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """C.H.R.O.M.E. (discard effect): "If a unit has 3 strength temporarily, you can discard
    C.H.R.O.M.E. permanently to that unit" — a unit of the seat's choice with at least ``n``
    temporary strength (:func:`temporary_strength`) gains ``n`` strength permanently
    (ruling R-CHROME; default: the one with the most temporary strength, leftmost on ties).
    Like every discard effect it resolves only in the Recruitment Phase (R-DISCARD-PHASE)."""
    p = player(ctx, seat)
    temps = temporary_strength(p)
    fit = sorted((i for i, n in temps.items() if n >= op["n"]), key=lambda i: (-temps[i], i))
    if not fit:
        return
    pick = ctx.ask(
        seat,
        "strength",
        fit + ["skip"],
        f"{name_of(origin['card'])}: make {op['n']} temporary strength of a unit permanent",
        decline="skip",
    )
    if pick != "skip":
        gain(ctx, seat, pick, op["n"])


def hand_choices(
    ctx: Ctx, seat: int, count: int, prompt: str, best_first: bool = True
) -> list[str]:
    """Up to ``count`` hand cards the seat picks one by one (``"stop"`` ends; default: the
    highest card values) — Erit Lux / Sic Mundus storing cards on the faction."""
    cat = catalogue()
    picked: list[str] = []
    for _ in range(count):
        hand = [c for c in player(ctx, seat).hand if c not in picked]
        if not hand:
            break
        ranked = sorted(
            hand, key=lambda c: (-(cat[c].value or 0) if best_first else (cat[c].value or 0), c)
        )
        pick = ctx.ask(seat, "store", ranked + ["stop"], prompt, decline="stop")
        if pick == "stop":
            break
        picked.append(pick)
    return picked


def journalist_rally(ctx: Ctx, seat: int, me: int, color: str, card: str) -> None:
    """Journalist: when one of your Humans fights, you decide how many more active Humans
    to exhaust; their strength is added to the fight, and the fighting unit then gains 1
    strength. Default: one (the rightmost). Under an opponent's Tokamak ("Your opponents may
    not add the strength of their additionally discarded units to their battle strength",
    ruling R-TOKAMAK) the exhausted Humans add nothing to the fight (the unit still gains 1).

    RULINGS R-JOURNALIST.
    """
    p = player(ctx, seat)
    denied = any(
        modifiers.has(ctx.state.players[o], "deny_added_strength")
        for o in opponents_of(ctx.state, seat)
    )
    exhausted = 0
    while True:
        helpers = [
            j for j, s in units(p) if j != me and not s.exhausted and color_of(unit_of(s)) == color
        ]
        if not helpers:
            break
        options = (
            ([helpers[-1]] + helpers[:-1] + ["stop"]) if not exhausted else (["stop"] + helpers)
        )
        pick = ctx.ask(
            seat,
            "rally",
            options,
            f"{name_of(card)}: exhaust another Human for this fight?",
            decline="stop",
        )
        if pick == "stop":
            break
        if not denied:
            ctx.emit("FightBonus", seat, n=strength_of(p.slots[pick]))
        exhaust_unit(ctx, seat, pick)
        fire(ctx, seat, "own_exhausted", {})  # Dealer
        exhausted += 1
    if exhausted:
        gain(ctx, seat, me, 1)
