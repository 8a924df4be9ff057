"""Effect ops on pools and Special Units, each with the owner's decision: Medic, Big Benji
(its point-won steal and the ``cash_pool`` action), Scammer, Queen of Elysium, Hacker,
Vault A.F.K.; Kollektah's stored cards when their pool card leaves (:func:`release_tucked`).
Defaults: :mod:`.choices`; rulings R-BENJI, R-VAULT, R-KOLLEKTAH."""

from __future__ import annotations

from ..context import Ctx
from ..spec import HEALTH_DRAW
from .choices import name_of, neighbours
from .resolve import Op, _op, fire, gain_ammo, player, recruit_card


def release_tucked(ctx: Ctx, seat: int, card: str) -> None:
    """Kollektah: "If you discard or lose a Special Unit in your pool, you can swap the cards
    to another unit." Called just before ``card`` leaves ``seat``'s pool other than by being
    recruited: when cards lie under it and another pool card remains, the seat chooses
    which one they go under (``CardsRetucked``; default: the first remaining pool card).
    With no other pool card they are lost when it leaves ("If all Special Units are gone,
    you lose the stored cards", see ``fold``). Ruling R-KOLLEKTAH."""
    p = player(ctx, seat)
    if not p.tucked.get(card):
        return
    others = list(dict.fromkeys(c for c in p.pool if c != card))
    if not others:
        return
    under = (
        others[0]
        if len(others) == 1
        else ctx.ask(
            seat,
            "special",
            others,
            f"Kollektah: under which Special Unit do the cards under {name_of(card)} go?",
        )
    )
    ctx.emit("CardsRetucked", seat, card=card, under=under)


