"""Resolution of triggered effects: each op of the vocabulary as a function of the context.

``run(ctx, seat, ops, origin)`` executes ``ops`` in order for ``seat`` ("When you play a card
with an effect, you must resolve that effect completely before playing a new card. If
executing an effect triggers another effect, you must resolve the other effect immediately
and then continue"). ``origin`` describes where the effect comes from::

    {"card": id, "slot": int | None (the source's slot, also after it left it),
     "target": int | None (the command's target slot), "pos": int | None (strength index the
     card had when it left a slot)}

Choices the book leaves to a player inside an effect are decisions of that seat
(:meth:`.context.Ctx.ask`); the ops that ask live in :mod:`.choices`, :mod:`.opponents` and
:mod:`.pools` (the package imports them, so every op is registered once the package is);
the ``damage`` op, which can end the match, is registered by :mod:`..flow`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cards import catalogue
from ..context import Ctx
from ..spec import MAX_POS, MAX_SLOTS, SCALE
from ..state import (
    Player,
    card_of,
    color_of,
    max_ammo,
    pos_for_strength,
    strength_of,
    unit_of,
    units,
)
from . import modifiers
from .targets import target_optional, valid_targets

MAX_DEPTH = 12
Op = Mapping[str, Any]
_OPS: dict[str, Callable[[Ctx, int, Op, dict], None]] = {}


def _op(name: str):
    def deco(fn):
        _OPS[name] = fn
        return fn

    return deco


def run(ctx: Ctx, seat: int, ops, origin: dict) -> None:
    """Execute ``ops`` for ``seat``; static ops (modifiers) are skipped here.

    RULINGS R-MAX-DEPTH.
    """
    if ctx.depth >= MAX_DEPTH:
        return
    ctx.depth += 1
    try:
        for op in ops:
            fn = _OPS.get(op["op"])
            if fn is not None:
                fn(ctx, seat, op, origin)
    finally:
        ctx.depth -= 1


def origin_of(
    card: str, slot: int | None = None, target: int | None = None, pos: int | None = None
) -> dict:
    """Build an ``origin`` dict (see module doc)."""
    return {"card": card, "slot": slot, "target": target, "pos": pos}


# ------------------------------------------------------------------ helpers used by the rules


def player(ctx: Ctx, seat: int) -> Player:
    """The seat's scratch player."""
    return ctx.players[seat]


def unit_slot(ctx: Ctx, seat: int, origin: dict) -> int | None:
    """The origin's slot if its card is still the unit there."""
    i = origin.get("slot")
    slots = player(ctx, seat).slots
    if i is not None and i < len(slots) and slots[i].unit == origin["card"]:
        return i
    return None


def _matches(cid: str, color: str | None) -> bool:
    return color is None or color_of(cid) == color


def gain(ctx: Ctx, seat: int, slot: int, n: int) -> None:
    """ "X strength": slide the unit on ``slot`` up ``n`` scale positions (max 15; Homo Deus
    doubles). Red Slot bonuses of every newly reached symbol are gained (Lillith: twice);
    reaching 15 on a Red Slot exchanges it for a normal slot and gives a Special Unit."""
    p = player(ctx, seat)
    s = p.slots[slot]
    if not s.unit or n <= 0:
        return
    if modifiers.doubles_strength(p, slot):
        n *= 2
    old = s.pos
    new = min(old + n, MAX_POS)
    if new == old:
        return
    ctx.emit("StrengthChanged", seat, slot=slot, pos=new)
    if s.red:
        bonus_map = catalogue()[card_of(s)].red_slot
        times = 2 if modifiers.has(p, "red_double") else 1
        for idx in range(old + 1, new + 1):
            kind = bonus_map.get(SCALE[idx])
            if not kind:
                continue
            for _ in range(times):
                red_bonus(ctx, seat, slot, kind)
        check_red_exchange(ctx, seat, slot)


def red_bonus(ctx: Ctx, seat: int, slot: int, kind: str) -> None:
    """Gain one Red Slot bonus symbol: ammo, draw or strength (1 more on that unit)."""
    if kind == "ammo":
        gain_ammo(ctx, seat, 1)
    elif kind == "draw":
        ctx.draw(seat, 1)
    elif kind == "strength":
        gain(ctx, seat, slot, 1)


