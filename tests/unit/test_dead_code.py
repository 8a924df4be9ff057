"""Dead code (issue 19 item 4): vulture (``[tool.vulture]`` in ``pyproject.toml``: the
packages ``domain``, ``service``, ``api``, ``workers`` and ``cli``, 60 % confidence and up)
finds no unused function, class, method, attribute or variable. Names only a framework
uses are covered by the config's ``ignore_decorators`` (registered handlers) and by
``vulture_whitelist.py`` (each with who uses it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VULTURE = Path(sys.executable).with_name("vulture")


def _vulture(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VULTURE), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_vulture_finds_no_dead_code():
    run = _vulture()
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_whitelist_names_only_what_exists():
    """Every whitelisted name is still defined somewhere in the scanned packages (a stale
    entry would hide the next dead code of that name)."""
    import ast
    import re

    tree = ast.parse((ROOT / "vulture_whitelist.py").read_text())
    listed = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    source = "\n".join(
        p.read_text()
        for folder in ("domain", "service", "api", "workers", "cli")
        for p in (ROOT / folder).rglob("*.py")
    )
    missing = sorted(
        name
        for name in listed
        if not re.search(rf"\b{re.escape(name)}\b\s*[=:(]|def {name}\b|class {name}\b", source)
    )
    assert not missing, missing


def test_the_check_sees_dead_code(tmp_path):
    """The same invocation fails on an unused function (a check that cannot fail would be
    worth nothing), and a decorator of ignore_decorators keeps a registered one."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        "HANDLERS = {}\n\n\ndef _on(kind):\n    def register(fn):\n        HANDLERS[kind] = fn\n"
        "        return fn\n    return register\n\n\n@_on('Drawn')\ndef _drawn(state):\n"
        "    return state\n\n\ndef forgotten():\n    return 1\n"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vulture]\npaths = ["pkg"]\nmin_confidence = 60\nignore_decorators = ["@_on"]\n'
    )
    run = _vulture(cwd=tmp_path)
    assert run.returncode == 3
    assert "pkg/m.py:16: unused function 'forgotten'" in run.stdout
    assert "_drawn" not in run.stdout
