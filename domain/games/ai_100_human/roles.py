"""What a card does in the flow, read from its effect data (``cards.py`` vocabulary).

Rulebook "Cards Details" / "AI Cards Details": the flow treats a card by its effect, not by
its number, so the engine follows the card data. Roles of development cards:
``copy`` (099-104), ``copy_points`` (105/106), ``exchange_reserve`` (115/116), ``draw``
(117/118), ``exchange_empty`` (119/120), else ``None``. AI card powers: ``exchange_two``
(AI-5), ``draw_two`` (AI-6), ``extra_placement`` (AI-2), ``diagonal_placement`` (AI-8).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from .cards import catalogue

COPY = "copy"
COPY_POINTS = "copy_points"
EXCHANGE_RESERVE = "exchange_reserve"
DRAW = "draw"
EXCHANGE_EMPTY = "exchange_empty"
EXCHANGE_TWO = "exchange_two"
DRAW_TWO = "draw_two"
EXTRA_PLACEMENT = "extra_placement"
DIAGONAL_PLACEMENT = "diagonal_placement"


@cache
def role(card_id: str) -> str | None:
    """The flow role of a card (module doc) or ``None`` for plain scoring cards."""
    effect = catalogue().cards[card_id].effect
    kind = effect["kind"]
    if kind in (COPY, COPY_POINTS):
        return kind
    if kind == "flat":
        return effect.get("action")
    return None


@cache
def copy_color(card_id: str) -> str | None:
    """The colour a copy card (099-104) copies, else ``None``."""
    effect = catalogue().cards[card_id].effect
    return effect["color"] if effect["kind"] == COPY else None


@cache
def is_black(card_id: str) -> bool:
    """Black (Hacking) development card: resolves after the non-black cards of a turn."""
    card = catalogue().cards[card_id]
    return card.kind == "development" and card.is_black


def color(card_id: str) -> str:
    """The printed colour of a card."""
    return catalogue().cards[card_id].color


def is_ai(card_id: str) -> bool:
    """True for AI card sides ("AI-1".."AI-12")."""
    return catalogue().cards[card_id].kind == "ai"


def order_key(card_id: str) -> int:
    """Identification number used to order black cards ("by ascending card number")."""
    return int(card_id)


def keeps_three(tableau: Mapping) -> bool:
    """117/118 "At the start of Phase 2, keep 3 cards instead of 2" (ongoing effect)."""
    cards = catalogue().cards
    return any(cards[c].effect.get("ongoing") == "reserve_keep_3" for c in tableau.values())


def ai_power(ai_card: str | None) -> str | None:
    """The action of an AI card side (``exchange_two``, ``draw_two``, ...), else ``None``."""
    if ai_card is None:
        return None
    return catalogue().cards[ai_card].effect.get("action")