def check_red_exchange(ctx: Ctx, seat: int, slot: int) -> None:
    """ "If the unit on the Red Slot reaches ... 15 strength, you exchange the Red Slot for a
    normal slot (you take a card from the main deck) ... and you receive a new Special Unit
    to your hand". RULINGS R-RED-EXCHANGE."""
    s = player(ctx, seat).slots[slot]
    if not (s.red and s.unit and s.pos == MAX_POS):
        return
    if not ctx.ensure_draw(seat):
        return
    ctx.emit("RedSlotExchanged", seat, slot=slot, card=ctx.state.draw[0])
    if ctx.state.specials:
        ctx.emit("SpecialGained", seat, card=ctx.state.specials[0], to="hand")


def gain_ammo(ctx: Ctx, seat: int, n: int) -> int:
    """Take up to ``n`` ammo from the ammo deck (limit 6, Elysium 8; none once the deck is
    exhausted). Fires the ``ammo_gained`` hook. Returns the ammo taken."""
    p = player(ctx, seat)
    count = max(0, min(n, max_ammo(p) - len(p.ammo), len(ctx.state.ammo_deck)))
    if count:
        ctx.emit("AmmoGained", seat, cards=ctx.state.ammo_deck[:count])
        fire(ctx, seat, "ammo_gained", {})
    return count


def spend_ammo(ctx: Ctx, seat: int, slot: int) -> None:
    """Recruitment: 1 ammo -> +1 strength on ``slot`` (+ Dreadator/Corporation/Disintegrator
    bonus). Desert Rats: the spent ammo stays on the unit (``stays``) and gives it +2
    temporary strength in the next battle; it returns to the ammo deck after the battle.

    RULINGS R-DESERT-RATS.
    """
    p = player(ctx, seat)
    extra = modifiers.ammo_temp(p)
    # Desert Rats: "the ammo stays above the unit and gives it 2 strength in battle.
    # Discard the ammo after the battle." (back to the ammo deck at BattleCleared)
    ctx.emit(
        "AmmoSpent", seat, count=1, slot=slot, battle=False, **({"stays": True} if extra else {})
    )
    gain(ctx, seat, slot, 1 + modifiers.ammo_bonus(p, slot))
    if extra and p.slots[slot].unit:
        ctx.emit("TempAdded", seat, slot=slot, n=extra, field="ammo_temp")
    fire(ctx, seat, "ammo_spent", {})


def discard_card(
    ctx: Ctx, seat: int, cid: str, target: int | None = None, trigger: bool = True
) -> None:
    """Discard ``cid`` from the hand or a slot. In the Recruitment Phase its discard effect
    resolves (Good to Know: battle and end-of-battle discards do not count) and the
    ``unit_discarded`` / ``discard_effect`` hooks fire."""
    p = player(ctx, seat)
    slot = next((i for i, s in enumerate(p.slots) if s.unit == cid), None)
    pos = p.slots[slot].pos if slot is not None else None
    if slot is not None:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "slot"}, slot=slot)
    else:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "hand"})
    if ctx.state.phase != "recruitment" or not trigger:
        return
    fire(ctx, seat, "unit_discarded", {"color": color_of(cid)})
    ops = catalogue()[cid].ops("discard")
    if ops:
        resolve_discard_effect(ctx, seat, ops, origin_of(cid, slot, target, pos), discarded=1)
    elif ctx.discard_counts and ctx.discard_counts[-1][0] == seat:
        ctx.discard_counts[-1][1] += 1  # a card discarded for that discard effect


def resolve_discard_effect(ctx: Ctx, seat: int, ops: list, origin: dict, discarded: int) -> None:
    """Resolve a discard effect of ``seat`` and fire the ``discard_effect`` hook with
    ``count`` = the cards discarded for it: ``discarded`` (1 when its own card was discarded,
    0 when Bartender / Destiny trigger it and the unit stays) plus every card its ops discard
    that has no discard effect of its own (such a card counts for its own effect, so each
    card counts once). Finisher: "Only effects that are declared as such with a
    discard-effect symbol to the left of the text count. For example, if you discard 3 cards
    for one discard effect (e.g. Module), the Finisher bonus is 3 strength" — listeners with
    ``per_count`` run once per card, the others (Patient Zero) once per effect.

    RULINGS R-DISCARD-COUNT.
    """
    ctx.discard_counts.append([seat, discarded])
    try:
        run(ctx, seat, ops, origin)
    finally:
        count = ctx.discard_counts.pop()[1]
    fire(ctx, seat, "discard_effect", {"count": count})


