"""``benchmarks/aipokalypse_digests.py``: the behaviour digests a refactoring of A.I.Pokalypse is
checked with (issue 19 item 3) are deterministic and a changed match is reported."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _tool():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location(
            "aipokalypse_digests", ROOT / "benchmarks" / "aipokalypse_digests.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_a_match_digest_is_deterministic_and_seed_dependent():
    tool = _tool()
    one = tool.match_digest("plain2", ["tactician", "random"], {}, 0)
    assert one == tool.match_digest("plain2", ["tactician", "random"], {}, 0)
    assert one["result"] is not None and one["events"] > 10
    assert one["digest"] != tool.match_digest("plain2", ["tactician", "random"], {}, 1)["digest"]


def test_check_reports_a_match_whose_digest_changed(tmp_path, monkeypatch, capsys):
    tool = _tool()
    monkeypatch.setattr(tool, "CONFIGS", [("plain2", ["tactician", "random"], {})])
    recorded = tmp_path / "before.json"
    tool.main(["--write", str(recorded), "--matches", "1"])
    assert tool.main(["--check", str(recorded)])["value"] == 1.0
    data = json.loads(recorded.read_text())
    data["digests"]["plain2:0"]["digest"] = "0" * 16
    recorded.write_text(json.dumps(data))
    body = tool.main(["--check", str(recorded)])
    assert body["value"] == 0.0 and body["differ"] == ["plain2:0"] and not body["meets_target"]
