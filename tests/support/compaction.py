"""A compactor that fails on purpose (service/upkeep/compaction.py): tests of a failed
compaction (the match stays pending, a full reconcile pass retries it) and of a store
outage during the upkeep pass."""

from __future__ import annotations

import pytest


def failing_compaction(
    service, monkeypatch: pytest.MonkeyPatch, error: Exception, failures: int | None = 1
) -> list[str]:
    """Make ``service.compactor.compact`` raise ``error`` on its first ``failures`` calls
    (every call when ``None``) and compact as usual after them. Returns the list of the
    match ids it is called with, in order, filled as the calls come;
    ``monkeypatch.undo()`` restores the real compactor."""
    real = service.compactor.compact
    calls: list[str] = []

    def compact(match_id: str):
        calls.append(match_id)
        if failures is None or len(calls) <= failures:
            raise error
        return real(match_id)

    monkeypatch.setattr(service.compactor, "compact", compact)
    return calls
