"""The human side against the A.I.Toma ("Solo / Cooperative Mode"): who wins a point, the
battle damage, the total strength at the end and the match result. In the competitive game
the same questions are answered per seat by :mod:`.battle` and :mod:`.flow`; the functions
here are the rule where an A.I.Toma sits at the table (``state.toma``).

- Points: "In case of a tie in battle strength when determining a point, A.I.Toma always
  wins!"; co-op: "The A.I.Toma's battle strength is doubled for every point, including
  temporary effects and ammo. The two players add up their battle strength". The human
  side wins a point when its (summed) strength exceeds the A.I.Toma's (doubled) one; a
  "you win the point" effect or a tie-winner (Neo, Last Light: "You win any tie") on the
  human side wins it too. Both partners score the points of their side (ruling R-COOP-SIDE).
- Battle result: the usual rule between the two sides — the loser loses the difference; equal
  scores: every seat loses 1 (a tie-winner none).
- Total strength: solo — the higher wins, ties: Neo, then more health points, then the
  A.I.Toma (it wins ties); co-op — "both players together must have more than double the
  strength of A.I.Toma".
- Result (``MatchEnded``): ``outcome`` ``won``/``lost`` of the human side, ``winners`` every
  human seat or none, ``toma`` ``{"strength", "health"}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .context import Ctx
from .effects import modifiers
from .state import MatchState, alive, toma_of, toma_seat, total_strength

COOP_FACTOR = 2  # "doubled for every point" / "more than double the strength"


def coop(state: MatchState) -> bool:
    """True in the co-op mode (two seats as one team)."""
    return state.mode == "coop"


def toma_factor(state: MatchState) -> int:
    """How the A.I.Toma's battle strength is multiplied: 2 in co-op, else 1."""
    return COOP_FACTOR if coop(state) else 1


def _tiebreak(state: MatchState, seats: list[int]) -> bool:
    """Whether a tie-winner (Neo, Last Light: ``tiebreak``) sits among ``seats``.

    RULINGS R-TOMA-TIE.
    """
    return any(modifiers.has(state.players[s], "tiebreak") for s in seats)


def humans_win(state: MatchState, strengths: Mapping[int, int]) -> bool | None:
    """Whether the human side wins the point with the battle ``strengths`` (seat -> strength
    of every player with a revealed card, the A.I.Toma's already doubled in co-op); ``None``
    when nobody has a card. A side without a card loses the point."""
    toma = toma_of(state).seat
    humans = [s for s in strengths if s != toma]
    if not humans:
        return None if toma not in strengths else False
    if toma not in strengths:
        return True
    mine, theirs = sum(strengths[s] for s in humans), strengths[toma]
    return mine > theirs or (mine == theirs and _tiebreak(state, humans))


def humans_reach(state: MatchState, strengths: Mapping[int, int]) -> bool:
    """Whether the human side is "(tied) highest" with the battle ``strengths`` (seat ->
    strength, the A.I.Toma's already doubled in co-op): its summed strength at least equals
    the A.I.Toma's. What a reaction must reach ("You can only play cards that would increase
    your battle strength so that you have the (tied) highest strength"); the point itself
    needs more (:func:`humans_win`, the A.I.Toma wins ties), so a tied side may react again."""
    toma = toma_of(state).seat
    if toma not in strengths:
        return True
    return sum(v for s, v in strengths.items() if s != toma) >= strengths[toma]


def point_winners(state: MatchState, strengths: Mapping[int, int], forced: list[int]) -> list[int]:
    """The seats that score the point: every human seat with a card when the human side wins
    (or a "you win the point" effect fires for it), else the A.I.Toma."""
    toma = toma_of(state).seat
    humans = sorted(s for s in strengths if s != toma)
    if forced or humans_win(state, strengths):
        return humans
    return [toma] if toma in strengths else []


def scores(state: MatchState) -> tuple[int, int]:
    """``(human side's score, A.I.Toma's score)`` of the current battle. RULINGS R-COOP-SIDE."""
    toma = toma_of(state).seat
    humans = [state.players[s].score for s in alive(state) if s != toma]
    return max(humans, default=0), state.players[toma].score


