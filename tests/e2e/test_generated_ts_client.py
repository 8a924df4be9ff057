"""TypeScript types generated from ``openapi.yaml`` by openapi-typescript carry every game's
view fields: ``clients/ts/src/views.ts`` reads them (narrowed by ``game``) and must pass
``tsc --strict`` (``tsconfig.views.json``; issue 10 item 3). The npm packages are pinned by
``clients/ts/package-lock.json``, installed by ``scripts/test`` (``npm ci``) and, when what is
installed differs from the lock, by the session's ``typescript_tools`` fixture, which also
generates ``openapi.d.ts`` (tests/support/typescript.py)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

TS = Path(__file__).resolve().parents[2] / "clients" / "ts"


def _npx(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["npx", "--no-install", *args], cwd=TS, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def generated_types(request):
    if shutil.which("npx") is None:
        pytest.fail("Node.js/npm are required (the CI machine has them)")
    request.getfixturevalue("typescript_tools")
    return TS / "openapi.d.ts"


def test_views_script_passes_tsc_strict(generated_types):
    checked = _npx("tsc", "--strict", "--noEmit", "-p", "tsconfig.views.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_tsc_refuses_a_field_the_contract_lacks(generated_types, tmp_path):
    # the check can fail: a view field no game declares is a compile error
    bad = TS / "src" / "_undeclared_check.ts"
    bad.write_text('import type { components } from "../openapi";\n'
                   'export const f = (m: components["schemas"]["DeadApocalypseMatchView"]) => '
                   'm.view.no_such_field;\n', encoding="utf-8")
    try:
        checked = _npx("tsc", "--strict", "--noEmit", "-p", "tsconfig.views.json")
    finally:
        bad.unlink()
    assert checked.returncode != 0 and "no_such_field" in checked.stdout
