"""No drift: the committed ``openapi.yaml`` is exactly what ``python -m api.openapi_build``
makes of ``api/openapi_base.yaml`` and the games' schema files, and the package-data copy
``api/openapi.yaml`` is the same file."""

from __future__ import annotations

from api import openapi_build


def test_committed_openapi_yaml_is_the_builders_output():
    committed = openapi_build.TARGET_PATH.read_text(encoding="utf-8")
    assert committed == openapi_build.render(openapi_build.build()), (
        "openapi.yaml is stale or hand-edited: run python -m api.openapi_build"
    )


def test_check_mode_fails_on_a_hand_edit(tmp_path):
    edited = tmp_path / "openapi.yaml"
    edited.write_text(openapi_build.render(openapi_build.build()) + "# edit\n", encoding="utf-8")
    assert openapi_build.main(["--check", "--output", str(edited)]) == 1
    edited.write_text(openapi_build.render(openapi_build.build()), encoding="utf-8")
    assert openapi_build.main(["--check", "--output", str(edited)]) == 0


def test_packaged_copy_is_the_generated_file():
    packaged = openapi_build.ROOT / "api" / "openapi.yaml"
    assert packaged.read_text(encoding="utf-8") == openapi_build.TARGET_PATH.read_text(
        encoding="utf-8"
    )
