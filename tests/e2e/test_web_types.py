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

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm"),
]


@pytest.fixture(scope="module")
def installed(typescript_tools) -> Path:
    """clients/ts's executables: the lock file's packages, ``openapi.d.ts`` generated
    (the session's ``typescript_tools``, tests/e2e/conftest.py)."""
    return typescript_tools


def test_the_web_client_type_checks_against_the_openapi_types(installed):
    # ``npm run check`` without its ``generate`` step (done once for the session) and
    # without tsconfig.views.json (tests/e2e/test_generated_ts_client.py checks that one)
    proc = subprocess.run(
        [str(installed / "tsc"), "-p", "tsconfig.json"],
        cwd=TS,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert (TS / "openapi.d.ts").read_text().count("MatchView") >= 1


def test_a_field_the_contract_does_not_have_fails_the_check(installed, tmp_path):
    types = (ROOT / "api" / "web" / "js" / "types.js").as_posix()
    canary = tmp_path / "canary.js"
    canary.write_text(
        f'/** @type {{import("{types}").LobbyPage}} */\n'
        'const page = JSON.parse("{}");\n'
        "console.log(page.items.length, page.matches);\n"
    )  # `matches`: never sent
    proc = subprocess.run(
        [
            str(installed / "tsc"),
            "--noEmit",
            "--allowJs",
            "--checkJs",
            "--target",
            "es2022",
            "--module",
            "es2022",
            "--moduleResolution",
            "bundler",
            "--skipLibCheck",
            "--lib",
            "es2022,dom",
            str(canary),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode != 0
    assert "Property 'matches' does not exist" in proc.stdout
