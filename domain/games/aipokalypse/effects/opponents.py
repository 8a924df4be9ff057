"""Effect ops that hit opponents' units or hands, with the decision of the seat the card note
names: Prof. Boom (its owner aims), Trapperkeeper, Eagle Eye and Riddickules (each opponent
picks its own unit), Megaton's Boom (fixed), Outfitter Q (cards from the opponents' hands).
Defaults and rulings: :mod:`.choices`, RULINGS R-BOOM, R-EAGLE-EYE, R-OUTFITTER, R-MEGATON."""

from __future__ import annotations

from ..cards import catalogue
from ..context import Ctx
from ..spec import COLORS, MAX_SLOTS
from ..state import Player, color_of, shown_strength, strength_of, unit_of, units
from .choices import name_of, opponents, strongest_first, temporary_strength, weakest_first
from .resolve import Op, _op, discard_card, exhaust_unit, player


def _seen_slots(ctx: Ctx, seat: int, other: int) -> list[int]:
    """Slots of ``other`` that ``seat`` may aim at: its live board in the Battle Phase; in
    the private Recruitment Phase the units of its last revealed board (every position
    0-5 before the first reveal), strongest first. RULINGS R-BOOM."""
    victim = player(ctx, other)
    if ctx.state.phase != "recruitment":
        return strongest_first(victim, [i for i, _ in units(victim)])
    board = victim.public
    if not board:
        return list(range(MAX_SLOTS))
    shown = [(i, s) for i, s in enumerate(board["slots"]) if s["unit"]]
    ranked = sorted(
        shown, key=lambda t: (-shown_strength(t[1]), t[0])
    )  # (an A.I.Toma unit: its pile)
    return [i for i, _ in ranked] or list(range(MAX_SLOTS))


