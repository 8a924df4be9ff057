"""Types (issue 19 item 4): mypy, configured in ``pyproject.toml`` (``[tool.mypy]``: the
packages ``domain``, ``service``, ``api`` and ``workers``), reports no error.

The run keeps mypy's incremental cache in ``.mypy_cache`` at the repository root (as a
developer's or pre-commit's run does), so a run after a small change rechecks only what the
change touches: ~20 s cold, a few seconds warm on a 2-core machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # a cold mypy run is ~20 s: left out of --quick


def _mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_mypy_reports_no_error():
    run = _mypy(
        "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "Success: no issues found" in run.stdout


def test_mypy_config_checks_the_four_packages():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert sorted(config["files"]) == ["api", "domain", "service", "workers"]
    assert "exclude" not in config  # no package (A.I.Pokalypse included) is left out


def test_the_check_sees_a_type_error(tmp_path):
    """The same invocation fails on a module with a wrong type (a check that cannot fail
    would be worth nothing)."""
    (tmp_path / "wrong.py").write_text(
        'def double(n: int) -> int:\n    return n * 2\n\n\ndouble("two")\n'
    )
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["wrong.py"]\n')
    run = _mypy(
        "--config-file",
        str(tmp_path / "pyproject.toml"),
        "--cache-dir",
        str(tmp_path / ".mypy_cache"),
        cwd=tmp_path,
    )
    assert run.returncode == 1
    assert 'wrong.py:5: error: Argument 1 to "double" has incompatible type "str"' in run.stdout
