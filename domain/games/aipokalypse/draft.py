"""Expert Variant: drafting the 6 Special Units of the health stack (rulebook "Expert Variant").

"Each player receives 7 Special Units in hand. Each player sets one unit aside on their
health point stack and passes the remaining 6 cards to their left neighbor. You repeat this
process until each player has chosen 6 Special Units. The last card gets discarded. To create
your health point stack, either each player shuffles these or each player puts them into
their preferred order. You may, of course, consider your 2 faction options and hand cards
while selecting the Special Units."

All seats pick at once and privately (``draft_special``); when every seat has picked, the
packets pass to the left (seat s -> s+1). After 6 picks the last cards go under the Special
deck and each stack is formed: shuffled (option ``health_order`` ``shuffled``) or in the
order the seat sends (``order_health``). Then the faction choice of Game Setup (B) begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine import IllegalMove

from .context import Ctx
from .spec import HEALTH_POINTS
from .state import MatchState


def pending(state: MatchState) -> dict[int, str]:
    """``draft_special`` for seats still to pick from their packet, then ``order_health``
    for seats whose drafted stack waits for its order."""
    players = state.players[: state.n]  # (the A.I.Toma does not draft)
    picking = {s: "draft_special" for s, p in enumerate(players) if p.packet and not p.picked}
    if picking:
        return picking
    return {s: "order_health" for s, p in enumerate(players) if p.drafted}


def legal(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every draft command of ``seat`` now (the stack order: the drafted order, as one
    representative; any permutation of the drafted cards is accepted)."""
    kind = pending(state).get(seat)
    p = state.players[seat]
    if kind == "draft_special":
        return [{"type": "draft_special", "special": c} for c in sorted(p.packet)]
    if kind == "order_health":
        return [{"type": "order_health", "cards": list(p.drafted)}]
    return []


def decide(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Apply a draft command (raises IllegalMove ``wrong_phase`` / ``not_in_packet`` /
    ``not_your_stack``); passes the packets and forms the stacks when everyone is done.

    RULINGS R-EXPERT.
    """
    kind = pending(ctx.state).get(seat)
    p = ctx.players[seat]
    if cmd["type"] == "draft_special" and kind == "draft_special":
        if cmd["special"] not in p.packet:
            raise IllegalMove("That Special Unit is not in your packet.", "not_in_packet")
        ctx.emit("SpecialDrafted", seat, card=cmd["special"])
        if all(pl.picked for pl in ctx.players[: ctx.state.n]):
            _after_pick(ctx)
    elif cmd["type"] == "order_health" and kind == "order_health":
        if sorted(cmd["cards"]) != sorted(p.drafted):
            raise IllegalMove("Order exactly your 6 drafted Special Units.", "not_your_stack")
        ctx.emit("HealthStackFormed", seat, cards=list(cmd["cards"]))
        _maybe_finish(ctx)
    else:
        raise IllegalMove("Draft your health stack first (Expert Variant).", "wrong_phase")


def _after_pick(ctx: Ctx) -> None:
    if len(ctx.players[0].drafted) < HEALTH_POINTS:
        ctx.emit("PacketsPassed", None)
        return
    ctx.emit("DraftEnded", None)
    if ctx.state.health_order == "shuffled":
        for seat, p in enumerate(ctx.players[: ctx.state.n]):
            order = list(p.drafted)
            ctx.rng.shuffle(order)
            ctx.emit("HealthStackFormed", seat, cards=order, shuffled=True)
    _maybe_finish(ctx)


def _maybe_finish(ctx: Ctx) -> None:
    if not any(p.drafted for p in ctx.players):
        ctx.emit("DraftFinished", None)
