"""How hard the property-based tests search: ``ARENA_HYPOTHESIS_PROFILE``.

- ``default`` (unset): the example counts written in each test, sized so that the whole suite
  stays within its budget (issue 19 item 7: <= 10 minutes on a 2-core CI machine);
- ``deep``: :data:`DEEP_FACTOR` times as many examples wherever a test counts them with
  :func:`examples`, hypothesis' own default of 100 examples raised to 400 for the tests that
  name no count, and the contract runs send every operation for every game
  (tests/e2e/test_openapi_contract.py), not only the operations on a match.

``ARENA_HYPOTHESIS_PROFILE=deep ./scripts/test tests/unit/ai_100_human tests/e2e/test_openapi_contract.py``
runs the deep search where it matters (docs/testing.md). Any other value is refused
(ValueError at start-up: a misspelt profile must not quietly run the shallow search).
"""

from __future__ import annotations

import os

PROFILE_ENV = "ARENA_HYPOTHESIS_PROFILE"
PROFILES = ("default", "deep")
#: how many times the default example counts a deep run draws
DEEP_FACTOR = 4


def profile() -> str:
    """The profile named by ``ARENA_HYPOTHESIS_PROFILE`` (``default`` when unset or empty);
    ValueError for an unknown name."""
    name = os.environ.get(PROFILE_ENV, "") or "default"
    if name not in PROFILES:
        raise ValueError(f"{PROFILE_ENV}={name!r}: the profiles are {', '.join(PROFILES)}")
    return name


def deep() -> bool:
    """True in a deep run (``ARENA_HYPOTHESIS_PROFILE=deep``)."""
    return profile() == "deep"


def examples(count: int) -> int:
    """A test's example count ``count`` (> 0) in this run: ``count`` by default,
    ``count * DEEP_FACTOR`` in a deep run."""
    return count * DEEP_FACTOR if deep() else count


def register() -> None:
    """Register the hypothesis profiles (for tests that name no ``max_examples``) and load
    the one ``ARENA_HYPOTHESIS_PROFILE`` names (ValueError for an unknown name)."""
    from hypothesis import settings

    settings.register_profile("deep", max_examples=100 * DEEP_FACTOR)
    settings.load_profile(profile())
