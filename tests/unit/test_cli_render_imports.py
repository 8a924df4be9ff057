"""The terminal renderers draw from the public API only (issue 11): nothing under
``cli/render/`` imports ``domain``, statically or at import time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.support.pysource import parse_module

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(parse_module(path)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_renderer_module_imports_domain():
    modules = sorted((ROOT / "cli" / "render").glob("*.py"))
    assert len(modules) >= 5  # __init__, cards, common and one per game
    for path in modules:
        bad = {n for n in _imports(path) if n == "domain" or n.startswith("domain.")}
        assert not bad, f"{path.name} imports {bad}"


def test_importing_the_renderers_loads_no_domain_module():
    code = (
        "import sys, cli.render; "
        "print(sorted(m for m in sys.modules if m == 'domain' or m.startswith('domain.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
