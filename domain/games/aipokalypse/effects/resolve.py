"""Resolution of triggered effects: each op of the vocabulary as a function of the context.

``run(ctx, seat, ops, origin)`` executes ``ops`` in order for ``seat`` ("When you play a card
with an effect, you must resolve that effect completely before playing a new card. If
executing an effect triggers another effect, you must resolve the other effect immediately
and then continue"). ``origin`` describes where the effect comes from::

    {"card": id, "slot": int | None (the source's slot, also after it left it),
     "target": int | None (the command's target slot), "pos": int | None (strength index the
     card had when it left a slot)}

Choices the book leaves to the player inside an effect, where the command carries no field
for them, follow the rulings in ``RULINGS.md`` (R-auto-*): discarding picks the lowest card
value, the opponents' kill/exhaust picks are "strongest" or "weakest" as printed.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..cards import catalogue
from ..context import Ctx
from ..spec import MAX_POS, MAX_SLOTS, SCALE
from ..state import alive, color_of, max_ammo, pos_for_strength, strength_of, units
from . import modifiers

MAX_DEPTH = 12
Op = Mapping[str, Any]
_OPS: dict[str, Callable[[Ctx, int, Op, dict], None]] = {}


def _op(name: str):
    def deco(fn):
        _OPS[name] = fn
        return fn
    return deco


def run(ctx: Ctx, seat: int, ops, origin: dict) -> None:
    """Execute ``ops`` for ``seat``; static ops (modifiers) are skipped here."""
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


def origin_of(card: str, slot: int | None = None, target: int | None = None,
              pos: int | None = None) -> dict:
    """Build an ``origin`` dict (see module doc)."""
    return {"card": card, "slot": slot, "target": target, "pos": pos}


# ------------------------------------------------------------------ helpers used by the rules

def player(ctx: Ctx, seat: int) -> dict:
    """The seat's scratch player."""
    return ctx.players[seat]


def unit_slot(ctx: Ctx, seat: int, origin: dict) -> int | None:
    """The origin's slot if its card is still the unit there."""
    i = origin.get("slot")
    slots = player(ctx, seat)["slots"]
    if i is not None and i < len(slots) and slots[i]["unit"] == origin["card"]:
        return i
    return None


def _matches(cid: str, color: str | None) -> bool:
    return color is None or color_of(cid) == color


def gain(ctx: Ctx, seat: int, slot: int, n: int) -> None:
    """"X strength": slide the unit on ``slot`` up ``n`` scale positions (max 15; Homo Deus
    doubles). Red Slot bonuses of every newly reached symbol are gained (Lillith: twice);
    reaching 15 on a Red Slot exchanges it for a normal slot and gives a Special Unit."""
    p = player(ctx, seat)
    s = p["slots"][slot]
    if not s["unit"] or n <= 0:
        return
    if modifiers.doubles_strength(p, slot):
        n *= 2
    old = s["pos"]
    new = min(old + n, MAX_POS)
    if new == old:
        return
    ctx.emit("StrengthChanged", seat, slot=slot, pos=new)
    if s["red"]:
        bonus_map = catalogue()[s["card"]].red_slot
        times = 2 if modifiers.has(p, "red_double") else 1
        for idx in range(old + 1, new + 1):
            kind = bonus_map.get(SCALE[idx])
            for _ in range(times if kind else 0):
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
    """"If the unit on the Red Slot reaches ... 15 strength, you exchange the Red Slot for a
    normal slot (you take a card from the main deck) ... and you receive a new Special Unit
    to your hand"."""
    s = player(ctx, seat)["slots"][slot]
    if not (s["red"] and s["unit"] and s["pos"] == MAX_POS):
        return
    if not ctx.ensure_draw():
        return
    ctx.emit("RedSlotExchanged", seat, slot=slot, card=ctx.state["draw"][0])
    if ctx.state["specials"]:
        ctx.emit("SpecialGained", seat, card=ctx.state["specials"][0], to="hand")


def gain_ammo(ctx: Ctx, seat: int, n: int) -> int:
    """Take up to ``n`` ammo from the ammo deck (limit 6, Elysium 8; none once the deck is
    exhausted). Fires the ``ammo_gained`` hook. Returns the ammo taken."""
    p = player(ctx, seat)
    count = max(0, min(n, max_ammo(p) - len(p["ammo"]), len(ctx.state["ammo_deck"])))
    if count:
        ctx.emit("AmmoGained", seat, cards=ctx.state["ammo_deck"][:count])
        fire(ctx, seat, "ammo_gained", {})
    return count


