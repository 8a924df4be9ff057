"""The A.I.Toma, the simulated opponent of "Solo / Cooperative Mode": its set-up, its units in
battle and the action symbols of the Special Units in its pool. Everything it does is
automatic and follows from the state and the match seed (no seat decides for it).

Rulebook "Solo / Cooperative Mode" (Game Setup: A.I.Toma; A.I.Toma Battle Phase; A.I.Toma
Health Points and Game End; Special Units & Pool of A.I.Toma; A.I.Toma Action Effects) and
RULINGS.md (R-TOMA-*). The A.I.Toma is ``players[n]`` (after the ``n`` human seats) with
``"toma": True``: no hand, no faction, always ready; its slots hold *piles* (the stacked
cards of a unit, bottom card first), a unit's colour is its bottom card's ("only the color
and card value of the first card is visible") and its strength is the sum of the pile's
card values (:func:`.state.strength_of`). Its cards have no effects: only colour and card
value count (R-TOMA-NO-EFFECTS). The point, damage and game-end rules of the human side
against it are in :mod:`.sides`; the team rules of the co-op mode in :mod:`.coop`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import catalogue
from .context import Ctx
from .effects import modifiers
from .effects.choices import hand_by_value
from .effects.resolve import discard_card, gain_ammo
from .spec import HAND_SIZE, MAX_SLOTS
from .state import (
    MatchState,
    Player,
    color_of,
    dump_fight,
    pile_of,
    toma_of,
    toma_seat,
    unit_of,
    units,
)
from .toma_pool import AILIEN, ROGUE, symbol_count

# ------------------------------------------------------------------ colours and set-up


def fits(unit_color: str | None, card_color: str | None) -> bool:
    """A card of ``card_color`` fits an A.I.Toma unit of ``unit_color``: the same colour, or
    either is a Rogue ("Rogues are considered as all colors for A.I.Toma"); an A.I.Lien fits
    every unit (ruling R-TOMA-COLOUR)."""
    if unit_color is None or card_color is None:
        return False
    return unit_color == card_color or ROGUE in (unit_color, card_color) or card_color == AILIEN


def setup(draw: list[str], starting: int) -> tuple[list[list[str]], list[str], int]:
    """Game Setup: A.I.Toma — deal ``starting`` cards (Handy-Man 1, Boss 3, Endboss 5, Untamed
    7) from the top of ``draw``: the first card opens the leftmost slot; a card that fits an
    existing unit (same colour, Rogues any colour) goes onto the leftmost such unit, another
    colour opens a new slot to the right; an A.I.Lien is ignored (discarded) and a new card
    drawn. Returns ``(piles left to right, ignored A.I.Lien, cards taken from draw)``.

    RULINGS R-TOMA-SETUP.
    """
    cat = catalogue()
    piles: list[list[str]] = []
    ignored: list[str] = []
    taken = 0
    while sum(len(p) for p in piles) < starting and taken < len(draw):
        card = draw[taken]
        taken += 1
        if cat[card].kind == "ailien":
            ignored.append(card)  # "Ignore A.I.Lien for the setup and draw a new card"
            continue
        home = next(
            (i for i, pile in enumerate(piles) if fits(cat[pile[0]].color, cat[card].color)), None
        )
        if home is None and len(piles) < MAX_SLOTS:
            piles.append([card])
        elif home is not None:
            piles[home].append(card)
        else:  # (three colours and Rogues: never more than 4 units)
            ignored.append(card)
    return piles, ignored, taken


# ------------------------------------------------------------------ battle


def fighter(p: Player, card: str) -> tuple[int | None, bool, bool]:
    """Where the A.I.Toma's battle card ``card`` goes: ``(slot, fights, opens_slot)``.

    The leftmost active unit it fits ("adds the card value to the strength of the
    corresponding unit"); an A.I.Lien fights with the first (leftmost) active unit. With no
    active unit for it "a new slot is opened": the leftmost empty slot (a killed unit's) or a
    new one while it has fewer than 6, where the card fights alone with its value and becomes
    the unit after the battle. Otherwise (6 slots, none free) it lies beside the units: only
    its value counts (ruling R-TOMA-BATTLE); an A.I.Lien never opens a slot."""
    cat = catalogue()
    color = cat[card].color
    active = [(i, s) for i, s in units(p) if not s.exhausted]
    if color == AILIEN:
        return (active[0][0], True, False) if active else (None, False, False)
    for i, s in active:
        if fits(color_of(unit_of(s)), color):
            return i, True, False
    empty = [i for i, s in enumerate(p.slots) if not s.unit and not s.exhausted and not s.battle]
    if empty:
        return empty[0], False, False
    if len(p.slots) < MAX_SLOTS:
        return len(p.slots), False, True
    return None, False, False


# ------------------------------------------------------------------ health points and actions


def lose_health(ctx: Ctx, count: int, sudden_before: bool) -> list[int]:
    """The A.I.Toma loses ``count`` health points: each revealed Special Unit goes into its
    pool (to the right, so the symbols of the previous cards stay visible) and its action
    symbols resolve before the next one is revealed ("First, resolve all the effects of a
    Special Unit before revealing the next one"). ``sudden_before``: Sudden Death was running
    before this damage (the health action may then eliminate a seat). Returns the human
    seats the actions eliminated."""
    seat = toma_of(ctx.state).seat
    out: list[int] = []
    for _ in range(count):
        p = ctx.players[seat]
        if not p.health:
            break
        card = p.health[0]
        ctx.emit("HealthLost", seat, cards=[card])
        out += resolve_actions(ctx, card, sudden_before)
    return out


def resolve_actions(ctx: Ctx, card: str, sudden_before: bool) -> list[int]:
    """The action symbols of the Special Unit ``card`` just revealed into the A.I.Toma's pool,
    in printed order ("passive" is a standing effect, see :func:`passive_bonus`). Counts of
    "the Special Units to the left" are over the pool cards before ``card``.

    RULINGS R-TOMA-CHOICE.
    """
    seat = toma_of(ctx.state).seat
    pool = ctx.players[seat].pool
    left = pool[: pool.index(card)] if card in pool else list(pool)
    eliminated: list[int] = []
    for symbol in catalogue()[card].action_symbols:
        if symbol == "ammo":
            gain_ammo(ctx, seat, 1)  # "The A.I.Toma receives ammo"
        elif symbol == "move":
            for _ in range(1 + symbol_count(left, "move")):
                move_card(ctx)
        elif symbol == "health":
            eliminated += health_action(ctx, symbol_count(left, "draw"), sudden_before)
        elif symbol == "draw":
            draw_card(ctx)
        elif symbol == "discard":
            ctx.emit("HandDiscardsDue", None, n=1 + symbol_count(left, "discard"))
    return eliminated


def move_card(ctx: Ctx) -> None:
    """ "Move a card from A.I.Toma's leftmost unit that has more than one card, to the next
    appropriate unit to the right ... If there is no appropriate unit for this move, take the
    card from the next unit." The moved card is the pile's top card (the last placed); an
    appropriate unit is one it fits (:func:`fits`). No unit can give: nothing moves."""
    p = ctx.players[toma_of(ctx.state).seat]
    board = units(p)
    for k, (i, s) in enumerate(board):
        pile = pile_of(s)
        if len(pile) < 2:
            continue
        card = pile[-1]
        target = next(
            (j for j, t in board[k + 1 :] if fits(color_of(unit_of(t)), color_of(card))), None
        )
        if target is not None:
            ctx.emit("TomaCardMoved", toma_seat(ctx.state), card=card, source=i, target=target)
            return


def draw_card(ctx: Ctx) -> None:
    """ "The A.I.Toma draws a card from the common draw pile. He must always place the cards
    drawn in a way that matches the leftmost appropriate unit": the leftmost unit it fits;
    none: a new slot (the leftmost empty one, or a new one below 6), else the discard pile.
    An A.I.Lien is ignored and another card drawn, as at set-up — once a player played an
    A.I.Lien in Sudden Death it joins the first unit instead (R-TOMA-DRAW)."""
    seat = toma_of(ctx.state).seat
    cat = catalogue()
    budget = len(ctx.state.draw) + len(ctx.state.discard)
    while budget > 0 and ctx.ensure_draw():
        budget -= 1
        card = ctx.state.draw[0]
        p = ctx.players[seat]
        board = units(p)
        if cat[card].kind == "ailien":
            if not toma_of(ctx.state).ailien_stays or not board:
                ctx.emit("TomaCardPlaced", seat, card=card, slot=None, new=False)
                continue
            ctx.emit("TomaCardPlaced", seat, card=card, slot=board[0][0], new=False)
            return
        home = next((i for i, s in board if fits(color_of(unit_of(s)), cat[card].color)), None)
        if home is not None:
            ctx.emit("TomaCardPlaced", seat, card=card, slot=home, new=False)
            return
        empty = [i for i, s in enumerate(p.slots) if not s.unit]
        if empty:
            ctx.emit("TomaCardPlaced", seat, card=card, slot=empty[0], new=False)
        elif len(p.slots) < MAX_SLOTS:
            ctx.emit("TomaCardPlaced", seat, card=card, slot=len(p.slots), new=True)
        else:
            ctx.emit("TomaCardPlaced", seat, card=card, slot=None, new=False)
        return


def health_action(ctx: Ctx, draws: int, sudden_before: bool) -> list[int]:
    """ "You lose one health point. Additionally, you draw one card for each revealed 'draw'
    symbol on the Special Units to the left. You cannot die from this effect if Sudden Death
    was only triggered at the end of the same battle." Every living human seat loses one
    (Elysium: +1 ammo); a seat with an empty stack is eliminated only when Sudden Death was
    already running before this damage (``sudden_before``). Returns the eliminated seats."""
    out: list[int] = []
    for seat in humans_alive(ctx.state):
        p = ctx.players[seat]
        if p.health:
            ctx.emit("HealthLost", seat, cards=p.health[:1])
            per = modifiers.ammo_per_damage(p)
            if per:
                gain_ammo(ctx, seat, per)
        elif ctx.state.sudden_death and sudden_before:
            ctx.emit("SeatEliminated", seat)
            out.append(seat)
            continue
        if draws:
            ctx.draw(seat, draws)
    return out


def forced_discards(ctx: Ctx) -> None:
    """ "As soon as you have 6 cards in your hand at the beginning of the Recruitment Phase, you
    must discard one card. Additionally, you must discard an extra card for each 'discard'
    symbol on the Special Units further to the left": right after the draw, every living
    human seat that holds 6 cards (or more) discards the cards due (as many as its hand
    holds), each of its choice (default: the lowest card value); a seat the emptied piles
    left with fewer than 6 discards nothing. A forced discard is no played card, so no
    discard effect resolves (ruling R-TOMA-SYMBOLS)."""
    toma = ctx.state.toma
    if not toma or not toma.discard_due:
        return
    due = toma.discard_due
    for seat in humans_alive(ctx.state):
        if len(ctx.players[seat].hand) < HAND_SIZE:
            continue  # "As soon as you have 6 cards in your hand"
        for k in range(due):
            hand = hand_by_value(ctx, seat)
            if not hand:
                break
            pick = ctx.ask(
                seat, "discard", hand, f"A.I.Toma: discard a hand card ({k + 1} of {due})"
            )
            discard_card(ctx, seat, pick, trigger=False)
    ctx.emit("HandDiscardsResolved", None)


def humans_alive(state: MatchState) -> list[int]:
    """Living human seats (never the A.I.Toma)."""
    return [s for s in range(state.n) if not state.players[s].eliminated]


# ------------------------------------------------------------------ what everybody sees


def view(state: MatchState) -> dict[str, Any] | None:
    """The A.I.Toma as every viewer sees it (``None`` outside solo/co-op): its units (piles
    face up), pool, ammo and its health *count* (the stack's order is hidden from everybody).
    During the private Recruitment Phase its board as the last battle left it (snapshot at
    ``RecruitmentStarted``, R-COOP-PRIVACY); changes the players' Recruitment effects make
    show at the next Battle Phase reveal."""
    seat = toma_seat(state)
    if seat is None:
        return None
    p = state.players[seat]
    live = state.phase != "recruitment" or not p.public
    board: Mapping[str, Any] = p.public or {}
    if live:
        pool = list(p.pool)
        slots = [
            {
                "pile": list(s.pile or []),
                "unit": s.unit,
                "strength": _pile_strength(s.pile or []),
                "battle": [[c if up else None, up] for c, up in s.battle],
                "exhausted": bool(s.exhausted),
            }
            for s in p.slots
        ]
    else:
        pool = list(board["pool"])
        slots = [
            {
                "pile": list(s.get("pile") or []),
                "unit": s["unit"],
                "strength": _pile_strength(s.get("pile") or []),
                "battle": [],
                "exhausted": False,
            }
            for s in board["slots"]
        ]
    passive = None
    if pool and "passive" in catalogue()[pool[-1]].action_symbols:
        passive = {"color": catalogue()[pool[-1]].color, "bonus": symbol_count(pool, "passive")}
    toma = toma_of(state)
    return {
        "seat": seat,
        "difficulty": toma.difficulty,
        "eliminated": p.eliminated,
        "health_count": len(p.health) if live else board["health"],
        "ammo": len(p.ammo) if live else board["ammo"],
        "pool": pool,
        "ammo_strength": max(1, symbol_count(pool, "ammo")),
        "passive": passive,
        "slots": slots,
        "score": p.score,
        "battle_stack": len(p.stack),
        "total_strength": _shown_total(state, slots),
        "current": dump_fight(p.current),
        "beside": [[c if up else None, up] for c, up in p.beside],
        "discard_due": toma.discard_due,
        "ailien_stays": toma.ailien_stays,
        "alt_pending": toma.alt_pending,
        "gift_used": toma.gift_used,
        "partner_pool_used": [s for s in range(state.n) if "partner_pool" in state.players[s].used],
    }


def _pile_strength(pile: list[str]) -> int:
    cat = catalogue()
    return sum(cat[c].value or 0 for c in pile)


def _shown_total(state: MatchState, slots: list[dict[str, Any]]) -> int:
    """The A.I.Toma's "Total Strength" as its board is shown: the result's ``toma.strength``
    once the match has a result, else the sum of its shown units' strengths (``slots``:
    the view's, each with its ``strength``)."""
    result = state.result
    if result and result.get("toma"):
        return result["toma"]["strength"]
    return sum(s["strength"] for s in slots if s["unit"])
