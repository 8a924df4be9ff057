"""The fold's handler registry and the small helpers every fold module shares: :mod:`.fold`
(the core events) and :mod:`.toma_fold` (the A.I.Toma's and the 5-8 Player Variant's) both
register their handlers on :data:`HANDLERS` (:class:`domain.modular.FoldHandlers`)."""

from __future__ import annotations

from collections.abc import Callable

from domain.engine import Event
from domain.modular import FoldHandlers

from .cards import catalogue
from .state import MatchState, Player

Handler = Callable[[MatchState, Event], None]
HANDLERS = FoldHandlers("A.I.Pokalypse")
_on: Callable[[str], Callable[[Handler], Handler]] = HANDLERS.on


def _seat(e: Event) -> int:
    """The seat a seat event is about; ValueError for a table-wide event (a corrupt log)."""
    if e.seat is None:
        raise ValueError(f"{e.type} names no seat")
    return e.seat


def _p(state: MatchState, e: Event) -> Player:
    return state.players[_seat(e)]


def _to_discard(state: MatchState, cid: str) -> None:
    """Basic units go on the discard pile; Special Units always go under their deck."""
    category = catalogue()[cid].category
    if category == "special":
        state.specials.append(cid)
    elif category == "faction":
        state.ammo_deck.insert(0, cid)
    else:
        state.discard.append(cid)
