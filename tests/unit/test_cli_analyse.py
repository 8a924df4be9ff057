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


def _decision(version, seat, played, best, label, from_parent=False):
    return {
        "version": version,
        "seat": seat,
        "cause": "player",
        "from_parent": from_parent,
        "choices": 6,
        "played": played,
        "played_value": 10.0,
        "best": best,
        "best_value": 16.0,
        "loss": 6.0,
        "label": label,
        "accuracy": 22.3,
    }


def _report(result) -> str:
    from rich.console import Console

    from cli.analyse import print_report

    console = Console(width=400, record=True)
    print_report(console, result)
    return console.export_text()


def test_moves_are_said_in_the_games_words_beside_the_command():
    """The report listed raw commands (``draft card=071``); each move is now said as
    ``arena play``'s menu says it (the game's phrasebook: card names), the command kept
    beside it."""
    result = {
        "game": "ai-100-human",
        "match_id": "m1",
        "seat_count": 2,
        "forked_from": None,
        "metric": "expected_score",
        "budget": 8,
        "thresholds": {"inaccuracy": 2.0, "mistake": 4.0, "blunder": 8.0},
        "decisions": [
            _decision(
                9, 0, {"type": "draft", "card": "071"}, {"type": "draft", "card": "001"}, "mistake"
            ),
        ],
        "seats": [
            {
                "seat": s,
                "decisions": 1 - s,
                "forced": 0,
                "accuracy": None,
                "inaccuracies": 0,
                "mistakes": 1 - s,
                "blunders": 0,
            }
            for s in (0, 1)
        ],
    }
    text = _report(result)
    assert "Draft P3 — In this column, gain 2/4/8 VP" in text and "[draft card=071]" in text
    assert "[draft card=001]" in text and "Draft card=001" not in text


def test_a_forks_copied_decisions_are_marked_as_the_parents():
    """In a fork, a labelled decision copied from the match it was forked from is that
    match's seat's, not the fork's: said so, and the fork is named."""
    result = {
        "game": "duel",
        "match_id": "fork1",
        "seat_count": 2,
        "forked_from": {"match_id": "parent1", "version": 5},
        "metric": "win_probability",
        "budget": 8,
        "thresholds": {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2},
        "decisions": [
            _decision(
                3,
                1,
                {"type": "play", "card": "D07"},
                {"type": "play", "card": "D02"},
                "blunder",
                from_parent=True,
            ),
            _decision(
                7, 1, {"type": "play", "card": "D05"}, {"type": "play", "card": "D01"}, "mistake"
            ),
        ],
        "seats": [
            {
                "seat": s,
                "decisions": s,
                "forced": 0,
                "accuracy": None,
                "inaccuracies": 0,
                "mistakes": s,
                "blunders": 0,
            }
            for s in (0, 1)
        ],
    }
    text = _report(result)
    assert "1 of match parent1 (before the fork)" in text
    assert "A fork of match parent1 at version 5" in text
    row = next(line for line in text.splitlines() if "play card=D05" in line)
    assert "before the fork" not in row
