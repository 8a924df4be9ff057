"""The reference web client's JSDoc types checked with ``tsc --checkJs`` against the types
openapi-typescript generates from ``openapi.yaml`` (``clients/ts``, pinned by its
package-lock.json): a client field the contract does not have fails the check."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "clients" / "ts"

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm")]


def _npm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["npm", *args], cwd=TS, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def installed() -> Path:
    """``npm ci`` in clients/ts (exactly the lock file's versions)."""
    proc = _npm("ci", "--no-audit", "--no-fund")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return TS / "node_modules" / ".bin"


def test_the_web_client_type_checks_against_the_openapi_types(installed):
    proc = _npm("run", "check")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert (TS / "openapi.d.ts").read_text().count("MatchView") >= 1


def test_a_field_the_contract_does_not_have_fails_the_check(installed, tmp_path):
    assert _npm("run", "generate").returncode == 0
    types = (ROOT / "api" / "web" / "js" / "types.js").as_posix()
    canary = tmp_path / "canary.js"
    canary.write_text(
        f'/** @type {{import("{types}").LobbyPage}} */\n'
        'const page = JSON.parse("{}");\n'
        "console.log(page.items.length, page.matches);\n")      # `matches`: never sent
    proc = subprocess.run(
        [str(installed / "tsc"), "--noEmit", "--allowJs", "--checkJs", "--target", "es2022",
         "--module", "es2022", "--moduleResolution", "bundler", "--skipLibCheck",
         "--lib", "es2022,dom", str(canary)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "Property 'matches' does not exist" in proc.stdout
