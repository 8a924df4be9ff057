"""Phase 2: Battle — battle cards, colour matching, battle strength, reactions, points.

Rulebook "Phase 2: Battle" (Before the Battle, Battle Cards, Increasing Battle Strength) and
RULINGS.md (A.I.Pokalypse): all seats reveal at once; then a reaction window: a seat that is
not (tied) highest may replace its battle card with a hand card or spend ammo, only if that
makes it (tied) highest; windows repeat until nobody can or wants to react.

Against the A.I.Toma ("Solo / Cooperative Mode", :mod:`.toma`, :mod:`.sides`): it reveals
like any player (its cards go by :func:`.toma.fighter`), its strength is its unit's pile plus
the passive symbol's bonus, its ammo counts the ammo-gain symbols (doubled in co-op); a human
seat reacts while its side would lose the point and only so that its side wins it (the
A.I.Toma wins ties, ruling R-TOMA-REACT); the A.I.Toma spends ammo by itself
(:func:`toma_react`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from . import sides, toma
from .cards import catalogue
from .context import Ctx
from .effects import choices, modifiers
from .effects.opponents import with_temporary
from .effects.resolve import discard_card, fire, gain_ammo, origin_of, run
from .spec import AMMO_BATTLE_STRENGTH
from .state import (
    Fight,
    MatchState,
    Player,
    alive,
    color_of,
    fight_of,
    fight_slot,
    fits,
    is_toma,
    opponents_of,
    slid_ailien_value,
    strength_of,
    toma_seat,
    unit_of,
    units,
)
from .toma_pool import ammo_strength, passive_bonus


def fighter_for(p: Player, card: str) -> tuple[int | None, bool]:
    """Where the battle card ``card`` goes: ``(slot, fights)``.

    The leftmost active unit whose colour fits ("Battle Cards"); an A.I.Lien card goes to an
    active unit with a ``magnet`` for green (Nanobots) first — with Black Noise always to the
    leftmost active unit ("always fight with the unit farthest to the left"). With no fitting
    unit only the card value counts: ``(None, False)``; the seat then chooses where the card
    goes (:func:`placements`, command ``place_card``).
    RULINGS R-BLACK-NOISE, R-AILIEN-MAGNET.
    """
    cat = catalogue()
    ccolor = cat[card].color
    active = [(i, s) for i, s in units(p) if not s.exhausted and not modifiers.never_fights(p, i)]
    if ccolor == "green" and active:
        magnets = [
            (i, op)
            for i, s in active
            for op in cat[unit_of(s)].ops("battle")
            if op["op"] == "magnet" and op["color"] == "green"
        ]
        if any(op.get("to") == "leftmost" for _, op in magnets):
            return active[0][0], True  # Black Noise: always the leftmost unit
        if magnets:
            return magnets[0][0], True  # Nanobots
    for i, s in active:
        if fits(color_of(unit_of(s)), ccolor):
            return i, True
    return None, False


def placements(p: Player) -> list[int]:
    """Where a battle card without a fitting unit may go: "on the top edge of an empty slot
    or an active unit (This unit is then exhausted)" — empty slots (The Scream counts as
    one) first, then active units, left to right. Empty: beside the slots.

    RULINGS R-BATTLE-PLACE.
    """
    empty = [
        i
        for i, s in enumerate(p.slots)
        if (not s.unit or modifiers.never_fights(p, i)) and not s.exhausted
    ]
    active = [i for i, s in units(p) if not s.exhausted and i not in empty]
    return empty + active


def needs_placement(state: MatchState, seat: int) -> list[int]:
    """The placement options of ``seat`` when its revealed card still needs a place."""
    p = state.players[seat]
    cur = p.current
    if p.eliminated or not cur or cur.fights or cur.placed:
        return []
    return placements(p)


def auto_place(ctx: Ctx) -> bool:
    """Place cards with at most one option; True when some seat still has to choose."""
    waiting = False
    for seat in alive(ctx.state):
        options = needs_placement(ctx.state, seat)
        if len(options) == 1:
            ctx.emit("BattleCardPlaced", seat, slot=options[0])
        elif options:
            waiting = True
    return waiting


def _battle_ops(p: Player) -> tuple[tuple[int, Mapping[str, Any]], ...]:
    """``(slot index, op)`` of every battle-trigger op of the units on ``p``'s slots, left to
    right (none for the A.I.Toma: its cards have no effects). Read-only ops of the card
    catalogue, remembered by the slots' unit ids (:func:`_unit_ops`)."""
    if is_toma(p):
        return ()
    return _unit_ops(tuple([(i, s.unit) for i, s in enumerate(p.slots) if s.unit]))


