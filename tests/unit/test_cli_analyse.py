"""``arena analyse EXPORT`` (issue 23 item 3): verifies the log, analyses it in-process
with a progress bar, prints each seat's accuracy, value curve and every labelled decision
with the better move; ``--json`` prints the same document the HTTP analysis answers."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from cli.analyse import run_analysis, sparkline
from cli.main import main
from tests.support.exports import new_service


@pytest.fixture(scope="module")
def export_file(tmp_path_factory):
    """A finished 7-trick Duel between two random players, exported to a file. The match
    seed is fixed (the deal decides whether a random player made a labelled mistake: CI
    once met a deal without one)."""
    from service.usecases import create_join

    service = new_service()
    real_bytes = create_join.secrets.token_bytes
    with pytest.MonkeyPatch.context() as m:
        m.setattr(
            create_join.secrets, "token_bytes", lambda n: b"\3" * n if n == 32 else real_bytes(n)
        )
        mid = service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {"tricks": 7})[
            "match_id"
        ]
    rng = random.Random(3)
    while service.match_view(mid, None)["status"] != "finished":
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
    path = tmp_path_factory.mktemp("analyse") / "duel.json"
    path.write_text(json.dumps(service.export(mid)))
    return path


def test_the_json_document_is_the_analysis_and_is_the_same_twice(export_file):
    runner = CliRunner()
    first = runner.invoke(main, ["analyse", str(export_file), "--budget", "30", "--json"])
    assert first.exit_code == 0, first.output
    document = json.loads(first.stdout)
    assert document == run_analysis(json.loads(export_file.read_text()), 30)
    again = runner.invoke(main, ["analyse", str(export_file), "--budget", "30", "--json"])
    assert json.loads(again.stdout) == document
    assert document["metric"] == "win_probability" and document["seat_count"] == 2
    assert len(document["decisions"]) == 14


def test_the_report_shows_accuracy_curves_and_better_moves(export_file):
    document = run_analysis(json.loads(export_file.read_text()), 30)
    # a terminal wide enough that rich does not wrap a table cell ("play" / "card=D04" on
    # two lines at CI's default 80 columns)
    result = CliRunner().invoke(
        main, ["analyse", str(export_file), "--budget", "30"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "accuracy" in result.stdout and "curve" in result.stdout
    marked = [d for d in document["decisions"] if d["label"]]
    assert marked, "this match has labelled decisions (random players)"
    for decision in marked:
        assert f"play card={decision['best']['card']}" in result.stdout


def test_a_log_that_does_not_verify_exits_1(export_file, tmp_path):
    log = json.loads(export_file.read_text())
    log["events"][-1]["data"] = {"tampered": True}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    result = CliRunner().invoke(main, ["analyse", str(bad)])
    assert result.exit_code == 1 and "does not verify" in result.output


def test_sparkline_scales_values_into_eight_bars():
    assert sparkline([0.0, 0.5, 1.0], 0.0, 1.0) == "▁▅█"
    assert sparkline([3.0, 3.0], 3.0, 3.0) == "▁▁"