def spend_ammo(ctx: Ctx, seat: int, slot: int) -> None:
    """Recruitment: 1 ammo -> +1 strength on ``slot`` (+ Dreadator/Corporation/Disintegrator
    bonus; Desert Rats keep +2 temporary strength for the next battle)."""
    p = player(ctx, seat)
    ctx.emit("AmmoSpent", seat, count=1, slot=slot, battle=False)
    gain(ctx, seat, slot, 1 + modifiers.ammo_bonus(p, slot))
    extra = modifiers.ammo_temp(p)
    if extra and p["slots"][slot]["unit"]:
        ctx.emit("TempAdded", seat, slot=slot, n=extra, field="ammo_temp")
    fire(ctx, seat, "ammo_spent", {})


def lowest_hand(ctx: Ctx, seat: int, count: int, exclude: tuple = ()) -> list[str]:
    """Ruling R-auto-discard: effect discards take the lowest card values first (basic units
    before Special Units, id order on ties)."""
    cat = catalogue()
    hand = [c for c in player(ctx, seat)["hand"] if c not in exclude]
    hand.sort(key=lambda c: (cat[c].category != "basic", cat[c].value or 99, c))
    return hand[:count]


def discard_card(ctx: Ctx, seat: int, cid: str, target: int | None = None,
                 trigger: bool = True) -> None:
    """Discard ``cid`` from the hand or a slot. In the Recruitment Phase its discard effect
    resolves (Good to Know: battle and end-of-battle discards do not count) and the
    ``unit_discarded`` / ``discard_effect`` hooks fire."""
    p = player(ctx, seat)
    slot = next((i for i, s in enumerate(p["slots"]) if s["unit"] == cid), None)
    pos = p["slots"][slot]["pos"] if slot is not None else None
    if slot is not None:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "slot"}, slot=slot)
    else:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "hand"})
    if ctx.state["phase"] != "recruitment" or not trigger:
        return
    fire(ctx, seat, "unit_discarded", {"color": color_of(cid)})
    ops = catalogue()[cid].ops("discard")
    if ops:
        run(ctx, seat, ops, origin_of(cid, slot, target, pos))
        fire(ctx, seat, "discard_effect", {})


def recruit_card(ctx: Ctx, seat: int, cid: str, slot: int, target: int | None,
                 source: str = "hand", pos: int = 0) -> None:
    """Place ``cid`` on the empty ``slot`` (strength 1 unless a Triple carries strength) and
    resolve its recruit effect."""
    ctx.emit("UnitRecruited", seat, card=cid, slot=slot, pos=pos, **{"from": source})
    check_red_exchange(ctx, seat, slot)
    ops = catalogue()[cid].ops("recruit")
    if ops:
        run(ctx, seat, ops, origin_of(cid, slot, target))


def place_red_slot(ctx: Ctx, seat: int, into: int | None = None) -> None:
    """"Red Slots": a new slot while under 6 slots, else replace an empty slot (the leftmost),
    else under a unit (ruling: the weakest, rightmost on ties). Taken from the Special deck."""
    if not ctx.state["specials"]:
        return
    card = ctx.state["specials"][0]
    slots = player(ctx, seat)["slots"]
    if into is not None and into < len(slots) and not slots[into]["unit"]:
        ctx.emit("RedSlotPlaced", seat, card=card, slot=into, mode="replace")
        return
    if len(slots) < MAX_SLOTS:
        ctx.emit("RedSlotPlaced", seat, card=card, slot=len(slots), mode="new")
        return
    empty = [i for i, s in enumerate(slots) if not s["unit"]]
    if empty:
        ctx.emit("RedSlotPlaced", seat, card=card, slot=empty[0], mode="replace")
        return
    weakest = pick_unit(player(ctx, seat), "weakest")
    ctx.emit("RedSlotPlaced", seat, card=card, slot=weakest, mode="under")
    check_red_exchange(ctx, seat, weakest)


def pick_unit(p: dict, pick: str, active_only: bool = False, color: str | None = None) -> int | None:
    """Strongest (leftmost on ties) or weakest (rightmost on ties) unit of a seat — the
    A.I.Toma ruling's "weakest unit from the right" used for every opponent's choice."""
    cands = [(i, s) for i, s in units(p) if _matches(s["unit"], color)
             and not (active_only and s["exhausted"]) and not modifiers.never_fights(p, i)]
    if not cands:
        return None
    if pick == "strongest":
        return max(cands, key=lambda t: (strength_of(t[1]) + t[1]["temp"], -t[0]))[0]
    return min(cands, key=lambda t: (strength_of(t[1]), -t[0]))[0]