@_op("special_to_slot")
def _special_to_slot(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Medic: recruit a Special Unit of the seat's choice from its pool "according to the
    usual rules": into the slot Medic was discarded from, with Medic's strength; into the
    hand when Medic was discarded from the hand."""
    p = player(ctx, seat)
    if not p.pool:
        return
    card = ctx.ask(
        seat,
        "special",
        list(p.pool),
        f"{name_of(origin['card'])}: recruit a Special Unit of your pool",
    )
    slot = origin.get("slot")
    if slot is not None and origin.get("pos") is not None and not p.slots[slot].unit:
        recruit_card(ctx, seat, card, slot, None, source="pool", pos=origin["pos"])
    else:
        ctx.emit("SpecialTaken", seat, card=card, **{"from": "pool"})


def _neighbour_pool_cards(
    ctx: Ctx, seat: int, opponents_only: bool = False
) -> list[tuple[str, int]]:
    return [(c, o) for o in neighbours(ctx, seat, opponents_only) for c in player(ctx, o).pool]


@_op("steal_pool")
def _steal_pool(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Big Benji: "When you win a point, you can choose a special unit from a neighboring
    player's pool, which you place in your pool." Kind ``steal``: the neighbours' pool cards
    (left neighbour first), then ``"skip"`` — take nothing, the decline a timeout answers
    ("you can": optional, ruling R-BENJI)."""
    cards = _neighbour_pool_cards(ctx, seat)
    if not cards:
        return
    card = ctx.ask(
        seat,
        "steal",
        [c for c, _ in cards] + ["skip"],
        f"{name_of(origin['card'])}: take a Special Unit from a neighbour's pool?",
        decline="skip",
    )
    if card == "skip":
        return
    owner = dict(cards)[card]
    release_tucked(ctx, owner, card)
    ctx.emit("PoolCardMoved", seat, card=card, from_seat=owner, to_seat=seat, from_where="pool")


@_op("scam")
def _scam(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Scammer (discard effect): "You can place Scammer in the pool of one of your
    neighboring opponents and take a Special Unit from that pool." Kind ``steal``: a card of
    a neighbouring opponent's pool (Scammer goes into that pool); with empty pools kind
    ``seat``: the neighbour that receives Scammer; both end with ``"skip"`` — no swap,
    Scammer stays under the Special deck where its discard put it, nothing is taken (the
    decline a timeout answers: "You can", ruling R-SCAMMER)."""
    if origin["card"] not in ctx.state.specials:
        return
    cards = _neighbour_pool_cards(ctx, seat, opponents_only=True)
    if cards:
        card = ctx.ask(
            seat,
            "steal",
            [c for c, _ in cards] + ["skip"],
            "Scammer: take a Special Unit from a neighbour's pool (Scammer goes there)?",
            decline="skip",
        )
        if card == "skip":
            return
        other = dict(cards)[card]
    else:
        near = neighbours(ctx, seat, opponents_only=True)
        if not near:
            return
        card, other = (
            None,
            ctx.ask(
                seat,
                "seat",
                near + ["skip"],
                "Scammer: the neighbour whose pool receives Scammer?",
                decline="skip",
            ),
        )
        if other == "skip":
            return
    ctx.emit(
        "PoolCardMoved",
        seat,
        card=origin["card"],
        from_seat=seat,
        to_seat=other,
        from_where="specials",
    )
    if card:
        release_tucked(ctx, other, card)
        ctx.emit("PoolCardMoved", seat, card=card, from_seat=other, to_seat=seat, from_where="pool")


@_op("heal")
def _heal(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Gain a health point: a Special Unit of the seat's choice from its pool goes back on
    top of its health stack (Queen of Elysium: none without a pool card)."""
    for _ in range(op["n"]):
        pool = player(ctx, seat).pool
        if not pool:
            return
        card = ctx.ask(
            seat,
            "special",
            list(pool),
            f"{name_of(origin['card'])}: the pool card that becomes a health point again",
        )
        release_tucked(ctx, seat, card)
        ctx.emit("HealthGained", seat, card=card)


@_op("renew_pool")
def _renew_pool(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Hacker: "If you want to renew your pool, you must discard all Special Units in your
    pool and draw as many new ones from the main deck." Fires ``pool_renewed`` with the
    count (Queen of Elysium: 2 strength per card exchanged)."""
    pool = list(player(ctx, seat).pool)
    if (
        not pool
        or ctx.ask(
            seat,
            "renew",
            ["renew", "keep"],
            f"{name_of(origin['card'])}: renew your pool?",
            decline="keep",
        )
        == "keep"
    ):
        return
    for cid in pool:
        ctx.emit("CardDiscarded", seat, card=cid, **{"from": "pool"})
    got = 0
    for _ in pool:
        if ctx.state.specials:
            ctx.emit("SpecialGained", seat, card=ctx.state.specials[0], to="pool")
            got += 1
    fire(ctx, seat, "pool_renewed", {"count": got})


@_op("free_special")
def _free_special(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Vault A.F.K., rounds 2 and 3: recruit a Special Unit for free, as if by a Triple made
    from the hand (it goes to the hand): a pool card, or up to 2 drawn from the health
    stack (how many: :func:`health_draw_count`; one is chosen, the other goes under the stack).

    RULINGS R-VAULT.
    """
    p = player(ctx, seat)
    if ctx.state.round not in op["rounds"]:
        return
    options = list(p.pool) + (["health"] if p.health else [])
    if not options:
        return
    pick = ctx.ask(
        seat,
        "special",
        options + ["skip"],
        f"{name_of(origin['card'])}: recruit a Special Unit for free",
        decline="skip",
    )
    if pick == "skip":
        return
    if pick != "health":
        ctx.emit("SpecialTaken", seat, card=pick, **{"from": "pool"})
        return
    ctx.emit(
        "SpecialsOffered",
        seat,
        cards=p.health[: health_draw_count(ctx, seat)],
        source="health",
        ctx={"source": "health", "pos": 0, "slot": None},
    )


def health_draw_count(ctx: Ctx, seat: int) -> int:
    """ "To recruit a Special Unit, you can either take one from your pool ... or draw up to 2
    Special Units from your health point stack": how many (2 or 1, at most the stack) is the
    seat's decision (kind ``health_draw``; default 2, what the engine drew before it became a
    choice). Drawing none recruits no Special Unit, so 0 is no option (ruling R-TRIPLE-HEALTH).
    Only asked when the stack is not empty (the health source is offered only then)."""
    left = len(player(ctx, seat).health)
    options = [k for k in range(HEALTH_DRAW, 0, -1) if k <= left]
    return ctx.ask(
        seat, "health_draw", options, "Draw 2 or 1 Special Units from your health stack?"
    )


def cash_pool(ctx: Ctx, seat: int, card: str) -> None:
    """Big Benji: discard ``card`` from the pool (under the Special deck) for 1 ammo."""
    release_tucked(ctx, seat, card)
    ctx.emit("CardDiscarded", seat, card=card, **{"from": "pool"})
    gain_ammo(ctx, seat, 1)
