"""RQ job functions (thin: they call the process's MatchService from ``service.bootstrap``).

Every job carries the stream version it was made for; the service makes a stale job a
no-op, so duplicates (RQ's scheduler may run a scheduled job twice, reconcile re-enqueues
a job whose worker died) are harmless: a decision is appended at most once per version.

A job that meets a store outage (``service.store.store_errors.is_store_unavailable``: on a
Redis Cluster with no node reachable that is a ``RedisClusterException``, which is not a
``RedisError``) ends normally with
``{"status": "store_unavailable"}``: nothing was decided, the turn is still pending, and
reconcile enqueues it again once Redis answers — without counting it as a failed attempt.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from service.bootstrap import get_service
from service.store.store_errors import is_store_unavailable

log = logging.getLogger(__name__)


def _through_outage(run: Callable[[], dict], what: str, kind: str) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        return run()
    except Exception as error:  # noqa: BLE001 - re-raised unless a store outage
        if not is_store_unavailable(error):
            raise
        log.warning(
            "%s: store unavailable (%s: %s); reconcile retries it",
            what,
            type(error).__name__,
            error,
        )
        return {"status": "store_unavailable"}
    finally:
        _observe(kind, time.perf_counter() - started)


def _observe(kind: str, seconds: float) -> None:
    """Count the job in ``arena_rq_job_duration_seconds`` (a store outage skips it)."""
    try:
        get_service().observe_job(kind, seconds)
    except Exception as error:  # noqa: BLE001 - re-raised unless a store outage
        if not is_store_unavailable(error):
            raise


def bot_turn(match_id: str, version: int, seat: int | None = None) -> dict:
    """Let the bot of ``seat`` (default: first pending bot) decide at ``version``."""
    return _through_outage(
        lambda: get_service().run_bot_turn(match_id, version, seat),
        f"bot turn {match_id}@{version}",
        "bot_turn",
    )


def turn_timeout(match_id: str, seat: int, version: int) -> dict:
    """Decide for ``seat`` with the engine's timeout bot if its deadline (started at
    ``version``) passed and it still has not acted."""
    return _through_outage(
        lambda: get_service().run_turn_timeout(match_id, seat, version),
        f"turn timeout {match_id} seat {seat}@{version}",
        "turn_timeout",
    )


def reconcile() -> dict:
    """Re-enqueue lost bot turns and timeouts of every running match."""
    return _through_outage(lambda: get_service().reconcile(), "reconcile", "reconcile")


def match_ended(match_id: str) -> dict:
    """After a match ended: count it for its players and fold it into the ratings when it
    is rated (exactly once, :mod:`service.usecases.ratings`)."""
    return _through_outage(
        lambda: get_service().match_ended(match_id), f"match ended {match_id}", "match_ended"
    )


def analysis(analysis_id: str, start: int = 0, part: int = 0, run: str | None = None) -> dict:
    """Run the slice from turn ``start`` of the match analysis ``analysis_id`` (issue 23:
    :meth:`MatchService.run_analysis`, which enqueues the next slice; ``part``: how many
    slices went into the decision at ``start`` already, 0 for one that begins there;
    ``run``: the run token of the record it was enqueued for, ``None`` in a job enqueued
    before tokens were passed); a finished, unknown or already run slice, or one of an
    earlier run of the analysis, is a no-op."""
    return _through_outage(
        lambda: get_service().run_analysis(analysis_id, start, part, run),
        f"analysis {analysis_id}@{start}" + (f".{part}" if part else ""),
        "analysis",
    )
