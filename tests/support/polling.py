"""Polling helper for tests that wait on another process (RQ workers, schedulers)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(predicate: Callable[[], Any], timeout_s: float, step: float = 0.05) -> Any:
    """Poll ``predicate`` every ``step`` seconds until it is truthy or ``timeout_s``
    seconds have passed; returns its last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)