@lru_cache(maxsize=1 << 12)
def _unit_ops(placed: tuple[tuple[int, str], ...]) -> tuple[tuple[int, Mapping[str, Any]], ...]:
    """:func:`_battle_ops` of the units ``placed`` (``(slot index, card id)`` pairs): a
    pure function of the card data, which is loaded once per process."""
    cat = catalogue()
    return tuple((i, op) for i, cid in placed for op in cat[cid].ops("battle"))


def _opponents_temp(p: Player) -> int:
    """The Scream's ``temp`` to ``opponents``: what ``p``'s units take from each opponent's
    battle strength (summed over its battle ops)."""
    return sum(
        op["n"] for _, op in _battle_ops(p) if op["op"] == "temp" and op["to"] == "opponents"
    )


def strength(state: MatchState, seat: int, current: Fight | None = None) -> int:
    """Battle strength of ``seat`` for the current point: battle card value, plus (when a unit
    fights) its strength, its temporary strength and battle effects, plus 2 per ammo spent,
    minus opponents' ``temp`` to ``opponents`` (The Scream). Never below 0.

    The A.I.Toma: card value, plus (when a unit fights) its pile's card values and the passive
    symbol's bonus, plus the ammo-gain symbols' strength per ammo; doubled in co-op ("doubled
    for every point, including temporary effects and ammo")."""
    p = state.players[seat]
    cur = current if current is not None else p.current
    if cur is None:
        return 0
    cat = catalogue()
    card = cat[cur.card]
    per_ammo = ammo_strength(p) if is_toma(p) else AMMO_BATTLE_STRENGTH
    total = (card.value or 0) + per_ammo * cur.ammo + cur.bonus
    if cur.fights and cur.slot is not None:
        if is_toma(p):
            total += passive_bonus(p, cur.slot) + strength_of(p.slots[cur.slot])
        else:
            total += fighting_temp(state, seat, cur) + strength_of(p.slots[cur.slot])
        for other in opponents_of(state, seat):
            total += _opponents_temp(state.players[other])
    total = max(total, 0)
    return total * sides.toma_factor(state) if is_toma(p) else total


def fighting_temp(state: MatchState, seat: int, cur: Fight) -> int:
    """Temporary strength of the fighting unit (slot temp, Desert Rats ammo, battle effects).
    Faceless T (``mirror``): "This can copy the strength of your strongest Mutant, counting
    temporary effects" — the other unit's strength with its temporary strength
    (:func:`.effects.opponents.with_temporary`, as Eagle Eye counts it). RULINGS R-FACELESS."""
    p = state.players[seat]
    me = fight_slot(cur)
    slot = p.slots[me]
    cat = catalogue()
    card = cat[cur.card]
    total = slot.temp + slot.ammo_temp
    unit_color = color_of(unit_of(slot))
    for i, op in _battle_ops(p):
        name = op["op"]
        if name == "temp" and op["to"] in ("self", "all"):
            if op["to"] == "self" and i != me:
                continue
            if op["to"] == "all" and op.get("color") and op["color"] != unit_color:
                continue
            per = op.get("per")
            if per == "attached":
                total += op["n"] * len(slot.attached)
            elif per == "lost_health":
                total += max(0, 6 - len(p.health))
            elif per == "ailien_value":
                total += (card.value or 0) if card.kind == "ailien" else 0
            elif per == "discard_units":
                total += op["n"] * sum(1 for _, s in units(p) if cat[unit_of(s)].ops("discard"))
            else:
                total += op["n"]
        elif (
            name == "magnet"
            and card.color == op["color"]
            and (i == me or op.get("to") == "leftmost")
        ):
            total += op["n"]
        elif name == "slide_ailien" and i == me:  # Astronomer: the A.I.Lien cards behind it
            total += slid_ailien_value(slot)
        elif name == "mirror" and i == me:  # Faceless T: "counting temporary effects"
            with_temp = with_temporary(p)
            others = [
                with_temp[j] for j, s in units(p) if j != me and color_of(unit_of(s)) == op["color"]
            ]
            total += max(others, default=0)
    return total