def discardable_factions(p: Player) -> list[str]:
    """The seat's own faction cards (kept or Stalker's extra, never the table's) that have a
    discard effect and so may be discarded themselves (Fallout Boyz: "or even discard it")."""
    own = ([p.faction] if p.faction else []) + list(p.extra_factions)
    return [f for f in own if catalogue()[f].ops("discard")]


def discard_faction(ctx: Ctx, seat: int, fid: str) -> None:
    """Fallout Boyz: "You can also trigger the discard effect of this card with other card
    effects or even discard it." The faction card goes under the ammo deck (where the
    unchosen faction went, Game Setup B); the seat no longer has it. In the Recruitment
    Phase its discard effect resolves and the ``discard_effect`` hook fires (ruling
    R-FALLOUT)."""
    ctx.emit("FactionDiscarded", seat, card=fid)
    if ctx.state.phase != "recruitment":
        return
    ops = catalogue()[fid].ops("discard")
    if ops:
        resolve_discard_effect(ctx, seat, ops, origin_of(fid), discarded=1)


def recruit_card(
    ctx: Ctx, seat: int, cid: str, slot: int, target: int | None, source: str = "hand", pos: int = 0
) -> None:
    """Place ``cid`` on the empty ``slot`` (strength 1 unless a Triple carries strength) and
    resolve its recruit effect."""
    ctx.emit("UnitRecruited", seat, card=cid, slot=slot, pos=pos, **{"from": source})
    check_red_exchange(ctx, seat, slot)
    ops = catalogue()[cid].ops("recruit")
    if ops:
        run(ctx, seat, ops, origin_of(cid, slot, target))


def place_red_slot(ctx: Ctx, seat: int, into: int | None = None, card: str | None = None) -> None:
    """ "Red Slots": "If you obtain a Red Slot through an effect and have not yet 6 slots,
    place the Red Slot as a new slot. If you already have 6 slots, replace any empty slot
    with the Red Slot. If you have no empty slots left, you can place the Red Slot under any
    unit." Taken from the Special deck ("Take the Red Slot from the deck of Special Units")
    — or, with ``card`` (a Special Unit in the seat's hand, Triples: "You may play it like any
    other unit or as a Red Slot"), that card from the hand (``RedSlotPlaced`` with ``from:
    "hand"``, ruling R-SLOT-CARD). ``into`` (Seppuku): that slot if it is empty.

    Which empty slot, or which unit, is the seat's decision (kind ``red_slot``, options slot
    indexes; ruling R-RED-PLACE): the default (first option, a turn timeout's) is the
    leftmost empty slot, and under a unit the weakest one (rightmost on ties), the engine's
    placement before it became a choice. A unit already at 15 exchanges the Red Slot at once."""
    if card is None and not ctx.state.specials:
        return
    extra = {"from": "hand"} if card is not None else {}
    card = card if card is not None else ctx.state.specials[0]
    p = player(ctx, seat)
    slots = p.slots
    if into is not None and into < len(slots) and not slots[into].unit:
        ctx.emit("RedSlotPlaced", seat, card=card, slot=into, mode="replace", **extra)
        return
    if len(slots) < MAX_SLOTS:
        ctx.emit("RedSlotPlaced", seat, card=card, slot=len(slots), mode="new", **extra)
        return
    empty = [i for i, s in enumerate(slots) if not s.unit]
    if empty:
        pick = ctx.ask(seat, "red_slot", empty, "Red Slot: the empty slot it replaces")
        ctx.emit("RedSlotPlaced", seat, card=card, slot=pick, mode="replace", **extra)
        return
    under = sorted((i for i, _ in units(p)), key=lambda i: (strength_of(p.slots[i]), -i))
    pick = ctx.ask(seat, "red_slot", under, "Red Slot: the unit it goes under")
    ctx.emit("RedSlotPlaced", seat, card=card, slot=pick, mode="under", **extra)
    check_red_exchange(ctx, seat, pick)


def pick_unit(
    p: Player, pick: str, active_only: bool = False, color: str | None = None
) -> int | None:
    """Strongest (leftmost on ties) or weakest (rightmost on ties) unit of a seat — the
    A.I.Toma ruling's "weakest unit from the right" used for every opponent's choice."""
    cands = [
        (i, s)
        for i, s in units(p)
        if _matches(unit_of(s), color)
        and not (active_only and s.exhausted)
        and not modifiers.never_fights(p, i)
    ]
    if not cands:
        return None
    if pick == "strongest":
        return max(cands, key=lambda t: (strength_of(t[1]) + t[1].temp, -t[0]))[0]
    return min(cands, key=lambda t: (strength_of(t[1]), -t[0]))[0]