def exhaust_unit(ctx: Ctx, seat: int, slot: int) -> None:
    """"If a unit that has not fought yet is exhausted by an effect, draw a card from the draw
    pile and place it face down above the unit, as if you lost a point with that unit."""
    card = ctx.state["draw"][0] if ctx.ensure_draw() else None
    ctx.emit("UnitExhausted", seat, slot=slot, card=card)


def fire(ctx: Ctx, seat: int, hook: str, info: dict) -> None:
    """Run the ``listen`` ops of ``seat`` for ``hook`` (left to right, factions last).
    ``unique`` listeners count once per card name (Outsider is not cumulative)."""
    p = player(ctx, seat)
    seen: set[str] = set()
    phase = ctx.state["phase"]
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
        ok = t is not None and t < len(p["slots"]) and p["slots"][t]["unit"] and _matches(p["slots"][t]["unit"], color)
        slots = [t] if ok else []
    elif to == "leftmost":
        slots = [units(p)[0][0]] if units(p) else []
    else:
        slots = [i for i, s in units(p) if _matches(s["unit"], color)]
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
        targets = [i for i, s in units(p) if _matches(s["unit"], op.get("color"))]
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
    if op.get("if_pool") and not player(ctx, seat)["pool"]:
        return
    ctx.draw(seat, op["n"])


