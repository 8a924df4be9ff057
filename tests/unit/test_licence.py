"""The project's licence is Apache-2.0 in every place that states one: the full text in
``LICENSE``, ``pyproject.toml`` (PEP 639 expression and licence file) and ``openapi.yaml``'s
``info.license`` (SPDX identifier)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.support.openapi_doc import openapi_document

ROOT = Path(__file__).resolve().parents[2]


def test_license_file_is_the_full_apache_2_0_text():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0, January 2004" in text
    for section in (
        "1. Definitions.",
        "2. Grant of Copyright License.",
        "3. Grant of Patent License.",
        "4. Redistribution.",
        "9. Accepting Warranty or Additional Liability.",
        "END OF TERMS AND CONDITIONS",
    ):
        assert section in text, section


def test_pyproject_and_openapi_state_apache_2_0():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    info = openapi_document()["info"]
    assert info["license"]["identifier"] == "Apache-2.0"
