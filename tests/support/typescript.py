"""The TypeScript checks' toolchain (``clients/ts``): npm packages at exactly the versions
of ``package-lock.json``, and ``openapi.d.ts`` generated from ``openapi.yaml`` by
openapi-typescript — once per test session, shared by tests/e2e/test_web_types.py and
tests/e2e/test_generated_ts_client.py (each ran ``npm ci`` or the generator again).

``node_modules`` is reused when npm's record of what it installed
(``node_modules/.package-lock.json``) names the same package versions as the lock file;
otherwise ``npm ci`` reinstalls it. Errors: ``AssertionError`` with npm's output when an
install or the generation fails.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

TS = Path(__file__).resolve().parents[2] / "clients" / "ts"


def run(*args: str, timeout_s: float = 900) -> subprocess.CompletedProcess:
    """``args`` run in ``clients/ts`` (text output captured; ``timeout_s`` in seconds)."""
    return subprocess.run(list(args), cwd=TS, capture_output=True, text=True, timeout=timeout_s)


def _versions(lock: Path) -> dict[str, str | None] | None:
    """Package path -> version of an npm lock file (``None`` when unreadable or absent)."""
    try:
        packages = json.loads(lock.read_text(encoding="utf-8"))["packages"]
    except (OSError, ValueError, KeyError):
        return None
    return {path: entry.get("version") for path, entry in packages.items() if path}


def installed_matches_lock() -> bool:
    """True when ``node_modules`` holds exactly the lock file's package versions (and tsc)."""
    installed = _versions(TS / "node_modules" / ".package-lock.json")
    return (
        bool(installed)
        and installed == _versions(TS / "package-lock.json")
        and (TS / "node_modules" / ".bin" / "tsc").exists()
    )


def prepare() -> Path:
    """Install the lock file's packages if needed and generate ``openapi.d.ts``; the folder
    of the installed executables (``node_modules/.bin``)."""
    if not installed_matches_lock():
        proc = run("npm", "ci", "--no-audit", "--no-fund")
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    made = run("npm", "run", "generate")
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    assert (TS / "openapi.d.ts").exists()
    return TS / "node_modules" / ".bin"
