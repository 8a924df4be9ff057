"""Run an inner pytest: tests of the suite's own plumbing (its conftest hooks, plugins, xdist
grouping) write a tiny test folder and run ``python -m pytest`` on it in a child process,
with this checkout importable, then read what the run printed or wrote."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

#: the checkout (the inner run's ``PYTHONPATH``: ``tests.conftest``, ``tests.support``)
ROOT = Path(__file__).resolve().parents[2]


def run_pytest(
    cwd: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    drop: Iterable[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``python -m pytest -p no:cacheprovider *args`` in ``cwd``, its output captured as
    text. The environment is this process's without the names in ``drop``, plus ``env``,
    with ``PYTHONPATH`` set to the checkout. Fails the calling test, with the run's output,
    unless the inner run passed (exit 0 within 300 s)."""
    child_env = {k: v for k, v in os.environ.items() if k not in set(drop)}
    child_env.update(env or {})
    child_env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run