def _slide_ailien(ctx: Ctx, seat: int, cur: Fight) -> None:
    """Astronomer: "If Astronomer fights with an A.I.Lien, slide the A.I.Lien card behind the
    Astronomer, revealing only the card value" — once the point is scored the A.I.Lien battle
    card moves from above the unit to behind it (``AILienSlid``) and stays there (not
    discarded after the battle); Venus Colony's A.I.Lien returns to the faction as its card says."""
    p = ctx.players[seat]
    if not cur.fights or cur.slot is None or is_toma(p) or cur.card == p.colony:
        return
    unit = p.slots[cur.slot].unit
    if unit and catalogue()[cur.card].kind == "ailien" and catalogue()[unit].has("slide_ailien"):
        ctx.emit("AILienSlid", seat, slot=cur.slot, card=cur.card)


def strengths(state: MatchState) -> dict[int, int]:
    """Battle strength of every living seat with a revealed battle card."""
    return {s: strength(state, s) for s in alive(state) if state.players[s].current}


# ------------------------------------------------------------------ reactions


def _others_best(state: MatchState, seat: int, st: Mapping[int, int] | None = None) -> int:
    st = strengths(state) if st is None else st
    return max((v for s, v in st.items() if s != seat), default=0)


def wins_with(state: MatchState, seat: int, mine: int, st: Mapping[int, int] | None = None) -> bool:
    """Whether ``seat`` would be (tied) highest with battle strength ``mine`` — against the
    A.I.Toma: whether its side's (summed) strength would at least equal the A.I.Toma's
    (doubled) one. A tie is still the A.I.Toma's point, so the side stays behind and may
    react again, e.g. with ammo (ruling R-TOMA-REACT). ``st``: :func:`strengths` of
    ``state`` when the caller has them already (they are computed otherwise)."""
    st = strengths(state) if st is None else st
    if state.toma:
        st = dict(st)
        st[seat] = mine
        return sides.humans_reach(state, st)
    return mine >= _others_best(state, seat, st)


def behind(state: MatchState, seat: int, st: Mapping[int, int] | None = None) -> bool:
    """``seat`` is strictly behind (competitive), or its side would lose the point.
    ``st``: :func:`strengths` of ``state`` when the caller has them already."""
    st = strengths(state) if st is None else st
    if state.toma:
        return not sides.humans_win(state, st)
    return strength(state, seat) < _others_best(state, seat, st)


