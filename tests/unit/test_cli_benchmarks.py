"""Smoke runs of ``benchmarks/*.py`` with tiny sizes: each prints one JSON object that
states its metric, value and target. (Full-size runs are manual; see benchmarks/README.md.)"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    body = json.loads(lines[0])
    assert body["value"] > 0
    assert body["target"]["op"] in (">=", "<=")
    assert isinstance(body["meets_target"], bool)
    return body


def test_bench_match():
    body = _run("bench_match.py", "--runs", "1")
    assert (body["benchmark"], body["unit"], body["target"]["value"]) == ("bench_match", "s", 1.0)
    assert body["seats"] == 4 and body["events_per_match"] > 100


def test_bench_fold():
    body = _run("bench_fold.py", "--matches", "1", "--min-seconds", "0.05")
    assert body["target"] == {"op": ">=", "value": 200000}
    assert body["events_folded"] >= body["events_per_match"]


def test_bench_scoring():
    body = _run("bench_scoring.py", "--matches", "1", "--min-seconds", "0.05")
    assert body["unit"] == "evaluations/s"
    # 4 full tableaux: 14 development cards + 16 objectives + 1 AI card each.
    assert body["evaluations_per_pass"] >= 4 * (14 + 16 + 1)


def test_bench_analysis_slices(tmp_path):
    """One decision's worth of AI: 100% Human at budget 2, the export kept in --logs and
    used again by a second run: the same decisions (digest)."""
    args = ("--games", "ai-100-human", "--budget", "2", "--turns", "1", "--logs", str(tmp_path))
    body = _run("bench_analysis_slices.py", *args)
    assert (body["unit"], body["target"]) == ("s", {"op": "<=", "value": 1.5})
    row = body["games"]["ai-100-human"]
    assert row["slices"] >= 1 and row["longest_cpu_s"] <= row["total_cpu_s"]
    assert (tmp_path / "ai-100-human.json").exists()
    again = _run("bench_analysis_slices.py", *args)["games"]["ai-100-human"]
    assert again["digest"] == row["digest"]


@pytest.mark.integration
def test_bench_redis_bytes(redis_url):
    body = _run("bench_redis_bytes.py", "--redis-url", redis_url, "--seats", "3")
    assert body["mean_bytes_by_key"]["events"] == 0 < body["mean_bytes_by_key"]["log"]
    assert body["reference_bytes_by_key"]["events"] > 0 == body["reference_bytes_by_key"]["log"]
    assert body["reference_over_compacted"] > 1
    assert body["bytes_per_event"] > 0


@pytest.mark.integration
def test_bench_http(redis_url):
    """The side-by-side run: the ceiling and the project measured in the same run, in both
    modes, with the issue's ratio targets."""
    body = _run(
        "bench_http.py",
        "--redis-url",
        redis_url,
        "--games",
        "ai-100-human",
        "--seconds",
        "0.6",
        "--warmup-seconds",
        "0.1",
        "--processes",
        "1",
        "--threads-per-process",
        "2",
        "--gunicorn-workers",
        "1",
        "--rq-workers",
        "1",
    )
    assert body["target"] == {"op": "<=", "value": 1.5}
    assert body["throughput_ratio"]["target"] == 0.6 and body["p99_ratio"]["target"] == 2.0
    assert body["absolute"]["target_actions_per_s"] == 500
    assert {(r["game"], r["mode"]) for r in body["rows"]} == {
        ("ai-100-human", "humans"),
        ("ai-100-human", "bots"),
    }
    for row in body["rows"]:
        assert row["ceiling"]["moves"] > 0 and row["ceiling"]["server_cpu_ms_per_move"] > 0
        assert row["project"]["moves"] > 0 and row["project"]["server_cpu_ms_per_move"] > 0
        assert row["ratios"]["cpu"] > 0 and row["ratios"]["throughput"] > 0
    bots = next(r for r in body["rows"] if r["mode"] == "bots")
    assert bots["project"]["bot_moves"] > 0


