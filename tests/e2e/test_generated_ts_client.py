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
    return subprocess.run(
        ["npx", "--no-install", *args], cwd=TS, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def node() -> None:
    if shutil.which("npx") is None:
        pytest.fail("Node.js/npm are required (the CI machine has them)")


@pytest.fixture(scope="module")
def generated_types(node, typescript_tools):
    """``openapi.d.ts`` as the session generated it. Asking for ``typescript_tools`` by name
    puts these tests in the ``typescript`` xdist group (tests/support/suite_plan.py): the
    worker that generated the file runs them, and no other worker writes it meanwhile."""
    return TS / "openapi.d.ts"


#: files written into ``src`` for the one ``tsc`` run of this module (name -> source):
#: a view field no game declares (must fail), a create request with a game's own options
#: and one without options (must compile), one with another game's option (must fail)
PROBES = {
    "_undeclared_check.ts": 'import type { components } from "../openapi";\n'
    'export const f = (m: components["schemas"]["DeadApocalypseMatchView"]) => '
    "m.view.no_such_field;\n",
    "_create_check.ts": 'import type { components } from "../openapi";\n'
    'type Create = components["schemas"]["CreateMatchRequest"];\n'
    'export const coop: Create = { game: "aipokalypse", seats: [{ kind: "human" }, '
    '{ kind: "human" }], options: { mode: "coop" } };\n'
    'export const bare: Create = { game: "dead-apocalypse", seats: [{ kind: "human" }] };\n',
    "_create_refused_check.ts": 'import type { components } from "../openapi";\n'
    'type Create = components["schemas"]["CreateMatchRequest"];\n'
    'export const coop: Create = { game: "aipokalypse", seats: [{ kind: "human" }, '
    '{ kind: "human" }], options: { tricks: 5 } };\n',
}


@pytest.fixture(scope="module")
def tsc_errors(generated_types) -> dict[str, str]:
    """One ``tsc --strict`` run of ``tsconfig.views.json`` (``src/*.ts``: the views script
    and the :data:`PROBES`, written for the run and removed after it): its error lines by
    file (``src/<name>``; one tsc start instead of one per check)."""
    written = [TS / "src" / name for name in PROBES]
    try:
        for path, source in zip(written, PROBES.values(), strict=True):
            path.write_text(source, encoding="utf-8")
        checked = _npx("tsc", "--strict", "--noEmit", "-p", "tsconfig.views.json")
    finally:
        for path in written:
            path.unlink(missing_ok=True)
    by_file: dict[str, str] = {}
    name = "(other)"
    for line in (checked.stdout + checked.stderr).splitlines():
        if "): error " in line:
            name = line.split("(", 1)[0]
        elif not line.startswith(" "):
            name = "(other)"  # a line of no file's error (an indented one continues one)
        by_file[name] = by_file.get(name, "") + line + "\n"
    assert (checked.returncode == 0) == (not by_file), checked
    return by_file


def test_views_script_passes_tsc_strict(tsc_errors):
    probes = {f"src/{name}" for name in PROBES}
    assert {k: v for k, v in tsc_errors.items() if k not in probes} == {}


def test_tsc_refuses_a_field_the_contract_lacks(tsc_errors):
    # the check can fail: a view field no game declares is a compile error
    assert "no_such_field" in tsc_errors.get("src/_undeclared_check.ts", ""), tsc_errors


def _untyped(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", "tools/untyped.mjs", str(path)],
        cwd=TS,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_no_untyped_payload_type_in_the_generated_typescript(generated_types):
    # issue 20 item 2: 0 `Record<string, never>`, `unknown` or `object` (303 before)
    counted = _untyped(generated_types)
    assert counted.returncode == 0 and '"count": 0' in counted.stdout, counted.stdout[-4000:]


def test_the_untyped_count_finds_each_kind(generated_types, tmp_path):
    # the check can fail: each untyped form is counted, the exempt ones are not
    canary = tmp_path / "canary.d.ts"
    canary.write_text(
        "export type webhooks = Record<string, never>;\n"
        "export interface components { schemas: {\n"
        "  NoData: Record<string, never>;\n"
        "  A: { x: Record<string, never>; y: unknown; z: object; w: string };\n"
        "}; responses: { R: { headers: { [name: string]: unknown } } } }\n",
        encoding="utf-8",
    )
    counted = _untyped(canary)
    assert counted.returncode == 1 and '"count": 3' in counted.stdout, counted.stdout


def test_create_requests_are_typed_per_game(tsc_errors):
    # a game's own options compile without a cast; another game's option does not, and
    # fields with a default stay optional (defaults never make a request field required)
    assert "src/_create_check.ts" not in tsc_errors, tsc_errors
    assert "tricks" in tsc_errors.get("src/_create_refused_check.ts", ""), tsc_errors