def reactions(
    state: MatchState, seat: int, st: Mapping[int, int] | None = None
) -> list[dict[str, Any]]:
    """Legal reaction commands of ``seat`` now (``pass`` included when any other is legal).

    Only a seat that is not (tied) highest may react, and only with a hand card (a basic unit,
    A.I.Lien included) that increases its battle strength or an ammo count that makes it
    (tied) highest — or, with Illusionists, a decoy card (:func:`decoys`). Big Benji ("You
    can do this at any time, even during battle") may cash pool cards in every window, also
    while its seat is not behind: then ``cash_pool`` and ``pass`` are its only commands
    (ruling R-BENJI). Against the A.I.Toma a seat reacts while its side would lose the point
    (a tie included) and a reaction must bring its side at least level (R-TOMA-REACT).
    ``st``: :func:`strengths` of ``state`` when the caller has them (:func:`eligible` shares
    one computation over every seat); computed once here otherwise. RULINGS R-REACT."""
    p = state.players[seat]
    if state.phase != "battle" or p.eliminated or p.current is None or p.passed or is_toma(p):
        return []
    st = strengths(state) if st is None else st
    cash = [{"type": "cash_pool", "card": c} for c in modifiers.can_cash(state, p)]  # Big Benji
    if not behind(state, seat, st):
        return cash + [{"type": "pass"}] if cash else []
    mine = st[seat] if seat in st else strength(state, seat)
    out: list[dict[str, Any]] = []
    cat = catalogue()
    for cid in sorted(set(p.hand) | set(colony_card(p))):
        if cat[cid].category != "basic":
            continue
        new = replaced_strength(state, seat, cid)
        if new > mine and wins_with(state, seat, new, st):  # "increase your battle strength"
            out.append({"type": "react_card", "card": cid})
    for k in range(1, len(p.ammo) + 1):
        if wins_with(state, seat, mine + AMMO_BATTLE_STRENGTH * k, st):
            out.append({"type": "react_ammo", "count": k})
    if ammo_all_fights(p):  # Lieutenant Dan
        out.extend(
            {"type": "react_ammo_humans", "count": k}
            for k in range(1, len(p.ammo) + 1)
            if wins_with(state, seat, mine + AMMO_BATTLE_STRENGTH * k, st)
        )
    out.extend(c for c in decoys(state, seat) if c not in out)  # Illusionists
    out.extend(cash)
    if out:
        out.append({"type": "pass"})
    return out


def ammo_all_fights(p: Player) -> bool:
    """Lieutenant Dan in battle: "Instead of giving a unit strength, you can also spend your
    ammo to give strength to all your humans" — offered (``react_ammo_humans``, ruling R-DAN)
    where ammo is spent on the fighting unit, when that unit is one of "your humans": each
    ammo gives every Human on the seat's slots 2 temporary strength for the rest of the
    battle ("Each ammo temporarily strengthens any unit by 2 strength ... for that one
    battle only"), so the fight gains the same 2 per ammo as ``react_ammo``."""
    color = modifiers.ammo_all_color(p)
    cur = p.current
    return (
        color is not None
        and bool(p.ammo)
        and cur is not None
        and cur.fights
        and cur.slot is not None
        and color_of(unit_of(p.slots[cur.slot])) == color
    )


def spend_ammo_on_all_in_battle(ctx: Ctx, seat: int, count: int) -> None:
    """``react_ammo_humans``: ``count`` ammo back on the ammo deck (a reaction: the other seats'
    passes reset), then every unit of Lieutenant Dan's colour gets 2 temporary strength per
    ammo (``TempAdded``; cleared with the battle)."""
    p = ctx.players[seat]
    color = modifiers.ammo_all_color(p)
    ctx.emit("AmmoSpent", seat, count=count, slot=None, battle=True, humans=True)
    for i, s in units(p):
        if color_of(unit_of(s)) == color:
            ctx.emit("TempAdded", seat, slot=i, n=AMMO_BATTLE_STRENGTH * count)


def colony_card(p: Player) -> list[str]:
    """Venus Colony: its A.I.Lien "as a battle card in every battle" (once per battle, while
    it is not the current card). RULINGS R-VENUS."""
    cid = p.colony
    if not cid or p.colony_out or (p.current and fight_of(p).card == cid):
        return []
    return [cid]


