"""The TypeScript client (``clients/ts``: ``sdk/`` over the openapi-typescript types of
``openapi.yaml`` and openapi-fetch, pinned by ``package-lock.json``) compiles with
``tsc --strict``, has no cast and no ``any`` in its hand-written layer, passes its own
node tests (the retry layer) and its example plays a match of every game against a bot
on the embedded server (issue 20 item 3)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.sdk_server import served

TS = Path(__file__).resolve().parents[2] / "clients" / "ts"
HAND_WRITTEN = sorted([*TS.glob("sdk/*.ts"), *TS.glob("examples/*.ts"), *TS.glob("tests/*.ts")])


def _run(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=TS, capture_output=True, text=True, timeout=timeout_s)


@pytest.fixture(scope="module")
def built(typescript_tools) -> Path:
    """``clients/ts/build`` compiled from the current ``openapi.yaml`` (tsc --strict).
    Asking for ``typescript_tools`` by name puts these tests in the xdist group
    ``typescript`` (tests/support/suite_plan.py): one worker writes ``clients/ts``."""
    shutil.rmtree(TS / "build", ignore_errors=True)
    compiled = _run("npm", "run", "build")  # openapi.d.ts, tsc -p tsconfig.sdk.json (strict)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    assert json.loads((TS / "tsconfig.sdk.json").read_text(encoding="utf-8"))["compilerOptions"][
        "strict"
    ]
    return TS / "build"


def test_the_hand_written_layer_has_no_cast_and_no_any(built):
    assert HAND_WRITTEN, "clients/ts/sdk is empty"
    checked = _run("node", "tools/no-casts.mjs", *map(str, HAND_WRITTEN))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_cast_check_can_fail(built, tmp_path):
    bad = tmp_path / "bad.ts"
    bad.write_text(
        "const a: any = 1;\nexport const b = a as string;\nexport const c = <number>a;\n"
        "export const d = [1].pop()!;\n",
        encoding="utf-8",
    )
    checked = _run("node", "tools/no-casts.mjs", str(bad))
    assert checked.returncode == 1
    assert [line.split(": ")[1] for line in checked.stdout.splitlines()] == [
        "any",
        "as cast",
        "<T> cast",
        "non-null assertion",
    ]


def test_the_retry_layer_passes_its_node_tests(built):
    ran = _run("node", "--test", "build/tests/")
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert "# fail 0" in ran.stdout


def test_the_package_exports_the_built_sdk(built):
    package = json.loads((TS / "package.json").read_text(encoding="utf-8"))
    assert (TS / package["main"]).exists() and (TS / package["types"]).exists()
    # openapi-typescript-helpers: openapi-fetch's own dependency, whose ``Readable`` the
    # SDK's declarations name (the answers' types), so it is a dependency of its own
    assert package["dependencies"].keys() == {
        "openapi-fetch",
        "eventsource-parser",
        "openapi-typescript-helpers",
    }


def test_the_example_plays_a_match_of_every_game_against_a_bot(built, app, embedded_service):
    with served(app, embedded_service) as base_url:
        ran = _run("node", "build/examples/play_every_game.js", base_url, timeout_s=900)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-4000:]
    lines = [json.loads(line) for line in ran.stdout.splitlines() if line.startswith("{")]
    from domain.games import registry

    assert sorted(line["game"] for line in lines) == sorted(registry())
    for line in lines:
        assert line["status"] in ("finished", "abandoned"), line
        assert line["result"] is not None and line["streamed"] == line["version"], line


def test_the_documented_ten_lines_compile_and_play_a_match(built, app, embedded_service):
    docs = (TS.parents[1] / "docs" / "clients.md").read_text(encoding="utf-8")
    snippet = docs.split("```ts\n", 1)[1].split("```", 1)[0]
    assert len(snippet.strip().splitlines()) <= 10
    folder = TS / "docs-snippet"
    folder.mkdir(exist_ok=True)
    with served(app, embedded_service) as base_url:
        (folder / "snippet.ts").write_text(
            snippet.replace("http://127.0.0.1:8000", base_url), encoding="utf-8"
        )
        try:
            compiled = _run("npx", "--no-install", "tsc", "-p", "tsconfig.docs.json")
            assert compiled.returncode == 0, compiled.stdout + compiled.stderr
            ran = _run("node", "build/docs-snippet/snippet.js", timeout_s=900)
        finally:
            shutil.rmtree(folder)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert ran.stdout.split()[0] in ("finished", "abandoned"), ran.stdout


def test_the_built_package_carries_the_contracts_types(built):
    # what a user of the package imports is typed from openapi.yaml (build/openapi.d.ts
    # ships with it): a field no MatchView declares does not compile
    folder = TS / "docs-snippet"
    folder.mkdir(exist_ok=True)
    (folder / "undeclared.ts").write_text(
        'import { Arena } from "@apocalypse-arena/client";\n'
        'const match = await new Arena("http://127.0.0.1:1").match("m");\n'
        "export const n: number = match.no_such_field;\n",
        encoding="utf-8",
    )
    try:
        compiled = _run("npx", "--no-install", "tsc", "-p", "tsconfig.docs.json")
    finally:
        shutil.rmtree(folder)
    assert compiled.returncode != 0 and "no_such_field" in compiled.stdout, compiled.stdout