def test_bench_targets_are_the_issue_numbers():
    """Every benchmark states the issue's target (not a softer one of its own)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_http", ROOT / "benchmarks" / "bench_http.py"
    )
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert (module.TARGET_ACTIONS_PER_S, module.TARGET_ACTION_P99_MS) == (500, 30)
    assert (module.TARGET_CPU_RATIO, module.TARGET_THROUGHPUT_RATIO, module.TARGET_P99_RATIO) == (
        1.5,
        0.6,
        2.0,
    )
    texts = {
        name: (ROOT / "benchmarks" / name).read_text()
        for name in ("bench_http.py", "bench_fold.py", "bench_match.py")
    }
    assert ">= 500 accepted actions/s with p99 action latency <= 30 ms" in texts["bench_http.py"]
    assert "250 ms" not in texts["bench_http.py"] and ">= 100 " not in texts["bench_http.py"]
    flat = {name: re.sub(r"\s+", " ", text) for name, text in texts.items()}  # any layout
    assert '">=", 200_000' in flat["bench_fold.py"] and '"<=", 1.0' in flat["bench_match.py"]


def test_bench_http_cache():
    body = _run("bench_http_cache.py", "--requests", "20", "--rounds", "1")
    assert (body["benchmark"], body["unit"], body["target"]) == (
        "bench_http_cache",
        "x",
        {"op": "<=", "value": 1.10},
    )
    assert set(body["cpu_us"]) == {"view_bare", "view", "view_304", "legal_bare", "legal"}
    assert body["view_bytes"] > 0


@pytest.mark.integration
def test_profile_action_path_ab_plays_seeded_match_pairs_with_their_long_polls(redis_url):
    """``--wait-on decision --before REF``: pairs of whole matches dealt from the same seed,
    a thread per seat, one match of each pair with REF's methods of the swapped classes."""
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "profile_action_path.py"),
            *("--redis-url", redis_url, "--game", "duel", "--seats", "2"),
            *("--wait-on", "decision", "--matches", "2", "--before", "HEAD"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    body = json.loads(lines[0])
    assert (body["ab"], body["game"], body["matches_per_arm"]) == (True, "duel", 2)
    assert {"Reads", "Compactor", "CompactStore"} <= set(body["swapped"])
    # the same seeds deal the same matches: both arms play them to the end, alike
    assert body["moves"]["before"] == body["moves"]["after"] > 0
    assert min(body["redis_round_trips_per_move"].values()) > 1  # (wakes vary run to run)
    assert body["cpu_ms_per_move"]["after"] > 0 and body["ratio_after_before_total"] > 0


def test_bench_domain_calls_compares_a_git_revision_with_this_tree():
    body = _run(
        "bench_domain_calls.py",
        "--before",
        "HEAD",
        "--rounds",
        "1",
        "--samples",
        "4",
        "--min-seconds",
        "0.01",
        "--games",
        "aipokalypse,dead-apocalypse",
    )
    assert body["metric"] == "aipokalypse@8_max_ratio_after_over_before"
    assert body["target"] == {"op": "<=", "value": 0.6}
    assert set(body["after"]) == {"aipokalypse@4", "aipokalypse@8", "dead-apocalypse@4"}
    assert body["same_decisions"] is True
    for row in body["after"].values():
        assert row["samples"] == 4 and row["decide"]["min"] > 0
    plain = _run(
        "bench_domain_calls.py",
        "--before",
        "",
        "--rounds",
        "1",
        "--samples",
        "3",
        "--min-seconds",
        "0.01",
        "--games",
        "dead-apocalypse",
    )
    assert plain["metric"] == "dead-apocalypse@4_decide_us" and "before" not in plain


def test_tournament_team_and_mixed_lineups():
    """Two lineups on the same seeds: a one-level lineup counts one entry per match (the
    team), a mixed one one per seat; Wilson intervals, CPU percentiles and the comparison."""
    body = _run(
        "tournament.py",
        "--game",
        "dead-apocalypse",
        "--seats",
        "2",
        "--levels",
        "cooperative",
        "--levels",
        "cooperative,random",
        "--matches",
        "2",
        "--seed",
        "smoke",
        "--quiet",
    )
    assert (body["benchmark"], body["metric"], body["target"]) == (
        "tournament",
        "decision_cpu_p95_s",
        {"op": "<=", "value": 1.0},
    )
    team, mixed = body["lineups"]
    assert team["levels"]["cooperative"]["entries"] == 2
    assert mixed["levels"]["cooperative"]["entries"] == 2
    assert mixed["levels"]["random"]["entries"] == 2
    for summary in (team, mixed):
        assert sum(summary["reasons"].values()) == 2
        for row in summary["levels"].values():
            lo, hi = row["win_ci95"]
            assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
            cpu = row["cpu_ms"]
            assert 0 <= cpu["p50"] <= cpu["p95"] <= cpu["max"] and cpu["decisions"] > 0
    assert body["comparisons"][0]["a_level"] == "cooperative"


def test_tournament_log_and_resume(tmp_path):
    """--log writes one line per match, lineups interleaved by match index; --resume reads
    them back (a line edited in the file shows in the summary: nothing was played again)
    and plays only the matches missing; two teams get paired counts."""
    log = tmp_path / "matches.jsonl"
    args = ["--game", "dead-apocalypse", "--seats", "1", "--levels", "cooperative"]
    args += ["--levels", "random", "--seed", "smoke", "--quiet", "--log", str(log)]
    first = _run("tournament.py", *args, "--matches", "2")
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["lineup"], r["match"]) for r in rows] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    paired = first["comparisons"][0]["paired"]
    won = [first["lineups"][k]["won"] for k in (0, 1)]
    assert paired["a_only"] == sum(a and not b for a, b in zip(*won, strict=True))
    assert 0.0 <= paired["mcnemar_p"] <= 1.0
    rows[0]["winners"] = [] if rows[0]["winners"] else [0]  # a forged first match
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    again = _run("tournament.py", *args, "--matches", "3", "--resume")
    assert again["lineups"][0]["won"][0] is not won[0][0]
    assert again["lineups"][0]["won"][1:2] == won[0][1:2]
    assert len(log.read_text().splitlines()) == 6


