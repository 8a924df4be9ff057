"""No drift: the committed ``openapi.yaml`` is exactly what ``python -m api.openapi_build``
makes of ``api/openapi_base.yaml`` and the games' schema files, and the package-data copy
``api/openapi.yaml`` is the same file."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from api import openapi_build

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=1)
def built() -> str:
    """``render(build())``, made once for this module's tests (a build and its YAML dump
    take seconds of CPU; ``main`` below still makes its own)."""
    return openapi_build.render(openapi_build.build())


def test_committed_openapi_yaml_is_the_builders_output():
    committed = openapi_build.TARGET_PATH.read_text(encoding="utf-8")
    assert committed == built(), (
        "openapi.yaml is stale or hand-edited: run python -m api.openapi_build"
    )


def test_check_mode_fails_on_a_hand_edit(tmp_path):
    edited = tmp_path / "openapi.yaml"
    edited.write_text(built() + "# edit\n", encoding="utf-8")
    assert openapi_build.main(["--check", "--output", str(edited)]) == 1
    edited.write_text(built(), encoding="utf-8")
    assert openapi_build.main(["--check", "--output", str(edited)]) == 0


def test_packaged_copy_is_the_generated_file():
    packaged = openapi_build.ROOT / "api" / "openapi.yaml"
    assert packaged.read_text(encoding="utf-8") == openapi_build.TARGET_PATH.read_text(
        encoding="utf-8"
    )


def test_an_event_data_union_lists_the_stricter_form_first():
    # Generated clients take the first anyOf member that parses: a redacted payload must not
    # parse as a stored form whose required properties are fewer (it would lose the extra
    # ones: AI: 100% Human's AIPowerUsed drawn_count was dropped by the Python client).
    from tests.support.openapi_doc import openapi_document

    document = openapi_document()
    unions = 0
    for name, component in document["components"]["schemas"].items():
        data = component.get("properties", {}).get("data", {})
        members = data.get("anyOf")
        if "Event" not in name or not members:
            continue
        unions += 1
        required = [set(m.get("required", ())) for m in members]
        for i, earlier in enumerate(required):
            for later in required[i + 1 :]:
                assert not earlier < later, (name, earlier, later)
    assert unions > 10