@_op("kill")
def _kill(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Discard (kill) one unit of each opponent; kills never trigger discard effects.
    ``pick``: ``owner`` (Prof. Boom "you can choose which of your opponents' units": by slot,
    from what the owner may see), ``victim`` (Trapperkeeper "your opponents can decide for
    themselves"), ``strongest``/``weakest`` (fixed). RULINGS R-BOOM."""
    name = name_of(origin["card"])
    for other in opponents(ctx, seat):
        victim = player(ctx, other)
        own = [i for i, _ in units(victim)]
        if not own:
            continue
        if op["pick"] == "owner":
            i = ctx.ask(
                seat,
                "kill",
                _seen_slots(ctx, seat, other),
                f"{name}: the slot of seat {other} whose unit is killed",
            )
        elif op["pick"] == "victim":
            i = ctx.ask(
                other, "kill", weakest_first(victim, own), f"{name}: discard one of your units"
            )
        elif op["pick"] == "strongest":
            i = strongest_first(victim, own)[0]
        else:
            i = weakest_first(victim, own)[0]
        if i < len(victim.slots) and victim.slots[i].unit:
            discard_card(ctx, other, victim.slots[i].unit, trigger=False)


def with_temporary(p: Player) -> dict[int, int]:
    """Strength of each unit of ``p`` with its temporary effects (Eagle Eye: "Temporary
    effects must be taken into account"): printed strength plus
    :func:`.choices.temporary_strength` (battle-effect grants such as Sniper's +3, slot
    temporary strength, Desert Rats' ammo), ``{slot: strength}``."""
    temps = temporary_strength(p)
    return {i: strength_of(s) + temps.get(i, 0) for i, s in units(p)}


def _declared_colours(ctx: Ctx, seat: int) -> list[str]:
    """Colours to declare, the one whose best active opposing unit is strongest (temporary
    effects counted) first."""
    boards = {o: with_temporary(player(ctx, o)) for o in opponents(ctx, seat)}

    def threat(color: str) -> int:
        return max(
            (
                boards[o][i]
                for o in boards
                for i, s in units(player(ctx, o))
                if not s.exhausted and color_of(unit_of(s)) == color
            ),
            default=-1,
        )

    return sorted(COLORS, key=lambda c: (-threat(c), COLORS.index(c)))


@_op("exhaust")
def _exhaust(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Battle Phase only: each opponent exhausts one active unit (a card from the draw pile
    goes face down above it). ``declare`` (Eagle Eye): the owner declares a colour (the one
    whose strongest opposing unit is strongest with its temporary effects first) and only
    units of exactly that colour count (Rogues are purple); ``pick`` ``victim`` (Eagle Eye,
    Riddickules): the opponent chooses which, weakest first — for Eagle Eye weakest with
    temporary effects ("Temporary effects must be taken into account", ruling R-EAGLE-EYE);
    else fixed. RULINGS R-RIDDICKULES."""
    if ctx.state.phase != "battle":
        return
    name = name_of(origin["card"])
    color = None
    if op.get("declare"):
        color = ctx.ask(seat, "colour", _declared_colours(ctx, seat), f"{name}: declare a colour")
    for other in opponents(ctx, seat):
        victim = player(ctx, other)
        active = [
            i
            for i, s in units(victim)
            if not s.exhausted and (color is None or color_of(unit_of(s)) == color)
        ]
        if not active:
            continue
        if op["pick"] == "victim" and color is not None:  # Eagle Eye: with temporary effects
            strength = with_temporary(victim)
            ranked = sorted(active, key=lambda j: (strength[j], -j))
            i = ctx.ask(other, "exhaust", ranked, f"{name}: exhaust one of your {color} units")
        elif op["pick"] == "victim":
            i = ctx.ask(
                other,
                "exhaust",
                weakest_first(victim, active),
                f"{name}: exhaust one of your units",
            )
        elif op["pick"] == "strongest":
            i = strongest_first(victim, active)[0]
        else:
            i = weakest_first(victim, active)[0]
        exhaust_unit(ctx, other, i)


@_op("take_from_hands")
def _take_from_hands(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Outfitter Q (preparation, resolved after every other seat's preparation effects — "You
    can wait until all other players have completed their preparation-effect actions", see
    :func:`..flow.start_battle`): take one card at random from the hand of each opponent
    that has hand cards (``HandCardTaken``: only the two seats see which), keep the one of
    your choice (default: the highest card value) — "The cards you don't choose are
    discarded" (Battle Phase: no discard effects). "If your opponents have no hand cards,
    you can draw a card": then one card from the draw pile. Ruling R-OUTFITTER."""
    taken = []
    for other in opponents(ctx, seat):
        cards = sorted(player(ctx, other).hand)
        if cards:
            card = ctx.rng.choice(cards)
            ctx.emit("HandCardTaken", seat, card=card, from_seat=other)
            taken.append(card)
    if not taken:
        ctx.draw(seat, 1)
        return
    cat = catalogue()
    best_first = sorted(taken, key=lambda c: (-(cat[c].value or 0), c))
    keep = (
        best_first[0]
        if len(taken) == 1
        else ctx.ask(
            seat,
            "keep",
            best_first,
            f"{name_of(origin['card'])}: keep one of the cards taken from your opponents",
        )
    )
    for card in taken:
        if card != keep:
            discard_card(ctx, seat, card)


@_op("boom")
def _boom(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """Megaton's Boom (preparation, the only way to the cards on Megaton, see
    :func:`..flow.load_megaton`): when cards lie on it the seat may set it off (default:
    wait). All of them are discarded (Battle Phase: no discard effects) and their card
    values add up to the blast (Special Units have none); each opponent discards (kills,
    no discard effects) its strongest unit whose printed strength is at most the blast
    (leftmost on ties; none in reach: nothing). Designed — the book gives no card text
    (ruling R-MEGATON)."""
    cards = list(player(ctx, seat).megaton)
    if ctx.state.phase != "battle" or not cards:
        return
    cat = catalogue()
    blast = sum(cat[c].value or 0 for c in cards)
    if (
        ctx.ask(
            seat,
            "boom",
            ["wait", "boom"],
            f"Megaton: Boom with {len(cards)} card(s), blast {blast}?",
            decline="wait",
        )
        == "wait"
    ):
        return
    ctx.emit("MegatonBoom", seat, cards=cards, blast=blast)
    for other in opponents(ctx, seat):
        victim = player(ctx, other)
        reach = [i for i, s in units(victim) if strength_of(s) <= blast]
        if reach:
            i = min(reach, key=lambda j: (-strength_of(victim.slots[j]), j))
            discard_card(ctx, other, unit_of(victim.slots[i]), trigger=False)
