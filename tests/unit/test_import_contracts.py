"""Import contracts (issue 19 item 3): the domain imports nothing above it and each game's
modules form layers (``.importlinter``, checked by import-linter's ``lint-imports``); no
module of the domain imports a project module inside a function (the way to dodge an
import cycle instead of breaking it)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.pysource import parse_module

ROOT = Path(__file__).resolve().parents[2]
#: the games whose modules are held to layers without in-function imports
LAYERED_GAMES = ("ai_100_human", "aipokalypse", "dead_apocalypse")


def test_lint_imports_keeps_every_contract():
    tool = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(tool), "--config", str(ROOT / ".importlinter"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    for game in LAYERED_GAMES:
        assert f"contract:{game.replace('_', '-')}-layers" in (ROOT / ".importlinter").read_text()


def _function_imports(path: Path) -> list[str]:
    """``"<line>: <module>"`` of every project import (``domain...`` or relative) made
    inside a function of the module at ``path``."""
    found: list[str] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            if (
                in_function
                and isinstance(child, ast.ImportFrom)
                and (child.level or (child.module or "").startswith("domain"))
            ):
                found.append(f"{child.lineno}: {'.' * child.level}{child.module or ''}")
            if in_function and isinstance(child, ast.Import):
                found.extend(
                    f"{child.lineno}: {a.name}" for a in child.names if a.name.startswith("domain")
                )
            walk(child, inner)

    walk(parse_module(path), False)
    return found


@pytest.mark.parametrize("folder", ["domain", *(f"domain/games/{g}" for g in LAYERED_GAMES)])
def test_no_project_import_inside_a_function(folder):
    pattern = "*.py" if folder == "domain" else "**/*.py"
    offenders = {
        str(p.relative_to(ROOT)): found
        for p in sorted((ROOT / folder).glob(pattern))
        if (found := _function_imports(p))
    }
    assert not offenders, offenders


def test_the_scan_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import domain\n\ndef f():\n    from . import x\n    import domain.engine\n")
    assert _function_imports(module) == ["4: .", "5: domain.engine"]


def test_the_rq_scheduler_implements_the_service_port():
    """workers.scheduling.TurnScheduler has every method of service.scheduler.Scheduler with
    the same parameters (the service schedules through the port, never through RQ)."""
    import inspect

    from service.scheduler import Scheduler
    from workers.scheduling import TurnScheduler

    port = [
        name
        for name, _ in inspect.getmembers(Scheduler, inspect.isfunction)
        if not name.startswith("_")
    ]
    assert port
    for name in port:
        wanted = inspect.signature(getattr(Scheduler, name)).parameters
        got = inspect.signature(getattr(TurnScheduler, name)).parameters
        assert list(got) == list(wanted), name