def decoys(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Illusionists: "If a strong unit of yours is about to lose its point in battle, you can
    play a card of a different color that would activate a weaker unit of yours instead" —
    ``react_card`` commands (the seat is behind) that need not make it highest.

    RULINGS R-ILLUSION.
    """
    p = state.players[seat]
    cur = p.current
    if not modifiers.has(p, "illusion") or not cur or not cur.fights or cur.slot is None:
        return []
    cat = catalogue()
    strong = strength_of(p.slots[cur.slot])
    out = []
    for cid in sorted(set(p.hand)):
        if cat[cid].category != "basic" or cat[cid].color == cat[cur.card].color:
            continue
        slot, fights = fighter_for(p, cid)
        if fights and slot is not None and slot != cur.slot and strength_of(p.slots[slot]) < strong:
            out.append({"type": "react_card", "card": cid})
    return out


def replaced_strength(state: MatchState, seat: int, card: str) -> int:
    """Battle strength if ``card`` from hand replaced the current battle card."""
    p = state.players[seat]
    slot, fights = fighter_for(p, card)
    cur = replace(fight_of(p), card=card, slot=slot, fights=fights)
    return strength(state, seat, cur)


def eligible(state: MatchState) -> list[int]:
    """Seats with an open reaction decision in the current window (the battle strengths
    computed once for all of them)."""
    if state.phase != "battle":
        return []
    st = strengths(state)
    return [s for s in alive(state) if reactions(state, s, st)]


def placing(state: MatchState, none_eligible: bool = False) -> list[int]:
    """Seats that must choose where their non-fighting battle card goes (after reactions).
    ``none_eligible``: the caller found :func:`eligible` empty already."""
    if state.phase != "battle" or (not none_eligible and eligible(state)):
        return []
    return [s for s in alive(state) if len(needs_placement(state, s)) > 1]


# ------------------------------------------------------------------ reveal and resolve


def reveal_point(ctx: Ctx) -> None:
    """All seats reveal the top card of their battle card stack at once; fighting-unit battle
    effects that change the board (Journalist's rally, reactivation) resolve now."""
    for seat in alive(ctx.state):
        p = ctx.players[seat]
        if not p.stack:
            continue
        card = p.stack[0]
        if is_toma(p):
            slot, fights, opens = toma.fighter(p, card)
            if opens:
                ctx.emit("TomaSlotOpened", seat, slot=slot)
            ctx.emit("BattleCardRevealed", seat, card=card, slot=slot, fights=fights, placed=True)
            continue
        slot, fights = fighter_for(p, card)
        ctx.emit("BattleCardRevealed", seat, card=card, slot=slot, fights=fights)
    for seat in alive(ctx.state):
        cur = ctx.players[seat].current
        if cur and cur.fights:
            _on_fight(ctx, seat, fight_slot(cur))


def _on_fight(ctx: Ctx, seat: int, me: int) -> None:
    p = ctx.players[seat]
    fighting_color = color_of(unit_of(p.slots[me]))
    for i, op in list(_battle_ops(p)):
        if op["op"] == "rally" and fighting_color == op["color"]:
            choices.journalist_rally(ctx, seat, me, op["color"], unit_of(p.slots[i]))
        elif op["op"] == "reactivate" and i == me:
            run(ctx, seat, [op], origin_of(unit_of(p.slots[me]), me))


def point_winners(state: MatchState, st: Mapping[int, int], forced: list[int]) -> list[int]:
    """Who scores the point with battle strengths ``st`` and the seats ``forced`` by a "you
    win the point" effect: exactly the forced seats if any, else the highest strength, ties
    all score (Neo / Last Light win ties alone); against the A.I.Toma :func:`.sides.point_winners`.

    RULINGS R-TIE.
    """
    if state.toma:
        return sides.point_winners(state, st, forced)
    if forced:
        return sorted(set(forced))
    top = max(st.values())
    winners = [s for s, v in st.items() if v == top]
    breakers = [s for s in winners if modifiers.has(state.players[s], "tiebreak")]
    return breakers if len(winners) > 1 and breakers else winners


def murderer(ctx: Ctx, seat: int, me: int, color: str, forced: list[int]) -> None:
    """Murderer: "When Murderer fights, you can decide to discard an additional human from a
    slot to win the point." Asked (kind ``sacrifice``) when the seat would not score the point
    alone without it — it is behind, tied, or another seat's "you win the point" effect takes
    the point (against the A.I.Toma: when its side would not score); never when there is no
    other Human of ``color`` on its slots. Options: ``"keep"`` — the default a turn timeout
    takes (a timeout is a pass: nothing is given up) — then the other Humans' slots, weakest
    first (rightmost on ties). The victim is discarded without discard effects (a battle
    discard) and the seat joins ``forced``. Ruling R-WIN-POINT."""
    p = ctx.players[seat]
    victims = [j for j, s in units(p) if j != me and color_of(unit_of(s)) == color]
    if not victims:
        return
    winners = point_winners(ctx.state, strengths(ctx.state), forced)
    if (seat in winners) if ctx.state.toma else winners == [seat]:
        return
    pick = ctx.ask(
        seat,
        "sacrifice",
        ["keep"] + choices.weakest_first(p, victims),
        "Murderer: discard another Human of yours to win the point?",
        decline="keep",
    )
    if pick == "keep":
        return
    discard_card(ctx, seat, p.slots[pick].unit, trigger=False)
    ctx.emit("FightBonus", seat, forced=True)
    forced.append(seat)


def resolve_point(ctx: Ctx) -> None:
    """Score the point: forced winners ("you win the point": Postman, then Murderer's
    sacrifice, :func:`murderer`, seat by seat) if any, else the highest battle strength, ties
    all score (Neo / Last Light win ties alone). Then the point hooks (point won, fight with
    temporary strength, Droid Army's refund)."""
    state = ctx.state
    cat = catalogue()
    forced: list[int] = []
    murderers: list[tuple[int, int, str]] = []
    for seat in alive(state):
        p = ctx.players[seat]
        cur = p.current
        if not cur or not cur.fights:
            continue
        me = cur.slot
        for i, op in _battle_ops(p):
            if i != me or not p.slots[me].unit:
                continue
            if op["op"] == "win_point" and (cat[cur.card].value or 0) <= op["max_value"]:
                forced.append(seat)
            elif op["op"] == "sacrifice_win":
                murderers.append((seat, me, op["color"]))
    for seat, me, color in murderers:
        murderer(ctx, seat, me, color, forced)
    st = strengths(ctx.state)
    if not st:
        return
    winners = point_winners(ctx.state, st, forced)
    fought = {s: replace(fight_of(ctx.players[s])) for s in st}
    temps = {
        s: (c.fights and (fighting_temp(ctx.state, s, c) > 0 or c.ammo > 0))
        for s, c in fought.items()
    }
    ctx.emit("PointScored", None, winners=winners, strengths={str(k): v for k, v in st.items()})
    for seat, cur in fought.items():
        _slide_ailien(ctx, seat, cur)
    for seat, cur in fought.items():
        if seat in winners:  # Big Benji: "When you win a point"
            fire(ctx, seat, "point_won", {"slot": cur.slot if cur.fights else None})
        if temps[seat]:
            fire(ctx, seat, "fight_with_temp", {})
        refund = modifiers.refund_color(ctx.players[seat])
        if (
            seat not in winners
            and refund
            and cur.ammo
            and cur.fights
            and color_of(unit_of(ctx.players[seat].slots[fight_slot(cur)])) == refund
        ):
            gain_ammo(ctx, seat, 1)


def battle_card_count(state: MatchState) -> int:
    """ "As many cards ... as the number of units (not slots) of the player with the most
    units" (The Scream counts), adjusted by Special Agents; never below 0."""
    most = max((len(units(state.players[s])) for s in alive(state)), default=0)
    return max(0, most + modifiers.battle_card_delta(state))


def toma_react(ctx: Ctx) -> bool:
    """ "The A.I.Toma uses (multiple) ammo whenever it increases its battle strength enough to
    surpass that of the other players": when the human side would win the point and some
    number of its ammo would win it back (ties are its), it spends the fewest that do
    (``AmmoSpent``; the human seats may react again). Returns whether it spent."""
    seat = toma_seat(ctx.state)
    if seat is None:
        return False
    p = ctx.players[seat]
    if p.eliminated or not p.current or not p.ammo:
        return False
    st = strengths(ctx.state)
    if not sides.humans_win(ctx.state, st):
        return False
    for k in range(1, len(p.ammo) + 1):
        st[seat] = strength(ctx.state, seat, replace(p.current, ammo=fight_of(p).ammo + k))
        if not sides.humans_win(ctx.state, st):
            ctx.emit("AmmoSpent", seat, count=k, slot=fight_of(p).slot, battle=True)
            return True
    return False
