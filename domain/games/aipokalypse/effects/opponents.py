"""Effect ops that hit opponents' units, with the decision of the seat the card note names:
Prof. Boom (its owner aims), Trapperkeeper, Eagle Eye and Riddickules (each opponent picks
its own unit), Megaton (fixed). Defaults and rulings: :mod:`.choices`, RULINGS R-boom,
R-eagle-eye."""
from __future__ import annotations

from ..context import Ctx
from ..spec import COLORS, MAX_SLOTS, SCALE
from ..state import color_of, strength_of, units
from .choices import name_of, opponents, strongest_first, weakest_first
from .resolve import Op, _op, discard_card, exhaust_unit, player


def _seen_slots(ctx: Ctx, seat: int, other: int) -> list[int]:
    """Slots of ``other`` that ``seat`` may aim at: its live board in the Battle Phase; in
    the private Recruitment Phase the units of its last revealed board (every position
    0-5 before the first reveal), strongest first."""
    victim = player(ctx, other)
    if ctx.state["phase"] != "recruitment":
        return strongest_first(victim, [i for i, _ in units(victim)])
    board = victim["public"]
    if not board:
        return list(range(MAX_SLOTS))
    shown = [(i, s) for i, s in enumerate(board["slots"]) if s["unit"]]
    ranked = sorted(shown, key=lambda t: (-SCALE[t[1]["pos"]], t[0]))
    return [i for i, _ in ranked] or list(range(MAX_SLOTS))


@_op("kill")
def _kill(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Discard (kill) one unit of each opponent; kills never trigger discard effects.
    ``pick``: ``owner`` (Prof. Boom "you can choose which of your opponents' units": by slot,
    from what the owner may see), ``victim`` (Trapperkeeper "your opponents can decide for
    themselves"), ``strongest``/``weakest`` (fixed). ``once`` / ``max_health``: Megaton."""
    p = player(ctx, seat)
    key = f"kill:{origin['card']}"
    if op.get("once") and key in p["used"]:
        return
    if op.get("max_health") is not None and len(p["health"]) > op["max_health"]:
        return
    if op.get("once"):
        ctx.emit("OnceUsed", seat, key=key)
    name = name_of(origin["card"])
    for other in opponents(ctx, seat):
        victim = player(ctx, other)
        own = [i for i, _ in units(victim)]
        if not own:
            continue
        if op["pick"] == "owner":
            i = ctx.ask(seat, "kill", _seen_slots(ctx, seat, other),
                        f"{name}: the slot of seat {other} whose unit is killed")
        elif op["pick"] == "victim":
            i = ctx.ask(other, "kill", weakest_first(victim, own), f"{name}: discard one of your units")
        elif op["pick"] == "strongest":
            i = strongest_first(victim, own)[0]
        else:
            i = weakest_first(victim, own)[0]
        if i < len(victim["slots"]) and victim["slots"][i]["unit"]:
            discard_card(ctx, other, victim["slots"][i]["unit"], trigger=False)


def _declared_colours(ctx: Ctx, seat: int) -> list[str]:
    """Colours to declare, the one whose best active opposing unit is strongest first."""
    def threat(color: str) -> int:
        return max((strength_of(s) + s["temp"] for o in opponents(ctx, seat)
                    for _, s in units(player(ctx, o)) if not s["exhausted"] and color_of(s["unit"]) == color),
                   default=-1)
    return sorted(COLORS, key=lambda c: (-threat(c), COLORS.index(c)))


@_op("exhaust")
def _exhaust(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Battle Phase only: each opponent exhausts one active unit (a card from the draw pile
    goes face down above it). ``declare`` (Eagle Eye): the owner declares a colour and only
    units of exactly that colour count (Rogues are purple); ``pick`` ``victim`` (Eagle Eye,
    Riddickules): the opponent chooses which, weakest first; else fixed."""
    if ctx.state["phase"] != "battle":
        return
    name = name_of(origin["card"])
    color = None
    if op.get("declare"):
        color = ctx.ask(seat, "colour", _declared_colours(ctx, seat), f"{name}: declare a colour")
    for other in opponents(ctx, seat):
        victim = player(ctx, other)
        active = [i for i, s in units(victim) if not s["exhausted"]
                  and (color is None or color_of(s["unit"]) == color)]
        if not active:
            continue
        if op["pick"] == "victim":
            i = ctx.ask(other, "exhaust", weakest_first(victim, active), f"{name}: exhaust one of your units")
        elif op["pick"] == "strongest":
            i = strongest_first(victim, active)[0]
        else:
            i = weakest_first(victim, active)[0]
        exhaust_unit(ctx, other, i)
