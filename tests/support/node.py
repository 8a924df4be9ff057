"""The ``node`` executable for tests that run a JavaScript client or tool."""

from __future__ import annotations

import os
import shutil

import pytest


def node_or_skip(what: str) -> str:
    """The path of ``node`` (>= 18: ``fetch``). Without one the test is skipped, except in
    CI (``CI`` set), where it fails: ``what`` names the tests that need it."""
    path = shutil.which("node")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"node must be installed in CI ({what})")
        pytest.skip("node is not installed")
    return path