def battle_damage(state: MatchState) -> dict[int, int]:
    """ "Battle Result" between the sides: the side with fewer points loses the difference (each
    human seat of a beaten side loses it); equal scores: everyone loses 1, a tie-winner
    (Neo, Last Light) none. RULINGS R-TOMA-DAMAGE."""
    toma = toma_of(state).seat
    mine, theirs = scores(state)
    damage = {}
    for seat in alive(state):
        if mine == theirs:
            damage[seat] = (
                0 if seat != toma and modifiers.has(state.players[seat], "tiebreak") else 1
            )
        elif seat == toma:
            damage[seat] = max(0, mine - theirs)
        else:
            damage[seat] = max(0, theirs - mine)
    return damage


def battle_winners(state: MatchState) -> list[int]:
    """The seats that won the last battle: competitive — the seat with the best score alone
    (none on a tie); against the A.I.Toma — every living human seat when their side scored
    more, the A.I.Toma when it did, nobody on a tie (C.H.R.O.M.E., "battle won" hooks)."""
    if not state.toma:
        live = {s: state.players[s].score for s in alive(state)}
        best = max(live.values(), default=0)
        top = [s for s, v in live.items() if v == best]
        return top if len(top) == 1 else []
    mine, theirs = scores(state)
    if mine > theirs:
        return [s for s in alive(state) if s != toma_seat(state)]
    return [toma_of(state).seat] if theirs > mine else []


# ------------------------------------------------------------------ end of the match


def check_end(ctx: Ctx) -> None:
    """After damage: the A.I.Toma eliminated alone -> the human side wins; together with a
    human seat -> total strength ("If all players die with the A.I.Toma, total strength
    determines the winner"); a human seat eliminated (solo: the player; co-op: either partner,
    ruling R-COOP-ELIMINATION) -> the human side loses. RULINGS R-TOMA-END."""
    state = ctx.state
    toma_out = state.players[toma_of(state).seat].eliminated
    humans_out = [s for s in range(state.n) if state.players[s].eliminated]
    if toma_out and not humans_out:
        finish(ctx, True, "elimination")
    elif toma_out:
        finish_by_strength(ctx, "elimination")
    elif humans_out:
        finish(ctx, False, "elimination")


def strengths_at_end(state: MatchState, with_hand: bool) -> tuple[int, int]:
    """``(human side's total strength, A.I.Toma's)``: "add up the strength (no temporary
    strength!) of all your units" (the A.I.Toma's: its piles' card values); in the
    A.I.Pokalypse the humans' A.I.Lien in hand count too."""
    toma = toma_of(state).seat
    mine = sum(total_strength(state.players[s], with_hand) for s in range(state.n))
    return mine, total_strength(state.players[toma])


def humans_win_by_strength(state: MatchState, with_hand: bool = False) -> bool:
    """Total strength against the A.I.Toma: co-op — more than double its strength (a
    tie-winner wins exactly double); solo — more, on a tie Neo, then more health points; a
    remaining tie goes to the A.I.Toma (it wins ties, ruling R-TOMA-TOTAL)."""
    mine, theirs = strengths_at_end(state, with_hand)
    humans = list(range(state.n))
    if coop(state):
        need = COOP_FACTOR * theirs
        return mine > need or (mine == need and _tiebreak(state, humans))
    if mine != theirs:
        return mine > theirs
    if _tiebreak(state, humans):
        return True
    toma = toma_of(state).seat
    return len(state.players[0].health) > len(state.players[toma].health)


def finish_by_strength(ctx: Ctx, reason: str, with_hand: bool = False) -> None:
    """End the match by total strength (A.I.Pokalypse, simultaneous elimination)."""
    finish(ctx, humans_win_by_strength(ctx.state, with_hand), reason, with_hand)


def finish(ctx: Ctx, won: bool, reason: str, with_hand: bool = False) -> None:
    """Emit ``MatchEnded`` for the human side: ``outcome``, ``winners`` (every human seat or
    none), ``scores`` (each seat's total strength), ``ranking`` (living seats first, by total
    strength and health) and the A.I.Toma's total strength and health."""
    state = ctx.state
    n = state.n
    values = [total_strength(state.players[s], with_hand) for s in range(n)]
    ranking = sorted(
        range(n),
        key=lambda s: (state.players[s].eliminated, -values[s], -len(state.players[s].health), s),
    )
    toma = state.players[toma_of(state).seat]
    ctx.emit(
        "MatchEnded",
        None,
        reason=reason,
        winners=list(range(n)) if won else [],
        ranking=ranking,
        scores=values,
        outcome="won" if won else "lost",
        toma={
            "strength": total_strength(toma),
            "health": len(toma.health),
            "eliminated": toma.eliminated,
        },
    )
