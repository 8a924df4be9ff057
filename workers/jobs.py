"""RQ job functions (thin: they call the process's MatchService from ``service.bootstrap``).

Every job carries the stream version it was made for; the service makes a stale job a
no-op, so duplicates (RQ's scheduler may run a scheduled job twice) are harmless.
"""
from __future__ import annotations

from service.bootstrap import get_service


def bot_turn(match_id: str, version: int, seat: int | None = None) -> dict:
    """Let the bot of ``seat`` (default: first pending bot) decide at ``version``."""
    return get_service().run_bot_turn(match_id, version, seat)


def turn_timeout(match_id: str, seat: int, version: int) -> dict:
    """Decide for ``seat`` with the engine's timeout bot if its deadline (started at
    ``version``) passed and it still has not acted."""
    return get_service().run_turn_timeout(match_id, seat, version)


def reconcile() -> dict:
    """Re-enqueue lost bot turns and timeouts of every running match."""
    return get_service().reconcile()
