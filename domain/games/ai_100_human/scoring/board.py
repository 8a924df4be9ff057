"""The scoring view of a tableau: position -> :class:`Face` (colour, number, corners).

A :data:`Board` is what every evaluator reads. :func:`boards` builds it from a tableau of
card ids and, for a tableau holding AI-10 ("act as a green 4 or a black 2"), also the
boards where the AI card acts as each of those (RULINGS: counting choices maximise VP;
the corners stay printed). :func:`regions` turns a placement requirement into the lists
of positions scored independently (rulebook "Icons", placement requirement icons).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import NamedTuple

from domain.games.ai_100_human.cards import CORNER_KEYS, catalogue
from domain.games.ai_100_human.tableau import Pos, Tableau, surrounding

Member = tuple[str, int]  # (colour, number) of a card or of a corner triangle


class Face(NamedTuple):
    """How a card counts on the board: ``color``, ``number`` and ``corners`` as
    ``((colour, number) x 4)`` in the order TL, TR, BL, BR."""

    color: str
    number: int
    corners: tuple[Member, ...]  # four


TL, TR, BL, BR = 0, 1, 2, 3
Board = Mapping[Pos, Face]


@cache
def face(card_id: str) -> Face:
    """The printed :class:`Face` of ``card_id``; raises ``KeyError`` for an unknown id."""
    card = catalogue().cards[card_id]
    return Face(
        card.color,
        card.number,
        tuple((card.corners[k].color, card.corners[k].number) for k in CORNER_KEYS),
    )


@cache
def acts_as(card_id: str) -> tuple[Member, ...]:
    """Every (colour, number) ``card_id`` may count as: its printed pair, then the
    alternatives of an ``acts_as`` effect (AI-10: green 4, black 2)."""
    card = catalogue().cards[card_id]
    extra = tuple((a["color"], a["number"]) for a in card.effect.get("acts_as", ()))
    return ((card.color, card.number),) + extra


def printed_board(tableau: Tableau) -> dict[Pos, Face]:
    """The board of ``tableau`` with every card as printed."""
    return {pos: face(cid) for pos, cid in tableau.items()}


def boards(tableau: Tableau) -> list[dict[Pos, Face]]:
    """The printed board, plus one board per alternative of a card with ``acts_as``
    (AI-10) in ``tableau``. Scorers return the best VP over these boards."""
    base = printed_board(tableau)
    result = [base]
    for pos, cid in tableau.items():
        options = acts_as(cid)
        if len(options) > 1:
            corners = base[pos].corners
            for color, number in options[1:]:
                alt = dict(base)
                alt[pos] = Face(color, number, corners)
                result.append(alt)
    return result


def regions(scope: str, board: Board, pos: Pos | None) -> list[list[Pos]]:
    """The position lists a placement requirement scores independently.

    ``tableau`` -> one region (every card, AI card included); ``each_row`` / ``best_row``
    -> one per row; ``each_column`` / ``best_column`` -> one per column; ``this_row`` /
    ``this_column`` -> the row/column of ``pos``; ``adjacent`` -> the up to 8 cards around
    ``pos`` (not ``pos`` itself). Positions are sorted in reading order.
    """
    if scope == "tableau":
        return [sorted(board)]
    if scope in ("each_row", "best_row"):
        return _lines(board, 0)
    if scope in ("each_column", "best_column"):
        return _lines(board, 1)
    if pos is None:
        raise ValueError(f"scope {scope!r} needs the played card's position")
    if scope == "this_row":
        return [sorted(p for p in board if p[0] == pos[0])]
    if scope == "this_column":
        return [sorted(p for p in board if p[1] == pos[1])]
    if scope == "adjacent":
        return [[p for p in surrounding(pos) if p in board]]
    raise ValueError(f"unknown scope {scope!r}")


def _lines(board: Iterable[Pos], axis: int) -> list[list[Pos]]:
    lines: dict[int, list[Pos]] = {}
    for p in sorted(board):
        lines.setdefault(p[axis], []).append(p)
    return [lines[k] for k in sorted(lines)]


def combine(scope: str, values: Iterable[int]) -> int:
    """Sum the regions' VP, or take the best single region for ``best_row``/``best_column``
    (RULINGS: an objective "in this row/column" scores the best single row/column)."""
    values = list(values)
    if scope.startswith("best_"):
        return max(values, default=0)
    return sum(values)
