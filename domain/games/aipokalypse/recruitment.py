"""Phase 1: Recruitment — the commands a seat sends while recruiting, simultaneously and
privately (RULINGS: board changes stay private until the Battle Phase reveal).

Rulebook: "Slots & Recruitment", "Improving Units", "Recruitment Effects", "Ammo",
"Special Units and Triples", "Red Slots", "Rogues & A.I.Lien"; card notes Berserker,
Priest, Surrogate, W4TCHM3N, Goldfish.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from domain.engine import IllegalMove, InvalidCommand

from . import coop
from .cards import catalogue
from .context import Ctx
from .effects import modifiers, pools
from .effects.pools import health_draw_count
from .effects.resolve import (
    check_red_exchange,
    discard_card,
    discard_faction,
    discardable_factions,
    origin_of,
    place_red_slot,
    recruit_card,
    run,
    spend_ammo,
    spend_ammo_on_all,
)
from .effects.targets import target_optional, valid_targets
from .flow import advance, seat_ready
from .spec import HEALTH_DRAW, MAX_POS, MAX_SLOTS, TRIPLE_SIZE
from .state import (
    MatchState,
    Player,
    color_of,
    offer_ctx_of,
    pos_for_strength,
    strength_of,
    unit_of,
    units,
)


def all_units_below_15(p: Player) -> bool:
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to give
    strength to all your humans" — whether the seat may spend 1 ammo on all its units of
    that colour now (Dan on a slot and one of them below 15 strength: command
    ``spend_ammo_humans``, offered wherever ``spend_ammo`` is; ruling R-DAN)."""
    color = modifiers.ammo_all_color(p)
    return color is not None and any(
        color_of(unit_of(s)) == color and s.pos < MAX_POS for _, s in units(p)
    )