@_op("discard")
def _discard(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    done = 0
    for _ in range(op["n"]):
        pick = lowest_hand(ctx, seat, 1, exclude=(origin["card"],))
        if not pick:
            break
        discard_card(ctx, seat, pick[0], trigger=not op.get("silent"))
        done += 1
        if op.get("per"):
            run(ctx, seat, op["per"], origin)
    if done == op["n"] and op.get("then"):
        run(ctx, seat, op["then"], origin)


@_op("draw_discard")
def _draw_discard(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    drawn = ctx.draw(seat, op["draw"])
    for _ in range(op["discard"] if drawn else 0):
        pick = lowest_hand(ctx, seat, 1)
        if pick:
            discard_card(ctx, seat, pick[0])


@_op("red_slot")
def _red_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    into = origin.get("slot") if op.get("into") == "own_slot" else None
    place_red_slot(ctx, seat, into)


@_op("attach")
def _attach(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    me = unit_slot(ctx, seat, origin)
    cat = catalogue()
    hand = [c for c in player(ctx, seat)["hand"] if cat[c].category == "basic"]
    if me is None or not hand:
        return
    best = max(hand, key=lambda c: (cat[c].value, c))
    ctx.emit("CardAttached", seat, card=best, slot=me, **{"from": "hand"})
    gain(ctx, seat, me, op["n"])


@_op("exhaust")
def _exhaust(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state["phase"] != "battle":
        return
    for other in alive(ctx.state):
        if other == seat:
            continue
        i = pick_unit(player(ctx, other), op["pick"], active_only=True)
        if i is not None:
            exhaust_unit(ctx, other, i)


@_op("reactivate")
def _reactivate(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    me = unit_slot(ctx, seat, origin)
    if me is None or ctx.state["phase"] != "battle":
        return
    for i, s in units(player(ctx, seat)):
        if i != me and s["exhausted"] and _matches(s["unit"], op.get("color")):
            ctx.emit("UnitReactivated", seat, slot=i, by=me)
            fire(ctx, seat, "reactivated", {})
            return


@_op("kill")
def _kill(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    key = f"kill:{origin['card']}"
    if op.get("once") and key in p["used"]:
        return
    if op.get("max_health") is not None and len(p["health"]) > op["max_health"]:
        return
    if op.get("once"):
        ctx.emit("OnceUsed", seat, key=key)
    for other in alive(ctx.state):
        if other != seat:
            i = pick_unit(player(ctx, other), op["pick"])
            if i is not None:
                discard_card(ctx, other, player(ctx, other)["slots"][i]["unit"], trigger=False)


@_op("swap")
def _swap(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    if op.get("auto") == "strongest_left":
        us = units(p)
        if len(us) < 2:
            return
        a, b = us[0][0], pick_unit(p, "strongest")
    else:
        a, b = unit_slot(ctx, seat, origin), origin.get("target")
    if a is None or b is None or a == b or b >= len(p["slots"]) or not p["slots"][b]["unit"]:
        return
    if op["mode"] == "strength" and (p["slots"][a]["red"] or p["slots"][b]["red"]):
        return                                   # Chain Reactor: not on Red Slots
    ctx.emit("UnitsSwapped", seat, a=a, b=b, mode=op["mode"])


@_op("heal")
def _heal(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    for _ in range(op["n"]):
        pool = player(ctx, seat)["pool"]
        if pool:
            ctx.emit("HealthGained", seat, card=pool[0])


def left_neighbour(ctx: Ctx, seat: int) -> int | None:
    """Next living seat clockwise (RULINGS General: left neighbour of s is s+1)."""
    n = ctx.state["n"]
    for k in range(1, n):
        other = (seat + k) % n
        if not ctx.players[other]["eliminated"]:
            return other
    return None


@_op("steal_pool")
def _steal_pool(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    other = left_neighbour(ctx, seat)
    if other is not None and ctx.players[other]["pool"]:
        card = ctx.players[other]["pool"][0]
        ctx.emit("PoolCardMoved", seat, card=card, from_seat=other, to_seat=seat, from_where="pool")


@_op("open_slot")
def _open_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    limit = MAX_SLOTS + (1 if op["extra"] else 0)
    if len(player(ctx, seat)["slots"]) < limit and ctx.ensure_draw():
        ctx.emit("SlotOpened", seat, card=ctx.state["draw"][0], slot=len(player(ctx, seat)["slots"]),
                 **{"from": "draw"})


@_op("renew_pool")
def _renew_pool(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    pool = list(player(ctx, seat)["pool"])
    for cid in pool:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "pool"})
    for _ in pool:
        if ctx.state["specials"]:
            ctx.emit("SpecialGained", seat, card=ctx.state["specials"][0], to="pool")


@_op("special_to_slot")
def _special_to_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    if not p["pool"]:
        return
    card, slot = p["pool"][0], origin.get("slot")
    if slot is not None and origin.get("pos") is not None and not p["slots"][slot]["unit"]:
        recruit_card(ctx, seat, card, slot, None, source="pool", pos=origin["pos"])
    else:
        ctx.emit("SpecialTaken", seat, card=card, **{"from": "pool"})


@_op("retrigger")
def _retrigger(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    for i, s in units(p):
        if s["unit"] == origin["card"] or not _matches(s["unit"], op.get("color")):
            continue
        ops = catalogue()[s["unit"]].ops(op["trigger"])
        if ops:
            run(ctx, seat, ops, origin_of(s["unit"], i, None, s["pos"]))
            if op["trigger"] == "discard":
                fire(ctx, seat, "discard_effect", {})
            return


@_op("absorb")
def _absorb(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    me, t = unit_slot(ctx, seat, origin), origin.get("target")
    if me is None or t is None or t == me or t >= len(p["slots"]) or not p["slots"][t]["unit"]:
        return
    pos = p["slots"][t]["pos"]
    discard_card(ctx, seat, p["slots"][t]["unit"], trigger=False)
    if pos > p["slots"][me]["pos"]:
        ctx.emit("StrengthChanged", seat, slot=me, pos=pos)
        check_red_exchange(ctx, seat, me)


def own_temp(card_id: str) -> int:
    """Fixed temporary strength a unit's own battle effect gives itself (D.E.E.R., Invader)."""
    return sum(op["n"] for op in catalogue()[card_id].ops("battle")
               if op["op"] == "temp" and op["to"] == "self" and not op.get("per") and op["n"] > 0)


@_op("convert_temp")
def _convert_temp(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    if op.get("to") == "self":
        me = unit_slot(ctx, seat, origin)
        total = sum(own_temp(s["unit"]) + s["temp"] for _, s in units(p))
        if me is not None and total:
            gain(ctx, seat, me, total)
        return
    for i, s in units(p):
        n = own_temp(s["unit"])
        if n:
            gain(ctx, seat, i, n)


@_op("apocalypse")
def _apocalypse(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state["sudden_death"] and not ctx.state["apocalypse"]:
        ctx.emit("AIPokalypseTriggered", seat, card=origin["card"])


@_op("pool_ammo")
def _pool_ammo(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    if p["pool"] and len(p["ammo"]) < max_ammo(p) and ctx.state["ammo_deck"]:
        ctx.emit("CardDiscarded", seat, card=p["pool"][0], **{"from": "pool"})
        gain_ammo(ctx, seat, 1)


@_op("damage")
def _damage(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    from ..flow import apply_damage
    apply_damage(ctx, {other: op["n"] for other in alive(ctx.state) if other != seat})


@_op("bequeath")
def _bequeath(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if origin.get("pos") is None:
        return
    p = player(ctx, seat)
    t = origin.get("target")
    if t is None or t >= len(p["slots"]) or not p["slots"][t]["unit"] or color_of(p["slots"][t]["unit"]) != op["color"]:
        cands = [i for i, s in units(p) if color_of(s["unit"]) == op["color"]]
        t = cands[0] if cands else None
    if t is not None:
        gain(ctx, seat, t, SCALE[origin["pos"]])


@_op("merge")
def _merge(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    me = unit_slot(ctx, seat, origin)
    if me is None:
        return
    total = strength_of(p["slots"][me])
    for i, s in units(p):
        if i != me and color_of(s["unit"]) == op["color"]:
            total += strength_of(s)
            ctx.emit("CardAttached", seat, card=s["unit"], slot=me, from_slot=i, **{"from": "slot"})
    new = pos_for_strength(total)
    if new > p["slots"][me]["pos"]:
        ctx.emit("StrengthChanged", seat, slot=me, pos=new)
        check_red_exchange(ctx, seat, me)


@_op("salvage")
def _salvage(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state["discard"]:
        ctx.emit("CardTaken", seat, card=ctx.state["discard"][-1])
    if not any(p["ammo"] for p in ctx.players):
        gain_ammo(ctx, seat, 1)


@_op("search")
def _search(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    cat = catalogue()
    budget = len(ctx.state["draw"]) + len(ctx.state["discard"])
    kind = op["kind"]
    while budget > 0 and ctx.ensure_draw():
        top = ctx.state["draw"][0]
        card = cat[top]
        if (card.kind == "ailien") if kind == "ailien" else (card.color == kind):
            ctx.emit("CardsDrawn", seat, cards=[top], to="hand")
            return
        ctx.emit("CardsMilled", seat, cards=[top])
        budget -= 1


@_op("scam")
def _scam(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    other = left_neighbour(ctx, seat)
    if other is None or origin["card"] not in ctx.state["specials"]:
        return
    theirs = list(ctx.players[other]["pool"])
    ctx.emit("PoolCardMoved", seat, card=origin["card"], from_seat=seat, to_seat=other, from_where="specials")
    if theirs:
        ctx.emit("PoolCardMoved", seat, card=theirs[0], from_seat=other, to_seat=seat, from_where="pool")


@_op("extra_faction")
def _extra_faction(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state["ammo_deck"]:
        ctx.emit("FactionGained", seat, card=ctx.state["ammo_deck"][0])


@_op("valley")
def _valley(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    slots = player(ctx, seat)["slots"]
    for i in range(1, len(slots) - 1):
        a, me, b = slots[i - 1], slots[i], slots[i + 1]
        if me["unit"] and a["unit"] and b["unit"] and a["pos"] > me["pos"] < b["pos"]:
            gain(ctx, seat, i, op["n"])
            return


@_op("free_special")
def _free_special(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    if ctx.state["round"] in op["rounds"] and p["health"]:
        ctx.emit("SpecialTaken", seat, card=p["health"][0], **{"from": "health"})


@_op("health_from_deck")
def _health_from_deck(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if ctx.state["specials"]:
        ctx.emit("SpecialGained", seat, card=ctx.state["specials"][0], to="health")


@_op("pray")
def _pray(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    if len(player(ctx, seat)["hand"]) < op["n"] or not ctx.state["specials"]:
        return
    for cid in lowest_hand(ctx, seat, op["n"]):
        discard_card(ctx, seat, cid, trigger=False)
    ctx.emit("SpecialGained", seat, card=ctx.state["specials"][0], to="hand")


@_op("ammo_all")
def _ammo_all(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    p = player(ctx, seat)
    targets = [i for i, s in units(p) if color_of(s["unit"]) == op["color"]]
    if not p["ammo"] or not targets:
        return
    ctx.emit("AmmoSpent", seat, count=1, slot=None, battle=False)
    for i in targets:
        gain(ctx, seat, i, 1)
    fire(ctx, seat, "ammo_spent", {})