def test_tournament_refuses_bad_arguments():
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "tournament.py"),
            "--game",
            "dead-apocalypse",
            "--levels",
            "no_such_level",
        ],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "unknown bot level" in proc.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_peer_load_generator_report_line_longer_than_a_pipe_arrives_whole():
    """``benchmarks/peer/bgio/report.js`` exits only once its line is written out: a 64-seat
    window's latencies are longer than the 64 KiB a pipe holds, and ``process.exit()`` right
    after the write cut them at char 65,536 (run.py's JSONDecodeError)."""
    script = (
        "const { printAndExit } = require(process.argv[1]);"
        "printAndExit({ latencies_ms: Array.from({ length: 200000 }, (_, i) => i * 1.25) });"
    )
    proc = subprocess.run(
        ["node", "-e", script, str(ROOT / "benchmarks" / "peer" / "bgio" / "report.js")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout) > 1_000_000
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from peer.run import read_report
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    body = read_report(proc.stdout, "report.js")
    assert len(body["latencies_ms"]) == 200_000
    with pytest.raises(RuntimeError, match="65536 chars"):
        read_report(proc.stdout[:65536], "cut")


def test_peer_run_starts_a_boardgame_io_server_again_when_it_exited(tmp_path, monkeypatch):
    """A bgio server that died mid-run (FlatFile at 64 seats once did) is started again
    for the next window, in a fresh folder, and counted; a live one is kept."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from peer import run
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))

    class Proc:
        def __init__(self, code):
            self.returncode = code

        def poll(self):
            return self.returncode

    started = []
    monkeypatch.setattr(
        run,
        "start_bgio",
        lambda storage, folder: started.append((storage, folder)) or (Proc(None), 2),
    )
    live, dead = Proc(None), Proc(1)
    bgio = {"bgio-memory": (live, 1), "bgio-flatfile": (dead, 1)}
    procs, restarts = [], {}
    assert run.running_bgio(bgio, "bgio-memory", tmp_path, procs, restarts) == (live, 1)
    fresh = run.running_bgio(bgio, "bgio-flatfile", tmp_path, procs, restarts)
    assert fresh[1] == 2 and fresh[0] is not dead and bgio["bgio-flatfile"] == fresh
    assert started == [("flatfile", tmp_path / "bgio-flatfile-restart-1")]
    assert restarts == {"bgio-flatfile": 1} and procs == [fresh[0]]


def test_peer_run_passes_more_gunicorn_arguments_before_the_app(monkeypatch):
    """``--arena-gunicorn-arg`` (an A/B of a worker class) reaches gunicorn's command line
    after the shipped configuration, so it overrides it, and before the app."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from peer import run
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    commands = []
    monkeypatch.setattr(run.subprocess, "Popen", lambda cmd, **kw: commands.append(cmd))
    monkeypatch.setattr(run.bench_http, "wait_healthy", lambda port, procs: None)
    run.start_arena("redis://127.0.0.1:1/0", ["-k", "gevent"])
    command = commands[0]
    assert command.index("-c") < command.index("-k") < command.index("api.app:create_app()")
    assert command[command.index("-k") + 1] == "gevent"


def test_peer_run_reports_the_stack_floor_from_the_ceiling_system(monkeypatch, capsys):
    """With the ``ceiling`` system, each round's bare request CPU is divided by each
    boardgame.io storage's CPU per move of the same round and seat count, and the worst
    in-memory one is reported as the stack's floor (not a target)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from peer import run
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))

    class Proc:
        pid = 1

        def poll(self):
            return None

    monkeypatch.setattr(run, "start_redis", lambda folder: (Proc(), "redis://x/0"))
    monkeypatch.setattr(run, "start_ceiling", lambda url: (Proc(), 2))
    monkeypatch.setattr(run, "start_bgio", lambda storage, folder: (Proc(), 3))
    monkeypatch.setattr(run, "stop_all", lambda procs: None)
    cpu = iter([9.0, 9.0, 0.4, 0.5, 0.6, 0.5])  # discarded windows first, then two rounds

    def figures(*args):
        return {
            "server_cpu_ms_per_move": next(cpu),
            "p50_ms": 1.0,
            "p99_ms": 1.0,
            "moves_per_s": 1.0,
        }

    monkeypatch.setattr(run, "measure_ceiling", lambda ctx, seats, args: figures())
    monkeypatch.setattr(run, "measure_bgio", lambda proc, port, seats, args: figures())
    monkeypatch.setattr(run, "BGIO", ROOT / "benchmarks" / "peer" / "bgio")
    monkeypatch.setattr(run.Path, "is_dir", lambda self: True)
    out = run.main(
        ["--systems", "bgio-memory,ceiling", "--rounds", "2", "--seats", "16"]
        + ["--memory-matches", "0", "--seconds", "1"]
    )
    # round 0: bgio-memory 0.4, ceiling 0.5; round 1 (order reversed): ceiling 0.6, bgio 0.5
    assert out["ratios"]["ceiling_request_cpu/bgio-memory_move/16"] == {
        "min": 1.2,
        "median": 1.225,
        "max": 1.25,
    }
    assert out["targets"]["stack_floor_ceiling_request_vs_memory_move"] == 1.25