def exhaust_unit(ctx: Ctx, seat: int, slot: int) -> None:
    """ "If a unit that has not fought yet is exhausted by an effect, draw a card from the draw
    pile and place it face down above the unit, as if you lost a point with that unit."""
    card = ctx.state.draw[0] if ctx.ensure_draw(seat) else None
    ctx.emit("UnitExhausted", seat, slot=slot, card=card)


def fire(ctx: Ctx, seat: int, hook: str, info: dict) -> None:
    """Run the ``listen`` ops of ``seat`` for ``hook`` (left to right, factions last).
    ``unique`` listeners count once per card name (Outsider is not cumulative);
    ``per_count`` ones run once per ``info["count"]`` (Queen of Elysium per renewed card)."""
    p = player(ctx, seat)
    seen: set[str] = set()
    phase = ctx.state.phase
    for i, card in list(modifiers.sources(p)):
        for op in card.has("listen"):
            if op["on"] != hook:
                continue
            if op.get("color") and info.get("color") != op["color"]:
                continue
            if op.get("self_only") and info.get("slot") != i:
                continue
            if op.get("phase") and op["phase"] != phase:
                continue
            if op.get("unique"):
                if card.name in seen:
                    continue
                seen.add(card.name)
            for _ in range(info.get("count", 1) if op.get("per_count") else 1):
                run(ctx, seat, op["then"], origin_of(card.id, i))


# ------------------------------------------------------------------ the ops