def cash_pool(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Big Benji: "You can discard as many Special Units from your pool as you like. You
    receive one ammo for each unit. You can do this at any time, even during battle." One
    pool card per command, in every decision window of the seat (ruling R-BENJI): all
    through its Recruitment Phase (also while it chooses a drawn Special Unit), in every
    battle reaction window — behind or not (:func:`.battle.reactions`) — and while placing a
    battle card. Not inside an open effect decision: an effect resolves completely first
    ("Recruitment Effects"). Raises IllegalMove ``cannot_cash``."""
    if cmd["card"] not in modifiers.can_cash(ctx.state, ctx.players[seat]):
        raise IllegalMove(
            "Big Benji cashes a card of your pool while you have room for ammo.", "cannot_cash"
        )
    pools.cash_pool(ctx, seat, cmd["card"])
    if ctx.state.phase == "battle":
        advance(ctx)


def exchange_options(state: MatchState, p: Player) -> list[dict[str, Any]]:
    """Megagneto's ``exchange_unit`` commands: any hand card paid, any basic unit on a slot,
    any other hand card that may be recruited."""
    if not modifiers.has(p, "exchange"):
        return []
    cat = catalogue()
    basics = [i for i, s in units(p) if cat[unit_of(s)].category == "basic"]
    hand = sorted(set(p.hand))
    return [
        {"type": "exchange_unit", "card": cost, "slot": i, "unit": new}
        for cost in hand
        for i in basics
        for new in hand
        if new != cost and can_recruit(state, new)
    ]


def exchange_unit(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Megagneto: "You can discard a card to take a Basic Unit from a slot back to your hand
    and put a card from your hand into the slot. The strength remains the same, and no
    recruit effects are triggered. A card that you take back on hand does not trigger
    discard effects." The paid card is a real discard (its discard effect resolves first);
    if that effect removed the unit or the card to put in, the exchange does not happen.

    RULINGS R-MEGAGNETO.
    """
    if dict(cmd) not in exchange_options(ctx.state, ctx.players[seat]):
        raise IllegalMove(
            "Megagneto: pay a hand card, name a basic unit on a slot and another hand card.",
            "invalid_exchange",
        )
    slot, new = cmd["slot"], cmd["unit"]
    back = ctx.players[seat].slots[slot].unit
    discard_card(ctx, seat, cmd["card"])
    p = ctx.players[seat]
    if p.slots[slot].unit == back and new in p.hand:
        ctx.emit("UnitExchanged", seat, slot=slot, unit=new, back=back)


def idle_round(state: MatchState, p: Player) -> bool:
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide which
    of the 6 cards you want to keep": in round 1 the seat may only discard hand cards (which
    resolves no discard effect and fires no discard hook) and end its Recruitment."""
    return state.round == 1 and modifiers.has(p, "idle_first_round")


def can_recruit(state: MatchState, cid: str) -> bool:
    """A.I.Lien may only be recruited in Sudden Death; factions are never units."""
    card = catalogue()[cid]
    return card.category in ("basic", "special") and (card.kind != "ailien" or state.sudden_death)


# ------------------------------------------------------------------ triples


def _key(cid: str) -> tuple[str | None, int | None] | None:
    card = catalogue()[cid]
    return (card.color, card.value) if card.category == "basic" else None


def is_set(cids: list[str], size: int) -> bool:
    """Same colour and card value (Surrogate triples with every colour)."""
    if len(cids) != size:
        return False
    cat = catalogue()
    cards = [cat[c] for c in cids]
    if any(c.category != "basic" for c in cards):
        return False
    if len({c.value for c in cards}) != 1:
        return False
    colors = {c.color for c in cards if not modifiers.wild_for_triple(c)}
    return len(colors) <= 1


def triple_cards(p: Player) -> list[str]:
    """Basic units in hand and on slots (the cards a Triple may use)."""
    cat = catalogue()
    return [c for c in p.hand if cat[c].category == "basic"] + [
        unit_of(s) for _, s in units(p) if cat[unit_of(s)].category == "basic"
    ]


def triple_options(state: MatchState, p: Player) -> list[tuple[list[str], str]]:
    """``(cards, pay)`` of every way to pay for a Special Unit now: Triples, W4TCHM3N pairs
    plus 1 ammo, Berserker's ammo."""
    pool_cards = sorted(triple_cards(p))
    out: list[tuple[list[str], str]] = []
    for combo in combinations(pool_cards, TRIPLE_SIZE):
        if is_set(list(combo), TRIPLE_SIZE):
            out.append((list(combo), "cards"))
    if modifiers.has(p, "pair_triple") and p.ammo:
        for combo in combinations(pool_cards, 2):
            if is_set(list(combo), 2):
                out.append((list(combo), "pair_ammo"))
    cost = modifiers.ammo_triple_cost(p)
    if cost is not None and len(p.ammo) >= cost:
        out.append(([], "ammo"))
    return out


def sources_for(
    state: MatchState, p: Player, seat: int | None = None
) -> list[tuple[str, str | None]]:
    """Where the Special Unit may come from: each pool card, the health stack, (Priest) the
    deck, (Cooperative Mode, ``seat`` given) each card of the partner's pool."""
    out: list[tuple[str, str | None]] = [("pool", c) for c in sorted(set(p.pool))]
    if p.health:
        out.append(("health", None))
    if state.specials and modifiers.has(p, "special_choice"):
        out.append(("deck", None))
    if seat is not None:
        out.extend(("partner", c) for c in coop.partner_pool(state, seat))
    return out


# ------------------------------------------------------------------ legal actions


