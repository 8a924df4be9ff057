"""Choices that black and special cards ask for after the reveal (rulebook "Black Cards",
"Special cards"): copy targets (099-104), reserve exchanges (115/116) and moves to an
empty cell (119/120), plus the adjacency invariant every exchange must keep.

All functions are pure and return plain data; cells are ``(row, col)`` tuples.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from . import roles
from .state import MatchState, Pos
from .tableau import AI_POS, FRAME, orthogonal, surrounding


def connected(tableau: Mapping[Pos, str], diagonal: bool = False) -> bool:
    """True when every card of ``tableau`` is linked to the AI card by adjacent cards.

    Ruling R-ADJ: "After exchanging, you must still respect all placement requirements
    (adjacent to another card)" (119/120, AI-5) means the tableau stays one connected
    group around the AI card, orthogonally (AI-8: diagonally too), inside the frame.
    """
    if AI_POS not in tableau:
        return False
    step = surrounding if diagonal else orthogonal
    seen = {AI_POS}
    queue = deque([AI_POS])
    while queue:
        for q in step(queue.popleft()):
            if q in tableau and q not in seen:
                seen.add(q)
                queue.append(q)
    return len(seen) == len(tableau)


def copy_targets(state: MatchState, seat: int, copy_card: str) -> list[str]:
    """Card ids a copy card (099-104) of ``seat`` may copy: development cards of its colour
    in the adjacent players' tableaux (2-player mode: the opponent's tableau and the neutral
    grid; solo: the draft grid; see ``MatchState.neighbour_tableaux``). AI cards cannot be
    copied. Sorted, no duplicates. RULINGS R-COPY."""
    return copy_targets_in(state.neighbour_tableaux(seat), copy_card)


def copy_targets_in(tableaux: Iterable[Mapping[Any, str]], copy_card: str) -> list[str]:
    """:func:`copy_targets` over given ``tableaux`` (each ``{position: card id}``; the bots
    pass the neighbour tableaux of their seat's view): the non-AI cards of ``copy_card``'s
    colour, sorted, no duplicates. RULINGS R-COPY."""
    wanted = roles.copy_color(copy_card)
    return sorted(
        {
            card
            for tableau in tableaux
            for card in tableau.values()
            if not roles.is_ai(card) and roles.color(card) == wanted
        }
    )


def reserve_exchanges(state: MatchState, seat: int) -> list[dict]:
    """Legal ``exchange_reserve`` commands for 115/116 played by ``seat``.

    One played card (not the AI card, not 115/116) swaps with one reserve card (not
    115/116). When the card put into play is a copy card with targets, one command per
    target (its ``copy`` field), since the new card's VP are scored (ruling R-115).
    """
    s = state.seats[seat]
    out: list[dict] = []
    spots = [
        p
        for p, c in sorted(s.tableau.items())
        if not roles.is_ai(c) and roles.role(c) != roles.EXCHANGE_RESERVE
    ]
    incoming = sorted({c for c in s.reserve if roles.role(c) != roles.EXCHANGE_RESERVE})
    for pos in spots:
        for card in incoming:
            base = {"type": "exchange_reserve", "cell": [pos[0], pos[1]], "card": card}
            targets = copy_targets(state, seat, card) if roles.role(card) == roles.COPY else []
            if targets:
                out.extend({**base, "copy": t} for t in targets)
            else:
                out.append(base)
    return out


def moves_to_empty(tableau: Mapping[Pos, str], diagonal: bool = False) -> list[tuple[Pos, Pos]]:
    """``(from, to)`` pairs moving one card (not the AI card) to an empty frame cell such
    that the tableau stays connected (R-ADJ). Used by 119/120 and by AI-5. RULINGS R-119."""
    empty = [p for p in FRAME if p not in tableau]
    out = []
    for src, card in sorted(tableau.items()):
        if roles.is_ai(card):
            continue
        for dst in empty:
            moved = dict(tableau)
            del moved[src]
            moved[dst] = card
            if connected(moved, diagonal):
                out.append((src, dst))
    return out


def card_swaps(tableau: Mapping[Pos, str]) -> list[tuple[Pos, Pos]]:
    """Pairs of cells holding two development cards (AI-5 "exchange 2 cards"); the set of
    occupied cells is unchanged, so adjacency always still holds."""
    cells = sorted(p for p, c in tableau.items() if not roles.is_ai(c))
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]


def swap(tableau: Mapping[Pos, str], a: Pos, b: Pos) -> dict[Pos, str]:
    """A copy of ``tableau`` with the contents of cells ``a`` and ``b`` exchanged."""
    out = dict(tableau)
    ca, cb = out.pop(a, None), out.pop(b, None)
    if ca is not None:
        out[b] = ca
    if cb is not None:
        out[a] = cb
    return out