@_op("strength")
def _strength(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    color = op.get("color")
    to = op["to"]
    if to == "self":
        slots = [unit_slot(ctx, seat, origin)]
    elif to == "target":
        t = origin.get("target")
        ok = (
            t is not None
            and t < len(p.slots)
            and p.slots[t].unit
            and _matches(p.slots[t].unit, color)
        )
        slots = [t] if ok else []
    elif to == "leftmost":
        slots = [units(p)[0][0]] if units(p) else []
    else:
        slots = [i for i, s in units(p) if _matches(unit_of(s), color)]
    for i in slots:
        if i is not None:
            gain(ctx, seat, i, op["n"])


@_op("temp")
def _temp(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Executed only from preparation effects; battle-trigger temps are counted in battle."""
    p = player(ctx, seat)
    if op["to"] == "self":
        targets = [unit_slot(ctx, seat, origin)]
    elif op["to"] == "weakest":
        targets = [pick_unit(p, "weakest")]
    elif op["to"] == "all":
        targets = [i for i, s in units(p) if _matches(unit_of(s), op.get("color"))]
    else:
        targets = []
    for i in targets:
        if i is not None:
            ctx.emit("TempAdded", seat, slot=i, n=op["n"])


@_op("ammo")
def _ammo(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    gain_ammo(ctx, seat, op["n"])


@_op("draw")
def _draw(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if op.get("if_pool") and not player(ctx, seat).pool:
        return
    ctx.draw(seat, op["n"])


@_op("red_slot")
def _red_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    into = origin.get("slot") if op.get("into") == "own_slot" else None
    place_red_slot(ctx, seat, into)


@_op("reactivate")
def _reactivate(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Back.Up, Dealer, Lich Queen, Ghost Twin: the seat may reactivate one of its exhausted
    units (of ``color``) of its choice (default: the leftmost); its battle cards move to the
    reactivating unit's ("Put the battle card of the reactivated unit to ...")."""
    me = unit_slot(ctx, seat, origin)
    if me is None or ctx.state.phase != "battle":
        return
    exhausted = [
        i
        for i, s in units(player(ctx, seat))
        if i != me and s.exhausted and _matches(unit_of(s), op.get("color"))
    ]
    if not exhausted:
        return
    pick = ctx.ask(
        seat,
        "reactivate",
        exhausted + ["skip"],
        f"{catalogue()[origin['card']].name}: reactivate an exhausted unit?",
        decline="skip",
    )
    if pick != "skip":
        ctx.emit("UnitReactivated", seat, slot=pick, by=me)
        fire(ctx, seat, "reactivated", {})


def left_neighbour(ctx: Ctx, seat: int) -> int | None:
    """Next living seat clockwise (RULINGS General: left neighbour of s is s+1)."""
    n = len(ctx.players)
    for k in range(1, n):
        other = (seat + k) % n
        if not ctx.players[other].eliminated:
            return other
    return None


@_op("open_slot")
def _open_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    limit = MAX_SLOTS + (1 if op["extra"] else 0)
    if len(player(ctx, seat).slots) < limit and ctx.ensure_draw(seat):
        ctx.emit(
            "SlotOpened",
            seat,
            card=ctx.state.draw[0],
            slot=len(player(ctx, seat).slots),
            **{"from": "draw"},
        )


@_op("retrigger")
def _retrigger(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Bartender, Destiny (discard effect), Governor (recruit effect): the ``trigger``
    effect of the seat's leftmost other unit (of ``color``) that has one resolves; the unit
    stays. An effect marked ``once`` (Walter White: "The effect cannot be executed twice by
    any effects") is never re-triggered: the next unit with one is taken. Without a colour
    the seat's faction(s) come last, as in every left-to-right
    order ("your faction being last"): Fallout Boyz's discard effect "can also be
    triggered with other card effects" (ruling R-FALLOUT). RULINGS R-WALTER."""
    p = player(ctx, seat)
    cat = catalogue()
    sources: list[tuple[int | None, str, int | None]] = [
        (i, unit_of(s), s.pos)
        for i, s in units(p)
        if s.unit != origin["card"] and _matches(unit_of(s), op.get("color"))
    ]
    if op.get("color") is None and op["trigger"] == "discard":
        sources += [(None, f, None) for f in discardable_factions(p) if f != origin["card"]]
    for i, cid, pos in sources:
        ops = cat[cid].ops(op["trigger"])
        if any(o.get("once") for o in ops):
            continue  # Walter White: "cannot be executed twice by any effects"
        if ops:
            target = _retrigger_target(ctx, seat, cid, op["trigger"], i)
            if op["trigger"] == "discard":  # the unit stays: 0 cards of its own
                resolve_discard_effect(ctx, seat, ops, origin_of(cid, i, target, pos), discarded=0)
            else:
                run(ctx, seat, ops, origin_of(cid, i, target, pos))
            return


def _retrigger_target(ctx: Ctx, seat: int, cid: str, trigger: str, own: int | None) -> int | None:
    """The target unit a re-triggered effect aims at (Governor triggering Elder Commander's
    or Sergeant's "the target Human gains ..."): the seat chooses among the units the
    effect could target when played (:func:`.targets.valid_targets`), left to right
    (default: the leftmost); "skip" too when the effect's target is optional. ``None``
    when the effect needs none or nothing fits. RULINGS R-RETRIGGER-TARGET."""
    targets = valid_targets(player(ctx, seat), cid, trigger, own)
    if not targets:
        return None
    options = targets + (["skip"] if target_optional(cid, trigger) else [])
    pick = ctx.ask(
        seat,
        "target",
        options,
        f"{catalogue()[cid].name}: the target unit of its {trigger} effect",
        decline="skip" if "skip" in options else None,
    )
    return None if pick == "skip" else pick


@_op("absorb")
def _absorb(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    me, t = unit_slot(ctx, seat, origin), origin.get("target")
    if me is None or t is None or t == me or t >= len(p.slots) or not p.slots[t].unit:
        return
    pos = p.slots[t].pos
    discard_card(ctx, seat, p.slots[t].unit, trigger=False)
    if pos > p.slots[me].pos:
        ctx.emit("StrengthChanged", seat, slot=me, pos=pos)
        check_red_exchange(ctx, seat, me)


@_op("apocalypse")
def _apocalypse(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """An A.I.Lien's round bonus: triggers the A.I.Pokalypse only in Sudden Death, once.

    RULINGS R-APOCALYPSE.
    """
    if ctx.state.sudden_death and not ctx.state.apocalypse:
        ctx.emit("AIPokalypseTriggered", seat, card=origin["card"])


@_op("merge")
def _merge(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    me = unit_slot(ctx, seat, origin)
    if me is None:
        return
    total = strength_of(p.slots[me])
    for i, s in units(p):
        if i != me and color_of(unit_of(s)) == op["color"]:
            total += strength_of(s)
            ctx.emit("CardAttached", seat, card=s.unit, slot=me, from_slot=i, **{"from": "slot"})
    new = pos_for_strength(total)
    if new > p.slots[me].pos:
        ctx.emit("StrengthChanged", seat, slot=me, pos=new)
        check_red_exchange(ctx, seat, me)


@_op("salvage")
def _salvage(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state.discard:
        ctx.emit("CardTaken", seat, card=ctx.state.discard[-1])
    if not any(p.ammo for p in ctx.players):
        gain_ammo(ctx, seat, 1)


@_op("search")
def _search(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Draw until a card of ``kind`` turns up (the others go to the discard pile): into the
    hand, or onto Venus Colony (``to: colony``). When the draw pile runs out the discard
    pile is shuffled as the new draw pile, once, and searched through ("Shuffle the discard
    pile if necessary": Shadow Fortress, Roko's Basilisk; before, the search stopped after as
    many cards as both piles held at its start, missing cards it had milled and reshuffled
    back) — with ``reshuffle: optional`` only if the seat wants to
    (Enclave M87: "If you don't find a human in the draw pile, you can shuffle the discard
    pile"; kind ``reshuffle``, options ``reshuffle`` — the default, what the search did before
    it became a choice — or ``stop``). RULINGS R-ENCLAVE."""
    cat = catalogue()
    kind = op["kind"]
    reshuffled = False
    while True:
        if not ctx.state.draw:  # the whole draw pile was searched
            if reshuffled or not ctx.state.discard:
                return
            if (
                op.get("reshuffle") == "optional"
                and ctx.ask(
                    seat,
                    "reshuffle",
                    ["reshuffle", "stop"],
                    f"{cat[origin['card']].name}: no card found in the draw pile; shuffle the discard pile?",
                    decline="stop",
                )
                == "stop"
            ):
                return
            ctx.ensure_draw(seat)
            reshuffled = True  # one pass through the new pile at most
        top = ctx.state.draw[0]
        card = cat[top]
        if (card.kind == "ailien") if kind == "ailien" else (card.color == kind):
            if op.get("to") == "colony":  # Venus Colony: placed on the faction
                ctx.emit("ColonyLoaded", seat, card=top)
            else:
                ctx.emit("CardsDrawn", seat, cards=[top], to="hand")
            return
        ctx.emit("CardsMilled", seat, cards=[top])


@_op("extra_faction")
def _extra_faction(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state.ammo_deck:
        ctx.emit("FactionGained", seat, card=ctx.state.ammo_deck[0])


@_op("health_from_deck")
def _health_from_deck(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state.specials:
        ctx.emit("SpecialGained", seat, card=ctx.state.specials[0], to="health")


@_op("ammo_all")
def _ammo_all(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to
    give strength to all your humans." How much ammo is the seat's decision (kind ``ammo``,
    options the counts: 1 first — the default, what the card spent before it became a
    choice —, then 0 and 2 up to all its ammo). Each ammo spent gives every unit of
    ``color`` 1 strength and fires ``ammo_spent`` (one ``AmmoSpent`` per ammo)."""
    p = player(ctx, seat)
    targets = [i for i, s in units(p) if color_of(unit_of(s)) == op["color"]]
    if not p.ammo or not targets:
        return
    options = [1, 0] + list(range(2, len(p.ammo) + 1))
    count = ctx.ask(
        seat,
        "ammo",
        options,
        f"{catalogue()[origin['card']].name}: how many ammo to give "
        "each of your Humans 1 strength?",
        decline=0,
    )
    for _ in range(count):
        if not player(ctx, seat).ammo:
            break
        spend_ammo_on_all(ctx, seat, op["color"])


def spend_ammo_on_all(ctx: Ctx, seat: int, color: str) -> None:
    """Lieutenant Dan in the Recruitment Phase: 1 ammo (back on top of the ammo deck) gives
    every unit of ``color`` on the seat's slots 1 strength ("Instead of giving a unit
    strength, you can also spend your ammo to give strength to all your humans"); fires
    ``ammo_spent`` once. No unit is the one "onto which you play the ammo", so the per-unit
    ammo bonuses (Dreadator, The Corporation, Disintegrator) and Desert Rats' staying ammo do
    not apply (ruling R-DAN)."""
    targets = [i for i, s in units(player(ctx, seat)) if color_of(unit_of(s)) == color]
    ctx.emit("AmmoSpent", seat, count=1, slot=None, battle=False)
    for i in targets:
        gain(ctx, seat, i, 1)
    fire(ctx, seat, "ammo_spent", {})
