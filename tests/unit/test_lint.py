"""Lint (issue 19 item 4): ``ruff check`` (rules E, F, W, I, UP and B; ``[tool.ruff]`` in
``pyproject.toml``) finds nothing in the repository, ``ruff format`` would change no file,
and the pre-commit configuration runs ruff, ruff-format, mypy and import-linter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RUFF = Path(sys.executable).with_name("ruff")


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RUFF), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    run = _ruff("check", "--no-cache", "--output-format", "concise", ".")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_ruff_format_leaves_every_file_as_is():
    """The tree is formatted (``scripts/lint-fix`` or the pre-commit hook formats it)."""
    run = _ruff("format", "--check", "--no-cache", ".")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_ruff_selects_the_agreed_rules():
    import tomllib

    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert sorted(lint["select"]) == ["B", "E", "F", "I", "UP", "W"]


def test_the_check_sees_a_finding(tmp_path):
    """The same invocation fails on an unused import (F401) and a mutable default (B006)."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text("import os\n\n\ndef f(x=[]):\n    return x\n")
    run = _ruff("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert run.returncode == 1
    assert "bad.py:1:8: F401" in run.stdout and "bad.py:4:9: B006" in run.stdout


def test_pre_commit_runs_ruff_format_mypy_and_import_linter():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = {hook["id"] for repo in config["repos"] for hook in repo["hooks"]}
    assert {"ruff", "ruff-format", "mypy", "import-linter"} <= hooks
