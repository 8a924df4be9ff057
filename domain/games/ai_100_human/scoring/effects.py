"""Dispatch of an effect object (card vocabulary, see ``cards.py``) to its evaluator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.ai_100_human.scoring.board import Board
from domain.games.ai_100_human.scoring.connections import score_connection
from domain.games.ai_100_human.scoring.counts import score_count, score_row_ends
from domain.games.ai_100_human.scoring.diamonds import score_diamond
from domain.games.ai_100_human.scoring.groups import score_group
from domain.games.ai_100_human.scoring.sets import score_set
from domain.games.ai_100_human.tableau import Pos


def evaluate(effect: Mapping[str, Any], board: Board, pos: Pos | None) -> int:
    """VP of a board-reading effect (kinds ``group``, ``set``, ``count``, ``connection``,
    ``diamond``, ``row_ends``) for the card at
    ``pos`` (``None`` for objectives). Raises ``ValueError`` for other kinds."""
    kind = effect["kind"]
    if kind == "group":
        return score_group(effect, board, pos)
    if kind == "set":
        return score_set(effect, board, pos)
    if kind == "count":
        return score_count(effect, board, pos)
    if kind == "connection":
        return score_connection(effect, board, pos)
    if kind == "diamond":
        return score_diamond(effect, board)
    if kind == "row_ends":
        return score_row_ends(effect, board)
    raise ValueError(f"effect kind {kind!r} does not read a board")
