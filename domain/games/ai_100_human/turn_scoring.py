"""Scoring of one drafting turn after the reveal (rulebook B.5 and "Black Cards").

Order (RULINGS "Black (Hacking) cards"): every non-black card first (simultaneously; a
119/120 move is applied just before its VP), then black cards by ascending card number
(115/116 apply their exchange at their place and score the card put into play at once),
105/106 last: each gains the larger of its two neighbours' VP this turn, not counting
those neighbours' own 105/106 (floored at 0, ruling R-105). 117/118 draw 1 card from the
current phase deck into the reserve right after their VP. One ``VPScored`` per gain.
"""

from __future__ import annotations

from typing import Any

from . import roles
from .recorder import Recorder
from .scoring import score_effect
from .spec import SOLO_COPY_POINTS_VP
from .state import cell


def score_played_card(
    rec: Recorder,
    seat: int,
    card: str,
    pos: tuple[int, int],
    copy: str | None = None,
    via: str | None = None,
) -> None:
    """Emit the ``VPScored`` of ``card`` at ``pos`` for ``seat`` (copy cards score the
    effect of ``copy``, or 0 without a target; 105/106 are scored by :func:`score_copy_points`).

    RULINGS R-EVENTS, R-SOLO-105.
    """
    state = rec.state
    s = state.seats[seat]
    data: dict[str, Any] = {"reason": "card", "card": card, "cell": [pos[0], pos[1]]}
    if roles.role(card) == roles.COPY:
        data["copied"] = copy
        vp = score_effect(copy, s.tableau, pos, state.neighbour_tableaux(seat)) if copy else 0
    else:
        vp = score_effect(card, s.tableau, pos, state.neighbour_tableaux(seat))
    if via:
        data["via"] = via
    data["vp"] = vp
    rec.emit("VPScored", data, seat)


def score_copy_points(
    rec: Recorder, seat: int, card: str, pos: tuple[int, int], via: str | None = None
) -> None:
    """105/106: VP equal to the best neighbour's VP this turn (their 105/106 excluded).

    2-player mode: the neutral grid gains no VP, so the opponent's VP this turn count.
    Solo ("The effect of cards 105 and 106 cannot be applied in solo mode"): a flat 4 VP.
    RULINGS R-SHARED-COPY.
    """
    state = rec.state
    best_seat, best = None, 0
    if state.mode == "solo":
        best = SOLO_COPY_POINTS_VP
    for n in state.neighbours(seat) if state.mode != "solo" else ():
        if state.seats[n].turn_vp > best:
            best_seat, best = n, state.seats[n].turn_vp
    data = {
        "reason": "card",
        "card": card,
        "cell": [pos[0], pos[1]],
        "vp": best,
        "from_seat": best_seat,
    }
    if via:
        data["via"] = via
    rec.emit("VPScored", data, seat)


def score_turn(rec: Recorder) -> None:
    """Score every card revealed this turn in rulebook order, applying chosen exchanges.

    RULINGS R-SHARED-BLACK, R-105.
    """
    state = rec.state
    played = [
        (i, s.played["card"], cell(s.played["cell"])) for i, s in enumerate(state.seats) if s.played
    ]
    late: list[tuple[int, int, str, tuple[int, int], str | None]] = []
    for seat, card, pos in played:
        if roles.is_black(card):
            continue
        if roles.role(card) == roles.EXCHANGE_EMPTY:
            pos = _apply_move(rec, seat, card, pos)
        score_played_card(rec, seat, card, pos)
    blacks = sorted(
        (roles.order_key(card), seat, card, pos)
        for seat, card, pos in played
        if roles.is_black(card)
    )
    for number, seat, card, pos in blacks:
        r = roles.role(card)
        choice = rec.state.seats[seat].choice or {}
        if r == roles.COPY_POINTS:
            late.append((number, seat, card, pos, None))
        elif r == roles.COPY:
            score_played_card(rec, seat, card, pos, copy=choice.get("card"))
        elif r == roles.EXCHANGE_RESERVE:
            score_played_card(rec, seat, card, pos)
            if choice.get("type") == "exchange_reserve":
                target = cell(choice["cell"])
                s = rec.state.seats[seat]
                rec.emit(
                    "ReserveExchanged",
                    {
                        "cell": choice["cell"],
                        "to_reserve": s.tableau[target],
                        "from_reserve": choice["card"],
                        "via": card,
                    },
                    seat,
                )
                new = choice["card"]
                if roles.role(new) == roles.COPY_POINTS:
                    late.append((roles.order_key(new), seat, new, target, card))
                else:
                    score_played_card(rec, seat, new, target, copy=choice.get("copy"), via=card)
        else:
            score_played_card(rec, seat, card, pos)
            if r == roles.DRAW:
                draw_cards(rec, seat, 1, card)
    for _, seat, card, pos, via in sorted(late, key=lambda x: (x[0], x[1])):
        score_copy_points(rec, seat, card, pos, via)


def draw_cards(rec: Recorder, seat: int, count: int, reason: str) -> list[str]:
    """Draw up to ``count`` cards from the top of the current phase deck into the reserve
    (fewer when the deck runs out); emits ``CardsDrawn`` (private to ``seat``).

    RULINGS R-117, R-SOLO-DECK.
    """
    cards = list(rec.state.deck[:count])
    if cards:
        rec.emit("CardsDrawn", {"cards": cards, "reason": reason}, seat)
    return cards


def _apply_move(rec: Recorder, seat: int, card: str, pos: tuple[int, int]) -> tuple[int, int]:
    """119/120: apply the chosen move (if any); return the played card's cell afterwards."""
    choice = rec.state.seats[seat].choice or {}
    if choice.get("type") != "move_card":
        return pos
    src, dst = cell(choice["from"]), cell(choice["to"])
    rec.emit("TableauCardsSwapped", {"cells": [list(src), list(dst)], "reason": card}, seat)
    return dst if src == pos else pos


def placement_previews(state: Any, seat: int, places: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The VP each legal placement (``places``: ``place`` commands of ``seat``) would score
    now: ``[{"card", "cell", "vp"}]``, ``vp`` the card's own effect as if it lay at ``cell``
    (rulebook B.5 "Check the effect of the card and immediately gain VPs"); ``None`` for
    a card whose VP depend on what is still to be chosen or revealed (black cards, applied
    after the others: their copy or the neighbours' VP this turn; 119/120's move).
    The seat's own reserve and the public tableaux only: no hidden information."""
    s = state.seats[seat]
    neighbours = state.neighbour_tableaux(seat)
    out = []
    for action in places:
        card, pos = action["card"], cell(action["cell"])
        vp = None
        if not roles.is_black(card) and roles.role(card) not in (
            roles.COPY,
            roles.COPY_POINTS,
            roles.EXCHANGE_EMPTY,
        ):
            tableau = dict(s.tableau)
            tableau[pos] = card
            vp = score_effect(card, tableau, pos, neighbours)
        out.append({"card": card, "cell": [pos[0], pos[1]], "vp": vp})
    return out
