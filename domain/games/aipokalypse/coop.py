"""Team rules of the Cooperative Mode (rulebook "Solo / Cooperative Mode", "Cooperative Mode")
and the alternative win conditions against the A.I.Toma.

- "If the game ends by alternate win conditions, both players must survive one more battle
  phase": a partner's alternative win (Invader) is only noted (``AlternativeWinPending``);
  the team wins when the next Battle Phase has ended with both still in the game
  (:func:`alternative_win_due`). Solo: the alternative win ends the match at once.
- "Once per game, when you recruit a Special Unit at the beginning of the Recruitment Phase,
  you may recruit it from your partner's pool": a ``triple`` with ``source: "partner"``,
  once per game for each partner, and only as its first Recruitment move of that phase
  (``FirstMoveMade`` marks the first move; ruling R-COOP-PARTNER-POOL).
- "Once per game, one player may give 1 ammo to his partner": ``give_ammo`` in the giver's
  Recruitment Phase, once per game for the team (ruling R-COOP-GIFT).
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .context import Ctx
from .effects import modifiers
from .effects.pools import release_tucked
from .sides import finish
from .state import MatchState, Player, alive, color_of, max_ammo, toma_of, unit_of, units

PARTNER_POOL = "partner_pool"  # OnceUsed key of a seat that recruited from its partner's pool


def is_coop(state: MatchState) -> bool:
    """True in the co-op mode."""
    return state.mode == "coop"


def partner(state: MatchState, seat: int) -> int | None:
    """The other human seat of a co-op team (``None`` outside co-op or when it is out)."""
    if not is_coop(state) or seat not in (0, 1):
        return None
    other = 1 - seat
    return None if state.players[other].eliminated else other


def partner_pool(state: MatchState, seat: int) -> list[str]:
    """The partner's pool cards ``seat`` may recruit now through a Triple (its first
    Recruitment move of the phase, once per game)."""
    other = partner(state, seat)
    p = state.players[seat]
    if other is None or PARTNER_POOL in p.used or p.moved or state.phase != "recruitment":
        return []
    return sorted(set(state.players[other].pool))


def take_from_partner(ctx: Ctx, seat: int, card: str) -> None:
    """Move ``card`` from the partner's pool into ``seat``'s pool (cards Kollektah stored under it
    stay with the partner, :func:`.effects.pools.release_tucked`) and use the once-per-game
    right; the caller recruits it from there (ValueError without a partner in the game: the
    caller checks :func:`partner_pool`). RULINGS R-COOP-PARTNER-POOL."""
    other = partner(ctx.state, seat)
    if other is None:
        raise ValueError("no co-op partner to take a pool card from")
    release_tucked(ctx, other, card)
    ctx.emit("PoolCardMoved", seat, card=card, from_seat=other, to_seat=seat, from_where="pool")
    ctx.emit("OnceUsed", seat, key=PARTNER_POOL)


def mark_first_move(ctx: Ctx, seat: int) -> None:
    """After a seat's first Recruitment command of the phase (co-op only): ``FirstMoveMade``."""
    if is_coop(ctx.state) and ctx.state.phase == "recruitment" and not ctx.players[seat].moved:
        ctx.emit("FirstMoveMade", seat)


def can_give(state: MatchState, seat: int) -> bool:
    """``give_ammo`` is legal: co-op, not used yet by the team, the seat has ammo and its
    partner room for one more."""
    other = partner(state, seat)
    if other is None or toma_of(state).gift_used or state.phase != "recruitment":
        return False
    receiver = state.players[other]
    return bool(state.players[seat].ammo) and len(receiver.ammo) < max_ammo(receiver)


def give_ammo(ctx: Ctx, seat: int) -> None:
    """ "Once per game, one player may give 1 ammo to his partner" (raises IllegalMove
    ``cannot_give_ammo``). RULINGS R-COOP-GIFT."""
    if not can_give(ctx.state, seat):
        raise IllegalMove(
            "Only once per game, in co-op, with ammo of yours and room in your partner's storage.",
            "cannot_give_ammo",
        )
    ctx.emit("AmmoGiven", seat, to=partner(ctx.state, seat), card=ctx.players[seat].ammo[-1])


# ------------------------------------------------------------------ alternative wins


def alt_winners(ctx: Ctx) -> list[int]:
    """Human seats meeting an alternative win condition (Invader: 5 units of one colour,
    Rogues count as purple)."""
    out = []
    for seat in alive(ctx.state):
        if seat >= ctx.state.n:
            continue
        if meets_alternative_win(ctx.players[seat]):
            out.append(seat)
    return out


def meets_alternative_win(player: Player) -> bool:
    """True when one of ``player``'s Special Units' alternative win conditions holds now
    ("Special Units"; Invader: ``one_color`` — at least ``count`` units, all of one colour,
    Rogues counting as purple). Shared by the competitive and the A.I.Toma game end."""
    for _, op in modifiers.statics(player, "alt_win"):
        colors = [color_of(unit_of(s)) for _, s in units(player)]
        if op["kind"] == "one_color" and len(colors) >= op["count"] and len(set(colors)) == 1:
            return True
    return False


def alternative_win(ctx: Ctx) -> bool:
    """After a Battle Phase against the A.I.Toma: solo — an alternative win ends the match (won);
    co-op — it is noted and the team must survive one more Battle Phase. Returns True when the
    match ended."""
    winners = alt_winners(ctx)
    if not winners:
        return False
    if not is_coop(ctx.state):
        finish(ctx, True, "alternative_win")
        return True
    if toma_of(ctx.state).alt_pending is None:
        ctx.emit("AlternativeWinPending", winners[0], round=ctx.state.round)
    return False


def alternative_win_due(ctx: Ctx) -> bool:
    """Co-op: a noted alternative win of an earlier round, and both partners survived this
    Battle Phase (the damage is applied): the team wins. Returns True when the match ended.

    RULINGS R-COOP-ALT.
    """
    toma = ctx.state.toma
    if not toma or toma.alt_pending is None or ctx.state.phase == "ended":
        return False
    if toma.alt_pending >= ctx.state.round:
        return False
    if any(ctx.players[s].eliminated for s in range(ctx.state.n)):
        return False
    finish(ctx, True, "alternative_win")
    return True