def legal(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every Recruitment command of ``seat`` (its pending decision is ``recruit``)."""
    p = state.players[seat]
    if p.offer:  # Big Benji may still cash (R-BENJI)
        return [{"type": "choose_special", "special": c} for c in p.offer] + [
            {"type": "cash_pool", "card": c} for c in modifiers.can_cash(state, p)
        ]
    cat = catalogue()
    out: list[dict[str, Any]] = []
    idle = idle_round(state, p)
    empty = [i for i, s in enumerate(p.slots) if not s.unit]
    colony = [p.colony] if p.colony and state.sudden_death else []
    for cid in colony:  # Venus Colony: "play it for A.I.Pokalypse"
        if not idle:
            out.extend({"type": "recruit", "card": cid, "slot": slot} for slot in empty)
    for cid in sorted(set(p.hand)):
        card = cat[cid]
        if not idle and (
            card.category == "special" or (card.category == "basic" and len(p.slots) < MAX_SLOTS)
        ):
            out.append({"type": "open_slot", "card": cid})
        if not idle and can_recruit(state, cid):
            for slot in empty:
                targets = valid_targets(p, cid, "recruit", slot)
                out.extend(
                    {"type": "recruit", "card": cid, "slot": slot, "target": t} for t in targets
                )
                if not targets or target_optional(cid, "recruit"):
                    out.append({"type": "recruit", "card": cid, "slot": slot})
        out.extend(_discard_actions(p, cid, None))
    if not idle:
        out.extend({"type": "discard", "card": f} for f in discardable_factions(p))  # Fallout Boyz
        for i, s in units(p):
            out.extend(_discard_actions(p, unit_of(s), i))
        if p.ammo:
            out.extend({"type": "spend_ammo", "slot": i} for i, s in units(p) if s.pos < MAX_POS)
            if all_units_below_15(p):  # Lieutenant Dan (R-DAN)
                out.append({"type": "spend_ammo_humans"})
        out.extend({"type": "cash_pool", "card": c} for c in modifiers.can_cash(state, p))
        out.extend(exchange_options(state, p))
        if coop.can_give(state, seat):
            out.append({"type": "give_ammo"})
        for cards, pay in triple_options(state, p):
            for source, special in sources_for(state, p, seat):
                cmd: dict[str, Any] = {"type": "triple", "cards": cards, "source": source}
                if special:
                    cmd["special"] = special
                if pay != "cards":
                    cmd["pay"] = pay
                out.append(cmd)
    out.append({"type": "ready"})
    return out


def _discard_actions(p: Player, cid: str, slot: int | None) -> list[dict[str, Any]]:
    targets = valid_targets(p, cid, "discard", slot)
    if targets and slot is not None:
        return [{"type": "discard", "card": cid, "target": t} for t in targets]
    return [{"type": "discard", "card": cid}]


# ------------------------------------------------------------------ decide


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Validate and apply one Recruitment command (raises IllegalMove / InvalidCommand); in
    co-op a seat's first move of the phase is marked (:func:`.coop.mark_first_move`)."""
    p = ctx.players[seat]
    kind = cmd["type"]
    if p.offer and kind not in ("choose_special", "cash_pool"):
        raise IllegalMove("Choose one of the drawn Special Units first.", "special_choice_pending")
    if kind == "choose_special":
        return _choose_special(ctx, seat, cmd)
    if kind == "ready":
        return seat_ready(ctx, seat)
    _decide(ctx, seat, cmd)
    coop.mark_first_move(ctx, seat)


def _decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    state, p = ctx.state, ctx.players[seat]
    kind = cmd["type"]
    if idle_round(state, p) and kind != "discard":
        raise IllegalMove(
            "Vault A.F.K.: in round 1 you may only discard and end Recruitment.", "vault_idle"
        )
    if kind == "open_slot":
        cid = _hand_card(p, cmd)
        category = catalogue()[cid].category
        if category == "special":  # Triples: "You may play it ... as a Red Slot"
            return place_red_slot(ctx, seat, card=cid)
        if category != "basic":
            raise IllegalMove(
                "Only a basic unit or a Special Unit can be placed as a slot.", "not_a_basic_unit"
            )
        if len(p.slots) >= MAX_SLOTS:
            raise IllegalMove("You already have 6 slots.", "slots_full")
        ctx.emit("SlotOpened", seat, card=cid, slot=len(p.slots), **{"from": "hand"})
    elif kind == "recruit":
        from_colony = (
            cmd.get("card") == p.colony and state.sudden_death and cmd["card"] not in p.hand
        )
        cid = cmd["card"] if from_colony else _hand_card(p, cmd)
        slot = _slot(p, cmd["slot"])
        if p.slots[slot].unit:
            raise IllegalMove("Only one unit can be in each slot at a time.", "slot_occupied")
        if not can_recruit(state, cid):
            raise IllegalMove("A.I.Lien can only be recruited in Sudden Death.", "ailien_locked")
        target = _target(p, cid, "recruit", slot, cmd)
        recruit_card(ctx, seat, cid, slot, target, source="colony" if from_colony else "hand")
    elif kind == "discard" and cmd.get("card") in discardable_factions(p):
        if idle_round(state, p):
            raise IllegalMove(
                "Vault A.F.K.: in round 1 you may only discard hand cards.", "vault_idle"
            )
        if "target" in cmd:
            raise InvalidCommand("A target is only used when discarding from a slot.")
        discard_faction(ctx, seat, cmd["card"])  # Fallout Boyz: "or even discard it"
    elif kind == "discard":
        named = cmd.get("card")
        on_slot = next((i for i, s in units(p) if s.unit == named), None)
        if not isinstance(named, str) or (named not in p.hand and on_slot is None):
            raise IllegalMove(
                "That card is neither in your hand nor on a slot.", "card_not_available"
            )
        cid = named
        if on_slot is not None and idle_round(state, p):
            raise IllegalMove(
                "Vault A.F.K.: in round 1 you may only discard hand cards.", "vault_idle"
            )
        target = _target(p, cid, "discard", on_slot, cmd) if on_slot is not None else None
        if on_slot is None and "target" in cmd:
            raise InvalidCommand("A target is only used when discarding from a slot.")
        # Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
        # which of the 6 cards you want to keep": the discard resolves nothing (ruling R-VAULT)
        discard_card(ctx, seat, cid, target, trigger=not idle_round(state, p))
    elif kind == "spend_ammo":
        slot = _slot(p, cmd["slot"])
        if not p.ammo:
            raise IllegalMove("You have no ammo.", "no_ammo")
        if not p.slots[slot].unit or p.slots[slot].pos >= MAX_POS:
            raise IllegalMove("Ammo improves a unit below 15 strength.", "no_unit")
        spend_ammo(ctx, seat, slot)
    elif kind == "spend_ammo_humans":
        color = modifiers.ammo_all_color(p)
        if color is None:
            raise IllegalMove(
                "Only Lieutenant Dan lets ammo go to all your Humans.", "no_lieutenant_dan"
            )
        if not p.ammo:
            raise IllegalMove("You have no ammo.", "no_ammo")
        if not all_units_below_15(p):
            raise IllegalMove("None of your Humans is below 15 strength.", "no_unit")
        spend_ammo_on_all(ctx, seat, color)
    elif kind == "triple":
        _triple(ctx, seat, cmd)
    elif kind == "cash_pool":
        cash_pool(ctx, seat, cmd)
    elif kind == "exchange_unit":
        exchange_unit(ctx, seat, cmd)
    elif kind == "give_ammo":
        coop.give_ammo(ctx, seat)
    else:
        raise IllegalMove(f"{kind!r} is not a Recruitment Phase action.", "wrong_phase")


def _hand_card(p: Player, cmd: Mapping[str, Any]) -> str:
    cid = cmd.get("card")
    if cid not in p.hand:
        raise IllegalMove(f"{cid!r} is not in your hand.", "card_not_in_hand")
    return cid


def _slot(p: Player, slot: Any) -> int:
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(p.slots):
        raise IllegalMove(f"You have no slot {slot!r}.", "no_such_slot")
    return slot


def _target(
    p: Player, cid: str, trigger: str, own: int | None, cmd: Mapping[str, Any]
) -> int | None:
    targets = valid_targets(p, cid, trigger, own)
    if "target" not in cmd:
        if targets and not target_optional(cid, trigger):
            raise IllegalMove("This effect needs a target unit.", "target_required")
        return None
    if cmd["target"] not in targets:
        raise IllegalMove(
            f"Slot {cmd['target']!r} is not a valid target for this effect.", "invalid_target"
        )
    return cmd["target"]


def _triple(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    state, p = ctx.state, ctx.players[seat]
    cards, pay, source = list(cmd.get("cards", [])), cmd.get("pay", "cards"), cmd["source"]
    options = [(sorted(c), y) for c, y in triple_options(state, p)]
    if (sorted(cards), pay) not in options:
        raise IllegalMove("These cards (and ammo) do not make a Triple.", "not_a_triple")
    if (source, cmd.get("special")) not in sources_for(state, p, seat):
        raise IllegalMove("That Special Unit source is not available.", "invalid_special_source")
    on_slots = {s.unit: i for i, s in units(p) if s.unit in cards}
    carried = sum(strength_of(p.slots[i]) for i in on_slots.values())
    freed = min(on_slots.values()) if on_slots else None
    ammo = {"cards": 0, "pair_ammo": 1, "ammo": modifiers.ammo_triple_cost(p) or 0}[pay]
    first_goldfish = next((c for c in cards if catalogue()[c].ops("triple")), None)
    ctx.emit("TripleMade", seat, cards=cards, pay=pay, ammo=ammo)
    if first_goldfish:  # Goldfish: one Red Slot per Triple
        run(ctx, seat, catalogue()[first_goldfish].ops("triple"), origin_of(first_goldfish))
    pos = pos_for_strength(carried) if carried else 0
    if freed is not None and ctx.players[seat].slots[freed].unit:
        freed = next((i for i, s in enumerate(ctx.players[seat].slots) if not s.unit), None)
    if source == "partner":  # Cooperative Mode, once per game
        coop.take_from_partner(ctx, seat, cmd["special"])
        source = "pool"
    if source == "pool":
        special = cmd["special"]
        if freed is None:
            ctx.emit("SpecialTaken", seat, card=special, **{"from": "pool"})
        else:
            recruit_card(
                ctx,
                seat,
                special,
                special_slot(ctx, seat, freed, special),
                None,
                source="pool",
                pos=pos,
            )
        return
    pile = p.health if source == "health" else state.specials
    count = health_draw_count(ctx, seat) if source == "health" else HEALTH_DRAW
    ctx.emit(
        "SpecialsOffered",
        seat,
        cards=pile[:count],
        source=source,
        ctx={"source": source, "pos": pos, "slot": freed},
    )


def special_slot(ctx: Ctx, seat: int, freed: int, special: str) -> int:
    """ "You must immediately play the Special Unit into an available slot": which empty slot is
    the seat's decision (kind ``special_slot``, slot indexes): the leftmost slot the Triple
    freed first (the default), then every other empty slot, left to right (ruling R-TRIPLE-SLOT)."""
    empty = [i for i, s in enumerate(ctx.players[seat].slots) if not s.unit and i != freed]
    return ctx.ask(
        seat,
        "special_slot",
        [freed] + empty,
        f"{catalogue()[special].name}: the slot it is recruited into",
    )


def _choose_special(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    p = ctx.players[seat]
    special = cmd.get("special")
    if not p.offer:
        raise IllegalMove("There is no Special Unit to choose.", "no_special_offer")
    if special not in p.offer:
        raise IllegalMove(f"{special!r} is not one of the drawn Special Units.", "not_offered")
    octx = dict(offer_ctx_of(p))
    slot = octx["slot"]
    if slot is not None and not p.slots[slot].unit:
        slot = special_slot(ctx, seat, slot, special)
        ctx.emit(
            "UnitRecruited", seat, card=special, slot=slot, pos=octx["pos"], **{"from": "offer"}
        )
        ctx.emit("SpecialChosen", seat, special=special, to="slot")
        check_red_exchange(ctx, seat, slot)
        ops = catalogue()[special].ops("recruit")
        if ops:
            run(ctx, seat, ops, origin_of(special, slot))
    else:
        ctx.emit("SpecialChosen", seat, special=special, to="hand")
    if not ctx.state.sudden_death and not ctx.players[seat].health:
        ctx.emit(
            "SuddenDeathStarted", None
        )  # Tips: "force Sudden Death by drawing from your health"
