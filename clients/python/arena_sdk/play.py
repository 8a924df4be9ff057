""" "Play a seat": wait for the seat's decision (``GET …/legal-actions?wait=S``), ask a
chooser, send its command (``POST …/actions`` with ``Prefer: return=representation``,
whose answer carries the next view and legal actions), until the match ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena_sdk.client import ApiError, Arena

#: Conflicts after which the loop asks for the seat's decision again.
STALE = frozenset({"decision_moved", "version_conflict", "match_finished"})


@dataclass(frozen=True)
class Turn:
    """One decision of the seat: the legal ``actions`` (generated command models), the
    seat's ``view`` (the game's seat view model, or the representation's view), the match
    ``version`` they were computed at and the ``decision_id``."""

    actions: list[Any]
    view: Any
    version: int
    decision_id: str | None


#: Picks one of ``turn.actions``.
Chooser = Callable[[Turn], Any]


def _present(value: Any) -> Any:
    """``None`` for the generated client's ``UNSET``."""
    from arena_sdk.generated.types import Unset

    return None if isinstance(value, Unset) else value


def play_seat(seat: Arena, match_id: str, chooser: Chooser, wait_s: float = 25) -> Any:
    """Plays ``seat`` (an :class:`Arena` with the seat's token) in ``match_id`` with
    ``chooser`` until the match is no longer running; returns the final match view
    (``<Game>MatchView``, with its ``result``). ``wait_s``: each long-poll's wait (0-30 s).
    Errors: :class:`ApiError` but for a stale decision (``decision_moved``,
    ``version_conflict``, ``match_finished``), which is recovered from; what ``chooser`` raises."""
    legal: Any = None
    view: Any = None
    while True:
        if legal is None or not legal.actions:
            legal = seat.legal_actions(match_id, wait_s)
            view = None
            if not legal.actions:
                match = seat.match(match_id)
                if match.status != "running":
                    return match
                continue
        if view is None:
            view = seat.match(match_id).view
        command = chooser(
            Turn(list(legal.actions), view, legal.version, _present(legal.decision_id))
        )
        try:
            result = seat.act(match_id, command, _present(legal.decision_id))
        except ApiError as error:
            if error.code in STALE:
                legal = None
                continue
            raise
        status = _present(result.status)
        if status is not None and status != "running":
            return seat.match(match_id)
        legal = _present(result.legal_actions)
        view = _present(result.view)
