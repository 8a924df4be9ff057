"""``arena replay FILE``: exit 0 and the final scores for a log that verifies, exit 1 and
the reason for one that does not. Logs come from a real MatchService on a private
fakeredis server (all-bot match played in-process, nothing enqueued)."""

from __future__ import annotations

import copy
import json
import lzma

import fakeredis
import pytest
from click.testing import CliRunner

from cli.main import main
from service.match_service import MatchService
from service.store.keys import Keys


@pytest.fixture(scope="module")
def exported_log() -> dict:
    """The export of a finished 3-seat greedy-bot match of AI: 100% Human."""
    service = MatchService(
        fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True),
        Keys("replay-test"),
        scheduler=None,
        blocking_reads=False,
    )
    match_id = service.create_match("ai-100-human", [{"kind": "bot", "bot": "greedy"}] * 3, {})[
        "match_id"
    ]
    for _ in range(10_000):
        view = service.match_view(match_id, None)
        if view["status"] == "finished":
            break
        service.run_bot_turn(match_id, view["version"])
    return service.export(match_id)


def _export(game: str, level: str, seats: int, options: dict | None = None) -> dict:
    """The export of a finished all-bot match of ``game`` (bots of ``level``)."""
    service = MatchService(
        fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True),
        Keys(f"replay-{game}"),
        scheduler=None,
        blocking_reads=False,
    )
    match_id = service.create_match(game, [{"kind": "bot", "bot": level}] * seats, options or {})[
        "match_id"
    ]
    for _ in range(20_000):
        view = service.match_view(match_id, None)
        if view["status"] == "finished":
            break
        service.run_bot_turn(match_id, view["version"])
    return service.export(match_id)


def _replay(tmp_path, log) -> object:
    path = tmp_path / "log.json"
    path.write_text(log if isinstance(log, str) else json.dumps(log), encoding="utf-8")
    return CliRunner().invoke(main, ["replay", str(path)], env={"COLUMNS": "200"})


def test_a_verified_log_prints_every_final_score(tmp_path, exported_log):
    result = _replay(tmp_path, exported_log)
    assert result.exit_code == 0, result.output
    final = exported_log["events"][-1]
    assert final["type"] == "MatchEnded"
    for score in final["data"]["scores"]:
        assert f" {score} " in result.output
    assert f"{len(exported_log['events'])} events (hash chain" in result.output
    assert result.output.count("winner") == len(final["data"]["winners"])


def test_an_xz_compressed_log_verifies_whatever_its_name(tmp_path, exported_log):
    """``m.json.xz`` (what ``arena ratings replay`` also reads) loads by its magic bytes:
    the same scores as the plain log, also when renamed without the suffix."""
    packed = lzma.compress(json.dumps(exported_log).encode("utf-8"))
    final = exported_log["events"][-1]
    for name in ("log.json.xz", "renamed.json"):
        path = tmp_path / name
        path.write_bytes(packed)
        result = CliRunner().invoke(main, ["replay", str(path)], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        for score in final["data"]["scores"]:
            assert f" {score} " in result.output


def test_broken_xz_data_is_a_clear_error(tmp_path, exported_log):
    packed = lzma.compress(json.dumps(exported_log).encode("utf-8"))
    path = tmp_path / "log.json.xz"
    path.write_bytes(packed[: len(packed) // 2])
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert "cannot read log" in result.output


def test_a_tampered_event_fails_with_the_reason(tmp_path, exported_log):
    log = copy.deepcopy(exported_log)
    log["events"][-1]["data"]["scores"][0] += 1
    result = _replay(tmp_path, log)
    assert result.exit_code == 1
    assert "log does not verify" in result.output
    assert "hash" in result.output


def test_a_wrong_seed_fails(tmp_path, exported_log):
    log = copy.deepcopy(exported_log)
    log["seed"] = "00" * 32
    result = _replay(tmp_path, log)
    assert result.exit_code == 1
    assert "seed does not match seed_commitment" in result.output


def test_a_truncated_log_fails(tmp_path, exported_log):
    """A log cut inside the last command's events says so (probe, session 20: it said
    only "decide produced different events")."""
    from service.log.envelopes import batches

    log = copy.deepcopy(exported_log)
    last = batches(log["events"])[-1]
    assert len(last) > 1  # the match's end comes in the batch of the last command
    del log["events"][-1]
    result = _replay(tmp_path, log)
    assert result.exit_code == 1
    assert "truncated" in result.output and "1 of them is missing" in result.output
    assert "decide produced different events" not in result.output


def test_a_logs_errors_are_listed_in_log_order(exported_log):
    """A changed score breaks the last event's hash and the replay of its command, which
    comes earlier: the errors name the earlier event first."""
    from cli.replay import verify_log
    from service.log.envelopes import batches

    log = copy.deepcopy(exported_log)
    log["events"][-1]["data"]["scores"][0] += 1
    first = batches(log["events"])[-1][0]["version"]
    errors = verify_log(log)["errors"]
    assert len(errors) == 2 and errors[0].startswith(f"event {first}: decide"), errors
    assert "hash" in errors[1]


def test_a_file_that_is_not_json_fails(tmp_path):
    result = _replay(tmp_path, "{not json")
    assert result.exit_code == 1
    assert "cannot read log" in result.output


def test_a_log_cut_at_a_command_boundary_fails_as_truncated(tmp_path, exported_log):
    """Newcomer probe: keeping only whole commands (here: the set-up batch and the next
    ones up to a boundary) used to verify as valid with result null."""
    from service.log.envelopes import batches

    log = copy.deepcopy(exported_log)
    groups = batches(log["events"])
    keep = sum(len(g) for g in groups[: len(groups) // 2])
    log["events"] = log["events"][:keep]
    result = _replay(tmp_path, log)
    assert result.exit_code == 1
    assert "truncated" in result.output


@pytest.mark.parametrize(
    "game, level, seats, options",
    [
        ("aipokalypse", "tactician", 3, {}),
        ("aipokalypse", "toma_hunter", 1, {"mode": "solo", "difficulty": "handy_man"}),
        ("dead-apocalypse", "cooperative", 2, {}),
    ],
)
def test_replay_prints_the_result_of_every_game(tmp_path, game, level, seats, options):
    # A.I.Pokalypse ranks plain seat numbers (scores = total strength); Dead Apocalypse
    # ranks {seat, score, rank} objects with an outcome: both print one row per seat.
    log = _export(game, level, seats, options)
    result = _replay(tmp_path, log)
    assert result.exit_code == 0, result.output
    final = log["events"][-1]["data"]
    rows = [line for line in result.output.splitlines() if line.startswith("\u2502")]
    ranking = [e if isinstance(e, int) else e["seat"] for e in final["ranking"]]
    assert [int(r.split("\u2502")[2]) for r in rows] == ranking
    assert result.output.count("winner") == len(final["winners"])
    if game == "aipokalypse":
        assert "strength" in result.output
